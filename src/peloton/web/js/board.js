// @ts-check
// The Mind Cycling road as SVG: a horizontal road read left to right (start on the
// left, finish on the right), lane `a` on top — a rider riding to the right has lane a
// on its left (MC-1.1). The board scrolls horizontally; `scrollToAction` follows play.
// It zooms (board_nav.js draws the zoom buttons and the overview strip of the whole
// course), and its lane letters stay at the left edge while the road scrolls.

import { svg, el, teamColour } from "./ui.js";
import { BoardNav } from "./board_nav.js";

export const TYPE_NAMES = { D: "domestique", S: "sprinter", C: "climber" };

const LANES = "abcdefghijklmnopqrstuvwxyz";
export const HELMETS = { D: "#1d4ed8", S: "#16a34a", C: "#facc15" };
export const BASE_BOTTLE = "#38bdf8";
export const BASE_EMPTY = "#111827";
/** MC-5.5: the lane offset of a rider's shelter square for each wind. */
const SHELTER = { front: 0, left: -1, right: 1 };
export const ZOOMS = [0.4, 0.5, 0.64, 0.8, 1, 1.25, 1.6, 2];
export const SECTION_FILL = { start: "#eceff3", plain: "#e3edfc", sprint: "#e0f5e6", mountain: "#fdf1cf" };
const SECTION_INK = { start: "#5b6472", plain: "#1d4ed8", sprint: "#15803d", mountain: "#a16207" };
const SECTION_LABEL = { start: "START", plain: "PLAIN", sprint: "SPRINT", mountain: "MOUNTAIN" };

/** Section type of every road row 1..finish-1 (rows before the first tab: start). */
export function sectionRows(course) {
  const out = {};
  const tabs = [...(course.sections || [])].sort((a, b) => a[0] - b[0]);
  for (let r = 1; r < course.finish; r++) {
    let kind = "start";
    for (const [row, type] of tabs) if (r >= row) kind = type;
    out[r] = kind;
  }
  return out;
}

/** The stretches of road rows of one section type, in row order: {kind, start, end}. */
function stretches(sections, rows) {
  const out = [];
  let start = 1;
  for (let r = 1; r <= rows; r++) {
    if (r === rows || sections[r + 1] !== sections[r]) {
      out.push({ kind: sections[r], start, end: r });
      start = r + 1;
    }
  }
  return out;
}

const stretchKey = ({ kind, start, end }) => `${kind}:${start}:${end}`;

/** The side of a square, in board units: smaller on a phone. */
function cellSize() {
  const small = window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
  return small ? 38 : 44;
}

const BAND_Y = 6; // the top of the section bands, above the road

export function parseSquare(name) {
  if (!name || name === "#") return null;
  return { lane: LANES.indexOf(name[0]), row: Number(name.slice(1)) };
}

function squareName(lane, row) {
  return lane >= 0 && lane < LANES.length ? `${LANES[lane]}${row}` : null;
}

/**
 * Where rider `r`'s train link ends (MC-6.1, 6.4): the square it would take the wheel
 * on. Before its leader has moved that is its shelter square, where the leader still
 * stands; once the leader has moved, the square directly behind the leader's new
 * square (one row back along the shelter direction). `null` without a leader on the
 * road.
 */
export function linkEnd(snap, r) {
  if (!r || !r.leader || !r.square) return null;
  const lead = (snap.riders || []).find((o) => o.id === r.leader);
  if (!lead || !lead.square || lead.finished) return null;
  const dl = SHELTER[snap.wind] || 0;
  const p = parseSquare(r.square);
  const shelter = squareName(p.lane + dl, p.row + 1);
  // A leader that stayed (MC-5.3) is still on the shelter square: nothing to follow yet.
  if (!lead.moved || lead.square === shelter) return shelter;
  const q = parseSquare(lead.square);
  return squareName(q.lane - dl, q.row - 1);
}

/**
 * One rider as an SVG group at (0, 0), the way the board draws it: the base ring (blue
 * with a bottle, black without: MC-2.4), the body in the team's colour with the team
 * letter and disc number (`A1`: colour is never the only sign of the team), the helmet
 * in the type's colour towards the direction of travel, and the marks `z` (exhausted)
 * and gusts (against the wind). `opts`: {R, wind: the wind's direction for the gusts,
 * marks: whether to draw the round's marks}. The legend draws its samples with it too.
 */
export function drawRider(parent, r, { R = 17.6, wind = null, marks = true } = {}) {
  const g = svg("g", {}, parent);
  svg("circle", { r: R, fill: r.bottle ? BASE_BOTTLE : BASE_EMPTY, class: "base" }, g);
  svg("circle", { r: R - 4.5, fill: teamColour(r.team), class: "body" }, g);
  svg("ellipse", { cx: R * 0.5, cy: 0, rx: R * 0.25, ry: R * 0.32, fill: HELMETS[r.type] || "#999", class: "helmet" }, g);
  const label = svg("text", { x: -R * 0.24, y: R * 0.2, class: "rider-label" }, g);
  label.textContent = `${r.team || ""}${(r.id || "").slice(2)}`;
  if (marks && r.exhausted) {
    const z = svg("text", { x: R - 2, y: R + 1, class: "tired" }, g);
    z.textContent = "z";
  }
  if (marks && r.wind) {
    // Wind mark: gusts on the windward side (MC-5.4/5.5: in front, or front-left/right).
    const dy = wind === "left" ? -R * 0.9 : wind === "right" ? R * 0.9 : 0;
    const wg = svg("g", { class: "wind-mark", transform: `translate(${R + 2} ${dy - 3})` }, g);
    svg("path", { d: "M0 0 q3 -3 6 0 t6 0", class: "gust" }, wg);
    svg("path", { d: "M0 6 q3 -3 6 0 t6 0", class: "gust" }, wg);
  }
  return g;
}

export class Board {
  /**
   * @param {HTMLElement} host  the scrolling container the SVG goes in
   * @param {{onSquare?: (sq: string) => void, onHover?: (sq: string|null) => void,
   *   nav?: boolean}} handlers  `nav: false` leaves out the zoom buttons and overview strip
   */
  constructor(host, handlers = {}) {
    this.host = host;
    this.handlers = handlers;
    this.course = null;
    this.lastFocus = null;
    this.cell = 44;
    this.zoom = 1;
    this.snap = null;
    // The lane letters: a zero-size sticky box at the scroller's left edge, so they stay
    // in view however far the road is scrolled.
    this.rail = el("div", { class: "lane-rail", "aria-hidden": "true", dataset: { testid: "lane-rail" } });
    host.append(this.rail);
    host.classList.add("mc-scroll"); // pinch zooms the board, not the page (board_nav.js)
    this.root = svg("svg", { class: "board", role: "img", "data-testid": "board" });
    host.append(this.root);
    this.nav = handlers.nav === false || !host.parentNode ? null : new BoardNav(this);
    this.root.addEventListener("click", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (target && this.handlers.onSquare) this.handlers.onSquare(target.dataset.square);
    });
    this.root.addEventListener("mouseover", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (this.handlers.onHover) this.handlers.onHover(target ? target.dataset.square : null);
    });
    this.root.addEventListener("mouseleave", () => this.handlers.onHover && this.handlers.onHover(null));
  }

  // ------------------------------------------------------------------ geometry

  x(row) {
    return this.left + (row - 1) * this.cell;
  }

  y(lane) {
    return this.top + lane * this.cell;
  }

  centre(square) {
    const p = parseSquare(square);
    return [this.x(p.row) + this.cell / 2, this.y(p.lane) + this.cell / 2];
  }

  // ------------------------------------------------------------------ course (static layer)

  setCourse(course) {
    this.course = course;
    this.cell = cellSize();
    const c = this.cell;
    this.left = 54;
    this.top = 34;
    this.finishWidth = Math.round(c * 1.7);
    const rows = course.finish - 1;
    const lanes = course.lanes || 5;
    this.width = this.left + rows * c + this.finishWidth + 16;
    this.height = this.top + lanes * c + 30;
    this.root.setAttribute("viewBox", `0 0 ${this.width} ${this.height}`);
    this.applyZoom();
    this.root.setAttribute("aria-label", `course ${course.name || ""}: ${rows} rows, ${lanes} lanes`);
    while (this.root.firstChild) this.root.removeChild(this.root.firstChild);

    const defs = svg("defs", {}, this.root);
    const chk = svg("pattern", { id: "chequer", width: 12, height: 12, patternUnits: "userSpaceOnUse" }, defs);
    svg("rect", { width: 12, height: 12, fill: "#fff" }, chk);
    svg("rect", { width: 6, height: 6, fill: "#111" }, chk);
    svg("rect", { x: 6, y: 6, width: 6, height: 6, fill: "#111" }, chk);

    const sections = sectionRows(course);
    this.sections = sections;
    const road = svg("g", { class: "road" }, this.root);
    // Section bands above the road, one group per stretch of the same type.
    this.bands = svg("g", { class: "bands" }, road);
    for (const stretch of stretches(sections, rows)) this.drawBand(stretch);
    // The squares.
    const rocks = new Set(course.rocks || []);
    this.squares = {};
    const squares = svg("g", { class: "squares" }, road);
    for (let r = 1; r <= rows; r++) {
      for (let l = 0; l < lanes; l++) squares.append(this.drawSquare(r, l, rocks));
    }
    // Feed zones and rocks.
    this.things = svg("g", { class: "things" }, road);
    for (const name of new Set(course.feed || [])) this.drawFeed(name);
    for (const name of rocks) this.drawRock(name);
    // Lane letters on the left, row numbers below.
    const labels = svg("g", { class: "labels" }, road);
    for (let l = 0; l < lanes; l++) {
      const t = svg("text", { x: this.left - 30, y: this.y(l) + c / 2 + 4, class: "lane-label" }, labels);
      t.textContent = LANES[l];
    }
    for (let r = 1; r <= rows; r++) {
      const t = svg("text", { x: this.x(r) + c / 2, y: this.y(lanes) + 16, class: "row-label" }, labels);
      t.textContent = r;
    }
    const startText = svg("text", { x: 10, y: this.y(lanes) + 16, class: "row-label start-label" }, labels);
    startText.textContent = "row";
    this.drawRail();
    // The finish line and the area beyond it: the "#" target of a crossing move.
    const fx = this.x(course.finish);
    svg("rect", { x: fx, y: this.top, width: 12, height: lanes * c, fill: "url(#chequer)", stroke: "#111", "stroke-width": 1 }, road);
    const zone = svg("rect", {
      x: fx + 14, y: this.top + 1, width: this.finishWidth - 16, height: lanes * c - 2, rx: 6,
      class: "sq finish-zone", "data-square": "#",
    }, road);
    this.squares["#"] = zone;
    // The finish's name goes in the band above the road and the row under it: the zone
    // itself holds the riders across the line, and nothing may cover them.
    svg("rect", { x: fx, y: BAND_Y, width: this.finishWidth, height: 20, rx: 4, class: "finish-flag" }, road);
    const ft = svg("text", { x: fx + this.finishWidth / 2, y: BAND_Y + 14.5, class: "band-label finish-label", "data-testid": "finish-label" }, road);
    ft.textContent = "FINISH";
    const fb = svg("text", { x: fx + 14 + (this.finishWidth - 16) / 2, y: this.y(lanes) + 16, class: "row-label finish-row" }, labels);
    fb.textContent = `row ${course.finish}`;

    this.links = svg("g", { class: "links" }, this.root);
    this.riders = svg("g", { class: "riders" }, this.root);
    this.overlay = svg("g", { class: "overlay" }, this.root);
    if (this.nav) this.nav.setCourse(course);
  }

  /**
   * Draw `course` over the course drawn, changing only what differs (the course
   * editor's redraw after an edit): when its rows, lanes and square size are the same,
   * the stretches of section whose rows changed, the fill of the squares whose section
   * changed, and the feed zones and rocks put down or taken away; else the whole road
   * again (setCourse). The riders' layers are kept.
   */
  updateCourse(course) {
    const old = this.course;
    const lanes = course.lanes || 5;
    if (!old || !this.squares || old.finish !== course.finish || (old.lanes || 5) !== lanes || cellSize() !== this.cell) {
      this.setCourse(course);
      return;
    }
    this.course = course;
    const rows = course.finish - 1;
    this.root.setAttribute("aria-label", `course ${course.name || ""}: ${rows} rows, ${lanes} lanes`);
    const before = this.sections;
    const sections = sectionRows(course);
    this.sections = sections;
    let moved = false;
    for (let r = 1; r <= rows; r++) {
      if (sections[r] === before[r]) continue;
      moved = true;
      // A fill changed in place fades (the squares' CSS transition, there for the
      // table's lit squares) unless the page turns it off, as the editor's does:
      // a thousand fades at once cost far more than the new fills.
      for (let l = 0; l < lanes; l++) this.squares[`${LANES[l]}${r}`].setAttribute("fill", SECTION_FILL[sections[r]]);
    }
    if (moved) {
      // A stretch is drawn again only when it is new: the others are where they were.
      const kept = new Map();
      for (const g of /** @type {SVGElement[]} */ ([...this.bands.children])) kept.set(g.dataset.stretch, g);
      for (const stretch of stretches(sections, rows)) {
        const key = stretchKey(stretch);
        if (kept.has(key)) kept.delete(key);
        else this.drawBand(stretch);
      }
      for (const g of kept.values()) g.remove();
      if (this.nav) this.nav.setCourse(course);
    }
    const things = [
      { key: "feed", attr: "data-feed", draw: (name) => this.drawFeed(name) },
      { key: "rocks", attr: "data-rock", draw: (name) => this.drawRock(name) },
    ];
    for (const { key, attr, draw } of things) {
      const was = new Set(old[key] || []);
      const now = new Set(course[key] || []);
      for (const name of was) {
        if (now.has(name)) continue;
        const drawn = this.things.querySelector(`[${attr}="${name}"]`);
        if (drawn) drawn.remove();
        if (key === "rocks" && this.squares[name]) this.squares[name].classList.remove("rock");
      }
      for (const name of now) {
        if (was.has(name)) continue;
        draw(name);
        if (key === "rocks" && this.squares[name]) this.squares[name].classList.add("rock");
      }
    }
  }

  /** The square of `row` and `lane` (a rock's when it is in `rocks`), kept in
   * `this.squares` by name; its parent adds it. */
  drawSquare(row, lane, rocks) {
    const c = this.cell;
    const name = `${LANES[lane]}${row}`;
    const rect = svg("rect", {
      x: this.x(row) + 1, y: this.y(lane) + 1, width: c - 2, height: c - 2, rx: 5,
      fill: SECTION_FILL[this.sections[row]], class: rocks.has(name) ? "sq rock" : "sq",
      "data-square": name,
    });
    this.squares[name] = rect;
    return rect;
  }

  /** One stretch of road rows of one section type: its band above the road, its name
   * (again every 12 rows), and its tab (the dashed line where it begins), in row order. */
  drawBand({ kind, start, end }) {
    const c = this.cell;
    const lanes = this.course.lanes || 5;
    const bandY = BAND_Y;
    const x0 = this.x(start);
    const w = (end - start + 1) * c;
    // Drawn whole before it goes in: one node added to the page.
    const g = svg("g", { class: "band", "data-stretch": stretchKey({ kind, start, end }) });
    svg("rect", { x: x0, y: bandY, width: w, height: 20, rx: 4, fill: SECTION_INK[kind], opacity: kind === "start" ? 0.55 : 0.9 }, g);
    const label = svg("text", { x: x0 + 8, y: bandY + 14.5, class: "band-label" }, g);
    label.textContent = `${SECTION_LABEL[kind]}  ${start}–${end}`;
    if (w < 150) label.textContent = SECTION_LABEL[kind];
    // A long stretch names itself again every 12 rows: zoomed in, or on a phone,
    // the band's first label is soon out of view.
    for (let k = start + 12; k <= end - 3; k += 12) {
      const again = svg("text", { x: this.x(k) + 8, y: bandY + 14.5, class: "band-label band-again" }, g);
      again.textContent = SECTION_LABEL[kind];
    }
    if (start > 1) {
      // The tab: a flag at the row where the section begins (MC-1.2).
      svg("path", { d: `M${x0} ${bandY - 2} v${24 + lanes * c + 6}`, class: "tab-line", stroke: SECTION_INK[kind] }, g);
    }
    const next = [...this.bands.children].find((other) => Number(/** @type {SVGElement} */ (other).dataset.stretch.split(":")[1]) > start);
    this.bands.insertBefore(g, next || null);
  }

  /** A feed zone on square `name` (on the road). */
  drawFeed(name) {
    const p = parseSquare(name);
    if (!p || p.row >= this.course.finish) return;
    const c = this.cell;
    const [cx, cy] = [this.x(p.row) + c / 2, this.y(p.lane) + c / 2];
    const g = svg("g", { class: "feed", "data-feed": name });
    svg("rect", { x: cx - 6, y: cy - 10, width: 12, height: 20, rx: 4, fill: "#38bdf8", stroke: "#0369a1", "stroke-width": 1.5 }, g);
    svg("rect", { x: cx - 3, y: cy - 14, width: 6, height: 5, rx: 1, fill: "#0369a1" }, g);
    const t = svg("text", { x: cx, y: cy + c / 2 - 3, class: "feed-label" }, g);
    t.textContent = "feed";
    this.things.append(g);
  }

  /** A rocky mountain on square `name` (on the road). */
  drawRock(name) {
    const p = parseSquare(name);
    if (!p || p.row >= this.course.finish) return;
    const c = this.cell;
    const x0 = this.x(p.row);
    const y0 = this.y(p.lane);
    const g = svg("g", { class: "rock", "data-rock": name });
    svg("path", {
      d: `M${x0 + 5} ${y0 + c - 7} L${x0 + c * 0.38} ${y0 + 9} L${x0 + c * 0.55} ${y0 + c * 0.42} L${x0 + c * 0.68} ${y0 + 15} L${x0 + c - 5} ${y0 + c - 7} Z`,
      fill: "#78716c", stroke: "#44403c", "stroke-width": 1.5,
    }, g);
    svg("path", { d: `M${x0 + c * 0.31} ${y0 + 19} L${x0 + c * 0.38} ${y0 + 9} L${x0 + c * 0.46} ${y0 + 18}`, fill: "#f5f5f4" }, g);
    this.things.append(g);
  }

  /** The lane letters of the sticky rail, placed at the lanes' height at this zoom. */
  drawRail() {
    while (this.rail.firstChild) this.rail.removeChild(this.rail.firstChild);
    if (!this.course) return;
    const lanes = this.course.lanes || 5;
    const z = this.zoom;
    for (let l = 0; l < lanes; l++) {
      this.rail.append(el("span", {
        class: "lane-letter", dataset: { lane: LANES[l] },
        style: { top: `${(this.y(l) + this.cell / 2) * z}px`, "font-size": `${Math.max(10, Math.min(15, 13 * z))}px` },
      }, LANES[l]));
    }
  }

  // ------------------------------------------------------------------ zoom

  /** Set the zoom (a factor of the natural size), keeping `anchorX` (a host x, CSS
   * pixels; default the centre of the view) over the same point of the road. */
  setZoom(zoom, anchorX = null) {
    const z = Math.max(ZOOMS[0], Math.min(ZOOMS[ZOOMS.length - 1], zoom));
    if (!this.course || z === this.zoom) return;
    const ax = anchorX === null ? this.host.clientWidth / 2 : anchorX;
    const point = (this.host.scrollLeft + ax) / this.zoom; // board units under the anchor
    this.zoom = z;
    this.applyZoom();
    this.host.scrollLeft = Math.max(0, point * z - ax);
    if (this.nav) this.nav.update();
  }

  /** One step in (`+1`) or out (`-1`) of ZOOMS. */
  stepZoom(dir, anchorX = null) {
    const i = ZOOMS.findIndex((z) => z >= this.zoom - 1e-9);
    const next = ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? ZOOMS.length - 1 : i) + dir))];
    this.setZoom(next, anchorX);
  }

  applyZoom() {
    if (!this.width) return;
    this.root.setAttribute("width", Math.round(this.width * this.zoom));
    this.root.setAttribute("height", Math.round(this.height * this.zoom));
    this.root.dataset.zoom = String(this.zoom);
    this.drawRail();
  }

  // ------------------------------------------------------------------ position (dynamic layer)

  /**
   * Draw `snap` (a protocol snapshot). `targets` maps square -> {describe, kind} for the
   * squares to light up and make clickable; `hints` are squares to mark without click.
   */
  render(snap, { targets = new Map(), hints = [], mine = null } = {}) {
    if (!this.course || !snap) return;
    this.snap = snap;
    for (const rect of Object.values(this.squares)) {
      rect.classList.remove("legal", "attack", "place", "hint", "train", "wheel", "relay");
      rect.removeAttribute("data-kind");
      const old = rect.querySelector("title");
      if (old) old.remove();
    }
    for (const [square, info] of targets) {
      const rect = this.squares[square];
      if (!rect) continue;
      rect.classList.add("legal");
      if (info.kind) {
        rect.classList.add(...info.kind.split(" "));
        rect.dataset.kind = info.kind;
      }
      if (info.describe) {
        const t = svg("title", {}, rect);
        t.textContent = info.describe;
      }
    }
    for (const square of hints) if (this.squares[square]) this.squares[square].classList.add("hint");

    while (this.links.firstChild) this.links.removeChild(this.links.firstChild);
    while (this.riders.firstChild) this.riders.removeChild(this.riders.firstChild);
    while (this.overlay.firstChild) this.overlay.removeChild(this.overlay.firstChild);
    const c = this.cell;
    const on = (snap.riders || []).filter((r) => r.square && !r.finished && parseSquare(r.square));
    const byId = Object.fromEntries(on.map((r) => [r.id, r]));

    // Train links: from each linked rider to the square it would take the wheel on
    // (MC-6.1, 6.4): its shelter square while the leader has not moved, then the square
    // directly behind the leader's new square — not the leader itself.
    for (const r of on) {
      const lead = r.leader && byId[r.leader];
      // A link matters until the follower has had its turn (MC-4.4, MC-6.3).
      if (!lead || r.moved || snap.phase !== "race") continue;
      const end = linkEnd(snap, r);
      if (!end || !parseSquare(end)) continue;
      const [x1, y1] = this.centre(r.square);
      const [x2, y2] = this.centre(end);
      // A follower that may not follow any more (its leader attacked, MC-7.3) keeps a
      // broken link: the server says so with `follow: false` once the leader has moved.
      const cut = lead.moved && r.follow === false;
      const line = svg("g", { class: `link${cut ? " cut" : ""}`, "data-link": `${r.id}>${lead.id}`, "data-to": end }, this.links);
      svg("line", { x1, y1, x2, y2 }, line);
      svg("circle", { cx: x2, cy: y2, r: c * 0.14, class: "link-end" }, line);
    }

    this.drawFinished(snap);
    for (const r of on) {
      const [cx, cy] = this.centre(r.square);
      const cls = ["rider"];
      if (r.moved && snap.phase === "race") cls.push("moved");
      if (r.id === snap.current_rider) cls.push("current");
      if (mine && r.team === mine) cls.push("mine");
      const g = svg("g", {
        class: cls.join(" "), "data-rider": r.id, "data-team": r.team, "data-at": r.square,
        transform: `translate(${cx} ${cy})`,
      }, this.riders);
      const title = svg("title", {}, g);
      const bits = [`${r.id}: ${TYPE_NAMES[r.type] || r.type} of team ${r.team} on ${r.square}`];
      bits.push(r.bottle ? "has a bottle" : "no bottle");
      if (snap.phase === "race") {
        bits.push(r.wind ? "rides in the wind" : "sheltered");
        if (r.leader) bits.push(`linked to ${r.leader}`);
        if (r.exhausted) bits.push("exhausted");
        if (r.allowance !== null && r.allowance !== undefined) bits.push(`allowance ${r.allowance}`);
        if (r.moved) bits.push("has moved");
      }
      title.textContent = bits.join(" · ");
      const R = c * 0.4;
      if (r.id === snap.current_rider) svg("circle", { r: R + 5, class: "halo" }, g);
      drawRider(g, r, { R, wind: snap.wind, marks: snap.phase === "race" });
    }
    if (this.nav) this.nav.update();
  }

  /** The riders across the line, in finishing order, as small discs past the finish. */
  drawFinished(snap) {
    const places = (snap.result && snap.result.places) || [];
    if (!places.length) return;
    const c = this.cell;
    const lanes = this.course.lanes || 5;
    const x0 = this.x(this.course.finish) + 14;
    const w = this.finishWidth - 16;
    const step = 24;
    const cols = Math.max(1, Math.floor(w / step));
    const rows = Math.max(1, Math.floor((lanes * c - 8) / step));
    const room = cols * rows;
    places.slice(0, room).forEach((rid, i) => {
      const col = i % cols;
      const row = Math.floor(i / cols);
      const cx = x0 + (w - cols * step) / 2 + step * col + step / 2;
      const cy = this.top + 4 + step * row + step / 2;
      const g = svg("g", { class: "finished", "data-finished": rid, transform: `translate(${cx} ${cy})` }, this.riders);
      const t = svg("title", {}, g);
      t.textContent = `${i + 1}. ${rid} (${TYPE_NAMES[rid[1]] || rid[1]})`;
      svg("circle", { r: 10, fill: teamColour(rid[0]), stroke: HELMETS[rid[1]] || "#111", "stroke-width": 3 }, g);
      const label = svg("text", { y: 3.5, class: "place-label" }, g);
      label.textContent = String(i + 1);
    });
    if (places.length > room) {
      const more = svg("text", { x: x0 + w / 2, y: this.top + lanes * c - 4, class: "place-more" }, this.riders);
      more.textContent = `+${places.length - room}`;
    }
  }

  /** Scroll the host so `squares` (or the riders in play) are in view; only when the focus moved. */
  scrollToAction(snap, { force = false, squares = [] } = {}) {
    if (!this.course || !snap) return;
    let rows = squares.map(parseSquare).filter(Boolean).map((p) => p.row);
    const current = (snap.riders || []).find((r) => r.id === snap.current_rider);
    if (current && current.square) rows.push(parseSquare(current.square).row);
    if (!rows.length) {
      rows = (snap.riders || []).filter((r) => r.square).map((r) => parseSquare(r.square).row);
    }
    if (!rows.length) rows = [1];
    if (snap.phase === "over") rows = [this.course.finish];
    const lo = Math.min(...rows);
    const hi = Math.max(...rows);
    const focus = `${lo}-${hi}`;
    if (!force && focus === this.lastFocus) return;
    this.lastFocus = focus;
    const view = this.host.clientWidth;
    const z = this.zoom;
    const x0 = (this.x(lo) - this.cell * 2) * z;
    const x1 = (this.x(hi) + this.cell * 4) * z;
    let left = this.host.scrollLeft;
    if (x0 < left || x1 > left + view) {
      left = x1 - x0 <= view ? x0 - (view - (x1 - x0)) / 3 : x0;
    }
    const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.host.scrollTo({ left: Math.max(0, left), behavior: force || calm ? "auto" : "smooth" });
  }
}
