// @ts-check
// Mind Twist at the table: the two paths 0..length with their milestones and both
// tokens (SVG), the dial (1/2/3) for the active player, guess 1/2/3 or pass for the
// other, what the last turn revealed, and the winner. The snapshot is the viewer's
// own (docs/protocol.md): a dial it may not see is never in it, only `dial:?`.

import { GameView } from "./gameview.js";
import { el, clear, svg, teamChip, seatLabel, seatOf } from "./ui.js";

export const PLAYER_NAMES = { R: "Red", B: "Blue" };
export const COLOURS = { R: "#dc2626", B: "#2563eb" };

function who(table, p) {
  const s = seatOf(table, p);
  return teamChip(p, s ? `${PLAYER_NAMES[p] || p} · ${seatLabel(s)}` : PLAYER_NAMES[p] || p, COLOURS[p]);
}

/** What the last answered turn did, in words (MT-2.2). */
export function describeTurn(turn, snap) {
  if (!turn) return "";
  const dialer = PLAYER_NAMES[turn.dialer] || turn.dialer;
  const other = PLAYER_NAMES[turn.dialer === "R" ? "B" : "R"];
  const guess = turn.response.startsWith("guess:") ? turn.response.slice(6) : null;
  if (turn.outcome === "correct") {
    return `${other} guessed ${guess}: right! ${dialer} does not move, the dial stays secret, and ${other} dials next.`;
  }
  if (turn.outcome === "pass") {
    return `${other} did not challenge: ${dialer} had dialled ${turn.dial} and rides ${turn.dial}; ${other} dials next.`;
  }
  const end = snap && snap.is_over ? "" : ` and dials again`;
  return `${other} guessed ${guess}, wrong: ${dialer} had dialled ${turn.dial}, rides ${turn.dial}${end}.`;
}

export class MindTwistView extends GameView {
  static colours = COLOURS;

  static seatName(letter) {
    return `${PLAYER_NAMES[letter] || letter} (${letter})`;
  }

  constructor(host, handlers = {}) {
    super(host, handlers);
    this.root = svg("svg", { class: "board mt-board", role: "img", "data-testid": "board" });
    host.append(this.root);
  }

  /** Log grouping: a turn is a dial and its answer. */
  roundOf(_snap, index) {
    return Math.floor(index / 2) + 1;
  }

  logHead(round) {
    return `Turn ${round}`;
  }

  movesPlayed(snap) {
    return (snap.moves || []).length;
  }

  seatScore(snap, seat) {
    return `space ${snap.spaces[seat]}`;
  }

  render(snap) {
    const root = this.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    const length = snap.length;
    const milestones = new Set(snap.milestones || []);
    const narrow = window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
    const c = narrow ? 34 : 36;
    const left = 34;
    const width = Math.max(280, this.host.clientWidth || 900);
    const perLine = Math.max(6, Math.min(length + 1, Math.floor((width - left - 12) / c)));
    const lines = Math.ceil((length + 1) / perLine);
    const labelH = 16;
    const lineH = labelH + 2 * c + 14;
    const w = left + perLine * c + 10;
    const h = lines * lineH + 6;
    root.setAttribute("viewBox", `0 0 ${w} ${h}`);
    root.setAttribute("width", w);
    root.setAttribute("height", h);
    root.setAttribute("aria-label", `Mind Twist paths 0 to ${length}; red on ${snap.spaces.R}, blue on ${snap.spaces.B}`);
    const place = (k, row) => {
      const line = Math.floor(k / perLine);
      const col = k % perLine;
      return [left + col * c, line * lineH + labelH + row * c];
    };
    for (let line = 0; line < lines; line++) {
      for (const [row, p] of /** @type {[number, string][]} */ ([[0, "R"], [1, "B"]])) {
        const t = svg("text", { x: 12, y: line * lineH + labelH + row * c + c / 2 + 5, class: `mt-path-label mt-${p}` }, root);
        t.textContent = p;
      }
    }
    for (let k = 0; k <= length; k++) {
      const [x, y0] = place(k, 0);
      const cls = ["mt-space"];
      if (milestones.has(k)) cls.push("milestone");
      if (k === 0) cls.push("start");
      if (k === length) cls.push("finish");
      for (const [row, p] of /** @type {[number, string][]} */ ([[0, "R"], [1, "B"]])) {
        svg("rect", {
          x: x + 1, y: y0 + row * c + 1, width: c - 2, height: c - 2, rx: 5,
          class: `${cls.join(" ")} mt-path-${p}`, "data-space": k, "data-path": p,
        }, root);
      }
      const label = svg("text", { x: x + c / 2, y: y0 - 4, class: `mt-num${milestones.has(k) ? " milestone" : ""}` }, root);
      label.textContent = k === 0 ? "start" : k === length ? "finish" : String(k);
      if (milestones.has(k)) {
        const flag = svg("path", { d: `M${x + 5} ${y0 + 2 * c - 4} v-${2 * c - 8}`, class: "mt-flagpole" }, root);
        flag.setAttribute("aria-hidden", "true");
        svg("path", { d: `M${x + 5} ${y0 + 4} l9 4 l-9 4 z`, class: "mt-flag" }, root);
      }
    }
    for (const [row, p] of /** @type {[number, string][]} */ ([[0, "R"], [1, "B"]])) {
      const space = snap.spaces[p];
      const [x, y] = place(Math.min(space, length), row);
      const g = svg("g", {
        class: `mt-token mt-${p}${snap.current_player === p ? " to-act" : ""}${snap.active === p ? " active" : ""}`,
        "data-token": p, "data-space": space, transform: `translate(${x + c / 2} ${y + c / 2})`,
      }, root);
      const title = svg("title", {}, g);
      title.textContent = `${PLAYER_NAMES[p]} on space ${space}`;
      if (snap.active === p && !snap.is_over) svg("circle", { r: c * 0.46, class: "halo" }, g);
      svg("circle", { r: c * 0.36, class: "mt-disc" }, g);
      const t = svg("text", { y: 4.5, class: "mt-token-label" }, g);
      t.textContent = p;
    }
  }

  /** The player's controls: the dial, or guess/pass; what the last turn revealed. */
  /**
   * @param {HTMLElement} box
   * @param {any} snap
   * @param {import("./types").Controls} ctx
   */
  controls(box, snap, { seat, myTurn, pending, send, table }) {
    clear(box);
    if (snap.last_turn) {
      box.append(el("p", { class: "mt-last", dataset: { testid: "last-turn", outcome: snap.last_turn.outcome } },
        el("strong", {}, "Last turn: "), describeTurn(snap.last_turn, snap)));
    }
    if (snap.is_over) return;
    const legal = new Set(snap.legal || []);
    const other = snap.active === "R" ? "B" : "R";
    if (myTurn && snap.phase === "dial") {
      box.append(el("p", {}, "Turn the ", el("span", { dataset: { term: "dial" } }, "dial"), " secretly: how far do you ride?"));
      const row = el("div", { class: "move-buttons dial-buttons" });
      for (const n of [1, 2, 3]) {
        const text = `dial:${n}`;
        row.append(el("button", {
          type: "button", class: "btn dial-btn", disabled: pending || !legal.has(text),
          dataset: { testid: "dial-button", move: text }, onclick: () => send(text),
        }, String(n)));
      }
      box.append(row);
    } else if (myTurn && snap.phase === "guess") {
      box.append(el("p", {}, who(table, snap.active), " has turned the dial. Guess it (right: ",
        `${PLAYER_NAMES[snap.active]} stays put and you dial next), or let ${PLAYER_NAMES[snap.active]} ride:`));
      const row = el("div", { class: "move-buttons guess-buttons" });
      for (const n of [1, 2, 3]) {
        const text = `guess:${n}`;
        row.append(el("button", {
          type: "button", class: "btn guess-btn", disabled: pending || !legal.has(text),
          dataset: { testid: "guess-button", move: text, term: "challenge" }, onclick: () => send(text),
        }, `Guess ${n}`));
      }
      row.append(el("button", {
        type: "button", class: "btn pass-btn", disabled: pending || !legal.has("pass"),
        dataset: { testid: "pass-button", move: "pass", term: "pass" }, onclick: () => send("pass"),
      }, "Do not challenge"));
      box.append(row);
    } else if (seat && snap.dial !== null && snap.dial !== undefined && snap.active === seat) {
      box.append(el("p", { class: "mt-my-dial", dataset: { testid: "my-dial", dial: String(snap.dial) } },
        "Your secret dial: ", el("strong", {}, String(snap.dial)), `. ${PLAYER_NAMES[other]} is guessing…`));
    } else if (snap.phase === "guess") {
      box.append(el("p", { class: "muted" }, `${PLAYER_NAMES[snap.active]} has turned the dial (hidden); ${PLAYER_NAMES[other]} is to guess or pass.`));
    } else {
      box.append(el("p", { class: "muted" }, `${PLAYER_NAMES[snap.active]} is turning the dial.`));
    }
  }

  /**
   * @param {HTMLElement} box
   * @param {any} snap
   * @param {{table?: import("./types").TableSummary}} [options]
   */
  result(box, snap, { table } = {}) {
    clear(box);
    if (snap.is_over && snap.result) {
      box.append(el("div", { class: "trophy", dataset: { testid: "winner", team: snap.result } },
        "Winner: ", who(table, snap.result)));
    }
    const tbl = el("table", { class: "points", dataset: { testid: "spaces" } },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Space"), el("th", {}, "To go"))));
    const body = el("tbody");
    for (const p of snap.players || ["R", "B"]) {
      body.append(el("tr", { dataset: { team: p } }, el("td", {}, who(table, p)),
        el("td", {}, String(snap.spaces[p])), el("td", {}, String(Math.max(0, snap.length - snap.spaces[p])))));
    }
    tbl.append(body);
    box.append(tbl, el("p", { class: "muted small" }, el("span", { dataset: { term: "milestone" } }, "Milestones"), `: ${(snap.milestones || []).join(", ") || "none"}. A token on a milestone (or the start) cannot be `, el("span", { dataset: { term: "sideswiped" } }, "sideswiped"), "."));
  }

  legend(box) {
    clear(box);
    box.append(
      el("span", {}, el("i", { class: "lg mt-lg-r" }), "red path (player 1)"),
      el("span", {}, el("i", { class: "lg mt-lg-b" }), "blue path"),
      el("span", { dataset: { term: "milestone" } }, el("i", { class: "lg mt-lg-m" }), "milestone (safe)"),
      el("span", { dataset: { term: "hidden-dial" } }, "dial:? = a dial you have not seen"),
    );
  }
}
