// @ts-check
// What a game's view is: the one interface through which the table page, the replay
// viewer and the lobby draw a game. Each game is one module exporting a class that
// extends GameView (cyclo.js, mindcycling.js, mindtwist.js, pistard.js), listed in views.js; a
// new game's table is one more such module. A view draws and offers moves; it knows
// nothing of sockets, seats or tokens: the page hands it the snapshot (docs/protocol.md)
// and the table summary, and sends the moves it returns.
//
//   new View(host, {onSquare, onHover})  draw into `host`; call onSquare(square) when a
//                                        lit square is clicked, onHover(square|null)
//   colours                              seat -> colour, or null (the team colours)
//   words                                the page's words: {seats, result, over, you, join}
//                                        (both also static, for the lobby)
//   setTable(table)                      the table summary, with its object options in
//                                        full (`course_data`): what the board needs
//   movesPlayed(snap)  phase(snap)       moves so far; "over" once the game is over
//   roundOf(snap, index)  logHead(round) how the log groups moves, and each group's title
//   status(snap)                         "setup", "round 3", "finished"...
//   actor(snap)                          the piece to move, or null
//   note(snap)                           a remark on the turn ("placing riders"), or null
//   waiting(snap)                        what the table waits for when no seat acts, or null
//   seatScore(snap, seat)                a seat's standing in the seats panel
//   hints(move, snap)                    squares to mark after `move`, `snap` the position
//                                        after it (by default its `last_squares`)
//   render(snap, {targets, hints, mine}) draw the position; `targets` are lit squares
//   focus(snap, squares)                 keep the action in view (a board that scrolls)
//   refocus()                            forget the last focus: the next focus scrolls
//                                        (the window was resized, a replay was left)
//   targets(snap, myTurn)                Map square -> {text?, describe, kind?}
//   clickSquare(snap, square)            the move a click on a lit square sends, or null
//   controls(box, snap, ctx)             the player's controls; ctx: {seat, myTurn,
//                                        pending, send(text), table, rerender(),
//                                        hint(describe, squares)}
//   result(box, snap, {table})           the result panel
//   legend(box)                          the board's legend
//
// The page and the lobby also ask a game's view class (static members):
//   subtitle(table)                      the table's options in words (a list)
//   outcome(result)                      a finished table's {winner} and/or {text}
//   seatName(letter)                     a seat's name in the create form
//   describeCourse(course)               a course's one-line summary (games with courses;
//                                        optional)
//   coursePreview(course)                an element drawing the course small, under the
//                                        course select (optional)
//   soloFixed                            options the solo game fixes, hidden in its form
//                                        (optional)
//   soloOptions                          the options the solo game sets where the server
//                                        gives none (`solo_options` null; optional)
//   optionShown(name, choices)           whether the form shows option `name` given the
//                                        other fields' values (a hidden one is not sent;
//                                        optional: every option is shown)
//   courseFits(course, options)          whether the course select offers `course` with
//                                        the form's options (optional)
//   optionKinds                          {option: "flag" | "text"}: the field of an option
//                                        whose default is null (the game decides); one not
//                                        named stays out of the form (optional)

import { clear, el } from "./ui.js";

/** A view's defaults: a game with `moves_played`, `phase` and `round` in its snapshot
 * and points in its result. A view overrides what its game does differently. */
export class GameView {
  /** seat -> colour, or null: the team colours. */
  static colours = null;
  static words = { seats: "Players", result: "Result", over: "The game is over.", you: "you play", join: "Play as" };
  /** The game as GET /api/games describes it (its options, `choice_facts`...), once the
   * page has read it: see `know`. */
  static game = null;

  /** Take the game's entry of GET /api/games (views.js `knowGames`): what the static
   * methods read of a choice before any table has it (`choice_facts`). */
  static know(game) {
    this.game = game;
  }

  /** A seat's name in the create form. */
  static seatName(letter) {
    return `Player ${letter}`;
  }

  /** The table's options in words (the header, the lobby's table list): each option
   * that is not the seat count, `length 20 · bonus colour`. */
  static subtitle(table) {
    const bits = [];
    for (const [k, v] of Object.entries(table.options || {})) {
      if (k !== "players" && (typeof v !== "object" || Array.isArray(v))) bits.push(`${k} ${Array.isArray(v) ? v.join(",") : v}`);
    }
    return bits;
  }

  /**
   * A finished table's outcome: `{winner}` (a seat) and/or `{text}`.
   * @returns {{winner?: string | null, text?: string}}
   */
  static outcome(result) {
    return { winner: typeof result === "string" ? result : result && result.winner };
  }

  constructor(host, { onSquare = null, onHover = null } = {}) {
    this.host = host;
    this.onSquare = onSquare;
    this.onHover = onHover;
    // The class's own (a subclass's static members), read once here.
    const View = /** @type {typeof GameView} */ (this.constructor);
    this.colours = View.colours;
    this.words = View.words;
  }

  setTable(_table) {}

  movesPlayed(snap) {
    return snap.moves_played;
  }

  phase(snap) {
    return snap.is_over ? "over" : snap.phase;
  }

  roundOf(snap, _index) {
    return snap ? snap.round : 0;
  }

  logHead(round) {
    return `Round ${round}`;
  }

  status(snap) {
    if (this.phase(snap) === "over") return "finished";
    return snap.round ? `round ${snap.round}` : "playing";
  }

  actor(_snap) {
    return null;
  }

  note(_snap) {
    return null;
  }

  waiting(snap) {
    return snap.is_chance ? "Rolling the dice…" : null;
  }

  seatScore(snap, seat) {
    const points = (snap.result && snap.result.points) || snap.points || {};
    return `${points[seat] || 0} pts`;
  }

  /** The squares to mark after `move`: the snapshot after it says where the move put a
   * rider (`last_squares`), so no view reads move notation.
   * @param {string | null} move
   * @param {import("./types").Snapshot | null} [snap]
   * @returns {string[]} */
  hints(move, snap) {
    return move && snap && snap.last_squares ? [...snap.last_squares] : [];
  }

  render(_snap, _options) {}

  focus(_snap, _squares) {}

  refocus() {}

  targets(_snap, _myTurn) {
    return new Map();
  }

  clickSquare(snap, square) {
    const target = this.targets(snap, true).get(square);
    return target && target.text ? target.text : null;
  }

  /**
   * Without controls of its own, a view offers each legal move as a button.
   * @param {HTMLElement} box
   * @param {import("./types").Snapshot} snap
   * @param {import("./types").Controls} ctx
   */
  controls(box, snap, { myTurn, pending, send }) {
    clear(box);
    const legal = (snap.legal || []).map((m) => (typeof m === "string" ? m : m.text)).filter(Boolean);
    if (!myTurn || !legal.length) return;
    box.append(el("div", { class: "move-buttons" }, legal.map((text) => el("button", {
      type: "button", class: "btn move-btn", disabled: pending, dataset: { testid: "move-button", move: text },
      onclick: () => send(text),
    }, text))));
  }

  /** @param {{table?: import("./types").TableSummary}} [_options] */
  result(box, _snap, _options) {
    clear(box);
  }

  legend(box) {
    clear(box);
  }
}
