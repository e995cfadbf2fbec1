// @ts-check
// The course editor's model: a draft course (the keys of a course file: name, lanes,
// finish, sections, feed, rocks; valid or not yet) changed by pure functions, and
// the history of drafts that undo and redo walk. No DOM here.

export const LANE_LETTERS = "abcdefghijklmnopqrstuvwxyz";
export const SECTION_TYPES = ["plain", "sprint", "mountain"];
/** The sizes the editor offers (the course loader's caps: 9 lanes, finish row 200). */
export const MAX_LANES = 9;
export const MAX_FINISH = 200;
const KEYS = ["name", "lanes", "finish", "sections", "feed", "rocks"];

export const squareName = (row, lane) => `${LANE_LETTERS[lane]}${row}`;

/** `{row, lane}` of a square name such as `c12`, or null. */
export function parseSquare(name) {
  const m = /^([a-z])([1-9][0-9]*)$/.exec(name || "");
  return m ? { lane: LANE_LETTERS.indexOf(m[1]), row: Number(m[2]) } : null;
}

const clamp = (n, low, high) => Math.min(high, Math.max(low, Math.round(Number(n) || low)));

/** A draft with exactly the keys of a course file, copied (drafts are never shared). */
export function normal(draft) {
  const out = {};
  for (const key of KEYS) if (draft[key] !== undefined) out[key] = structuredClone(draft[key]);
  out.sections = out.sections || [];
  out.feed = out.feed || [];
  out.rocks = out.rocks || [];
  return out;
}

/** A blank road of `rows` rows and `lanes` lanes: no section tab yet. */
export function blankRoad(rows, lanes, name = "my course") {
  return { name, lanes: clamp(lanes, 1, MAX_LANES), finish: clamp(rows, 1, MAX_FINISH - 1) + 1, sections: [], feed: [], rocks: [] };
}

/** The tab at `row`, or undefined. */
export const tabAt = (draft, row) => draft.sections.find((t) => t[0] === row);

/** A `type` tab at `row`: set (in row order), or taken away when that tab is there. */
export function toggleTab(draft, row, type) {
  const out = normal(draft);
  const there = tabAt(out, row);
  if (there && there[1] === type) {
    out.sections = out.sections.filter((t) => t !== there);
  } else if (there) {
    there[1] = type;
  } else {
    const at = out.sections.findIndex((t) => t[0] > row);
    out.sections.splice(at < 0 ? out.sections.length : at, 0, [row, type]);
  }
  return out;
}

export function removeTab(draft, index) {
  const out = normal(draft);
  out.sections.splice(index, 1);
  return out;
}

/** A feed zone (`key` "feed") or a rock ("rocks") on `square`, or off it when it is
 * there; a square holds one of them at most, so the other goes. */
export function toggleSquare(draft, key, square) {
  const out = normal(draft);
  const other = key === "feed" ? "rocks" : "feed";
  if (out[key].includes(square)) {
    out[key] = out[key].filter((s) => s !== square);
  } else {
    out[key] = [...out[key], square];
    out[other] = out[other].filter((s) => s !== square);
  }
  return out;
}

export function removeSquare(draft, key, square) {
  const out = normal(draft);
  out[key] = out[key].filter((s) => s !== square);
  return out;
}

/** What the eraser takes from a square: its feed zone or rock, else its row's tab. */
export function erase(draft, square) {
  for (const key of ["feed", "rocks"]) if (draft[key].includes(square)) return removeSquare(draft, key, square);
  const p = parseSquare(square);
  const index = draft.sections.findIndex((t) => t[0] === p.row);
  return index >= 0 ? removeTab(draft, index) : draft;
}

export function withValue(draft, key, value) {
  const out = normal(draft);
  if (key === "lanes") out.lanes = clamp(value, 1, MAX_LANES);
  else if (key === "finish") out.finish = clamp(value, 2, MAX_FINISH);
  else out[key] = value;
  return out;
}

/** The draft as the board may draw it: only the squares on its road. */
export function drawable(draft) {
  const on = (s) => {
    const p = parseSquare(s);
    return p && p.lane >= 0 && p.lane < draft.lanes && p.row >= 1 && p.row < draft.finish;
  };
  return { ...normal(draft), feed: draft.feed.filter(on), rocks: draft.rocks.filter(on) };
}

/** Rows in the start zone (before the first tab) and the riders it holds. */
export function startZone(draft) {
  const rows = draft.sections.length ? Math.max(0, Math.min(...draft.sections.map((t) => t[0])) - 1) : 0;
  return { rows, capacity: rows * draft.lanes };
}

/** Which section a road row is in: "start" before the first tab. */
export function sectionOf(draft, row) {
  let kind = "start";
  for (const [r, type] of [...draft.sections].sort((a, b) => a[0] - b[0])) if (row >= r) kind = type;
  return kind;
}

export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The drafts so far: `now` is shown; undo and redo step along. */
export class History {
  constructor(first, limit = 200) {
    this.past = [];
    this.future = [];
    this.now = normal(first);
    this.limit = limit;
    this.merge = null;
  }

  /** Make `draft` the one shown (nothing happens when it changes nothing). A change
   * of the same `merge` kind as the one before replaces it: one step to undo. */
  push(draft, merge = null) {
    if (same(draft, this.now)) return false;
    if (!(merge && merge === this.merge && this.past.length)) {
      this.past.push(this.now);
      if (this.past.length > this.limit) this.past.shift();
    }
    this.merge = merge;
    this.now = normal(draft);
    this.future = [];
    return true;
  }

  undo() {
    this.merge = null;
    if (!this.past.length) return false;
    this.future.push(this.now);
    this.now = this.past.pop();
    return true;
  }

  redo() {
    this.merge = null;
    if (!this.future.length) return false;
    this.past.push(this.now);
    this.now = this.future.pop();
    return true;
  }
}
