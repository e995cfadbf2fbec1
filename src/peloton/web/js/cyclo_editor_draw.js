// @ts-check
// The Cyclo course builder's drawings and facts, read from the bundled boards' data
// (each as a course file writes it inline: name, runs, dark, events, lines, finish):
// a board drawn small for the tray and the course list (its spaces in their track
// type's colour and width, dark squares, event marks, sprint, mountain and finish
// lines), the course laid out as the table's strip draws it (CycloBoard's course:
// spaces 1 … N, lines, run-out; CY-1.4), and the facts the builder shows (length,
// tokens CY-2.4, lines, event spaces, the modes it suits CY-1.7).

import { TRACK, DARK_FILL } from "./cyclo_board.js";
import { svg } from "./ui.js";

export const RUN_OUT = 9; // squares past the finish line (CY-1.4)
export const MAX_TOKENS = 5; // 1 per board, at most 5 a rider (CY-2.4)
const LINE_INK = { sprint: "#15803d", mountain: "#a16207", finish: "#111827" };

/** A board's spaces in order: [{k, type, width, dark, event}], k from 1. */
export function boardSpaces(board) {
  const spaces = [];
  for (const [type, count, width] of board.runs || []) {
    for (let j = 0; j < count; j++) {
      const k = spaces.length + 1;
      spaces.push({ k, type, width, dark: (board.dark || []).includes(k), event: (board.events || []).includes(k) });
    }
  }
  return spaces;
}

/** One board drawn small: a bar a space, as tall as the space is wide, its lines
 * and, on a finish board, the chequered line after its last space. */
export function drawBoard(board, { cell = 4, title = "" } = {}) {
  const spaces = boardSpaces(board);
  const w = spaces.length * cell + 6;
  const root = svg("svg", { viewBox: `0 0 ${w} 30`, class: "cb-mini", role: "img", "aria-label": title || `board ${board.name}` });
  for (const s of spaces) {
    const h = 4 + s.width * 4;
    const x = 1 + (s.k - 1) * cell;
    svg("rect", { x, y: 20 - h, width: cell - 0.4, height: h, fill: s.dark ? DARK_FILL : (TRACK[s.type] || TRACK.flat).fill, class: `cb-space t-${s.type}` }, root);
    if (s.event) svg("rect", { x, y: 22, width: cell - 0.4, height: 3, fill: "#7c3aed", class: "cb-event" }, root);
  }
  for (const [after, kind, category] of board.lines || []) {
    const x = 1 + after * cell;
    svg("line", { x1: x, y1: 0, x2: x, y2: 21, stroke: LINE_INK[kind] || "#111", "stroke-width": 1.4, class: `cb-line ${kind}` }, root);
    if (kind === "mountain") {
      const t = svg("text", { x: x + 1.5, y: 29, class: "cb-cat" }, root);
      t.textContent = category;
    }
  }
  if (board.finish) {
    const x = 1 + spaces.length * cell;
    svg("rect", { x, y: 0, width: 3, height: 21, fill: "url(#cb-chequer)", stroke: "#111", "stroke-width": 0.5, class: "cb-finish" }, root);
  }
  return root;
}

/** The chequer pattern the small finish lines use (once per page). */
export function chequerDefs() {
  const root = svg("svg", { width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" });
  const defs = svg("defs", {}, root);
  const p = svg("pattern", { id: "cb-chequer", width: 2, height: 2, patternUnits: "userSpaceOnUse" }, defs);
  svg("rect", { width: 2, height: 2, fill: "#fff" }, p);
  svg("rect", { width: 1, height: 1, fill: "#111" }, p);
  svg("rect", { x: 1, y: 1, width: 1, height: 1, fill: "#111" }, p);
  return root;
}

/** The course as the table's strip draws it (snapshot's `course`): the spaces from
 * `start` of the first board on, numbered 1 … N, the lines, the finish and the run-out.
 * `boards` are the boards' data in course order (unknown names left out). */
export function courseLayout(name, boards, start = 1) {
  const spaces = [];
  const lines = [];
  boards.forEach((board, i) => {
    const first = i === 0 ? start : 1;
    const offset = spaces.length - first + 1; // board space k is course position k + offset
    for (const s of boardSpaces(board)) {
      if (s.k < first) continue;
      spaces.push({ position: spaces.length + 1, type: s.type, width: s.width, dark: s.dark, event: s.event, board: board.name });
    }
    for (const [after, kind, category] of [...(board.lines || [])].sort((a, b) => a[0] - b[0])) {
      if (after >= first) lines.push({ after: after + offset, kind, category: category || null, scores: true, board: board.name });
    }
  });
  const n = spaces.length;
  return {
    name, length: n, run_out: RUN_OUT, boards: boards.map((b) => b.name), spaces,
    lines: [...lines, { after: n, kind: "finish", category: null, scores: true }],
  };
}

/** The modes (names) a course suits: the road modes, the time trials only when it
 * sets `start` (CY-1.7); `modes` is the game's choice facts by mode. */
export function suitedModes(modes, start = 1) {
  return Object.values(modes).filter((m) => m.road && (start === 1 || m.timed)).map((m) => m.name);
}

/** The builder's facts of a laid course: [{label, value}] (what `peloton course show
 * --game cyclo` prints, in the page's words). */
export function courseFacts(layout, modes, start = 1) {
  const b = layout.boards.length;
  const tokens = Math.min(MAX_TOKENS, b);
  const lines = layout.lines.filter((l) => l.kind !== "finish")
    .map((l) => (l.kind === "mountain" ? `mountain cat. ${l.category} after ${l.after}` : `sprint after ${l.after}`));
  const events = layout.spaces.filter((s) => s.event).length;
  const darks = layout.spaces.filter((s) => s.dark).length;
  const suited = suitedModes(modes, start).map((m) => (modes[m] && modes[m].word) || m);
  return [
    { key: "length", label: "Length", value: `${layout.length} spaces${start !== 1 ? ` from space ${start}` : ""}, then the finish line and a run-out of ${RUN_OUT} (CY-1.4)` },
    { key: "boards", label: "Boards", value: `${b}: ${layout.boards.join(" ") || "none"}` },
    { key: "tokens", label: "Tokens", value: `${tokens} own a rider, ${tokens} a team (1 per board, at most ${MAX_TOKENS}: CY-2.4)` },
    { key: "lines", label: "Lines", value: [...lines, `finish after ${layout.length}`].join(", ") },
    { key: "events", label: "Event spaces", value: `${events}; dark squares ${darks}` },
    { key: "modes", label: "Suits", value: `${suited.join(", ") || "no mode"} (CY-1.7)` },
  ];
}
