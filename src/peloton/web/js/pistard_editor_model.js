// @ts-check
// The Pistard layout builder's draft and what an edit does to it (PI-1.1): a draft is
// the keys of a layout file, {name, length, rows}, one string of colour letters per
// row (lanes a-d: y yellow, g green, b blue, r red). Every edit returns a new draft
// (the old one is never changed), so the page can compare what it drew with what it
// must draw. The live check against the server is here too: the layout builder sends
// its game with each draft, which the shared course editor's check does not.

import { api } from "./api.js";

export const LANES = "abcd";
export const LETTERS = "ygbr";
export const COLOUR_OF = { y: "yellow", g: "green", b: "blue", r: "red" };
/** The lengths the track may have (games/pistard/track.py MIN_LENGTH, MAX_LENGTH);
 * the builder draws 1 to MAX_LENGTH rows and the check names a length out of range. */
export const MIN_LENGTH = 20;
export const MAX_LENGTH = 120;

/** The design rules of the default layout, as the server's advice names them
 * (games/pistard/layout_design.py DESIGN_RULES): [key, title]. */
export const DESIGN_RULES = [
  ["row-colours", "every row holds the four colours"],
  ["block-colours", "each lane shows the four colours in every block of 8 rows"],
  ["no-triples", "no lane repeats a colour three rows running"],
  ["doubles", "each lane has 3 or 4 places where a colour comes twice running"],
];

/** The colour name of a square of a draft's row (`unknown` for a letter that is not
 * a colour, or a lane the row does not reach: drawn grey, named by the check). */
export function colourAt(row, lane) {
  return COLOUR_OF[(row || "")[lane]] || "unknown";
}

/** A draft's rows as the table draws them: colour names, four a row. */
export function trackOf(draft) {
  return {
    name: draft.name,
    length: draft.rows.length,
    rows: draft.rows.map((row) => [0, 1, 2, 3].map((lane) => colourAt(row, lane))),
  };
}

/** `{row, lane}` of a square name such as `c12`, else null. */
export function parseSquare(square) {
  const m = /^([a-d])([1-9][0-9]*)$/.exec(square || "");
  return m ? { lane: LANES.indexOf(m[1]), row: Number(m[2]) } : null;
}

/** The draft with one row replaced. */
function withRow(draft, row, text) {
  const rows = draft.rows.slice();
  rows[row - 1] = text;
  return { ...draft, rows };
}

/** The draft with square (`row`, `lane`) painted `letter`; the same draft when it
 * already has that colour. */
export function paint(draft, row, lane, letter) {
  const old = draft.rows[row - 1] || "";
  if (old[lane] === letter) return draft;
  const padded = old.padEnd(4, "?");
  return withRow(draft, row, padded.slice(0, lane) + letter + padded.slice(lane + 1));
}

/** The draft with a row's letters in another order (`random` in [0, 1), as
 * Math.random): a row of four colours stays one; another order whenever there is one. */
export function shuffleRow(draft, row, random = Math.random) {
  const letters = [...(draft.rows[row - 1] || "")];
  if (new Set(letters).size < 2) return draft;
  const before = letters.join("");
  let next = before;
  while (next === before) {
    for (let i = letters.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [letters[i], letters[j]] = [letters[j], letters[i]];
    }
    next = letters.join("");
  }
  return withRow(draft, row, next);
}

/** The draft with a row made a copy of the row before it (row 1: of the last row,
 * which comes before it round the loop). */
export function copyRowBefore(draft, row) {
  const before = row === 1 ? draft.rows.length : row - 1;
  return withRow(draft, row, draft.rows[before - 1]);
}

/** The draft over `length` rows: cut, or continued with its own rows from row 1 on
 * (as a bundled layout is resized for the `length` option). */
export function resize(draft, length) {
  const n = Math.max(1, Math.min(MAX_LENGTH, Math.floor(length)));
  const rows = Array.from({ length: n }, (_, i) => draft.rows[i % draft.rows.length] || "ygbr");
  return { ...draft, length: n, rows };
}

/** Whether two drafts are the same layout (key by key). */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A draft read back from storage, or null when it is not one this page can draw. */
export function drawable(value) {
  const ok = value && typeof value.name === "string" && Number.isInteger(value.length) && Array.isArray(value.rows)
    && value.rows.length >= 1 && value.rows.length <= MAX_LENGTH && value.rows.every((r) => typeof r === "string" && r.length <= 16);
  return ok ? { name: value.name, length: value.length, rows: value.rows.slice() } : null;
}

const RETRY = 2000; // ms before a check that could not be made is tried again

/** The live check: the draft is sent to POST /api/editor/check a moment after the last
 * change, one request at a time; each answer is kept with the draft it is about. */
export class LayoutCheck {
  /**
   * @param {() => object} current  the draft shown now
   * @param {() => void} onAnswer  called when an answer (or a failure) comes
   * @param {number} delay  ms after the last change before the draft is sent
   */
  constructor(current, onAnswer, delay = 250) {
    this.current = current;
    this.onAnswer = onAnswer;
    this.delay = delay;
    this.last = null; // the answer, with `checked`: the draft it is about
    this.failed = null;
    this.busy = false;
    this.timer = null;
  }

  /** The draft changed: check it once the changes stop. */
  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), this.delay);
  }

  /** The last answer, when it is about the draft shown now. */
  answer() {
    return this.last && same(this.last.checked, this.current()) ? this.last : null;
  }

  /** "checking", "failed", "valid" or "invalid". */
  status() {
    const answer = this.answer();
    if (!answer) return this.failed && !this.busy ? "failed" : "checking";
    return answer.ok ? "valid" : "invalid";
  }

  /** The answer for the draft shown now, asked at once if need be. */
  async now() {
    clearTimeout(this.timer);
    while (!this.answer()) {
      if (!this.busy) await this.run();
      else await new Promise((resolve) => setTimeout(resolve, 50));
      if (this.failed && !this.answer()) return null;
    }
    return this.answer();
  }

  async run() {
    if (this.busy) return; // the answer in flight sends the next check
    const checked = this.current();
    this.busy = true;
    try {
      this.last = { ...(await api("POST", "/api/editor/check", { game: "pistard", course: checked })), checked };
      this.failed = null;
    } catch (e) {
      this.failed = e.message;
      if (e.status === 429 || e.status === 0) this.timer = setTimeout(() => this.run(), RETRY);
    } finally {
      this.busy = false;
    }
    if (!same(checked, this.current()) && !this.failed) {
      this.schedule();
      return;
    }
    this.onAnswer();
  }
}
