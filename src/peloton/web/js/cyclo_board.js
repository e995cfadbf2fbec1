// @ts-check
// The Cyclo course as an SVG strip, read left to right: the start line (riders wait
// there in lanes, as many as the game has), every space 1 … N of the course in its
// track type's colour with as many lanes as it is wide (lane a on top), dark squares,
// event spaces (a card mark under the space), the boards' names and runs of track
// types above, the sprint and mountain lines (with their category) and the finish
// line, then the run-out #1 … #9 and the riders who have finished, by place. Riders
// are pieces in their team's colour, shaped by type (sprinter a disc, climber a
// diamond, helper a square) and lettered S, C, H1, H2, with badges for their own
// tokens and flags (s: loses its next turn, x: technical problem, h2: hunger). The
// rider due is ringed and its dice are drawn beside it. The strip scrolls, zooms
// (buttons, ctrl + wheel or a pinch) and keeps the action in view. Spaces and riders
// a player may click are lit (`targets`, keyed by space — `57`, `#3` — or `rider:ID`).

import { el, svg, teamColour } from "./ui.js";

const LANES = "abcdefghijklmnopqrstuvwxyz";
export const TRACK = {
  start: { fill: "#e7e5e4", ink: "#57534e", name: "start" },
  flat: { fill: "#e2f5cf", ink: "#4d7c0f", name: "flat" },
  climb: { fill: "#fcd34d", ink: "#92400e", name: "climb" },
  top: { fill: "#fed7aa", ink: "#c2410c", name: "top" },
  cobbles: { fill: "#d6d3d1", ink: "#44403c", name: "cobbles" },
  slope: { fill: "#c8b6a6", ink: "#6b4226", name: "slope" },
  end: { fill: "#a5f3fc", ink: "#0e7490", name: "end" },
  lastkm: { fill: "#fecdd3", ink: "#be123c", name: "last km" },
  track: { fill: "#bfdbfe", ink: "#1d4ed8", name: "velodrome" },
};
export const DARK_FILL = "#3f3a36";
const RUNOUT_FILL = "#f1f5f9";
const ZOOMS = [0.3, 0.45, 0.6, 0.75, 0.9, 1, 1.2, 1.45];
/** A square in the notation: lane letter and position (`b44`, `a0`). */
const SQUARE = /^([a-z])(0|[1-9][0-9]*)$/;

/** A rider's label on its piece: S, C, H1, H2. */
export function pieceLabel(id) {
  const kind = id.slice(1);
  return kind === "S1" || kind === "C1" ? kind[0] : kind;
}

/** The space key of a ride's or a wheel's target: `57`, `#3`. */
export function spaceOf(target) {
  return String(target);
}

/** Draw one rider's piece (its shape by type) into `parent`, centred on 0,0. */
export function piece(parent, id, R) {
  const fill = teamColour(id[0]);
  const kind = id[1];
  if (kind === "S") svg("circle", { r: R, fill, class: "cy-body" }, parent);
  else if (kind === "C") svg("path", { d: `M0 ${-R * 1.2} L${R * 1.2} 0 L0 ${R * 1.2} L${-R * 1.2} 0 Z`, fill, class: "cy-body" }, parent);
  else svg("rect", { x: -R * 0.92, y: -R * 0.92, width: R * 1.84, height: R * 1.84, rx: R * 0.28, fill, class: "cy-body" }, parent);
  const label = svg("text", { y: R * 0.36, class: "cy-piece-label", "font-size": Math.max(7, R * 0.9) }, parent);
  label.textContent = pieceLabel(id);
}

/** The pips of a die face of `size` at x, y. */
export function dieFace(parent, value, x, y, size) {
  const g = svg("g", { class: "cy-die", transform: `translate(${x} ${y})`, "data-value": String(value) }, parent);
  svg("rect", { width: size, height: size, rx: size * 0.2, class: "cy-die-face" }, g);
  const s = size / 4;
  const spots = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[value] || [];
  for (const [i, j] of spots) svg("circle", { cx: i * s, cy: j * s, r: size * 0.09, class: "cy-pip" }, g);
  return g;
}

export class CycloBoard {
  /**
   * @param {HTMLElement} host  the scrolling container the strip goes in
   * @param {{onSquare?: Function, onHover?: Function}} handlers
   */
  constructor(host, handlers = {}) {
    this.host = host;
    this.handlers = handlers;
    this.key = "";
    this.zoom = 1;
    this.lastFocus = null;
    this.diceKey = "";
    this.snap = null;
    this.tools = el("div", { class: "cy-zoom", dataset: { testid: "zoom" } },
      this.zoomButton("zoom-out", "−", "zoom out", () => this.setZoom(this.step(-1))),
      this.zoomButton("zoom-in", "+", "zoom in", () => this.setZoom(this.step(1))),
      this.zoomButton("zoom-fit", "whole course", "the whole course in the frame", () => this.setZoom(this.fitZoom())),
      this.zoomButton("zoom-reset", "100%", "normal size", () => this.setZoom(1)));
    this.root = svg("svg", { class: "board cy-board", role: "img", "data-testid": "board" });
    host.append(this.tools, this.root);
    this.root.addEventListener("click", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (target && this.handlers.onSquare) this.handlers.onSquare(target.dataset.square);
    });
    this.root.addEventListener("mouseover", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (this.handlers.onHover) this.handlers.onHover(target ? target.dataset.square : null);
    });
    this.root.addEventListener("mouseleave", () => this.handlers.onHover && this.handlers.onHover(null));
    host.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return; // a pinch on a touchpad, or ctrl + wheel: zoom the strip
      e.preventDefault();
      this.setZoom(this.step(e.deltaY < 0 ? 1 : -1));
    }, { passive: false });
  }

  zoomButton(testid, label, title, onclick) {
    return el("button", { type: "button", class: "btn small", title, "aria-label": title, dataset: { testid }, onclick }, label);
  }

  /** The next zoom level in (dir 1) or out (dir -1). */
  step(dir) {
    if (dir > 0) return ZOOMS.find((z) => z > this.zoom + 1e-6) ?? ZOOMS[ZOOMS.length - 1];
    return [...ZOOMS].reverse().find((z) => z < this.zoom - 1e-6) ?? ZOOMS[0];
  }

  fitZoom() {
    return this.width ? Math.min(1, Math.max(0.05, (this.host.clientWidth - 8) / this.width)) : 1;
  }

  setZoom(zoom) {
    this.zoom = zoom;
    this.applyZoom();
    this.lastFocus = null;
    if (this.snap) this.focus(this.snap, this.focusKeys || []);
  }

  applyZoom() {
    if (!this.width) return;
    this.root.setAttribute("width", String(Math.round(this.width * this.zoom)));
    this.root.setAttribute("height", String(Math.round(this.height * this.zoom)));
    this.root.dataset.zoom = this.zoom.toFixed(2);
  }

  // ------------------------------------------------------------------ geometry

  /** The left edge of position `k` (0 … N+9): the start line block, the course, the run-out. */
  x(k) {
    if (k <= 0) return this.startX;
    if (k <= this.n) return this.courseX + (k - 1) * this.cell;
    return this.runX + (k - this.n - 1) * this.cell;
  }

  y(row) {
    return this.top + row * this.cell;
  }

  /** The position of a space key (`57`, `#3`). */
  positionOf(key) {
    const s = String(key);
    return s.startsWith("#") ? this.n + Number(s.slice(1)) : Number(s);
  }

  /** The position a focus or hint key stands for: a space key (`57`, `#3`), a square
   * (`b44`) or a rider on the road (`AS1`); null for anything else (`rider:AS1`). */
  hintPosition(snap, key) {
    const s = String(key);
    if (this.spaces[s]) return this.positionOf(s);
    const square = SQUARE.exec(s);
    if (square) return Number(square[2]);
    const rider = (snap.riders || []).find((r) => r.id === s);
    return rider && rider.position !== null && rider.position !== undefined ? rider.position : null;
  }

  /** The centre of a rider's square: position and lane (unlimited on the line and the run-out). */
  centre(r) {
    const lane = Math.max(0, LANES.indexOf(r.lane));
    const c = this.cell;
    if (r.position === 0) {
      const col = Math.floor(lane / this.rows);
      return [this.startX + this.startW - (col + 0.5) * c, this.y(lane % this.rows) + c / 2];
    }
    if (r.position > this.n) return [this.x(r.position) + c / 2, this.y(lane % this.rows) + c / 2];
    return [this.x(r.position) + c / 2, this.y(lane) + c / 2];
  }

  // ------------------------------------------------------------------ the course (static)

  build(course, riders) {
    const spaces = course.spaces || [];
    const key = JSON.stringify([course.name, course.length, spaces.length, riders, course.lines]);
    if (key === this.key) return;
    this.key = key;
    this.lastFocus = null;
    const root = this.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    const c = (this.cell = 34);
    this.n = course.length;
    this.rows = Math.max(3, ...spaces.map((s) => s.width));
    this.top = 60;
    this.startX = 26;
    this.startCols = Math.max(1, Math.ceil(riders / this.rows));
    this.startW = this.startCols * c;
    this.courseX = this.startX + this.startW + 10;
    this.runX = this.courseX + this.n * c + 14;
    this.doneX = this.runX + (course.run_out || 9) * c + 14;
    this.doneCols = Math.max(1, Math.ceil(riders / (this.rows * 2)));
    this.width = this.doneX + Math.max(this.doneCols * 24, 48) + 12;
    const bottom = this.y(this.rows);
    this.height = bottom + 38;
    root.setAttribute("viewBox", `0 0 ${this.width} ${this.height}`);
    root.setAttribute("aria-label", `course ${course.name}: ${this.n} spaces, boards ${(course.boards || []).join(" ")}, then the run-out`);
    this.applyZoom();

    const defs = svg("defs", {}, root);
    const chk = svg("pattern", { id: "cy-chequer", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
    svg("rect", { width: 8, height: 8, fill: "#fff" }, chk);
    svg("rect", { width: 4, height: 4, fill: "#111" }, chk);
    svg("rect", { x: 4, y: 4, width: 4, height: 4, fill: "#111" }, chk);
    const cob = svg("pattern", { id: "cy-cobbles", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
    svg("circle", { cx: 2, cy: 2, r: 1.3, fill: "rgba(0,0,0,.18)" }, cob);
    svg("circle", { cx: 6, cy: 6, r: 1.3, fill: "rgba(0,0,0,.18)" }, cob);

    const layer = svg("g", { class: "cy-course" }, root);
    // The boards: a band with each board's name over its spaces.
    const boards = [];
    for (const s of spaces) {
      const last = boards[boards.length - 1];
      if (last && last.name === s.board) last.to = s.position;
      else boards.push({ name: s.board, from: s.position, to: s.position });
    }
    boards.forEach((b, i) => {
      const x0 = this.x(b.from);
      const w = (b.to - b.from + 1) * c;
      svg("rect", { x: x0 + 1, y: 2, width: w - 2, height: 16, rx: 3, class: `cy-board-band ${i % 2 ? "odd" : ""}`, "data-board": b.name }, layer);
      const t = svg("text", { x: x0 + 6, y: 14, class: "cy-board-name" }, layer);
      t.textContent = `board ${b.name}`;
      if (b.from > 1) svg("line", { x1: x0, y1: 2, x2: x0, y2: bottom + 4, class: "cy-board-edge" }, layer);
    });
    // Runs of one track type: a coloured band with the type's name where it begins.
    let from = 0;
    spaces.forEach((s, i) => {
      const next = spaces[i + 1];
      if (next && next.type === s.type) return;
      const first = spaces[from];
      const x0 = this.x(first.position);
      const w = (s.position - first.position + 1) * c;
      const track = TRACK[s.type] || TRACK.flat;
      const band = svg("rect", { x: x0 + 1, y: 21, width: w - 2, height: 15, rx: 3, fill: track.ink, class: "cy-type-band", "data-type": s.type }, layer);
      const title = svg("title", {}, band);
      title.textContent = `${track.name}: spaces ${first.position}–${s.position}`;
      const t = svg("text", { x: x0 + 5, y: 32, class: "cy-type-name" }, layer);
      t.textContent = w >= 70 ? `${track.name} ${first.position}–${s.position}` : w >= 30 ? track.name : "";
      from = i + 1;
    });
    // The start line: the riders wait behind it in lanes, as many as there are riders.
    svg("rect", { x: this.startX, y: this.y(0), width: this.startW, height: this.rows * c, rx: 6, class: "cy-start-area", "data-square": "0" }, layer);
    svg("rect", { x: this.startX + this.startW + 2, y: this.y(0), width: 6, height: this.rows * c, fill: "#fff", stroke: "#111", "stroke-width": 1 }, layer);
    const st = svg("text", { x: this.startX + this.startW / 2, y: bottom + 14, class: "cy-num" }, layer);
    st.textContent = "start";

    // The spaces, each a group of its lanes: what a click on a lit space targets.
    this.spaces = {};
    const grid = svg("g", { class: "cy-spaces" }, layer);
    const marks = svg("g", { class: "cy-marks" }, layer);
    for (const s of spaces) {
      const key = String(s.position);
      const track = TRACK[s.type] || TRACK.flat;
      const g = svg("g", { class: `cy-space t-${s.type}${s.event ? " event" : ""}${s.dark ? " dark" : ""}`, "data-square": key, "data-type": s.type, "data-width": String(s.width) }, grid);
      const title = svg("title", {}, g);
      title.textContent = `space ${s.position} (board ${s.board}): ${track.name}, ${s.width} lane${s.width === 1 ? "" : "s"}${s.dark ? ", dark square" : ""}${s.event ? ", event space" : ""}`;
      for (let l = 0; l < s.width; l++) {
        svg("rect", { x: this.x(s.position) + 1, y: this.y(l) + 1, width: c - 2, height: c - 2, rx: 4, fill: s.dark ? DARK_FILL : track.fill, class: "cy-lane" }, g);
        if (s.type === "cobbles" || s.type === "slope") {
          svg("rect", { x: this.x(s.position) + 1, y: this.y(l) + 1, width: c - 2, height: c - 2, rx: 4, fill: "url(#cy-cobbles)", class: "cy-lane-texture" }, g);
        }
      }
      svg("rect", { x: this.x(s.position) + 1, y: this.y(0) + 1, width: c - 2, height: s.width * c - 2, rx: 5, class: "cy-target" }, g);
      this.spaces[key] = g;
      const num = svg("text", { x: this.x(s.position) + c / 2, y: bottom + 14, class: `cy-num${s.position % 5 ? " minor" : ""}` }, marks);
      num.textContent = String(s.position);
      if (s.event) {
        const e = svg("g", { class: "cy-event", "data-event": key, transform: `translate(${this.x(s.position) + c / 2 - 6} ${bottom + 19})` }, marks);
        svg("rect", { width: 12, height: 15, rx: 2, class: "cy-event-card" }, e);
        const q = svg("text", { x: 6, y: 11.5, class: "cy-event-q" }, e);
        q.textContent = "?";
      }
    }
    // The run-out, of unlimited width, and the finish line before it.
    for (let j = 1; j <= (course.run_out || 9); j++) {
      const key = `#${j}`;
      const x0 = this.x(this.n + j);
      const g = svg("g", { class: "cy-space runout", "data-square": key }, grid);
      svg("rect", { x: x0 + 1, y: this.y(0) + 1, width: c - 2, height: this.rows * c - 2, rx: 4, fill: RUNOUT_FILL, class: "cy-lane" }, g);
      svg("rect", { x: x0 + 1, y: this.y(0) + 1, width: c - 2, height: this.rows * c - 2, rx: 5, class: "cy-target" }, g);
      this.spaces[key] = g;
      const num = svg("text", { x: x0 + c / 2, y: bottom + 14, class: "cy-num" }, marks);
      num.textContent = key;
    }
    const rl = svg("text", { x: this.runX + 2, y: 32, class: "cy-runout-label" }, layer);
    rl.textContent = "run-out";
    const dl = svg("text", { x: this.doneX, y: 32, class: "cy-runout-label" }, layer);
    dl.textContent = "finished";
    // Lanes' letters.
    for (let l = 0; l < this.rows; l++) {
      const t = svg("text", { x: 12, y: this.y(l) + c / 2 + 4, class: "cy-lane-letter" }, layer);
      t.textContent = LANES[l];
    }
    // The lines between two spaces: sprint, mountain (its category), finish.
    for (const line of course.lines || []) {
      const gx = line.kind === "finish" ? this.courseX + this.n * c + 7 : this.x(line.after + 1);
      const g = svg("g", { class: `cy-line ${line.kind}${line.scores ? " scores" : ""}`, "data-line": `${line.kind}-${line.after}` }, layer);
      if (line.kind === "finish") {
        svg("rect", { x: gx - 5, y: this.y(0) - 3, width: 10, height: this.rows * c + 6, fill: "url(#cy-chequer)", stroke: "#111", "stroke-width": 1 }, g);
      } else {
        svg("line", { x1: gx, y1: this.y(0) - 4, x2: gx, y2: bottom + 4, class: "cy-line-bar" }, g);
      }
      const label = svg("text", { x: gx + (line.kind === "finish" ? 7 : 3), y: 50, class: "cy-line-label" }, g);
      label.textContent = line.kind === "mountain" ? `mountain ${line.category}` : line.kind;
      const title = svg("title", {}, g);
      title.textContent = `${label.textContent} line after space ${line.after}${line.kind !== "finish" && !line.scores ? " (no points in this mode)" : ""}`;
    }
    this.decor = svg("g", { class: "cy-decor" }, root);
    this.riderLayer = svg("g", { class: "cy-riders" }, root);
    this.overlay = svg("g", { class: "cy-overlay" }, root);
  }

  // ------------------------------------------------------------------ the position (dynamic)

  /**
   * Draw `snap`: `targets` maps keys (`57`, `#3`, `rider:AS1`) to {describe, kind} to
   * light and make clickable; `hints` are space keys to mark (the last ride's target).
   */
  render(snap, { targets = new Map(), hints = [], card = null } = {}) {
    this.snap = snap;
    const riders = snap.riders || [];
    this.build(snap.course, riders.length);
    const c = this.cell;
    for (const g of Object.values(this.spaces)) {
      g.classList.remove("legal", "hint", "full", "hold", "wheel");
      const old = g.querySelector("title.cy-why");
      if (old) old.remove();
    }
    for (const [key, info] of targets) {
      const g = this.spaces[key];
      if (!g) continue;
      g.classList.add("legal");
      if (info.kind) g.classList.add(info.kind);
      const t = svg("title", { class: "cy-why" }, g);
      t.textContent = info.describe || "";
    }
    for (const key of hints) if (this.spaces[key]) this.spaces[key].classList.add("hint");
    for (const layer of [this.decor, this.riderLayer, this.overlay]) while (layer.firstChild) layer.removeChild(layer.firstChild);

    // Riders sharing a square (different worlds, or the line and the run-out past
    // their rows) share its cell, drawn smaller.
    const cells = new Map();
    const done = [];
    for (const r of riders) {
      if (r.position === null || r.position === undefined) {
        if (r.finished) done.push(r);
        continue;
      }
      const [cx, cy] = this.centre(r);
      const k = `${cx},${cy}`;
      if (!cells.has(k)) cells.set(k, { cx, cy, riders: [] });
      cells.get(k).riders.push(r);
    }
    const at = {};
    for (const cell of cells.values()) {
      const n = cell.riders.length;
      const per = n === 1 ? 1 : n <= 4 ? 2 : 3;
      const R = n === 1 ? c * 0.34 : per === 2 ? c * 0.2 : c * 0.14;
      cell.riders.forEach((r, i) => {
        const dx = n === 1 ? 0 : ((i % per) - (per - 1) / 2) * (c / per);
        const dy = n === 1 ? 0 : (Math.floor(i / per) - (Math.ceil(n / per) - 1) / 2) * (c / per);
        at[r.id] = [cell.cx + dx, cell.cy + dy, R];
        this.drawRider(snap, r, cell.cx + dx, cell.cy + dy, R, targets.get(`rider:${r.id}`));
      });
    }
    this.drawFinished(snap, done);
    this.drawAction(snap, at);
    this.markHints(hints, at);
    if (card && at[card.by]) this.drawCard(card, at[card.by]);
  }

  /** Mark the hints that are not space keys (a rules diagram's highlight): a square
   * (`b44`, `a0`) is outlined, a rider on the road (`AS1`) ringed. */
  markHints(hints, at) {
    const c = this.cell;
    for (const key of hints) {
      const s = String(key);
      const square = this.spaces[s] ? null : SQUARE.exec(s);
      if (square && Number(square[2]) <= this.n + 9) {
        const [x, y] = this.centre({ position: Number(square[2]), lane: square[1] });
        svg("rect", { x: x - c / 2 + 1, y: y - c / 2 + 1, width: c - 2, height: c - 2, rx: 5, class: "cy-hint-square", "data-hint": s }, this.decor);
      } else if (at[s]) {
        const [x, y, R] = at[s];
        svg("circle", { cx: x, cy: y, r: R * 1.5 + 2, class: "cy-hint-ring", "data-hint": s }, this.decor);
      }
    }
  }

  /** The card just drawn, beside its drawer. */
  drawCard(card, [x, y, R]) {
    const w = Math.max(58, card.name.length * 5.6 + 12);
    const g = svg("g", { class: "cy-board-card", "data-testid": "board-card", "data-card": card.id, transform: `translate(${(x + R + 4).toFixed(1)} ${(y - R - 20).toFixed(1)})` }, this.overlay);
    svg("rect", { width: w, height: 18, rx: 4 }, g);
    const t = svg("text", { x: 6, y: 12.5 }, g);
    t.textContent = card.name;
  }

  drawRider(snap, r, cx, cy, R, target) {
    const cls = ["rider", "cy-rider"];
    if (r.due) cls.push("current");
    if (r.turn_over && snap.phase !== "over") cls.push("done");
    if (target) cls.push("legal", target.kind || "pick");
    const g = svg("g", {
      class: cls.join(" "), "data-rider": r.id, "data-team": r.team, "data-at": r.square || "", "data-type": r.type,
      transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`,
    }, this.riderLayer);
    if (target) g.dataset.square = `rider:${r.id}`;
    const flags = [];
    if (r.skip) flags.push("loses its next turn");
    if (r.technical) flags.push("technical problem");
    if (r.hunger) flags.push(`hunger: ${r.hunger} ride${r.hunger === 1 ? "" : "s"} with 1 die`);
    const title = svg("title", {}, g);
    title.textContent = `${r.id}: ${r.type} of team ${r.team} on ${r.square}`
      + (snap.level === "pro" ? `, ${r.tokens} own token${r.tokens === 1 ? "" : "s"}` : "")
      + (flags.length ? ` · ${flags.join(" · ")}` : "") + (r.turn_over ? " · turn over" : "")
      + (target && target.describe ? ` — ${target.describe}` : "");
    if (r.due) svg("circle", { r: R * 1.55 + 3, class: "halo" }, g);
    if (target) svg("circle", { r: R * 1.5 + 2, class: "cy-pick-ring" }, g);
    piece(g, r.id, R);
    if (R < 8) return;
    let bx = -R - 2;
    const badge = (text, cls) => {
      const b = svg("g", { class: `cy-flag ${cls}`, transform: `translate(${bx} ${-R - 1})` }, g);
      svg("rect", { x: -6, y: -6, width: text.length > 1 ? 15 : 11, height: 11, rx: 5 }, b);
      const t = svg("text", { x: text.length > 1 ? 1.5 : -0.5, y: 2.8 }, b);
      t.textContent = text;
      bx += text.length > 1 ? 15 : 11;
    };
    if (r.skip) badge("s", "skip");
    if (r.technical) badge("x", "technical");
    if (r.hunger) badge(`h${r.hunger}`, "hunger");
    if (snap.level === "pro" && r.tokens) {
      const t = svg("g", { class: "cy-tokens", transform: `translate(${R * 0.95} ${R * 0.85})` }, g);
      svg("circle", { r: 6 }, t);
      const n = svg("text", { y: 3 }, t);
      n.textContent = String(r.tokens);
    }
  }

  /** The riders who have finished, by place, as small discs past the run-out. */
  drawFinished(snap, done) {
    if (!done.length) return;
    const order = (snap.finish || []).map((f) => f.rider);
    const places = [...done].sort((a, b) => (order.indexOf(a.id) + 1 || 99) - (order.indexOf(b.id) + 1 || 99));
    const per = this.rows * 2;
    places.forEach((r, i) => {
      const cx = this.doneX + Math.floor(i / per) * 24 + 12;
      const cy = this.y(0) + (i % per) * (this.cell / 2) + this.cell / 4;
      const g = svg("g", { class: "cy-finished", "data-finished": r.id, transform: `translate(${cx} ${cy})` }, this.riderLayer);
      const t = svg("title", {}, g);
      const place = order.indexOf(r.id) + 1;
      t.textContent = place ? `${place}. ${r.id}` : r.id;
      piece(g, r.id, 7);
      if (place) {
        const p = svg("text", { x: 10, y: 3, class: "cy-place" }, g);
        p.textContent = String(place);
      }
    });
  }

  /** The dice beside the rider due, a wheel's path, a swap proposed. */
  drawAction(snap, at) {
    const due = snap.due && at[snap.due];
    if (!due) return;
    const [dx, dy, R] = due;
    const dice = snap.dice || [];
    if (snap.phase === "ride" && dice.length) {
      const key = `${snap.moves_played}`;
      const fresh = key !== this.diceKey;
      this.diceKey = key;
      const size = 15;
      const w = dice.length * (size + 3) + 3;
      const g = svg("g", {
        class: `cy-board-dice${fresh ? " fresh" : ""}`, "data-testid": "board-dice", "data-dice": dice.join(","),
        transform: `translate(${(dx - w / 2).toFixed(1)} ${(dy - R - size - 12).toFixed(1)})`,
      }, this.overlay);
      svg("rect", { x: -2, y: -2, width: w + 4, height: size + 7, rx: 5, class: "cy-dice-back" }, g);
      dice.forEach((v, i) => dieFace(g, v, 3 + i * (size + 3), 1.5, size));
    }
    if (snap.phase === "wheel" && snap.leader && at[snap.leader]) {
      const [lx, ly] = at[snap.leader];
      svg("path", { d: `M${dx} ${dy} L${lx - R - 2} ${ly}`, class: "cy-wheel-path" }, this.decor);
    }
    if (snap.phase === "answer" && snap.proposer && at[snap.proposer]) {
      const [px, py] = at[snap.proposer];
      const mx = (px + dx) / 2;
      const my = Math.min(py, dy) - this.cell * 1.1;
      svg("path", { d: `M${px} ${py} Q${mx} ${my} ${dx} ${dy}`, class: "cy-swap-path" }, this.decor);
    }
  }

  // ------------------------------------------------------------------ scrolling

  /** Keep the rider due and the lit spaces in view (`keys`); only when they change. */
  focus(snap, keys = []) {
    if (!snap || !this.width) return;
    this.focusKeys = keys;
    const xs = keys.map((k) => this.hintPosition(snap, k)).filter((p) => p !== null).map((p) => this.x(p));
    const due = (snap.riders || []).find((r) => r.id === snap.due);
    if (due && due.position !== null) xs.push(this.x(due.position));
    if (snap.is_over) xs.push(this.runX, this.width - this.cell * 3);
    if (!xs.length) {
      const on = (snap.riders || []).filter((r) => r.position !== null && r.position !== undefined);
      if (on.length) xs.push(Math.max(...on.map((r) => this.x(r.position))));
      else xs.push(this.doneX);
    }
    const lo = Math.min(...xs) - this.cell;
    const hi = Math.max(...xs) + this.cell * 2;
    const focus = `${lo}-${hi}-${this.zoom}`;
    if (focus === this.lastFocus) return;
    this.lastFocus = focus;
    const view = this.host.clientWidth;
    const z = this.zoom;
    let left = this.host.scrollLeft;
    if (lo * z < left || hi * z > left + view) left = (hi - lo) * z <= view ? lo * z - (view - (hi - lo) * z) / 3 : lo * z;
    this.host.scrollTo({ left: Math.max(0, left), behavior: "auto" });
  }
}
