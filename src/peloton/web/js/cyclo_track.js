// @ts-check
// The velodrome of Cyclo's track events drawn as a loop, with the look of Pistard's
// track: the lap's spaces round an oval, each with its lanes (lane a inside), the
// start/finish line before space 1, the race's lines (every half lap or every lap:
// sprint, elimination, finish) marked where they lie with what the next one pays,
// the keirin pacer while it rides (and the mark no rider may reach), the riders on
// their loop space and lane in their team's colour with the laps they have ridden,
// the riders still on the start line in the infield, and beside the loop the run-out
// #1 … #9 past the finish, the finished riders by place and the eliminated ones.
// The rider due is ringed with its dice beside it; lit spaces and riders are what a
// player may click (`targets`, keyed like on the road: a distance `47`, a run-out
// space `#3`, a rider `rider:AS1`). A distance names one loop space; when two lit
// targets fall on one space a lap apart, the farther one is a chip outside the loop.

import { dieFace, piece } from "./cyclo_board.js";
import { atRisk, lapsRidden, lapsToGo, lapsWord, leaderDistance, lineName, loopSpace, nextLine, paysText, trackOf } from "./cyclo_track_facts.js";
import { svg } from "./ui.js";

const LANES = "abcdefghijklmnopqrstuvwxyz";
/** A square in the notation: lane letter and distance (`b44`, `a0`). */
const SQUARE = /^([a-z])(0|[1-9][0-9]*)$/;
export const LOOP_FILL = ["#f3e6cf", "#fbf3e4"]; // the boards of a wooden track, alternate spaces apart
export const LINE_INK = { sprint: "#15803d", elimination: "#b91c1c", finish: "#111827" };

export class VelodromeBoard {
  /**
   * @param {HTMLElement} host  the container the loop goes in
   * @param {{onSquare?: Function, onHover?: Function}} handlers
   */
  constructor(host, handlers = {}) {
    this.host = host;
    this.handlers = handlers;
    this.key = "";
    this.lastFocus = null;
    this.diceKey = "";
    this.root = svg("svg", { class: "board vd-board", role: "img", "data-testid": "board" });
    host.append(this.root);
    // At the table the loop and the Play panel share one screen, as Pistard's do.
    if (host.id === "board-host") document.body.classList.add("pi-table", "vd-table");
    this.root.addEventListener("click", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (target && this.handlers.onSquare) this.handlers.onSquare(target.dataset.square);
    });
    this.root.addEventListener("mouseover", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (this.handlers.onHover) this.handlers.onHover(target ? target.dataset.square : null);
    });
  }

  /** Take the loop off the page (the view switches to the road strip). */
  remove() {
    this.root.remove();
    document.body.classList.remove("vd-table");
  }

  // ------------------------------------------------------------------ geometry

  geometry(track, narrow) {
    const length = track.lap;
    const bend = Math.max(2, Math.round(length / 5));
    const top = Math.ceil((length - 2 * bend) / 2);
    const bottom = length - 2 * bend - top;
    const w = 30;
    const lanes = track.width;
    const straight = Math.max(top, bottom, 1) * w * 1.05;
    const inner = Math.max(66, (w * bend) / Math.PI - lanes * w);
    const outer = inner + lanes * w;
    const margin = 34;
    const ovalW = 2 * margin + 2 * outer + straight;
    const ovalH = 2 * margin + 2 * outer;
    // Beside the loop: the run-out and the finished and eliminated riders (right of it,
    // or under the upright loop of a phone).
    const side = narrow ? { x: 8, y: ovalW + 4, w: ovalH - 16, h: 150 } : { x: ovalW + 4, y: 8, w: 196, h: ovalH - 16 };
    return {
      length, bend, top, bottom, w, lanes, straight, inner, outer, vertical: narrow, side,
      cx0: margin + outer, cx1: margin + outer + straight, cy: margin + outer,
      width: narrow ? ovalH : ovalW + side.w + 8, height: narrow ? ovalW + side.h + 8 : ovalH,
    };
  }

  screen(g, x, y) {
    return g.vertical ? [y, x] : [x, y];
  }

  /** The point `u` spaces along the lap (0 = the start/finish line) and `rad` lanes out. */
  point(g, u, rad) {
    const r = g.inner + rad * g.w;
    u = ((u % g.length) + g.length) % g.length;
    if (u <= g.top) return this.screen(g, g.cx0 + (u / Math.max(g.top, 1e-9)) * g.straight, g.cy - r);
    u -= g.top;
    if (u <= g.bend) {
      const a = -Math.PI / 2 + (u / g.bend) * Math.PI;
      return this.screen(g, g.cx1 + r * Math.cos(a), g.cy + r * Math.sin(a));
    }
    u -= g.bend;
    if (u <= g.bottom) return this.screen(g, g.cx1 - (u / Math.max(g.bottom, 1e-9)) * g.straight, g.cy + r);
    u -= g.bottom;
    const a = Math.PI / 2 + (u / g.bend) * Math.PI;
    return this.screen(g, g.cx0 + r * Math.cos(a), g.cy + r * Math.sin(a));
  }

  cellPath(g, space, from, to) {
    const pts = [];
    const steps = 5;
    for (let i = 0; i <= steps; i++) pts.push(this.point(g, space - 1 + i / steps, from));
    for (let i = steps; i >= 0; i--) pts.push(this.point(g, space - 1 + i / steps, to));
    return `M${pts.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join(" L")} Z`;
  }

  bandPath(g, from, to) {
    const f = (p) => p.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join(" L");
    const outer = [];
    const inner = [];
    for (let i = 0; i <= 160; i++) outer.push(this.point(g, (g.length * i) / 160, to));
    for (let i = 160; i >= 0; i--) inner.push(this.point(g, (g.length * i) / 160, from));
    return `M${f(outer)} Z M${f(inner)} Z`;
  }

  /** A bar across the lanes at `u` (a line between two spaces), from `from` to `to` lanes out. */
  bar(g, u, from, to, attrs, parent) {
    const [x0, y0] = this.point(g, u, from);
    const [x1, y1] = this.point(g, u, to);
    return svg("line", { x1: x0.toFixed(1), y1: y0.toFixed(1), x2: x1.toFixed(1), y2: y1.toFixed(1), ...attrs }, parent);
  }

  /** A run-out space's box: {x, y, w, h} (a column right of the loop, a row under it). */
  runoutCell(j) {
    const s = this.g.side;
    if (this.g.vertical) {
      const w = s.w / 9;
      return { x: s.x + (j - 1) * w, y: s.y + 18, w, h: 44 };
    }
    const h = Math.min(34, (s.h - 30) / 9);
    return { x: s.x, y: s.y + 18 + (j - 1) * h, w: 84, h };
  }

  // ------------------------------------------------------------------ the loop (static)

  build(snap, track) {
    const narrow = !!(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
    const key = JSON.stringify([track.lap, track.width, track.distance, track.lines.map((l) => [l.at, l.kind]), narrow]);
    if (key === this.key) return;
    this.key = key;
    const root = this.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    const g = (this.g = this.geometry(track, narrow));
    root.setAttribute("viewBox", `0 0 ${g.width.toFixed(0)} ${g.height.toFixed(0)}`);
    root.setAttribute("aria-label", `velodrome: ${track.lap} spaces a lap, ${track.width} lanes; the race is ${track.distance} spaces (${lapsWord(track.distance, track.lap)})`);
    root.style.maxWidth = `${Math.round(g.width * 1.4)}px`;
    root.style.aspectRatio = `${g.width.toFixed(0)} / ${g.height.toFixed(0)}`;
    const defs = svg("defs", {}, root);
    const chk = svg("pattern", { id: "vd-chequer", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
    svg("rect", { width: 8, height: 8, fill: "#fff" }, chk);
    svg("rect", { width: 4, height: 4, fill: "#111" }, chk);
    svg("rect", { x: 4, y: 4, width: 4, height: 4, fill: "#111" }, chk);
    svg("path", { d: this.bandPath(g, -0.3, g.lanes + 0.3), class: "vd-apron" }, root);
    // The spaces, each a group of its lanes: what a click on a lit space targets.
    this.cells = {};
    const layer = svg("g", { class: "vd-spaces" }, root);
    for (let space = 1; space <= track.lap; space++) {
      const c = svg("g", { class: "vd-space", "data-space": String(space) }, layer);
      const title = svg("title", {}, c);
      title.textContent = `loop space ${space}`;
      for (let lane = 0; lane < g.lanes; lane++) {
        svg("path", { d: this.cellPath(g, space, lane, lane + 1), class: "vd-lane", fill: LOOP_FILL[space % 2], "data-lane": LANES[lane] }, c);
      }
      svg("path", { d: this.cellPath(g, space, 0, g.lanes), class: "vd-target" }, c);
      this.cells[space] = c;
    }
    const labels = svg("g", { class: "vd-labels" }, root);
    for (let space = 1; space <= track.lap; space++) {
      if (space !== 1 && space % 5 !== 0) continue;
      const [x, y] = this.point(g, space - 0.5, -0.75);
      const t = svg("text", { x: x.toFixed(1), y: (y + 3).toFixed(1), class: "vd-space-label" }, labels);
      t.textContent = String(space);
    }
    for (let lane = 0; lane < g.lanes; lane++) {
      const [x, y] = this.point(g, 0.5, lane + 0.5);
      const t = svg("text", { x: x.toFixed(1), y: (y + 3.5).toFixed(1), class: "vd-lane-label" }, labels);
      t.textContent = LANES[lane];
    }
    // The race's lines, where they lie on the loop: one mark per place (every half lap
    // or every lap), coloured by the kind of the next line there (see render).
    this.lineMarks = {};
    const marks = svg("g", { class: "vd-line-marks" }, root);
    const places = [...new Set(track.lines.map((l) => l.at % track.lap))];
    if (!places.includes(0)) places.push(0);
    for (const u of places) {
      const m = svg("g", { class: "vd-line", "data-at": String(u) }, marks);
      this.bar(g, u, -0.3, g.lanes + 0.3, { class: "vd-line-bar" }, m);
      // Outside the loop when it lies down; on the upright loop (whose outside is the
      // screen's edge) over its lanes, just before the line.
      const [lx, ly] = this.point(g, u, g.vertical ? g.lanes / 2 : g.lanes + 0.75);
      const label = svg("text", { x: lx.toFixed(1), y: (ly + (g.vertical ? (u === 0 ? -6 : 14) : 0)).toFixed(1), class: "vd-line-label" }, m);
      const title = svg("title", {}, m);
      this.lineMarks[u] = { group: m, label, title };
    }
    // The start/finish line, chequered, at the start of space 1.
    const [sx0, sy0] = this.point(g, 0, -0.3);
    const [sx1, sy1] = this.point(g, 0, g.lanes + 0.3);
    if (g.vertical) svg("rect", { x: Math.min(sx0, sx1), y: sy0 - 4, width: Math.abs(sx0 - sx1), height: 8, fill: "url(#vd-chequer)", class: "vd-start-line" }, root);
    else svg("rect", { x: sx0 - 4, y: Math.min(sy0, sy1), width: 8, height: Math.abs(sy0 - sy1), fill: "url(#vd-chequer)", class: "vd-start-line" }, root);
    // Beside the loop: the run-out and the lists.
    const s = g.side;
    const side = svg("g", { class: "vd-side" }, root);
    const rt = svg("text", { x: s.x + 2, y: s.y + 12, class: "vd-side-title" }, side);
    rt.textContent = "run-out";
    this.runout = {};
    for (let j = 1; j <= 9; j++) {
      const b = this.runoutCell(j);
      const c = svg("g", { class: "vd-space runout", "data-square": `#${j}` }, side);
      svg("rect", { x: b.x + 1, y: b.y + 1, width: b.w - 2, height: b.h - 2, rx: 4, class: "vd-runout-cell" }, c);
      svg("rect", { x: b.x + 1, y: b.y + 1, width: b.w - 2, height: b.h - 2, rx: 4, class: "vd-target" }, c);
      const t = svg("text", { x: b.x + 4, y: b.y + 11, class: "vd-runout-num" }, c);
      t.textContent = `#${j}`;
      this.runout[`#${j}`] = c;
    }
    this.infield = svg("g", { class: "vd-infield" }, root);
    this.decor = svg("g", { class: "vd-decor" }, root);
    this.riderLayer = svg("g", { class: "vd-riders" }, root);
    this.lists = svg("g", { class: "vd-lists" }, root);
    this.overlay = svg("g", { class: "vd-overlay" }, root);
  }

  // ------------------------------------------------------------------ the position (dynamic)

  /** The loop space or run-out key of a target key (`47` -> loop space 7, `#3`). */
  cellOf(key, track) {
    const s = String(key);
    if (s.startsWith("#")) return this.runout[s] ? s : null;
    const d = Number(s);
    if (!Number.isInteger(d) || d < 1) return null;
    if (d > track.distance) return `#${d - track.distance}`;
    return loopSpace(d, track.lap);
  }

  /** The centre of a square: distance `d` in lane `lane` (0-based); null off the loop. */
  centre(d, lane, track) {
    if (d > track.distance) return null;
    return this.point(this.g, loopSpace(d, track.lap) - 0.5, Math.min(lane, this.g.lanes - 1) + 0.5);
  }

  /**
   * Draw `snap`: `targets` maps keys (`47`, `#3`, `rider:AS1`) to {describe, kind} to
   * light and make clickable; `hints` are keys to mark (the last ride's target).
   */
  render(snap, { targets = new Map(), hints = [] } = {}) {
    this.snap = snap;
    const track = (this.track = trackOf(snap));
    this.build(snap, track);
    for (const c of [...Object.values(this.cells), ...Object.values(this.runout)]) {
      c.classList.remove("legal", "hint", "full", "hold", "wheel");
      if (c.dataset.space) delete c.dataset.square;
      const old = c.querySelector("title.vd-why");
      if (old) old.remove();
    }
    for (const layer of [this.infield, this.decor, this.riderLayer, this.lists, this.overlay]) while (layer.firstChild) layer.removeChild(layer.firstChild);
    // Lit targets: the nearest target on each loop space lights the space; a farther
    // one a lap on gets a chip outside the loop.
    const taken = new Set();
    const order = [...targets.entries()].filter(([k]) => !k.startsWith("rider:")).sort((a, b) => this.distanceOf(a[0], track) - this.distanceOf(b[0], track));
    for (const [key, info] of order) {
      const cell = this.cellOf(key, track);
      if (cell === null) continue;
      if (typeof cell === "number" && taken.has(cell)) {
        this.chip(key, info, cell);
        continue;
      }
      taken.add(cell);
      const c = typeof cell === "number" ? this.cells[cell] : this.runout[cell];
      c.dataset.square = key;
      c.classList.add("legal");
      if (info.kind) c.classList.add(info.kind);
      const t = svg("title", { class: "vd-why" }, c);
      t.textContent = info.describe || "";
    }
    for (const key of hints) {
      const cell = this.cellOf(key, track);
      const c = cell === null ? null : typeof cell === "number" ? this.cells[cell] : this.runout[cell];
      if (c) c.classList.add("hint");
    }
    this.drawLines(snap, track);
    const at = this.drawRiders(snap, track, targets);
    this.drawPacer(track);
    this.drawInfield(snap, track);
    this.drawLists(snap);
    this.drawAction(snap, at);
    this.markHints(hints, at, track);
    this.animate(snap, track);
    this.root.dataset.lap = String(track.lap);
    this.root.dataset.distance = String(track.distance);
    this.root.dataset.pacer = track.pacer === null ? "" : String(track.pacer);
  }

  /** Riders who moved along the loop since the last drawing ride there: each slides
   * round the track from its old square to its new one (not with reduced motion, nor
   * for a jump of more than a lap, as in a replay). */
  animate(snap, track) {
    if (this.anim) cancelAnimationFrame(this.anim);
    this.anim = null;
    const now = {};
    for (const r of snap.riders || []) {
      if (typeof r.position === "number") now[r.id] = [r.position, Math.max(0, LANES.indexOf(r.lane))];
    }
    const before = this.placed || {};
    this.placed = now;
    if (!window.requestAnimationFrame || (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    const on = (d) => d >= 1 && d <= track.distance;
    const moving = [];
    for (const [id, [d1, l1]] of Object.entries(now)) {
      const was = before[id];
      if (!was || (was[0] === d1 && was[1] === l1) || !on(was[0]) || !on(d1) || d1 < was[0] || d1 - was[0] > track.lap) continue;
      const node = this.riderLayer.querySelector(`[data-rider="${id}"]`);
      if (node) moving.push({ node, d0: was[0], l0: was[1], d1, l1, end: node.getAttribute("transform") });
    }
    if (!moving.length) return;
    const start = performance.now();
    const ms = 450;
    const step = (time) => {
      const t = Math.min(1, (time - start) / ms);
      const e = 1 - (1 - t) ** 3; // ease out
      for (const m of moving) {
        if (t >= 1) {
          m.node.setAttribute("transform", m.end);
          continue;
        }
        const u = loopSpace(m.d0, track.lap) - 0.5 + (m.d1 - m.d0) * e;
        const [x, y] = this.point(this.g, u, m.l0 + (m.l1 - m.l0) * e + 0.5);
        m.node.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
      }
      this.anim = t < 1 ? requestAnimationFrame(step) : null;
    };
    this.anim = requestAnimationFrame(step);
  }

  distanceOf(key, track) {
    const s = String(key);
    return s.startsWith("#") ? track.distance + Number(s.slice(1)) : Number(s);
  }

  /** A lit target a lap beyond another on its loop space: a chip outside the loop. */
  chip(key, info, space) {
    const g = this.g;
    const [x, y] = this.point(g, space - 0.5, g.lanes + 1.1);
    const c = svg("g", { class: `vd-chip legal ${info.kind || ""}`, "data-square": key, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` }, this.overlay);
    svg("rect", { x: -15, y: -9, width: 30, height: 18, rx: 9, class: "vd-chip-back" }, c);
    const t = svg("text", { y: 3.5, class: "vd-chip-text" }, c);
    t.textContent = key;
    const title = svg("title", { class: "vd-why" }, c);
    title.textContent = `${info.describe || key} (a lap further on)`;
  }

  /** Each line mark: the next line at that place, its kind and what it pays. */
  drawLines(snap, track) {
    const lead = leaderDistance(snap, track);
    const next = nextLine(snap, track);
    for (const [u, mark] of Object.entries(this.lineMarks)) {
      const here = track.lines.filter((l) => l.at % track.lap === Number(u));
      const coming = here.find((l) => l.at >= lead) || null;
      mark.group.setAttribute("class", `vd-line ${coming ? coming.kind : "start"}${coming && coming === next ? " next" : ""}`);
      mark.group.dataset.line = coming ? `${coming.kind}-${coming.at}` : "";
      mark.label.textContent = coming ? `${coming.kind}${coming.kind === "finish" ? "" : ` ${track.lines.indexOf(coming) + 1}/${track.lines.length - 1}`}` : Number(u) === 0 ? "start" : "";
      mark.title.textContent = coming ? `${lineName(coming, track)}: ${paysText(coming)}` : "start line";
    }
  }

  drawRiders(snap, track, targets) {
    const g = this.g;
    const cells = new Map();
    const waiting = [];
    const runout = [];
    for (const r of snap.riders || []) {
      if (typeof r.position !== "number") continue;
      if (r.position === 0) waiting.push(r);
      else if (r.position > track.distance) runout.push(r);
      else {
        const lane = Math.max(0, LANES.indexOf(r.lane));
        const k = `${loopSpace(r.position, track.lap)}/${lane}`;
        if (!cells.has(k)) cells.set(k, { centre: this.centre(r.position, lane, track), riders: [] });
        cells.get(k).riders.push(r);
      }
    }
    const at = {};
    this.risk = atRisk(snap, track);
    const size = g.w;
    // Riders of different worlds on one square (a pursuit's two riders) share it, smaller.
    for (const cell of cells.values()) {
      const n = cell.riders.length;
      const R = n === 1 ? size * 0.34 : size * 0.22;
      cell.riders.forEach((r, i) => {
        const off = n === 1 ? 0 : (i - (n - 1) / 2) * R * 1.6;
        const [x, y] = g.vertical ? [cell.centre[0], cell.centre[1] + off] : [cell.centre[0] + off, cell.centre[1]];
        at[r.id] = [x, y, R];
        this.drawRider(snap, r, x, y, R, targets.get(`rider:${r.id}`), track);
      });
    }
    // The run-out: riders past the line this round, in arrival lanes.
    const byCell = {};
    for (const r of runout) (byCell[r.position - track.distance] ||= []).push(r);
    for (const [j, list] of Object.entries(byCell)) {
      const b = this.runoutCell(Number(j));
      list.sort((p, q) => LANES.indexOf(p.lane) - LANES.indexOf(q.lane));
      const R = Math.min(9, b.h / 3);
      list.forEach((r, i) => {
        const x = g.vertical ? b.x + b.w / 2 : b.x + 30 + i * (R * 2.1);
        const y = g.vertical ? b.y + 20 + i * (R * 2.1) : b.y + b.h / 2 + 2;
        at[r.id] = [x, y, R];
        this.drawRider(snap, r, x, y, R, targets.get(`rider:${r.id}`), track);
      });
    }
    // Riders still on the start line wait in the infield, along the line, lane order.
    waiting.sort((p, q) => LANES.indexOf(p.lane) - LANES.indexOf(q.lane));
    const R = 9;
    const step = 2 * R + 4;
    // In rows along the line: across the lying loop's straight, across the upright
    // loop's narrow infield.
    const perRow = g.vertical ? Math.max(3, Math.floor((2 * g.inner - 24) / step)) : 6;
    const [lx, ly] = g.vertical ? [g.cy - g.inner + 2, g.cx0 + 6] : [g.cx0 + 4, g.cy - g.inner + 8];
    waiting.forEach((r, i) => {
      const row = Math.floor(i / perRow);
      const col = i % perRow;
      const [x, y] = [lx + 14 + col * step, ly + 24 + row * step];
      at[r.id] = [x, y, R];
      this.drawRider(snap, r, x, y, R, targets.get(`rider:${r.id}`), track);
    });
    if (waiting.length) {
      // After the row (under the rows of the upright loop): the rider due's dice
      // stand above it.
      const across = Math.min(waiting.length, perRow) * step;
      const rows = Math.ceil(waiting.length / perRow);
      const at = g.vertical ? { x: lx + 6, y: ly + 24 + rows * step } : { x: lx + 8 + across, y: ly + 28 };
      const t = svg("text", { ...at, class: "vd-wait-label", "text-anchor": "start" }, this.infield);
      t.textContent = "on the start line";
    }
    return at;
  }

  drawRider(snap, r, cx, cy, R, target, track) {
    const cls = ["rider", "cy-rider", "vd-rider"];
    if (r.due) cls.push("current");
    if (r.turn_over && snap.phase !== "over") cls.push("done");
    if (target) cls.push("legal", target.kind || "pick");
    if (r.id === this.risk) cls.push("at-risk");
    const laps = typeof r.laps === "number" ? r.laps : lapsRidden(Math.min(r.position, track.distance), track.lap);
    const grp = svg("g", {
      class: cls.join(" "), "data-rider": r.id, "data-team": r.team, "data-at": r.square || "", "data-laps": String(laps),
      "data-space": r.position > 0 && r.position <= track.distance ? String(loopSpace(r.position, track.lap)) : "",
      transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`,
    }, this.riderLayer);
    if (target) grp.dataset.square = `rider:${r.id}`;
    const where = r.position === 0 ? "on the start line" : r.position > track.distance ? `past the finish, on ${r.square}` : `on ${r.square}: loop space ${loopSpace(r.position, track.lap)}, ${laps} lap${laps === 1 ? "" : "s"} ridden`;
    const title = svg("title", {}, grp);
    title.textContent = `${r.id} of team ${r.team} ${where}` + (snap.level === "pro" ? `, ${r.tokens} token${r.tokens === 1 ? "" : "s"}` : "")
      + (r.points ? `, ${r.points} points` : "") + (r.turn_over ? " · turn over" : "") + (target && target.describe ? ` — ${target.describe}` : "")
      + (r.id === this.risk ? " · last: out at the next elimination line if still last" : "");
    if (r.id === this.risk) svg("circle", { r: R * 1.3 + 2, class: "vd-risk-ring" }, grp);
    if (r.due) svg("circle", { r: R * 1.55 + 3, class: "halo" }, grp);
    if (target) svg("circle", { r: R * 1.5 + 2, class: "cy-pick-ring" }, grp);
    piece(grp, r.id, R);
    if (R < 7 || r.position === 0) return;
    // The laps ridden, under the rider; its tokens beside it.
    const b = svg("g", { class: "vd-laps", transform: `translate(${-R * 0.95} ${R * 0.85})` }, grp);
    svg("rect", { x: -7, y: -5.5, width: 14, height: 11, rx: 3 }, b);
    const t = svg("text", { y: 3 }, b);
    t.textContent = `${laps}`;
    if (snap.level === "pro" && r.tokens) {
      const k = svg("g", { class: "cy-tokens", transform: `translate(${R * 0.95} ${R * 0.85})` }, grp);
      svg("circle", { r: 6 }, k);
      const n = svg("text", { y: 3 }, k);
      n.textContent = String(r.tokens);
    }
  }

  /** The keirin pacer ahead of the riders, and the mark none of them may reach. */
  drawPacer(track) {
    if (track.pacer === null || track.pacer <= 0) return;
    const g = this.g;
    const space = loopSpace(track.pacer, track.lap);
    const m = svg("g", { class: "vd-pacer", "data-testid": "pacer", "data-distance": String(track.pacer), "data-space": String(space) }, this.decor);
    // Riders stop short of the pacer's space: the bar marks where it begins.
    this.bar(g, space - 1, -0.3, g.lanes + 0.3, { class: "vd-pacer-bar" }, m);
    // Outside the loop when it lies down (the infield holds the race's words); in the
    // infield of the upright loop, whose outside is the screen's edge.
    const [x, y] = this.point(g, space - 0.5, g.vertical ? -0.9 : g.lanes + 0.9);
    const bike = svg("g", { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` }, m);
    svg("rect", { x: -17, y: -8, width: 34, height: 16, rx: 8, class: "vd-pacer-body" }, bike);
    const t = svg("text", { y: 3.5, class: "vd-pacer-text" }, bike);
    t.textContent = "pacer";
    const title = svg("title", {}, m);
    title.textContent = `the keirin pacer at ${track.pacer}: no rider may reach it, and no token is spent while it rides`;
  }

  /** The infield: round, laps to go, the next line and what it pays. */
  drawInfield(snap, track) {
    const g = this.g;
    const [mx, my] = this.screen(g, (g.cx0 + g.cx1) / 2, g.cy);
    const low = g.vertical ? 24 : 14; // under the riders waiting on the line
    const title = svg("text", { x: mx, y: my - 8 + low, class: "vd-infield-title", "data-testid": "laps-to-go" }, this.infield);
    title.textContent = lapsToGo(snap, track);
    const sub = svg("text", { x: mx, y: my + 5 + low, class: "vd-infield-sub" }, this.infield);
    sub.textContent = snap.is_over ? "" : `round ${snap.round} · ${lapsWord(track.distance, track.lap)}`;
    const next = nextLine(snap, track);
    if (next && !snap.is_over) {
      const n = svg("text", { x: mx, y: my + 19 + low, class: `vd-infield-next ${next.kind}`, "data-testid": "next-line" }, this.infield);
      n.textContent = `next: ${lineName(next, track)}`;
      const p = paysText(next);
      if (p) {
        const q = svg("text", { x: mx, y: my + 31 + low, class: "vd-infield-sub" }, this.infield);
        q.textContent = p;
      }
    }
  }

  /** Beside the loop: the finished riders by place, then the eliminated, first out first. */
  drawLists(snap) {
    const s = this.g.side;
    const finish = (snap.finish || []).map((f) => f.rider);
    const listed = (snap.result || {}).eliminated || [];
    const flagged = (snap.riders || []).filter((r) => r.out && !listed.includes(r.id)).map((r) => r.id);
    const out = [...listed, ...flagged].filter((id) => !finish.includes(id));
    const x0 = this.g.vertical ? s.x : s.x + 96;
    const y0 = this.g.vertical ? s.y + 66 : s.y;
    const row = (label, ids, y, kind) => {
      const t = svg("text", { x: x0 + 2, y: y + 12, class: "vd-side-title" }, this.lists);
      t.textContent = label;
      const per = this.g.vertical ? Math.max(1, Math.floor(s.w / 46)) : 1;
      ids.forEach((id, i) => {
        const x = x0 + 10 + (i % per) * 46;
        const yy = y + 28 + Math.floor(i / per) * 20;
        const grp = svg("g", { class: `vd-listed ${kind}`, "data-listed": kind, "data-rider": id, transform: `translate(${x} ${yy})` }, this.lists);
        piece(grp, id, 7);
        const n = svg("text", { x: 11, y: 3.5, class: "vd-list-text" }, grp);
        n.textContent = kind === "finished" ? `${i + 1}. ${id}` : id;
        const title = svg("title", {}, grp);
        title.textContent = kind === "finished" ? `${i + 1}. ${id} across the finish` : `${id} eliminated (${i + 1}${i ? "" : "st"} out)`;
      });
      const per2 = this.g.vertical ? Math.max(1, Math.floor(s.w / 46)) : 1;
      return y + 28 + Math.ceil(ids.length / per2) * 20;
    };
    let y = y0;
    if (finish.length || !out.length) y = row("finished", finish, y, "finished");
    if (out.length) row("eliminated", out, this.g.vertical ? y0 + 54 : y + 6, "out");
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
      // Beside the rider, on the infield's side (a rider on the line: above it), so
      // that the dice hide no rider in the lanes.
      const due = (snap.riders || []).find((r) => r.id === snap.due);
      let [bx, by] = [dx - w / 2, dy - R - size - 10];
      if (due && due.position > 0 && due.position <= this.track.distance) {
        const [ix, iy] = this.point(this.g, loopSpace(due.position, this.track.lap) - 0.5, -1.05);
        [bx, by] = [ix - w / 2, iy - (size + 4) / 2];
      }
      const g = svg("g", {
        class: `cy-board-dice${fresh ? " fresh" : ""}`, "data-testid": "board-dice", "data-dice": dice.join(","),
        transform: `translate(${bx.toFixed(1)} ${by.toFixed(1)})`,
      }, this.overlay);
      svg("rect", { x: -2, y: -2, width: w + 4, height: size + 7, rx: 5, class: "cy-dice-back" }, g);
      dice.forEach((v, i) => dieFace(g, v, 3 + i * (size + 3), 1.5, size));
    }
    if (snap.phase === "wheel" && snap.leader && at[snap.leader]) {
      const [lx, ly] = at[snap.leader];
      svg("path", { d: `M${dx} ${dy} L${lx} ${ly}`, class: "cy-wheel-path" }, this.decor);
    }
    if (snap.phase === "answer" && snap.proposer && at[snap.proposer]) {
      const [px, py] = at[snap.proposer];
      svg("path", { d: `M${px} ${py} L${dx} ${dy}`, class: "cy-swap-path" }, this.decor);
    }
  }

  /** A rules diagram's highlights: a square outlined, a rider ringed. */
  markHints(hints, at, track) {
    for (const key of hints) {
      const s = String(key);
      const square = SQUARE.exec(s);
      if (square && Number(square[2]) > 0) {
        const c = this.centre(Number(square[2]), LANES.indexOf(square[1]), track);
        if (c) svg("circle", { cx: c[0], cy: c[1], r: this.g.w * 0.45, class: "cy-hint-ring", "data-hint": s }, this.decor);
      } else if (at[s]) {
        const [x, y, R] = at[s];
        svg("circle", { cx: x, cy: y, r: R * 1.5 + 2, class: "cy-hint-ring", "data-hint": s }, this.decor);
      }
    }
  }

  /** The loop always fits its frame: nothing to scroll. */
  focus() {}
}
