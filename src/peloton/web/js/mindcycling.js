// @ts-check
// Mind Cycling at the table: the road drawn by board.js (riders, wind, trains, the
// riders across the line), and the player's controls: in setup a rider, then a lit
// square of the start zone; in the race a lit square (or, in attack mode, an attack
// square; a wheel or relay square is lit apart and a click takes it), or the wheel,
// relay, bottle and stay buttons. The result panel holds the medals, points,
// classification, trophy and the solo score; the legend (foldable) explains the marks.

import { Board, TYPE_NAMES, BASE_BOTTLE, BASE_EMPTY, drawRider } from "./board.js";
import { GameView } from "./gameview.js";
import { el, svg, clear, teamChip, seatLabel, seatOf, trophyIcon } from "./ui.js";

const WIND_TEXT = {
  front: "Wind from the front →|",
  left: "Three-quarter wind from the front left",
  right: "Three-quarter wind from the front right",
};
const KIND_TEXT = { wheel: "Take the wheel", relay: "Take a relay", stay: "Stay" };
const MEDAL_NAMES = { cyclist: "Best Cyclist", sprinter: "Best Sprinter", climber: "Best Climber", team: "Best Team" };
/** A small SVG sample for the legend, drawn by `draw(g)` about (0, 0) in a 28×28 box. */
function sample(draw) {
  const icon = svg("svg", { viewBox: "-14 -14 28 28", width: 22, height: 22, class: "lg-icon", "aria-hidden": "true" });
  draw(svg("g", {}, icon));
  return icon;
}

const rider = (extra = {}) => ({ id: "A1", team: "A", type: "D", bottle: true, ...extra });
const SQUARE = (cls) => (g) => svg("rect", { x: -12, y: -12, width: 24, height: 24, rx: 4, class: `sq ${cls}` }, g);

/** The legend's entries: [testid, label, draw]. Each sample is drawn the way the board
 * draws the thing (drawRider, the square classes), so the two cannot disagree.
 * @type {[string, string, (g: SVGElement) => unknown][]} */
const LEGEND = [
  ["disc", "team letter + rider number", (g) => drawRider(g, rider(), { R: 12, marks: false })],
  ["domestique", "domestique (blue helmet)", (g) => drawRider(g, rider(), { R: 12, marks: false })],
  ["sprinter", "sprinter (green helmet)", (g) => drawRider(g, rider({ type: "S" }), { R: 12, marks: false })],
  ["climber", "climber (yellow helmet)", (g) => drawRider(g, rider({ type: "C" }), { R: 12, marks: false })],
  ["bottle", "bottle (blue ring)", (g) => svg("circle", { r: 11, fill: "none", stroke: BASE_BOTTLE, "stroke-width": 4 }, g)],
  ["no-bottle", "no bottle (black ring)", (g) => svg("circle", { r: 11, fill: "none", stroke: BASE_EMPTY, "stroke-width": 4 }, g)],
  ["current", "rider to play", (g) => {
    svg("circle", { r: 12.5, class: "halo legend-halo" }, g);
    drawRider(g, rider(), { R: 10, marks: false });
  }],
  ["moved", "has moved this round (faded)", (g) => {
    const m = svg("g", { class: "moved-sample" }, g);
    drawRider(m, rider(), { R: 12, marks: false });
  }],
  ["exhausted", "exhausted: no bottle, −1, no wheel", (g) => drawRider(g, rider({ bottle: false, exhausted: true }), { R: 10, marks: true })],
  ["wind", "rides against the wind: −1", (g) => drawRider(svg("g", { transform: "translate(-7 0)" }, g), rider({ wind: true }), { R: 7, marks: true })],
  ["link", "train link, to the square it may follow to", (g) => {
    svg("line", { x1: -12, y1: 0, x2: 9, y2: 0, class: "link-line" }, g);
    svg("circle", { cx: 9, cy: 0, r: 3.5, class: "link-end" }, g);
  }],
  ["link-cut", "link that cannot be followed this round (leader attacked or stayed, exhausted domestique, sprinter in the mountain)", (g) => {
    svg("line", { x1: -12, y1: 0, x2: 9, y2: 0, class: "link-line cut" }, g);
    svg("circle", { cx: 9, cy: 0, r: 3.5, class: "link-end" }, g);
  }],
  ["last", "last move's square", SQUARE("hint")],
  ["legal", "a square to ride to", SQUARE("legal")],
  ["attack", "attack square", SQUARE("legal attack")],
  ["wheel", "wheel or relay square", SQUARE("legal train")],
  ["feed", "feed zone", (g) => {
    svg("rect", { x: -5, y: -8, width: 10, height: 16, rx: 3, fill: "#38bdf8", stroke: "#0369a1", "stroke-width": 1.5 }, g);
  }],
];
// The rules page's term (mind-cycling.terms.toml) of each word shown at the table: terms.js
// explains an element carrying `data-term` on hover, focus and tap.
const TERM = {
  domestique: "domestique", sprinter: "sprinter", climber: "climber", bottle: "bottle", "no bottle": "no-bottle",
  "in the wind": "wind", "train link": "link", sheltered: "sheltered", exhausted: "exhausted",
  wheel: "wheel", relay: "relay", stay: "stay", give: "give", attack: "attack",
};
const termOf = (word) => TERM[word] || null;
const TERM_KEYS = new Set([...Object.values(TERM), "feed"]);

export class MindCyclingView extends GameView {
  static words = { seats: "Teams", result: "Medals & points", over: "The race is over.", you: "you ride for", join: "Ride for" };
  /** MC-9.1: the solo team is always five riders. */
  static soloFixed = ["riders"];

  static seatName(letter) {
    return `Team ${letter}`;
  }

  static subtitle(t) {
    const bits = [`${t.course || "custom"} course`, t.solo ? "solo challenge" : `${t.riders} riders a team`];
    if (t.wind) bits.push(`wind ${t.wind}`);
    if (t.relay_limit !== undefined) bits.push(`relay limit ${t.relay_limit}`);
    return bits;
  }

  static outcome(result) {
    if (result && result.solo_score) return { text: `solo: ${result.solo_score[0]} rounds` };
    return { winner: result && result.trophy };
  }

  /** `42 rows · plain, sprint, mountain` */
  static describeCourse(course) {
    const kinds = (course.sections || []).map((s) => s[1]).join(", ");
    return `${course.finish - 1} rows · ${kinds}`;
  }

  constructor(host, handlers = {}) {
    super(host, handlers);
    this.board = new Board(host, { onSquare: handlers.onSquare, onHover: handlers.onHover });
    this.course = null;
    this.wind = null;
    this.attack = false; // attack mode: the squares lit are the attack destinations
    this.placeRider = null; // the rider to place, in setup
    this.key = ""; // the turn the choices above belong to
  }

  setTable(table) {
    const course = table && table.course_data;
    if (course && JSON.stringify(course) !== JSON.stringify(this.course)) {
      this.course = course;
      this.board.setCourse(course);
      this.board.lastFocus = null;
    }
    if (table && table.wind) this.wind = table.wind;
  }

  logHead(round) {
    return round === 0 ? "Setup" : `Round ${round}`;
  }

  status(snap) {
    return snap.phase === "over" ? "finished" : snap.phase === "setup" ? "setup" : `round ${snap.round}`;
  }

  actor(snap) {
    return snap.phase === "race" ? snap.current_rider : null;
  }

  note(snap) {
    return snap.phase === "setup" ? "placing riders" : null;
  }

  render(snap, options) {
    if (!this.course || !snap) return;
    this.board.render(snap, options);
  }

  focus(snap, squares) {
    this.board.scrollToAction(snap, { squares });
  }

  refocus() {
    this.board.lastFocus = null;
  }

  /** Forget this turn's choices when the turn changes; keep the rider to place valid. */
  sync(snap) {
    const key = `${snap.moves_played}/${snap.current_rider}`;
    if (key !== this.key) {
      this.key = key;
      this.attack = false;
    }
    const unplaced = (snap.placement && snap.placement.riders) || [];
    if (!unplaced.includes(this.placeRider)) this.placeRider = unplaced[0] || null;
  }

  targets(snap, myTurn) {
    const out = new Map();
    if (!myTurn) return out;
    this.sync(snap);
    if (snap.phase === "setup") {
      const p = snap.placement;
      if (!p || p.team !== snap.current_player || !this.placeRider) return out;
      for (const sq of p.squares) {
        out.set(sq, { text: `${this.placeRider}@${sq}`, kind: "place", describe: `place ${this.placeRider} on ${sq}` });
      }
      return out;
    }
    const kind = this.attack ? "attack" : "move";
    for (const m of snap.legal || []) {
      if (m.kind === kind && m.square) out.set(m.square, m);
    }
    // Wheel and relay destinations are lit too (not in attack mode: nobody follows an
    // attack anyway); on a square a plain ride also reaches, the click takes the train
    // move, and the controls keep a button for the plain ride.
    if (!this.attack) {
      for (const m of snap.legal || []) {
        if ((m.kind === "wheel" || m.kind === "relay") && m.square && m.square !== "#") {
          out.set(m.square, { ...m, kind: `train ${m.kind}` });
        }
      }
    }
    return out;
  }

  /**
   * @param {HTMLElement} box
   * @param {any} snap
   * @param {import("./types").Controls} ctx
   */
  controls(box, snap, { myTurn, send, rerender, hint }) {
    clear(box);
    if (!myTurn) return;
    this.sync(snap);
    if (snap.phase === "setup") {
      box.append(el("p", { class: "small", dataset: { term: "setup" } }, "Pick a rider, then a lit square of the start zone."));
      const list = el("div", { class: "place-list", dataset: { testid: "placement" } });
      for (const rid of (snap.placement || { riders: [] }).riders) {
        list.append(el("button", {
          type: "button", class: `btn rider-btn ${rid === this.placeRider ? "selected" : ""}`,
          "aria-pressed": rid === this.placeRider ? "true" : "false",
          dataset: { testid: "place-rider", rider: rid },
          onclick: () => {
            this.placeRider = rid;
            rerender();
          },
        }, teamChip(rid[0], rid), el("span", { class: "muted" }, ` ${TYPE_NAMES[rid[1]]}`)));
      }
      box.append(list);
      return;
    }
    const legal = snap.legal || [];
    const rider = (snap.riders || []).find((r) => r.id === snap.current_rider);
    if (rider) {
      const facts = [[TYPE_NAMES[rider.type], termOf(TYPE_NAMES[rider.type])], [`allowance ${rider.allowance}`, "allowance"],
        rider.wind ? ["in the wind", "wind"] : ["sheltered", "sheltered"], rider.bottle ? ["bottle", "bottle"] : ["no bottle", "no-bottle"]];
      if (rider.exhausted) facts.push(["exhausted", "exhausted"]);
      if (rider.leader) facts.push([`linked to ${rider.leader}`, "link"]);
      box.append(el("p", { class: "rider-facts", dataset: { testid: "rider-facts" } },
        teamChip(rider.team, rider.id), " ", facts.flatMap(([text, term], i) => [i ? " · " : null, el("span", { dataset: { term } }, text)])));
    }
    const attacks = legal.filter((m) => m.kind === "attack");
    if (attacks.length || legal.some((m) => m.kind === "move")) {
      box.append(el("p", { class: "small" }, this.attack
        ? "Attack: click a red square (throws the bottle, +3, nobody may follow)."
        : legal.some((m) => m.kind === "wheel" || m.kind === "relay")
          ? "Click a lit square to ride there; a purple one takes the wheel or a relay."
          : "Click a lit square to ride there."));
    }
    const row = el("div", { class: "move-buttons" });
    if (attacks.length) {
      row.append(el("button", {
        type: "button", class: `btn attack-toggle ${this.attack ? "on" : ""}`, "aria-pressed": this.attack ? "true" : "false",
        dataset: { testid: "attack-toggle", term: "attack" }, title: "attack: throw the bottle, ride with allowance + 3; nobody may follow",
        onclick: () => {
          this.attack = !this.attack;
          rerender();
        },
      }, this.attack ? "Cancel attack" : "Attack!"));
    }
    const button = (m, label, testid) => el("button", {
      type: "button", class: `btn move-btn kind-${m.kind}`, title: m.describe,
      dataset: { testid, move: m.text, square: m.square || "", ...(termOf(m.kind) ? { term: termOf(m.kind) } : {}) },
      onclick: () => send(m.text),
      onmouseenter: () => hint(m.describe, m.square ? [m.square] : []),
      onmouseleave: () => hint("", []),
      onfocus: () => hint(m.describe, []),
    }, label);
    const plain = new Map(legal.filter((m) => m.kind === "move").map((m) => [m.square, m]));
    for (const m of legal) {
      if (m.kind === "wheel" || m.kind === "relay") {
        row.append(button(m, `${KIND_TEXT[m.kind]} → ${m.square === "#" ? "across the line" : m.square}`, `${m.kind}-button`));
        // The board's click on that square takes the wheel or relay: the plain ride to
        // the same square stays one button away.
        const ride = m.square !== "#" && plain.get(m.square);
        if (ride) row.append(button(ride, `Ride to ${ride.square} (no ${m.kind})`, "plain-ride-button"));
      } else if (m.kind === "give") {
        row.append(button(m, `Give bottle to ${m.target}`, "give-button"));
      } else if (m.kind === "stay") {
        row.append(button(m, "Stay (no square reachable)", "stay-button"));
      }
    }
    if (row.childElementCount) box.append(row);
  }

  /** Medals, points and (when known) the final classification, trophy and solo score. */
  /**
   * @param {HTMLElement} box
   * @param {any} snap
   * @param {{table?: import("./types").TableSummary}} [options]
   */
  result(box, snap, { table = null } = {}) {
    clear(box);
    const result = snap.result;
    if (!result) return;
    const name = (t) => {
      const s = seatOf(table, t);
      return s ? `${t} · ${seatLabel(s)}` : t;
    };
    const medalTeam = (key, holder) => (key === "team" ? holder : holder[0]);
    if (result.over) {
      const final = el("div", { class: "final", dataset: { testid: "final" } });
      if (result.solo_score) {
        const [rounds, remaining] = result.solo_score;
        final.append(el("div", { class: "trophy", dataset: { testid: "solo-score" } },
          el("span", { dataset: { term: "solo-score" } }, "Solo score"), ": ", el("strong", {}, `${rounds} rounds`),
          remaining ? `, fifth rider ${remaining} rows short` : ", all five across"));
      }
      if (result.trophy) {
        final.append(el("div", { class: "trophy", dataset: { testid: "trophy", team: result.trophy } },
          trophyIcon(), " ", el("span", { dataset: { term: "trophy" } }, "Best Mind Cycling Manager"), ": ", teamChip(result.trophy, name(result.trophy))));
      }
      box.append(final);
    }
    const medals = result.medals || {};
    const medalBox = el("div", { class: "medals", dataset: { testid: "medals" } });
    for (const key of Object.keys(MEDAL_NAMES)) {
      const holder = medals[key];
      medalBox.append(el("div", { class: `medal ${holder ? "won" : ""}`, dataset: { medal: key } },
        el("span", { class: `medal-disc m-${key}` }), el("span", { class: "medal-name", dataset: { term: "medals" } }, MEDAL_NAMES[key]),
        holder ? teamChip(medalTeam(key, holder), holder) : el("span", { class: "muted" }, "—")));
    }
    box.append(el("h3", {}, "Medals"), medalBox);
    const teams = Object.keys(result.points || snap.teams || {}).sort();
    if (teams.length) {
      const rows = teams
        .map((t) => ({ t, points: (result.points || {})[t] || 0, medals: Object.entries(medals).filter(([k, v]) => medalTeam(k, v) === t).length }))
        .sort((a, b) => b.medals - a.medals || b.points - a.points);
      const body = el("tbody", {}, rows.map((r) => el("tr", { dataset: { team: r.t } },
        el("td", {}, teamChip(r.t, name(r.t))), el("td", {}, r.medals), el("td", {}, r.points))));
      box.append(el("h3", {}, "Points"), el("table", { class: "points", dataset: { testid: "points" } },
        el("thead", {}, el("tr", {}, el("th", {}, "Team"), el("th", {}, "Medals"), el("th", {}, "Points"))), body));
    }
    const places = result.places || [];
    if (places.length) {
      const ol = el("ol", { class: "places", dataset: { testid: "classification" } }, places.map((rid, i) => {
        const pts = i < 12 ? 12 - i : 0;
        return el("li", { dataset: { rider: rid } }, teamChip(rid[0], rid), el("span", { class: "muted" }, ` ${TYPE_NAMES[rid[1]] || ""}`),
          el("span", { class: "pts" }, `${pts} pt${pts === 1 ? "" : "s"}`));
      }));
      box.append(el("h3", {}, result.over ? "Final classification" : "Across the line"), ol);
    }
  }

  legend(box) {
    clear(box);
    // On a phone the legend folds away under its title, so the controls are close to
    // the board; it remembers being opened or closed while the page lives.
    if (this.legendOpen === undefined) this.legendOpen = !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
    const items = el("div", { class: "mc-legend-items" });
    const details = el("details", { class: "mc-legend", open: this.legendOpen, dataset: { testid: "mc-legend" } },
      el("summary", {}, "Legend"), items);
    details.addEventListener("toggle", () => {
      this.legendOpen = details.open;
    });
    for (const [key, text, draw] of LEGEND) {
      // The legend's keys are the rules page's terms where the word has one.
      const term = TERM_KEYS.has(key) ? key : null;
      items.append(el("span", { class: "lg-item", dataset: term ? { legend: key, term } : { legend: key } }, sample(draw), text));
    }
    items.append(el("span", { id: "wind-legend", class: "lg-item", dataset: { testid: "wind", legend: "wind-direction", term: this.wind && this.wind !== "front" ? "expert-wind" : "wind" } }, WIND_TEXT[this.wind] || ""));
    box.append(details);
  }
}
