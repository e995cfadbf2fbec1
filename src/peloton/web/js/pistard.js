// @ts-check
// Pistard at the table: the looping 4-lane track drawn as an oval in SVG (square
// colours, the start/finish line, riders in their team colour ringed by their base
// colour), the dice of the current roll, and the controls: in the first move a die
// for each rider; later a die, then a lit destination square (a bonus variant when
// the same square is reached more than one way). Laps, points and eliminations are
// in the result panel.

import { GameView } from "./gameview.js";
import { el, clear, svg, teamChip, seatLabel, seatOf, teamColour } from "./ui.js";

const LANES = "abcd";
export const SQUARE_FILL = { yellow: "#fde68a", green: "#bbf7d0", blue: "#bfdbfe", red: "#fecaca" };
export const BASE_RING = { yellow: "#eab308", green: "#16a34a", blue: "#2563eb", red: "#dc2626" };

function dieFace(value, { used = false, testid = "die" } = {}) {
  return el("span", { class: `die${used ? " used" : ""}`, dataset: { testid, value: String(value) }, title: used ? "used" : "" }, String(value));
}

export class PistardView extends GameView {
  constructor(host, handlers = {}) {
    super(host, handlers);
    /** @type {number | null} the die value chosen for the due rider */
    this.die = null;
    /** @type {import("./types").PistardMove[] | null} moves that end on the clicked square */
    this.variants = null;
    this.key = ""; // which decision the choices belong to
    this.root = svg("svg", { class: "board pi-board", role: "img", "data-testid": "board" });
    host.append(this.root);
    // At the table the track and the Play panel share one screen (style.css, "Pistard
    // on one screen"): the page is told which game's layout it shows.
    if (host.id === "board-host") document.body.classList.add("pi-table");
    this.root.addEventListener("click", (e) => {
      const target = e.target.closest("[data-square].legal");
      if (target && this.onSquare) this.onSquare(target.dataset.square);
    });
  }

  logHead(round) {
    return round === 1 ? "First move" : `Round ${round}`;
  }

  actor(snap) {
    return snap.due || null;
  }

  waiting(snap) {
    return snap.is_chance ? `Rolling the dice for ${snap.roller || "…"}` : null;
  }

  // ------------------------------------------------------------------ geometry

  geometry(length) {
    const bend = Math.max(2, Math.round(length / 5));
    const top = Math.ceil((length - 2 * bend) / 2);
    const bottom = length - 2 * bend - top;
    const w = 30; // lane width
    const straight = Math.max(top, bottom) * w * 1.05;
    const inner = Math.max(62, (w * bend) / Math.PI - 2 * w); // room in the infield
    const outer = inner + 4 * w;
    const margin = 30;
    // On a narrow (portrait) screen the oval stands upright: the straights run down.
    const vertical = !!(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
    const width = 2 * margin + 2 * outer + straight;
    const height = 2 * margin + 2 * outer;
    return {
      length, bend, top, bottom, w, straight, inner, outer, vertical,
      cx0: margin + outer, cx1: margin + outer + straight, cy: margin + outer,
      width: vertical ? height : width, height: vertical ? width : height,
    };
  }

  /** Screen coordinates of a point of the lying oval (upright: transposed). */
  screen(g, x, y) {
    return g.vertical ? [y, x] : [x, y];
  }

  /** The point `u` rows along the loop (0 = the start line) and `rad` lanes out. */
  point(g, u, rad) {
    const r = g.inner + rad * g.w;
    if (u <= g.top) return this.screen(g, g.cx0 + (u / g.top) * g.straight, g.cy - r);
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

  squarePath(g, row, lane) {
    const pts = [];
    const steps = 4;
    for (let i = 0; i <= steps; i++) pts.push(this.point(g, row - 1 + i / steps, lane));
    for (let i = steps; i >= 0; i--) pts.push(this.point(g, row - 1 + i / steps, lane + 1));
    return `M${pts.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join(" L")} Z`;
  }

  centre(g, square) {
    const lane = LANES.indexOf(square[0]);
    const row = Number(square.slice(1));
    return this.point(g, row - 0.5, lane + 0.5);
  }

  // ------------------------------------------------------------------ drawing

  buildTrack(track) {
    const narrow = !!(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
    const key = JSON.stringify(track.rows) + narrow;
    if (this.trackKey === key) return;
    this.trackKey = key;
    const root = this.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    const g = (this.g = this.geometry(track.length));
    root.setAttribute("viewBox", `0 0 ${g.width.toFixed(0)} ${g.height.toFixed(0)}`);
    root.setAttribute("aria-label", `Pistard track ${track.name}: ${track.length} rows, 4 lanes`);
    root.style.maxWidth = `${Math.round(g.width * 1.45)}px`;
    root.style.aspectRatio = `${g.width.toFixed(0)} / ${g.height.toFixed(0)}`;
    const defs = svg("defs", {}, root);
    const chk = svg("pattern", { id: "pi-chequer", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
    svg("rect", { width: 8, height: 8, fill: "#fff" }, chk);
    svg("rect", { width: 4, height: 4, fill: "#111" }, chk);
    svg("rect", { x: 4, y: 4, width: 4, height: 4, fill: "#111" }, chk);
    svg("path", { d: this.bandPath(g, -0.25, 4.25), class: "pi-apron" }, root);
    this.squares = {};
    const layer = svg("g", { class: "squares" }, root);
    track.rows.forEach((colours, i) => {
      const row = i + 1;
      colours.forEach((colour, lane) => {
        const name = `${LANES[lane]}${row}`;
        const path = svg("path", {
          d: this.squarePath(g, row, lane), class: `sq pi-sq c-${colour}`, fill: SQUARE_FILL[colour] || "#eee",
          "data-square": name, "data-colour": colour,
        }, layer);
        const t = svg("title", {}, path);
        t.textContent = `${name} (${colour})`;
        this.squares[name] = path;
      });
    });
    // Row numbers inside the infield, every five rows and row 1.
    const labels = svg("g", { class: "labels" }, root);
    for (let row = 1; row <= track.length; row++) {
      if (row !== 1 && row % 5 !== 0) continue;
      const [x, y] = this.point(g, row - 0.5, 4.6);
      const t = svg("text", { x, y: y + 3, class: "pi-row-label" }, labels);
      t.textContent = String(row);
    }
    // The start/finish line before row 1, and the lane letters beside it.
    const [x0, y0] = this.point(g, 0, 0);
    const [x1, y1] = this.point(g, 0, 4);
    if (g.vertical) svg("rect", { x: x1, y: y0 - 4, width: x0 - x1, height: 8, fill: "url(#pi-chequer)", class: "pi-line" }, root);
    else svg("rect", { x: x0 - 4, y: y1, width: 8, height: y0 - y1, fill: "url(#pi-chequer)", class: "pi-line" }, root);
    for (let lane = 0; lane < 4; lane++) {
      const [x, y] = this.point(g, 0, lane + 0.5);
      const t = svg("text", g.vertical ? { x, y: y - 7, class: "pi-lane-label" } : { x: x - 12, y: y + 4, class: "pi-lane-label" }, labels);
      t.textContent = LANES[lane];
    }
    this.infield = svg("g", { class: "pi-infield" }, root);
    this.riderLayer = svg("g", { class: "riders" }, root);
  }

  bandPath(g, from, to) {
    const pts = [];
    for (let i = 0; i <= 160; i++) pts.push(this.point(g, (g.length * i) / 160, to));
    const inner = [];
    for (let i = 160; i >= 0; i--) inner.push(this.point(g, (g.length * i) / 160, from));
    const f = (p) => p.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join(" L");
    return `M${f(pts)} Z M${f(inner)} Z`;
  }

  /**
   * Draw `snap`; `targets` maps square -> {describe} for the squares to light and make
   * clickable, `hints` are squares to mark (the last move's end).
   */
  render(snap, { targets = new Map(), hints = [] } = {}) {
    this.buildTrack(snap.track);
    const g = this.g;
    for (const path of Object.values(this.squares)) path.classList.remove("legal", "hint");
    for (const [square] of targets) if (this.squares[square]) this.squares[square].classList.add("legal");
    for (const square of hints) if (this.squares[square]) this.squares[square].classList.add("hint");
    clear(this.riderLayer);
    clear(this.infield);
    const waiting = [];
    for (const r of snap.riders) {
      if (r.eliminated) continue;
      if (!r.square) {
        waiting.push(r);
        continue;
      }
      const [cx, cy] = this.centre(g, r.square);
      this.drawRider(r, cx, cy, snap, 11);
    }
    // The infield: the round, the riders behind the line, the eliminated ones.
    const [midX, midY] = this.screen(g, (g.cx0 + g.cx1) / 2, g.cy);
    const title = svg("text", { x: midX, y: midY - 30, class: "pi-infield-title" }, this.infield);
    title.textContent = snap.is_over ? "Finished" : snap.round === 1 ? "First move" : `Round ${snap.round}`;
    const sub = svg("text", { x: midX, y: midY - 15, class: "pi-infield-sub" }, this.infield);
    sub.textContent = `target ${snap.options.target} pts · ${snap.options.bonus} bonus`;
    if (waiting.length) {
      // Behind the start line: in rows across the infield.
      const step = 23;
      const across = g.vertical ? 2 * g.inner - 8 : g.straight + g.inner;
      const perRow = Math.max(4, Math.floor(across / step));
      const rows = Math.ceil(waiting.length / perRow);
      waiting.forEach((r, i) => {
        const row = Math.floor(i / perRow);
        const inRow = Math.min(perRow, waiting.length - row * perRow);
        const x0 = midX - ((inRow - 1) * step) / 2;
        this.drawRider(r, x0 + (i % perRow) * step, midY + 14 + (row - (rows - 1) / 2) * step, snap, 10);
      });
    }
  }

  drawRider(r, cx, cy, snap, R) {
    const cls = ["rider", "pi-rider"];
    if (r.due) cls.push("current");
    if (r.moved) cls.push("moved");
    const grp = svg("g", {
      class: cls.join(" "), "data-rider": r.id, "data-team": r.team, "data-at": r.square || "",
      "data-lap": String(r.lap), transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`,
    }, this.riderLayer);
    const t = svg("title", {}, grp);
    t.textContent = `${r.id}: team ${r.team}, ${r.colour} base, ${r.square ? `on ${r.square}, lap ${r.lap}` : "behind the line"}`
      + (r.assigned ? `, die ${r.assigned}` : "");
    if (r.due) svg("circle", { r: R + 4, class: "halo" }, grp);
    // The base ring's colour goes in the style: the shared `.board .rider .body` rule
    // (a white outline for Mind Cycling's discs) would otherwise paint over it.
    const ring = BASE_RING[r.colour] || "#111";
    svg("circle", { r: R, fill: teamColour(r.team), stroke: ring, "stroke-width": 3.5, style: `stroke: ${ring}; stroke-width: 3.5px`, class: "body", "data-base": r.colour || "" }, grp);
    const label = svg("text", { y: 3.5, class: "rider-label" }, grp);
    label.textContent = r.id.slice(1);
    if (r.assigned) {
      const d = svg("text", { x: R + 1, y: -R + 2, class: "pi-assigned" }, grp);
      d.textContent = String(r.assigned);
    }
  }

  // ------------------------------------------------------------------ playing

  /**
   * The legal moves of the snapshot, in the parts the server gives them in.
   * @param {import("./types").PistardSnapshot} snap
   * @returns {import("./types").PistardMove[]}
   */
  legal(snap) {
    return snap.legal_moves || [];
  }

  reset(snap) {
    const key = `${snap.moves_played}`;
    if (key !== this.key) {
      this.key = key;
      this.die = null;
      this.variants = null;
    }
  }

  /**
   * square -> {moves, describe}: where the chosen die may take the due rider.
   * @param {import("./types").PistardSnapshot} snap
   * @param {boolean} myTurn
   * @returns {Map<string, {moves: import("./types").PistardMove[], describe: string}>}
   */
  targets(snap, myTurn) {
    const out = new Map();
    if (!myTurn) return out;
    this.reset(snap);
    const moves = this.legal(snap).filter((m) => m.kind === "ride");
    const dice = [...new Set(moves.map((m) => m.die))];
    if (this.die === null && dice.length === 1) this.die = dice[0];
    for (const m of moves) {
      if (m.die !== this.die) continue;
      const entry = out.get(m.end) || { moves: [], describe: "" };
      entry.moves.push(m);
      entry.describe = entry.moves.map((x) => this.describe(x)).join(" / ");
      out.set(m.end, entry);
    }
    return out;
  }

  /** A move in words (its button's title, a lit square's tip). @param {import("./types").PistardMove} m */
  describe(m) {
    if (m.kind === "assign") return `give the ${m.die} to ${m.rider}`;
    if (m.kind === "stay") return `${m.rider} cannot ride its ${m.die}`;
    const [first, ...bonus] = m.path;
    return bonus.length ? `${m.rider} rides ${m.die} to ${first}, then the bonus to ${bonus.join(", ")}` : `${m.rider} rides ${m.die} to ${first}`;
  }

  /**
   * A click on a lit square: the move to send, or null (variants to choose from).
   * @param {import("./types").PistardSnapshot} snap
   * @param {string} square
   */
  clickSquare(snap, square) {
    const entry = this.targets(snap, true).get(square);
    if (!entry) return null;
    if (entry.moves.length === 1) return entry.moves[0].text;
    this.variants = entry.moves;
    return null;
  }

  /**
   * @param {HTMLElement} box
   * @param {import("./types").PistardSnapshot} snap
   * @param {import("./types").Controls} ctx
   */
  controls(box, snap, { seat, myTurn, pending, send, table, rerender }) {
    clear(box);
    this.reset(snap);
    box.append(this.diceLine(snap, table));
    if (snap.is_over) return;
    if (snap.is_chance) {
      box.append(el("p", { class: "muted", dataset: { testid: "rolling" } }, `Rolling ${snap.roller}'s dice…`));
      return;
    }
    if (!myTurn) {
      const r = snap.due ? ` with ${snap.due}` : "";
      box.append(el("p", { class: "muted" }, `Waiting for ${snap.current_player}${r}.`));
      return;
    }
    const legal = this.legal(snap);
    if (snap.phase === "first") {
      box.append(el("p", {}, el("span", { dataset: { term: "first-move" } }, "First move"), ": give each of your riders one of your dice (highest dice ride first)."));
      const list = el("div", { class: "pi-assign", dataset: { testid: "assign" } });
      const riders = [...new Set(legal.filter((m) => m.kind === "assign").map((m) => m.rider))];
      for (const rid of riders) {
        const rider = snap.riders.find((r) => r.id === rid);
        const row = el("div", { class: "pi-assign-row" },
          teamChip(rid[0], rid), el("span", { class: "muted small" }, ` ${rider ? rider.colour : ""} `));
        for (const m of legal.filter((x) => x.kind === "assign" && x.rider === rid)) {
          row.append(el("button", {
            type: "button", class: "btn small die-btn", disabled: pending, title: this.describe(m),
            dataset: { testid: "assign-button", move: m.text, rider: rid, die: String(m.die) },
            onclick: () => send(m.text),
          }, String(m.die)));
        }
        list.append(row);
      }
      box.append(list);
      return;
    }
    const due = snap.riders.find((r) => r.id === snap.due);
    box.append(el("p", { class: "rider-facts", dataset: { testid: "rider-facts" } },
      "Ride ", teamChip(snap.due[0], snap.due), due ? [" (", el("span", { dataset: { term: "base-colour" } }, `${due.colour} base`), ", ", el("span", { dataset: { term: "lap" } }, `lap ${due.lap}`), due.square ? `, on ${due.square}` : "", ")"] : "", ": choose a die, then a lit square."));
    const dice = [...new Set(legal.filter((m) => m.kind !== "assign").map((m) => m.die))].sort((a, b) => a - b);
    const row = el("div", { class: "move-buttons" });
    for (const d of dice) {
      const moves = legal.filter((m) => m.die === d);
      const stuck = moves.length === 1 && moves[0].kind === "stay";
      if (stuck) {
        row.append(el("button", {
          type: "button", class: "btn die-btn stuck", disabled: pending, title: this.describe(moves[0]),
          dataset: { testid: "stuck-button", move: moves[0].text, die: String(d) },
          onclick: () => send(moves[0].text),
        }, `${d}: cannot ride`));
        continue;
      }
      row.append(el("button", {
        type: "button", class: `btn die-btn${this.die === d ? " selected" : ""}`, disabled: pending,
        "aria-pressed": this.die === d ? "true" : "false",
        dataset: { testid: "die-button", die: String(d), term: "dice" },
        onclick: () => {
          this.die = d;
          this.variants = null;
          rerender();
        },
      }, `Die ${d}`));
    }
    box.append(row);
    if (this.variants && this.variants.length) {
      box.append(el("p", { class: "small" }, "Which way? (", el("span", { dataset: { term: "bonus" } }, "bonus squares"), " differ)"));
      const v = el("div", { class: "move-buttons" });
      for (const m of this.variants) {
        v.append(el("button", {
          type: "button", class: "btn move-btn", disabled: pending,
          dataset: { testid: "variant-button", move: m.text }, onclick: () => send(m.text),
        }, m.path.join(" → ")));
      }
      box.append(v);
    } else if (this.die !== null) {
      box.append(el("p", { class: "small" }, `Die ${this.die}: click a lit square.`));
    }
  }

  diceLine(snap, table) {
    const box = el("div", { class: "pi-dice", dataset: { testid: "dice" } });
    const teams = Object.keys(snap.rolls || {});
    if (!teams.length) {
      box.append(el("span", { class: "muted small" }, snap.is_chance ? "No dice on the table yet." : ""));
      return box;
    }
    for (const t of teams) {
      const left = [...((snap.dice || {})[t] || [])];
      const faces = (snap.rolls[t] || []).map((v) => {
        const i = left.indexOf(v);
        if (i >= 0) left.splice(i, 1);
        return dieFace(v, { used: i < 0 });
      });
      const s = seatOf(table, t);
      box.append(el("div", { class: "pi-roll", dataset: { team: t } },
        teamChip(t, s ? `${t} · ${seatLabel(s)}` : t), " ", faces));
    }
    return box;
  }

  /**
   * @param {HTMLElement} box
   * @param {import("./types").PistardSnapshot} snap
   * @param {{table?: import("./types").TableSummary}} [options]
   */
  result(box, snap, { table } = {}) {
    clear(box);
    const result = snap.result || /** @type {Partial<import("./types").Result>} */ ({});
    if (result.over && result.winner) {
      const s = seatOf(table, result.winner);
      box.append(el("div", { class: "trophy", dataset: { testid: "winner", team: result.winner } },
        "Winner: ", teamChip(result.winner, s ? `${result.winner} · ${seatLabel(s)}` : result.winner),
        result.reason ? el("span", { class: "muted small" }, ` (${result.reason})`) : null));
    }
    const tbl = el("table", { class: "points", dataset: { testid: "points" } },
      el("thead", {}, el("tr", {}, el("th", {}, "Team"), el("th", {}, "Points"), el("th", {}, "Riders"))));
    const body = el("tbody");
    const order = result.places || Object.keys(snap.points || {});
    for (const t of order) {
      const racing = snap.riders.filter((r) => r.team === t && !r.eliminated).length;
      const s = seatOf(table, t);
      body.append(el("tr", { dataset: { team: t } },
        el("td", {}, teamChip(t, s ? `${t} · ${seatLabel(s)}` : t)),
        el("td", {}, String((snap.points || {})[t] || 0)), el("td", {}, `${racing} racing`)));
    }
    tbl.append(body);
    box.append(el("h3", {}, "Points (", el("span", { dataset: { term: "target" } }, `target ${snap.options.target}`), ")"), tbl);
    const out = snap.riders.filter((r) => r.eliminated);
    box.append(el("h3", {}, el("span", { dataset: { term: "eliminated" } }, "Eliminated")),
      out.length
        ? el("ul", { class: "pi-out", dataset: { testid: "eliminated" } }, out.map((r) => el("li", { dataset: { rider: r.id } }, teamChip(r.team, r.id), ` ${r.colour}`)))
        : el("p", { class: "muted small", dataset: { testid: "eliminated" } }, "nobody yet"));
    const laps = Object.entries(snap.laps || {});
    if (laps.length) {
      box.append(el("h3", {}, el("span", { dataset: { term: "lap" } }, "Laps")), el("ul", { class: "pi-out", dataset: { testid: "laps" } },
        laps.map(([lap, n]) => el("li", {}, `lap ${lap}: ${n} rider${n === 1 ? "" : "s"} across the line`))));
    }
    const leaders = [...snap.riders].filter((r) => !r.eliminated).sort((a, b) => b.distance - a.distance).slice(0, 6);
    box.append(el("h3", {}, "Leading riders"),
      el("ol", { class: "places", dataset: { testid: "leaders" } }, leaders.map((r) =>
        el("li", { dataset: { rider: r.id } }, teamChip(r.team, r.id), el("span", { class: "pts" }, r.square ? `lap ${r.lap} · ${r.square}` : "start")))));
  }

  legend(box) {
    clear(box);
    for (const [colour, fill] of Object.entries(SQUARE_FILL)) {
      box.append(el("span", {}, el("i", { class: "lg", style: { background: fill, "border-radius": "3px" } }), `${colour} square`));
    }
    box.append(el("span", { dataset: { term: "colour-bonus" } }, "ring = the rider's base colour (its colour bonus)"));
  }
}
