// @ts-check
// The lobby's competitions: the "New competition" form and the list of competitions
// (docs/protocol.md, "Competitions"). The form is built from GET /api/competitions/kinds
// (each kind's settings and defaults), the Cyclo game of GET /api/games (its bots and
// levels) and its bundled courses: a stage race rides the tour or legs chosen as mode
// and course; the other kinds show their own settings. Seats are the teams: human
// seats (the creator takes one) or bots, the same at every game of the competition.

import { api, playerName, tokens } from "./api.js";
import { el, clear, teamChip, seatLabel, showError } from "./ui.js";
import { compSeat } from "./competition_next.js";

const $ = (id) => document.getElementById(id);
/** A form control of the page by id (an input, a select or a button), read by `value`
 * and switched by `disabled`, which the three share. */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
const GAME = "cyclo";
const WATCH = "";
//: What each leg mode is called, in the legs' rows.
const LEG_MODES = { itt: "individual time trial", leg: "road stage", ttt: "team time trial" };
const TEAMS = { min: 2, max: 6 };
const error = (message) => showError($("error"), message);

let kinds = []; // GET /api/competitions/kinds
let cyclo = null; // the Cyclo game of GET /api/games
let courseNames = [];

const kind = () => kinds.find((k) => k.kind === field("comp-kind").value) || kinds[0];

// ------------------------------------------------------------------ the form

function seatSelect(i, value) {
  const bots = (cyclo && cyclo.bots) || [];
  const select = el("select", { dataset: { testid: "comp-seat", seat: letter(i) }, "aria-label": `seat ${letter(i)}` },
    el("option", { value: "human" }, "human player"),
    bots.map((b) => el("option", { value: b }, `${b} bot`)));
  select.value = value;
  select.addEventListener("change", renderCreator);
  return select;
}

const letter = (i) => String.fromCharCode(65 + i);

function renderSeats() {
  const n = Number(field("comp-teams").value);
  const box = $("comp-seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  clear(box);
  for (let i = 0; i < n; i += 1) {
    const value = before[i] || (i === 0 ? "human" : "greedy");
    box.append(el("label", { class: "field seat-row" }, teamChip(letter(i), `Team ${letter(i)}`), seatSelect(i, value)));
  }
  renderCreator();
}

function renderCreator() {
  const box = $("comp-creator");
  const seats = [...$("comp-seats").querySelectorAll("select")];
  const humans = seats.filter((s) => s.value === "human").map((s) => s.dataset.seat);
  const before = box.querySelector("select");
  const keep = before ? before.value : null;
  const typed = box.querySelector("input") ? box.querySelector("input").value : playerName.get();
  clear(box);
  box.hidden = !humans.length;
  if (!humans.length) return;
  const select = el("select", { dataset: { testid: "comp-creator-seat" }, "aria-label": "your seat" },
    humans.map((s) => el("option", { value: s }, `Team ${s}`)), el("option", { value: WATCH }, "none: I only watch"));
  select.value = keep !== null && (keep === WATCH || humans.includes(keep)) ? keep : humans[0];
  box.append(
    el("label", { class: "field" }, el("span", {}, "Your team"), select),
    el("label", { class: "field" }, el("span", {}, "Your name"),
      el("input", { type: "text", maxlength: "40", value: typed, placeholder: "your name", autocomplete: "nickname", dataset: { testid: "comp-creator-name" } })),
  );
}

/** @param {{mode: string, course?: string}} [leg] */
function legRow(leg = { mode: "itt", course: "" }) {
  const mode = el("select", { dataset: { testid: "leg-mode" }, "aria-label": "mode" },
    Object.entries(LEG_MODES).map(([value, text]) => el("option", { value }, text)));
  mode.value = leg.mode;
  const course = el("select", { dataset: { testid: "leg-course" }, "aria-label": "course" },
    el("option", { value: "" }, "the mode's own course"), courseNames.map((c) => el("option", { value: c }, c)));
  course.value = leg.course || "";
  const row = el("li", { class: "leg-row", dataset: { testid: "leg-row" } }, mode, course,
    el("button", { type: "button", class: "btn ghost small", "aria-label": "remove this leg", dataset: { testid: "leg-remove" },
      onclick: () => { if ($("comp-legs").childElementCount > 1) row.remove(); } }, "×"));
  return row;
}

/** One field per setting of the kind: the stage race's legs, a level select, a flag a
 * checkbox, a number a number field, other text a text field. */
function renderSettings() {
  const box = clear($("comp-settings"));
  for (const setting of kind().settings) {
    const { name } = setting;
    const value = setting.default;
    if (name === "legs") {
      const list = el("ol", { id: "comp-legs", class: "leg-list" },
        legRow({ mode: "itt", course: "prologue" }), legRow({ mode: "leg", course: "flat-stage" }));
      const chosen = el("div", { class: "legs-chosen", hidden: value === "tour" }, list,
        el("button", { type: "button", class: "btn small", dataset: { testid: "leg-add" }, onclick: () => list.append(legRow({ mode: "leg" })) }, "Add a leg"));
      const tour = el("input", { type: "radio", name: "comp-legs-kind", value: "tour", checked: value === "tour", dataset: { testid: "legs-tour" } });
      const pick = el("input", { type: "radio", name: "comp-legs-kind", value: "chosen", checked: value !== "tour", dataset: { testid: "legs-chosen" } });
      for (const radio of [tour, pick]) radio.addEventListener("change", () => { chosen.hidden = tour.checked; });
      box.append(el("fieldset", { class: "legs-fieldset", dataset: { setting: name } }, el("legend", {}, "Legs"),
        el("label", { class: "field inline" }, tour, el("span", {}, "The tour: prologue, flat stage, mountain stage, team time trial")),
        el("label", { class: "field inline" }, pick, el("span", {}, "Legs of my choice")), chosen));
    } else if (typeof value === "boolean") {
      box.append(el("label", { class: "field inline", dataset: { setting: name } },
        el("input", { type: "checkbox", checked: value, dataset: { testid: `comp-${name}` } }), el("span", {}, words(name))));
    } else {
      const choices = optionChoices(name);
      const input = choices
        ? el("select", { dataset: { testid: `comp-${name}` } }, choices.map((c) => el("option", { value: c }, c)))
        : el("input", { type: typeof value === "number" ? "number" : "text", dataset: { testid: `comp-${name}` } });
      input.value = value === null ? "" : String(value);
      box.append(el("label", { class: "field", dataset: { setting: name } }, el("span", {}, words(name)), input));
    }
  }
}

//: The modes a tournament or a series rides (CY-12.4, CY-12.5).
const MODES = { "sprint-tournament": ["sprint", "team-sprint"], "pursuit-series": ["pursuit", "team-pursuit"] };

/** The choices of a setting: a kind's modes, or those of the Cyclo option of the same
 * name (the level). */
function optionChoices(name) {
  if (name === "mode" && MODES[kind().kind]) return MODES[kind().kind];
  const option = cyclo && (cyclo.options || []).find((o) => o.name === name);
  return option && option.choices && name !== "mode" ? option.choices : null;
}

const words = (name) => {
  const text = name.replace(/_/g, " ");
  return { events: "Event cards on the road stages", bonus_seconds: "Bonus seconds (a leg's sprint points come off its time)" }[name]
    || text.charAt(0).toUpperCase() + text.slice(1);
};

/** The settings the form gives: what differs from each default, the legs as chosen. */
function settingsOf() {
  const settings = {};
  for (const setting of kind().settings) {
    const box = $("comp-settings").querySelector(`[data-setting="${setting.name}"]`);
    if (!box) continue;
    if (setting.name === "legs") {
      if (/** @type {HTMLInputElement} */ (box.querySelector('[data-testid="legs-tour"]')).checked) {
        settings.legs = "tour";
      } else {
        settings.legs = [...box.querySelectorAll('[data-testid="leg-row"]')].map((row) => {
          /** @type {{mode: string, course?: string}} */
          const leg = { mode: /** @type {HTMLSelectElement} */ (row.querySelector('[data-testid="leg-mode"]')).value };
          const course = /** @type {HTMLSelectElement} */ (row.querySelector('[data-testid="leg-course"]')).value;
          if (course) leg.course = course;
          return leg;
        });
      }
      continue;
    }
    const input = /** @type {HTMLInputElement} */ (box.querySelector("input, select"));
    /** @type {string | boolean | number} */
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (input.type === "number" && value !== "") value = Number(value);
    if (value === "" && setting.default === null) continue;
    settings[setting.name] = value;
  }
  return settings;
}

async function create(event) {
  event.preventDefault();
  error(null);
  const button = field("comp-create");
  const seats = [...$("comp-seats").querySelectorAll("select")].map((s) => s.value);
  const request = { kind: kind().kind, settings: settingsOf(), seats };
  const seatBox = $("comp-creator").querySelector("select");
  if (!$("comp-creator").hidden && seatBox && seatBox.value !== WATCH) {
    const name = $("comp-creator").querySelector("input").value.trim();
    if (!name) {
      error(`Enter your name to ride for team ${seatBox.value} (or choose to only watch).`);
      return;
    }
    request.creator = { seat: seatBox.value, name };
  }
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/competitions", request);
    if (request.creator && answer.token) {
      compSeat.set(answer.id, answer.seat, answer.token);
      playerName.set(request.creator.name);
      if (answer.plays) tokens.set(answer.table, answer.token);
      location.href = answer.plays ? answer.table_url : answer.url; // a heat may not seat them
    } else {
      location.href = answer.url;
    }
  } catch (e) {
    error(`The competition could not be created: ${e.message}`);
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ the list

function competitionCard(c) {
  const bits = [c.title, c.status === "finished" ? "finished" : c.status === "stopped" ? "stopped" : `${c.game} ${c.played + 1}${c.games ? ` of ${c.games}` : ""}`];
  if (c.leader) bits.push(`${c.status === "finished" ? "winner" : "leader"} ${c.leader}`);
  return el("li", { class: `table-card status-${c.status === "finished" ? "finished" : "running"}`, dataset: { testid: "competition-card", competition: c.id, status: c.status } },
    el("a", { class: "card-link", href: c.url, dataset: { testid: "competition-link" } },
      el("span", { class: "card-id" }, c.id), el("span", { class: "card-action" }, "Standings")),
    el("div", { class: "card-meta" }, bits.join(" · "),
      c.current ? el("a", { class: "card-table", href: `/table/${encodeURIComponent(c.current)}`, dataset: { testid: "competition-table" } }, ` · ${c.game} table`) : null),
    el("div", { class: "card-seats" }, (c.seats || []).map((s) => teamChip(s.seat, seatLabel(s)))));
}

async function loadCompetitions() {
  const box = $("competitions");
  try {
    const { competitions } = await api("GET", "/api/competitions");
    clear(box);
    if (!competitions.length) box.append(el("p", { class: "muted" }, "No competitions yet: start the first one."));
    else box.append(el("ul", { class: "table-list", dataset: { testid: "competition-list" } }, competitions.slice(0, 30).map(competitionCard)));
  } catch (e) {
    if (!box.childElementCount) box.append(el("p", { class: "muted" }, `Could not load the competitions: ${e.message}`));
  }
}

// ------------------------------------------------------------------ start

async function init() {
  try {
    const [found, games, courses] = await Promise.all([
      api("GET", "/api/competitions/kinds"), api("GET", "/api/games"), api("GET", `/api/courses?game=${GAME}`),
    ]);
    kinds = found.kinds;
    cyclo = games.games.find((g) => g.name === GAME) || null;
    courseNames = courses.courses.map((c) => c.name).filter((n) => n !== "velodrome");
  } catch (e) {
    error(`The competition form could not be loaded: ${e.message}`);
    return;
  }
  const select = $("comp-kind");
  for (const k of kinds) select.append(el("option", { value: k.kind }, k.title));
  const teams = field("comp-teams");
  for (let n = TEAMS.min; n <= TEAMS.max; n += 1) teams.append(el("option", { value: String(n) }, `${n} teams`));
  teams.value = "3";
  select.addEventListener("change", renderSettings);
  teams.addEventListener("change", renderSeats);
  $("competition-form").addEventListener("submit", create);
  renderSettings();
  renderSeats();
  $("competition-form").dataset.ready = "true";
}

init();
loadCompetitions();
setInterval(loadCompetitions, 5000);
