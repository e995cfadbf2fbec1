// The shapes of what the server sends the page (docs/protocol.md), for the JSDoc types
// that TypeScript checks (`make jscheck`). Types only: the browser never loads this file.
// A field the page does not read may be left out; `[key: string]: unknown` marks a
// shape that carries more than is written here.

/** A seat letter: "A", "B", ... */
export type Seat = string;

/** One seat of a table summary ("Table summary"). */
export interface TableSeat {
  seat: Seat;
  kind: string; // "human" or a bot's name
  name: string | null;
  taken: boolean;
  away?: "left" | "timeout" | null;
  standin?: string;
  profile: string | null;
  [key: string]: unknown;
}

/** A table summary ("Table summary"): the table detail and a `welcome` add the object
 * options in full (`course_data`, `layout_data`). */
export interface TableSummary {
  id: string;
  status: "open" | "running" | "finished" | "abandoned";
  created: string;
  game: string;
  title: string;
  options: Record<string, unknown>;
  solo?: boolean;
  round?: number;
  moves: number;
  seats: TableSeat[];
  result?: Result;
  rematch?: string;
  competition?: string;
  rated?: boolean;
  standin?: string;
  clock?: { kind: string; remaining: Record<Seat, number>; running: Seat | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** A snapshot's `result`: every game's has `over`; the rest is the game's. */
export interface Result {
  over: boolean;
  winner?: Seat | null;
  places?: Seat[];
  points?: Record<Seat, number>;
  reason?: string | null;
  [key: string]: unknown;
}

/** What every game's snapshot has ("Snapshot"); each game's adds what its board needs. */
export interface Snapshot {
  game: string;
  current_player: string; // a seat, or "chance"
  result: Result;
  /** The legal moves, only for the seat to move: notation (Mind Twist, Pistard) or
   * objects with their `text` (Mind Cycling, Cyclo). */
  legal: (string | { text: string; [key: string]: unknown })[];
  /** The squares the last move put a rider on (Mind Cycling, Pistard): what a board marks. */
  last_squares?: string[];
  [key: string]: unknown;
}

/** A legal Pistard move in parts (`legal_moves`, `peloton.games.pistard.snapshot.move_parts`). */
export interface PistardMove {
  text: string; // its notation (PI-5.2): the move to send
  kind: "assign" | "ride" | "stay";
  rider: string;
  die: number;
  path: string[]; // a ride's end square, then its bonus squares
  end: string | null; // where a ride stops
}

/** One rider of a Pistard snapshot. */
export interface PistardRider {
  id: string;
  team: Seat;
  colour: string;
  distance: number;
  lap: number;
  row: number | null;
  lane: string | null;
  square: string | null;
  eliminated: boolean;
  behind_line: boolean;
  moved: boolean;
  due: boolean;
  assigned: number | null;
}

/** Pistard's snapshot (`peloton.games.pistard.snapshot`). */
export interface PistardSnapshot extends Snapshot {
  phase: "first" | "race" | "over";
  round: number;
  players: Seat[];
  is_chance: boolean;
  roller: Seat | null;
  due: string | null;
  is_over: boolean;
  options: { length: number; bonus: string; target: number };
  track: { name: string; length: number; lanes: string[]; rows: string[][] };
  riders: PistardRider[];
  points: Record<Seat, number>;
  dice: Record<Seat, number[]>;
  rolls: Record<Seat, number[]>;
  dice_to_roll: number | null;
  laps: Record<string, number>;
  legal: string[];
  legal_moves: PistardMove[];
  last_moves: string[];
  moves_played: number;
}

/** A change of a delta ("Deltas"): set the value at the path, or remove the key. */
export type Change = [path: (string | number)[], value: unknown] | [path: (string | number)[]];

/** The messages of the table's WebSocket ("Server to client"). */
export type ServerMessage =
  | { type: "welcome"; seat: Seat | null; table: TableSummary; snapshot: Snapshot; move_lists?: string[] }
  | {
      type: "update";
      index: number;
      move: string;
      by: string;
      sentence?: string;
      changes: Change[];
      table_changes: Change[];
      legal?: Snapshot["legal"];
      /** The game's other lists of the moves at hand (the welcome's `move_lists`). */
      [moveList: string]: unknown;
    }
  | { type: "error"; code: string; message: string }
  | { type: "rematch"; id: string; url: string; by: Seat; table: TableSummary }
  | { type: "next"; competition: string; id: string | null; url: string; [key: string]: unknown }
  | { type: "chat_log"; messages: unknown[]; muted: boolean; muted_by: Seat | null; [key: string]: unknown }
  | { type: "chat"; message: unknown }
  | { type: "chat_muted"; muted: boolean; by: Seat }
  | { type: "pong" };

/** What the page hands a view's `controls(box, snap, ctx)` (gameview.js). */
export interface Controls {
  seat?: Seat | null; // the tutorial's board has no seats
  myTurn: boolean;
  pending: boolean;
  send(text: string): void;
  table: TableSummary;
  rerender(): void;
  hint(describe: string, squares: string[]): void;
}
