// @ts-check
// Cyclo The Game at the table: the course drawn by cyclo_board.js, and the player's
// controls for each step of a turn — the swap window (propose to a partner, or ride
// on), the answer to a swap proposed to one's rider (a prompt with Accept / Decline),
// the ride (a token selector, then a lit target space: the full roll or nearer, to
// hold back), the wheel (follow / decline) and the fall (pick up to two riders, then
// confirm). The dice just rolled stand above the controls and beside the rider on the
// board. The race panel and the legend are drawn by cyclo_panels.js; this view tells
// them who drew the last card (it notes the drawer of each draw it sees).

import { CycloBoard, dieFace } from "./cyclo_board.js";
import { CARD_COUNT, coursePreview, describeCourse, drawLegend, drawnCount, racePanel } from "./cyclo_panels.js";
import { VelodromeBoard } from "./cyclo_track.js";
import { lineName, trackOf } from "./cyclo_track_facts.js";
import { drawTrackLegend, trackPanel } from "./cyclo_track_panels.js";
import { GameView } from "./gameview.js";
import { el, clear, svg, teamChip } from "./ui.js";

/**
 * A mode's facts (`mode_facts` of a snapshot, `CHOICE_FACTS` of the game; docs/protocol.md).
 * @typedef {{ name?: string, title?: string, word: string, road: boolean, teams?: number[], riders?: number | null,
 *   entries: boolean, timed?: boolean, team_time?: boolean, cards: boolean, course_lines?: boolean, points?: boolean,
 *   eliminations?: boolean, pacer?: boolean, course?: string }} ModeFacts
 */
/**
 * A legal ride in parts (a snapshot's `rides`, its `last_ride`): the move to send, the
 * rider, the target as the move writes it (`57`, `#3`), the tokens, the distance aimed at.
 * @typedef {{ text: string, rider: string, target: string, tokens: string, at: number }} Ride
 */
/**
 * What this view reads of Cyclo's snapshot (peloton.games.cyclo.snapshot) beyond every game's.
 * @typedef {import("./types").Snapshot & { mode: string, mode_facts?: ModeFacts, rides?: Ride[],
 *   last_ride?: Ride | null, last_moves?: string[], track?: object | null, course?: any }} CycloSnapshot
 */

const TOKEN_CHOICES = ["", "r", "t", "rr", "rt", "tt"];
const TOKEN_NEEDS = { "": [0, 0], r: [1, 0], t: [0, 1], rr: [2, 0], rt: [1, 1], tt: [0, 2] };
const TOKEN_WORDS = { "": "no token", r: "r: one own token (+6)", t: "t: one team token (+6)", rr: "rr: attack, two own (+12)", rt: "rt: attack, own + team (+12)", tt: "tt: attack, two team (+12)" };
/** The facts of mode `name` (`classic` when none is named) as GET /api/games serves
 * them (`choice_facts.mode` of Cyclo's entry, which the page gives the view:
 * `GameView.know`); null before the page has read them.
 * @param {unknown} name
 * @returns {ModeFacts | null} */
export function modeFacts(name) {
  const served = CycloView.game && CycloView.game.choice_facts && CycloView.game.choice_facts.mode;
  const key = typeof name === "string" && name ? name : "classic";
  return (served && served[key]) || null;
}

/** A snapshot's mode facts (`mode_facts`, the server's word on its mode).
 * @type {(snap: CycloSnapshot | null) => Partial<ModeFacts>} */
export const factsOf = (snap) => (snap && snap.mode_facts) || {};
/** A snapshot of a race on the velodrome.
 * @type {(snap: CycloSnapshot | null) => boolean} */
export const onTrack = (snap) => !!(snap && (snap.track || (snap.course && snap.course.lap) || factsOf(snap).road === false));
const PHASE_NOTES = { swap: "swap window", answer: "answering a swap", wheel: "offered a wheel", fall: "a fall" };

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

const riderChip = (id, extra = "") => teamChip(id[0], `${id}${extra}`);

export class CycloView extends GameView {
  static words = { seats: "Teams", result: "Race", over: "The race is over.", you: "you ride for", join: "Ride for" };
  /** A null default the lobby cannot read a field from: `events` is on, off or the mode's. */
  static optionKinds = { events: "flag" };
  /** A lone rider races the clock: the solo game is an individual time trial. */
  static soloOptions = { mode: "itt" };

  static seatName(letter) {
    return `Team ${letter}`;
  }

  static subtitle(t) {
    const o = t.options || t;
    const facts = modeFacts(o.mode);
    const bits = [facts ? facts.word : o.mode, o.level === "starter" ? "Starter" : "Pro"];
    if (facts && !facts.road) {
      if (o.entries && o.entries > 1) bits.push(`${o.entries} riders a team`);
      return bits;
    }
    bits.push(o.course ? `course ${o.course}` : "default course");
    if (o.events !== null && o.events !== undefined) bits.push(o.events ? "event cards" : "no event cards");
    return bits;
  }

  static outcome(result) {
    return { winner: result && result.winner_team };
  }

  /** The create form's fields a mode has no use for are hidden: `entries` outside the
   * bunch races of the track, the event cards outside a classic or a leg. */
  static optionShown(name, choices) {
    const facts = modeFacts(choices.mode);
    if (name === "entries") return !!(facts && facts.entries);
    if (name === "events") return !!(facts && facts.cards);
    return true;
  }

  /** Whether a track event's form may pick `course`, or a road race's: the velodrome
   * for the one, boards for the other (the mode's own course when none is chosen). */
  static courseFits(course, options) {
    const facts = modeFacts(options.mode);
    return !!(facts && !facts.road) === !!(course && course.lap);
  }

  static describeCourse(course) {
    return describeCourse(course);
  }

  static coursePreview(course) {
    return coursePreview(course);
  }

  constructor(host, handlers = {}) {
    super(host, handlers);
    this.boardHost = host;
    this.boardHandlers = { onSquare: handlers.onSquare, onHover: handlers.onHover };
    /** @type {CycloBoard | VelodromeBoard} the road's strip or the velodrome's loop */
    this.board = new CycloBoard(host, this.boardHandlers);
    this.key = ""; // the decision the choices below belong to
    this.token = null; // the token choice selected for the ride
    this.picks = new Set(); // the riders picked to fall
    this.legendState = {}; // whether the legend is unfolded
    this.drawers = new Map(); // moves played at a draw -> {by: the drawer, drawn: cards drawn before}
  }

  /** Forget the choices when the decision changes. */
  sync(snap) {
    const key = `${snap.moves_played}/${snap.due}/${snap.phase}`;
    if (key !== this.key) {
      this.key = key;
      this.token = null;
      this.picks = new Set();
    }
    if (snap.phase === "draw" && snap.due) this.drawers.set(snap.moves_played, { by: snap.due, drawn: drawnCount(snap) });
  }

  status(snap) {
    return snap.is_over ? "finished" : `round ${snap.round}`;
  }

  actor(snap) {
    return snap.due || null;
  }

  note(snap) {
    return PHASE_NOTES[snap.phase] || null;
  }

  waiting(snap) {
    if (!snap.is_chance) return null;
    return snap.phase === "draw" ? `Drawing an event card for ${snap.due}…` : `Rolling ${snap.due}'s dice…`;
  }

  seatScore(snap, seat) {
    const result = snap.result || {};
    if (result.over) {
      const place = (result.teams || []).indexOf(seat) + 1;
      return place ? ordinal(place) : "";
    }
    const first = (snap.finish || []).find((f) => f.rider[0] === seat);
    if (first) return `${first.rider} finished`;
    const best = (snap.riders || []).filter((r) => r.team === seat && r.position !== null).sort((a, b) => b.position - a.position)[0];
    if (best && onTrack(snap) && best.position > 0) {
      const laps = typeof best.laps === "number" ? best.laps : 0;
      return `${best.id} ${best.square} · ${laps} lap${laps === 1 ? "" : "s"}`;
    }
    if (!best && (snap.riders || []).some((r) => r.team === seat && r.out)) return "out";
    return best ? `${best.id} ${best.square}` : "";
  }

  /** The move itself: `render` and `focus` mark the space its ride aimed at, which the
   * snapshot says (`last_ride`), so the page reads no move notation.
   * @param {string | null} move
   * @returns {string[]} */
  hints(move) {
    return move ? [move] : [];
  }

  /** Hints as the board marks them: the last ride's text becomes its target space.
   * @param {CycloSnapshot} snap
   * @param {string[] | undefined} hints
   * @returns {string[]} */
  spacesOf(snap, hints) {
    const last = (snap && snap.last_ride) || null;
    const played = new Set((snap && snap.last_moves) || []);
    // another move played marks nothing; a key of a rules diagram (`b44`, `AS1`) stays
    return (hints || []).flatMap((h) => (last && h === last.text ? [last.target] : played.has(h) ? [] : [h]));
  }

  /** The road strip, or the velodrome's loop for a track event (made on first sight). */
  boardFor(snap) {
    const track = onTrack(snap);
    if (track && !(this.board instanceof VelodromeBoard)) {
      this.board.root.remove();
      if (this.board.tools) this.board.tools.remove();
      this.board = new VelodromeBoard(this.boardHost, this.boardHandlers);
    } else if (!track && this.board instanceof VelodromeBoard) {
      this.board.remove();
      this.board = new CycloBoard(this.boardHost, this.boardHandlers);
    }
    return this.board;
  }

  render(snap, options = {}) {
    if (!snap || !snap.course) return;
    this.sync(snap);
    this.boardFor(snap);
    this.track = onTrack(snap);
    const card = this.lastCard(snap);
    this.board.render(snap, { ...options, hints: this.spacesOf(snap, options.hints), card: card && card.fresh && card.by ? { ...card, name: ((snap.deck || {})[card.id] || {}).name } : null });
    const types = [...new Set((snap.course.spaces || []).map((s) => s.type))].join(",") + (this.track ? `/${snap.mode}` : "");
    if (types !== this.legendTypes) {
      this.legendTypes = types;
      this.legendCourse = snap.course;
      this.legendSnap = this.track ? snap : null;
      if (this.legendBox) this.legend(this.legendBox);
    }
  }

  focus(snap, keys) {
    this.board.focus(snap, this.spacesOf(snap, keys));
  }

  refocus() {
    this.board.lastFocus = null;
  }

  // ------------------------------------------------------------------ choosing on the board

  /** The legal rides of the rider due (the snapshot's `rides`, parsed by the server),
   * by token choice, nearest first.
   * @param {CycloSnapshot} snap
   * @returns {Map<string, Ride[]>} */
  rides(snap) {
    /** @type {Map<string, Ride[]>} */
    const by = new Map();
    for (const ride of snap.rides || []) {
      if (!by.has(ride.tokens)) by.set(ride.tokens, []);
      by.get(ride.tokens).push(ride);
    }
    for (const list of by.values()) list.sort((a, b) => a.at - b.at);
    return by;
  }

  /** What a ride to `target` does: where it lands, and what it meets there. */
  describeRide(snap, ride, full) {
    const landing = (snap.ride && snap.ride.landing && snap.ride.landing[ride.target]) || null;
    const verb = ride.tokens.length === 2 ? "attacks" : ride.tokens ? "accelerates" : full ? "rides" : "holds back";
    const bits = [`${ride.rider} ${verb}${ride.tokens ? ` (${ride.tokens})` : ""} to ${ride.target}`];
    if (!landing) return bits[0];
    const where = landing.slice(1);
    const space = onTrack(snap) ? null : snap.course.spaces[Number(where) - 1];
    if (where === ride.target) bits.push(`lands ${landing}`);
    else if (Number(where) === snap.ride.from) bits.push(`no room ahead: stays on ${landing}`);
    else if (space && snap.course.spaces[Number(ride.target) - 1] && snap.course.spaces[Number(ride.target) - 1].dark) bits.push(`dark square: back to ${landing}`);
    else bits.push(`no room ahead: lands ${landing}`);
    if (onTrack(snap)) {
      // The race's lines the ride crosses (the finish aside): sprint or elimination.
      const track = trackOf(snap);
      const to = where.startsWith("#") ? track.distance + Number(where.slice(1)) : Number(where);
      const crossed = track.lines.filter((l) => l.kind !== "finish" && snap.ride.from <= l.at && l.at < to);
      if (crossed.length) bits.push(`crosses ${crossed.map((l) => lineName(l, track)).join(" and ")}`);
    }
    if (where.startsWith("#")) bits.push("past the finish line");
    else if (space && space.event && snap.events && Number(where) !== snap.ride.from) bits.push("draws an event card");
    return bits.join(", ");
  }

  targets(snap, myTurn) {
    const out = new Map();
    if (!myTurn || snap.is_over) return out;
    this.sync(snap);
    const legal = snap.legal || [];
    if (snap.phase === "ride") {
      const by = this.rides(snap);
      if (this.token === null || !by.has(this.token)) this.token = by.has("") ? "" : [...by.keys()][0];
      const list = by.get(this.token) || [];
      list.forEach((ride, i) => {
        const full = i === list.length - 1;
        out.set(ride.target, { text: ride.text, kind: full ? "full" : "hold", describe: this.describeRide(snap, ride, full) });
      });
    } else if (snap.phase === "swap") {
      for (const text of legal) {
        const [rider, partner] = text.split("~");
        if (partner !== "-") out.set(`rider:${partner}`, { text, kind: "partner", describe: `${rider} proposes a swap to ${partner}` });
      }
    } else if (snap.phase === "wheel") {
      const follow = legal.find((m) => !m.endsWith(">-"));
      if (follow && snap.ride) {
        out.set(snap.ride.wheel, { text: follow, kind: "wheel", describe: `${snap.due} takes ${snap.leader}'s wheel: lands ${snap.ride.landing[snap.ride.wheel]}` });
      }
    } else if (snap.phase === "fall") {
      for (const id of this.fallCandidates(snap)) {
        out.set(`rider:${id}`, { kind: this.picks.has(id) ? "picked" : "pick", describe: `${this.picks.has(id) ? "leave" : "bring"} ${id} ${this.picks.has(id) ? "up" : "down too"}` });
      }
    }
    return out;
  }

  /** A click on a lit space or rider: the move to send, or null (a fall pick toggled). */
  clickSquare(snap, key) {
    const target = this.targets(snap, true).get(key);
    if (!target) return null;
    if (snap.phase === "fall") {
      this.togglePick(key.slice("rider:".length));
      return null;
    }
    return target.text || null;
  }

  fallCandidates(snap) {
    const ids = new Set();
    for (const text of snap.legal || []) {
      if (text.startsWith("fall:") && text !== "fall:-") text.slice(5).split(",").forEach((id) => ids.add(id));
    }
    return [...ids].sort();
  }

  togglePick(id) {
    if (this.picks.has(id)) this.picks.delete(id);
    else this.picks.add(id);
  }

  // ------------------------------------------------------------------ controls

  controls(box, snap, ctx) {
    clear(box);
    this.sync(snap);
    box.append(this.diceLine(snap));
    if (snap.is_over) return;
    if (snap.is_chance) {
      box.append(el("p", { class: "muted", dataset: { testid: "rolling" } }, this.waiting(snap)));
      return;
    }
    if (snap.phase === "answer") {
      if (ctx.myTurn) box.append(this.swapPrompt(snap, ctx));
      else box.append(el("p", { class: "cy-note", dataset: { testid: "swap-note" } }, `${snap.proposer} has proposed a swap to ${snap.due}: team ${snap.due[0]} answers.`));
      return;
    }
    if (!ctx.myTurn) {
      const what = { swap: "may propose a swap", ride: "rides", wheel: `may take ${snap.leader}'s wheel`, fall: "has fallen: its team picks who falls with it" }[snap.phase];
      box.append(el("p", { class: "muted" }, `Waiting for team ${snap.current_player}: ${snap.due} ${what || "is due"}.`));
      return;
    }
    const due = (snap.riders || []).find((r) => r.id === snap.due);
    if (snap.phase === "swap") box.append(this.swapWindow(snap, due, ctx));
    else if (snap.phase === "ride") box.append(this.rideControls(snap, due, ctx));
    else if (snap.phase === "wheel") box.append(this.wheelControls(snap, due, ctx));
    else if (snap.phase === "fall") box.append(this.fallControls(snap, ctx));
    else GameView.prototype.controls.call(this, box, snap, ctx);
  }

  button(ctx, { testid, text, label, title = "", cls = "", squares = [], data = {} }) {
    return el("button", {
      type: "button", class: `btn move-btn ${cls}`, disabled: ctx.pending, title,
      dataset: { testid, move: text, ...data }, onclick: () => ctx.send(text),
      onmouseenter: () => title && ctx.hint(title, squares), onmouseleave: () => ctx.hint("", []),
    }, label);
  }

  facts(r) {
    const bits = [r.type, `on ${r.square}`];
    if (r.skip) bits.push("loses its next turn");
    if (r.technical) bits.push("technical problem: one die less, no token");
    if (r.hunger) bits.push(`hunger: ${r.hunger} ride${r.hunger === 1 ? "" : "s"} with 1 die`);
    return bits.join(" · ");
  }

  swapWindow(snap, due, ctx) {
    const box = el("div", { class: "cy-step", dataset: { testid: "swap-window" } });
    box.append(el("p", { class: "rider-facts" }, riderChip(snap.due), ` ${due ? this.facts(due) : ""}`),
      el("p", { class: "small" }, "Before rolling, propose a ", el("span", { dataset: { term: "swap" } }, "swap of places"), " to a rider beside or just behind (click it, or a button), or ride on. A teammate swaps at once; a rival's team answers."));
    const row = el("div", { class: "move-buttons" });
    for (const text of snap.legal || []) {
      const [, partner] = text.split("~");
      if (partner === "-") continue;
      const p = (snap.riders || []).find((r) => r.id === partner);
      const mate = partner[0] === snap.due[0];
      row.append(this.button(ctx, {
        testid: "swap-button", text, data: { partner },
        label: [`Swap with `, riderChip(partner), ` (${p ? p.square : ""}${mate ? ", teammate" : `, team ${partner[0]} answers`})`],
        title: mate ? `${snap.due} and ${partner} exchange squares and places at once` : `propose the swap; team ${partner[0]} accepts or declines`,
      }));
    }
    row.append(this.button(ctx, { testid: "ride-on-button", text: `${snap.due}~-`, label: "Ride on (no swap)", cls: "primary" }));
    box.append(row);
    return box;
  }

  swapPrompt(snap, ctx) {
    const x = (snap.riders || []).find((r) => r.id === snap.proposer);
    const y = (snap.riders || []).find((r) => r.id === snap.due);
    const box = el("div", { class: "cy-prompt", role: "alertdialog", "aria-label": "swap proposed", dataset: { testid: "swap-prompt", proposer: snap.proposer, partner: snap.due } });
    box.append(el("p", { class: "cy-prompt-title" }, "Swap proposed"),
      el("p", {}, riderChip(snap.proposer), ` (team ${snap.proposer[0]}, on ${x ? x.square : "?"}) proposes to swap places with your `, riderChip(snap.due), ` (on ${y ? y.square : "?"}).`),
      el("p", { class: "small" }, `If you accept, ${snap.due} takes ${x ? x.square : "its square"} and rides now; ${snap.proposer} takes ${y ? y.square : "its square"} and rides later, in ${snap.due}'s place.`),
      el("div", { class: "move-buttons" },
        this.button(ctx, { testid: "accept-swap", text: `${snap.due}~yes`, label: "Accept", cls: "primary" }),
        this.button(ctx, { testid: "decline-swap", text: `${snap.due}~no`, label: "Decline" })));
    return box;
  }

  rideControls(snap, due, ctx) {
    const box = el("div", { class: "cy-step", dataset: { testid: "ride" } });
    const by = this.rides(snap);
    if (this.token === null || !by.has(this.token)) this.token = by.has("") ? "" : [...by.keys()][0];
    const ride = snap.ride || {};
    const own = due ? due.tokens : 0;
    const team = (snap.team_tokens || {})[snap.due[0]] || 0;
    box.append(el("p", { class: "rider-facts" }, riderChip(snap.due), ` ${due ? this.facts(due) : ""}: rolled ${ride.total ?? "?"}; `, ride.hold_back ? el("span", { dataset: { term: "hold-back" } }, "may hold back") : "rides its full total here", "."));
    if (snap.level === "pro") {
      box.append(el("p", { class: "small", dataset: { testid: "token-facts" } },
        el("span", { dataset: { term: "tokens" } }, "Tokens"), `: ${own} own, ${team} team; up to ${ride.panel ?? 0} a ride here. Choose, then click a lit space.`));
      const row = el("div", { class: "move-buttons cy-tokens-row", dataset: { testid: "token-selector" } });
      for (const choice of TOKEN_CHOICES) {
        const list = by.get(choice);
        const reach = list ? list[list.length - 1].target : null;
        const why = list ? "" : this.tokenWhy(choice, due, own, team, ride.panel ?? 0);
        row.append(el("button", {
          type: "button", class: `btn token-btn${this.token === choice ? " selected" : ""}`, disabled: !list || ctx.pending,
          "aria-pressed": this.token === choice ? "true" : "false", title: list ? `${TOKEN_WORDS[choice]}: reaches ${reach}` : why,
          dataset: { testid: "token-button", token: choice || "none", reach: reach || "", ...(choice ? { term: choice.length === 2 ? "attack" : "accelerate" } : {}) },
          onclick: () => {
            this.token = choice;
            ctx.rerender();
          },
        }, el("strong", {}, choice || "none"), el("span", { class: "small" }, list ? ` → ${reach}` : ` ${why}`)));
      }
      box.append(row);
    }
    const list = by.get(this.token) || [];
    const full = list[list.length - 1];
    if (full) {
      box.append(el("div", { class: "move-buttons" }, this.button(ctx, {
        testid: "ride-full", text: full.text, cls: "primary", squares: [full.target],
        label: `Ride to ${full.target}`, title: this.describeRide(snap, full, true),
      })));
      box.append(el("p", { class: "small muted", dataset: { testid: "ride-full-words" } }, this.describeRide(snap, full, true)
        + (list.length > 1 ? `. To hold back, click a nearer lit space (${list[0].target}–${list[list.length - 2].target}).` : ".")));
    }
    return box;
  }

  tokenWhy(choice, due, own, team, panel) {
    const [r, t] = TOKEN_NEEDS[choice];
    if (due && due.technical) return "(technical problem)";
    if (choice.length > panel) return panel ? `(up to ${panel} here)` : "(no token here)";
    if (r > own) return own ? "(1 own token)" : "(no own token)";
    if (t > team) return team ? "(1 team token)" : "(no team token)";
    return "(not now)";
  }

  wheelControls(snap, due, ctx) {
    const box = el("div", { class: "cy-step", dataset: { testid: "wheel" } });
    const follow = (snap.legal || []).find((m) => !m.endsWith(">-"));
    const decline = (snap.legal || []).find((m) => m.endsWith(">-"));
    const to = snap.ride ? snap.ride.landing[snap.ride.wheel] : "";
    box.append(el("p", { class: "rider-facts" }, riderChip(snap.due), ` (${due ? due.square : ""}) may take `, riderChip(snap.leader),
      `'s wheel: follow without rolling to ${snap.ride ? snap.ride.wheel : "?"} (lands ${to}); its turn is then over.`));
    box.append(el("div", { class: "move-buttons" },
      follow ? this.button(ctx, { testid: "wheel-follow", text: follow, label: `Take the wheel → ${to}`, cls: "primary", squares: snap.ride ? [snap.ride.wheel] : [], data: { term: "wheel" } }) : null,
      decline ? this.button(ctx, { testid: "wheel-decline", text: decline, label: "Decline" }) : null));
    return box;
  }

  fallControls(snap, ctx) {
    const box = el("div", { class: "cy-step", dataset: { testid: "fall" } });
    const candidates = this.fallCandidates(snap);
    const chosen = [...this.picks].sort();
    const text = `fall:${chosen.length ? chosen.join(",") : "-"}`;
    const legal = (snap.legal || []).includes(text);
    box.append(el("p", { class: "rider-facts" }, riderChip(snap.due), " ", el("span", { dataset: { term: "fall" } }, "fell"), ": it loses its next turn. Bring down up to two more riders with it (teammates, or riders on its space, within three spaces), then confirm."));
    const row = el("div", { class: "move-buttons" });
    for (const id of candidates) {
      const r = (snap.riders || []).find((x) => x.id === id);
      row.append(el("button", {
        type: "button", class: `btn rider-btn${this.picks.has(id) ? " selected" : ""}`, disabled: ctx.pending,
        "aria-pressed": this.picks.has(id) ? "true" : "false", dataset: { testid: "fall-pick", rider: id },
        onclick: () => {
          this.togglePick(id);
          ctx.rerender();
        },
      }, riderChip(id), el("span", { class: "muted small" }, ` ${r ? r.square : ""}`)));
    }
    if (!candidates.length) box.append(el("p", { class: "small muted" }, "Nobody else may fall with it."));
    box.append(row, el("div", { class: "move-buttons" }, el("button", {
      type: "button", class: "btn primary", disabled: ctx.pending || !legal, dataset: { testid: "fall-confirm", move: text },
      title: legal ? "" : "not a legal pick: at most two riders, all within three spaces", onclick: () => ctx.send(text),
    }, chosen.length ? `Confirm: ${chosen.join(" and ")} fall${chosen.length === 1 ? "s" : ""} too` : "Confirm: nobody else falls")));
    return box;
  }

  /** The dice just rolled (a short roll when they are new). */
  diceLine(snap) {
    const box = el("div", { class: "cy-dice-line", dataset: { testid: "dice" } });
    const dice = snap.dice || [];
    if (!dice.length || !["ride", "wheel"].includes(snap.phase)) return box;
    const who = snap.phase === "ride" ? snap.due : snap.leader;
    const fresh = this.rolled !== `${snap.moves_played}/${who}` && snap.phase === "ride";
    this.rolled = `${snap.moves_played}/${who}`;
    const faces = dice.map((v) => {
      const s = svg("svg", { viewBox: "0 0 24 24", width: 26, height: 26, class: `cy-die-svg${fresh ? " fresh" : ""}` });
      dieFace(s, v, 1, 1, 22);
      return s;
    });
    const total = snap.phase === "ride" && snap.ride ? snap.ride.total : dice.reduce((a, b) => a + b, 0);
    box.append(riderChip(who), " rolled ", ...faces, el("strong", {}, ` = ${total}`));
    return box;
  }

  /** The card last drawn: its id, who drew it (when this view saw the draw) and
   * whether it is news (drawn by one of the last two moves). */
  lastCard(snap) {
    if (!snap.card) return null;
    const last = snap.last_moves || [];
    const i = last.map((m) => m.startsWith("draw:")).lastIndexOf(true);
    // The draw's index: among the latest moves, else the latest draw this view saw,
    // if no card was drawn since (the deck's count says so).
    const seen = [...this.drawers.keys()].filter((k) => k < snap.moves_played);
    const index = i >= 0 ? snap.moves_played - last.length + i : seen.length ? Math.max(...seen) : null;
    const draw = this.drawers.get(index);
    const now = drawnCount(snap);
    const same = draw && (i >= 0 || now === draw.drawn + 1 || (draw.drawn === CARD_COUNT && now === 1));
    const by = snap.phase === "fall" ? snap.due : same ? draw.by : null;
    return { id: snap.card, index, by, fresh: i >= 0 && i >= last.length - 2 };
  }

  // ------------------------------------------------------------------ panels

  result(box, snap, { table = null } = {}) {
    const card = this.lastCard(snap);
    if (card) {
      // A new card turns over once, not at every message that redraws the panel.
      card.animate = card.fresh && card.index !== this.turned;
      if (card.fresh) this.turned = card.index;
    }
    if (onTrack(snap)) trackPanel(box, snap, { table });
    else racePanel(box, snap, { table, card });
  }

  legend(host) {
    this.legendBox = host;
    if (this.legendSnap) drawTrackLegend(host, this.legendSnap, this.legendState);
    else drawLegend(host, this.legendCourse, this.legendState);
  }
}
