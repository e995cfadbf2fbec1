// @ts-check
// Small DOM and SVG helpers, and the panels shared by the table page, the replay viewer
// and the lobby.

// Team colours: the Okabe–Ito colour-blind-safe palette, darkened where a colour had
// too little contrast with the road, so that all seven stay apart for the common
// colour vision deficiencies, also faded (moved riders), and stand out from the road
// (tests/web/test_palette.py measures both). The board also writes the team letter on
// every rider: colour is never the only sign of a team.
export const TEAM_COLOURS = {
  A: "#D55E00", // vermillion
  B: "#004F9E", // blue
  C: "#008060", // bluish green
  D: "#C05A9E", // reddish purple
  E: "#7A4A00", // orange, darkened to a brown
  F: "#1C87CC", // sky blue, darkened
  G: "#222222", // black
};

// A game may colour its seats its own way (Mind Twist: red and blue); the table page
// sets the map of the game it shows.
let colourOverride = {};

export function setTeamColours(map) {
  colourOverride = map || {};
}

export function teamColour(team) {
  return colourOverride[team] || TEAM_COLOURS[team] || "#64748b";
}

export const NS = "http://www.w3.org/2000/svg";

/** `svg("circle", {r: 4}, parent)`: an SVG element with its attributes (null ones
 * skipped), appended to `parent` when one is given. */
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  if (parent) parent.append(node);
  return node;
}

/** `el("div", {class: "x", dataset: {testid: "y"}}, child, "text", ...)` */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    }
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A small trophy cup drawn in SVG (emoji fonts are not always installed). */
export function trophyIcon() {
  const span = document.createElement("span");
  span.className = "cup";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML =
    '<svg viewBox="0 0 24 24" width="18" height="18"><path d="M7 3h10v3h3v2a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 15v3h3v3H8v-3h3v-3a5 5 0 0 1-2.7-3H8a4 4 0 0 1-4-4V6h3V3zm-1 5v0a2 2 0 0 0 1 1.7V8H6zm11 0v1.7A2 2 0 0 0 18 8h-1z" fill="#f59e0b" stroke="#92400e" stroke-width="1"/></svg>';
  return span;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function teamChip(team, label, colour = null) {
  return el(
    "span",
    { class: "team-chip", style: { "--team": colour || teamColour(team) } },
    el("span", { class: "swatch" }),
    label ?? team,
  );
}

/** A seat's display name: the player's name, the bot's name, or "free". */
export function seatLabel(seat) {
  if (!seat) return "";
  if (seat.away) return `${seat.name || "player"} · played by a bot (${seat.standin})`;
  if (seat.kind === "human") return seat.name || (seat.taken ? "player" : "free seat");
  return `${seat.kind} bot`;
}

export function seatOf(table, team) {
  return ((table && table.seats) || []).find((s) => s.seat === team);
}

/** The hint line under a player's controls: what the control under the pointer (or
 * the keyboard's focus) does, in words, and the squares it marks on the board. A hint
 * is only true while the control that gave it is there, and a control removed or
 * replaced never says it is left (no mouseleave, no blur): so the page `reset`s the
 * line each time it draws its controls again, whichever control spoke (issue 32: a
 * ride's words stayed through the wheel choice after it, and a step's relay through
 * the rest of the tutorial). */
export class HintLine {
  constructor(node) {
    this.node = node;
    this.squares = [];
  }

  /** A control says what it does (`text`, "" when the pointer leaves it). */
  say(text, squares = []) {
    this.node.textContent = text || "";
    this.squares = text && squares ? [...squares] : [];
  }

  /** The controls are drawn anew: what the old ones said goes with them. */
  reset() {
    this.say("");
  }
}

/** Error banner: shown in the page (never an alert), until dismissed or replaced. */
export function showError(box, message) {
  clear(box);
  if (!message) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.append(
    el("span", { class: "msg", dataset: { testid: "error-message" } }, message),
    el("button", { class: "link", type: "button", "aria-label": "dismiss", onclick: () => showError(box, null) }, "×"),
  );
}

/**
 * The move log grouped by round: `entries` are `{move, round, by}` in play order;
 * `current` (optional) is the index of the move to mark; `onPick(i)` makes moves clickable.
 */
export function renderLog(box, entries, { current = null, onPick = null, head = null } = {}) {
  clear(box);
  if (!entries.length) {
    box.append(el("p", { class: "muted" }, "No moves yet."));
    return;
  }
  let list = null;
  let round = null;
  entries.forEach((entry, i) => {
    if (entry.round !== round) {
      round = entry.round;
      const block = el("div", { class: "log-round", dataset: { round: String(round) } });
      block.append(el("div", { class: "log-head" }, head ? head(round) : `Round ${round}`));
      list = el("ol", { class: "log-moves" });
      block.append(list);
      box.append(block);
    }
    // The move in words where the server said it (GET .../replay `sentences`, an
    // update's `sentence`), its notation on hover and in data-move.
    const attrs = {
      class: `log-move${entry.sentence ? " said" : ""}${i === current ? " current" : ""}`,
      style: { "--team": teamColour(entry.team || entry.move[0]) },
      dataset: { index: String(i), testid: "log-move", move: entry.move },
      title: entry.sentence ? `${entry.move} (move ${i + 1})` : `move ${i + 1}`,
    };
    if (onPick) {
      attrs.onclick = () => onPick(i);
      attrs.role = "button";
    }
    list.append(el("li", attrs, entry.sentence || entry.move));
  });
  const mark = box.querySelector(".log-move.current") || box.lastElementChild;
  if (mark && box.scrollHeight > box.clientHeight) {
    box.scrollTop = mark.offsetTop - box.clientHeight / 2;
  }
}

/** The log of a replay answer: each move with its group, `roundOf(snapshot before it,
 * index)` (a game view's). */
export function logFromReplay(replay, roundOf) {
  const moves = replay.moves || [];
  const snaps = replay.snapshots || [];
  const said = replay.sentences || [];
  return moves.map((move, i) => ({ move, round: roundOf(snaps[i], i), sentence: said[i] || null }));
}
