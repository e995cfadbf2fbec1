// @ts-check
// The lobby: the list of tables, the create form and the replay of an uploaded record.
// The form is built from GET /api/games: each game's seats, options (defaults, help,
// choices), solo version and bots. A choice option is a select, a number a number
// field, a flag a checkbox, a list or text a text field; the course of a game with
// courses is a select of its bundled courses with an upload (checked by the server).
// An option whose default is null (the game decides, e.g. by mode) offers "default"
// first and is left out of the request unless set; without choices its field is the
// kind its view names (`optionKinds`), or it stays out of the form. What differs
// between games comes from the game's view class (views.js).

import { api } from "./api.js";
import { ReplayViewer } from "./replay.js";
import { el, clear, teamChip, seatLabel, showError, trophyIcon, setTeamColours } from "./ui.js";
import { knowGames, viewOf } from "./views.js";
import { creatorOf, keepCreator, renderCreatorField } from "./creator.js";
import { postSignedIn } from "./profile_keys.js";
import { renderTimeField, timeOf } from "./time_form.js";

const $ = (id) => document.getElementById(id);
/** A field of the create form by id (an input or a select), read by `value` and `checked`. */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/** The inputs of the game's options in the create form (each marked `data-option`). */
const optionInputs = () => /** @type {NodeListOf<HTMLInputElement>} */ ($("game-options").querySelectorAll("[data-option]"));
const UPLOADED = "__uploaded__";
const COURSE = "course"; // the option that names a game's course (docs/protocol.md)
const SEARCH_BOTS = ["easy", "medium", "hard", "expert", "mcts"];
const error = (message) => showError($("error"), message);

let games = []; // GET /api/games
const courses = {}; // game -> its bundled courses
let uploaded = null; // the checked course object of an uploaded file
let seatKinds = [];

const game = () => games.find((g) => g.name === field("game").value) || games[0];
const solo = () => !!(game() && game().solo && field("solo").checked);
/** The options of a game's solo game: the server's, else those its view names. */
const soloOptions = (g) => g.solo_options || viewOf(g.name).soloOptions || {};
const DEFAULT = ""; // the value of a field left at a null default: the option is not sent

// ------------------------------------------------------------------ create form

/** The seat kinds of a game: human, then its bots (search levels grouped). */
function seatOptions(bots) {
  const plain = bots.filter((b) => !SEARCH_BOTS.includes(b));
  const search = bots.filter((b) => SEARCH_BOTS.includes(b) && b !== "mcts");
  const order = ["greedy", "random"];
  plain.sort((a, b) => (order.indexOf(a) + 1 || 9) - (order.indexOf(b) + 1 || 9));
  return [
    el("option", { value: "human" }, "human player"),
    ...plain.map((b) => el("option", { value: b }, `${b} bot`)),
    search.length ? el("optgroup", { label: "search bots (slower)" }, search.map((b) => el("option", { value: b }, `${b} bot`))) : null,
  ];
}

/** The creator's seat and name, among the human seats of the form. */
function renderCreator() {
  const g = game();
  const n = solo() ? 1 : Number(field("team-count").value);
  renderCreatorField($("creator"), { letters: g.seats.letters.slice(0, n), kinds: seatKinds.slice(0, n), seatName: viewOf(g.name).seatName });
}

function renderSeatRows() {
  const g = game();
  const View = viewOf(g.name);
  const n = solo() ? 1 : Number(field("team-count").value);
  const box = clear($("seat-rows"));
  const fallback = g.bots.includes("greedy") ? "greedy" : g.bots[0];
  for (let i = 0; i < n; i++) {
    const seat = g.seats.letters[i];
    if (!seatKinds[i] || (seatKinds[i] !== "human" && !g.bots.includes(seatKinds[i]))) seatKinds[i] = i === 0 ? "human" : fallback;
    const select = el("select", {
      dataset: { testid: "seat-kind", seat }, "aria-label": `seat ${seat}`,
      onchange: (e) => {
        seatKinds[i] = e.target.value;
        renderCreator();
      },
    }, seatOptions(g.bots));
    select.value = seatKinds[i];
    box.append(el("label", { class: "seat-row" }, teamChip(seat, View.seatName(seat), (View.colours || {})[seat]), select));
  }
  renderCreator();
  fitFields(g);
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".not-solo"))) node.hidden = solo() || g.seats.min === g.seats.max;
}

/** Hide the fields the solo game fixes, and those the other choices make meaningless
 * (the view's `optionShown`: Cyclo's entries outside a bunch race on the track); a
 * hidden field is not sent. */
function fitFields(g) {
  const View = viewOf(g.name);
  const fixed = solo() ? View.soloFixed || [] : [];
  const choices = Object.fromEntries([...optionInputs()].map((i) => [i.dataset.option, i.value]));
  const shown = (name) => !View.optionShown || View.optionShown(name, choices);
  for (const row of /** @type {NodeListOf<HTMLElement>} */ ($("game-options").querySelectorAll("[data-field]"))) row.hidden = fixed.includes(row.dataset.field) || !shown(row.dataset.field);
}

/** The field of one option (from GET /api/games), its input marked `data-option`. */
function optionField(g, o) {
  const id = `option-${o.name}`;
  const attrs = { id, dataset: { testid: id, option: o.name } };
  const nullable = o.default === null || o.default === undefined;
  const kind = nullable ? (viewOf(g.name).optionKinds || {})[o.name] : null;
  let input;
  if (o.name === COURSE && g.courses) return courseField(g, o);
  if (o.choices) {
    // A select's value is text: a number choice is marked so it is sent as a number.
    const numbers = o.choices.every((c) => typeof c === "number") ? { number: "1" } : {};
    input = el("select", { ...attrs, dataset: { ...attrs.dataset, ...numbers, ...(nullable ? { nullable: "1" } : {}) } },
      nullable ? el("option", { value: DEFAULT }, "default") : null, o.choices.map((c) => el("option", { value: c }, String(c))));
    input.value = nullable ? DEFAULT : o.default;
  } else if (kind === "flag") {
    input = el("select", { ...attrs, dataset: { ...attrs.dataset, nullable: "1", flag: "1" } },
      el("option", { value: DEFAULT }, "default"), el("option", { value: "true" }, "on"), el("option", { value: "false" }, "off"));
  } else if (kind === "text") {
    input = el("input", { ...attrs, type: "text", value: "", placeholder: "default", dataset: { ...attrs.dataset, nullable: "1" } });
  } else if (typeof o.default === "boolean") {
    input = el("input", { ...attrs, type: "checkbox" });
    input.checked = o.default;
  } else if (typeof o.default === "number") {
    input = el("input", { ...attrs, type: "number", value: String(o.default) });
  } else if (Array.isArray(o.default)) {
    input = el("input", { ...attrs, type: "text", value: o.default.join(", "), dataset: { ...attrs.dataset, list: "1" } });
  } else if (typeof o.default === "string") {
    input = el("input", { ...attrs, type: "text", value: o.default });
  } else {
    return null; // an object option, or a null default the view does not name: its default is used
  }
  return el("label", { class: "field", dataset: { field: o.name } },
    el("span", {}, o.name.replace(/_/g, " "), " ", el("small", { class: "muted" }, `(${o.help})`)), input);
}

/** A game's course: its bundled courses, or an uploaded file the server checked. */
function courseField(g, o) {
  const View = viewOf(g.name);
  const describe = View.describeCourse || (() => "");
  const nullable = o.default === null || o.default === undefined;
  const select = el("select", {
    id: "course", dataset: { testid: "course-select", option: o.name, course: "1", ...(nullable ? { nullable: "1" } : {}) },
    onchange: () => showPreview(g),
  });
  if (nullable) select.append(el("option", { value: DEFAULT }, "default (the game chooses)"));
  for (const c of courses[g.name] || []) {
    const text = describe(c);
    select.append(el("option", { value: c.name }, text ? `${c.name} — ${text}` : c.name));
  }
  if (uploaded) select.append(el("option", { value: UPLOADED }, `uploaded: ${uploaded.name || "custom"} — ${describe(uploaded)}`));
  select.value = uploaded ? UPLOADED : nullable ? DEFAULT : o.default;
  const file = el("input", {
    type: "file", accept: ".toml,.json,application/json,text/plain", dataset: { testid: "course-file" },
    onchange: (e) => {
      const chosen = e.target.files && e.target.files[0];
      if (chosen) checkCourseFile(g, chosen).finally(() => {
        e.target.value = "";
      });
    },
  });
  const box = el("div", { class: "course-field", dataset: { field: o.name } },
    el("label", { class: "field" }, el("span", {}, "Course"), select),
    el("label", { class: "field", id: "course-file-field" }, el("span", {}, "…or upload a course (TOML or JSON)"), file),
    el("div", { id: "course-preview" }),
    el("div", { id: "course-check", class: "course-check", dataset: { testid: "course-check" }, hidden: true }));
  return box;
}

/** The chosen course drawn small, for a game whose view draws one (`coursePreview`). */
/** Disable the courses the form's other choices cannot race on (the view's
 * `courseFits`); a course chosen that no longer fits goes back to the default. */
function fitCourses(g) {
  const select = /** @type {HTMLSelectElement} */ ($("course"));
  const fits = viewOf(g.name).courseFits;
  if (!select || !fits) return;
  const options = formOptions();
  for (const option of select.options) {
    const course = option.value === UPLOADED ? uploaded : (courses[g.name] || []).find((c) => c.name === option.value);
    option.disabled = !!course && !fits(course, options);
  }
  if (select.selectedOptions[0] && select.selectedOptions[0].disabled) {
    select.value = select.dataset.nullable ? DEFAULT : [...select.options].find((o) => !o.disabled).value;
    showPreview(g);
  }
}

function showPreview(g) {
  const box = $("course-preview");
  const preview = viewOf(g.name).coursePreview;
  if (!box) return;
  clear(box);
  const name = field("course").value;
  const course = name === UPLOADED ? uploaded : (courses[g.name] || []).find((c) => c.name === name);
  if (preview && course) box.append(preview(course));
}

async function checkCourseFile(g, file) {
  const box = $("course-check");
  clear(box);
  box.hidden = false;
  box.className = "course-check";
  box.append(el("p", { class: "muted" }, `Checking ${file.name}…`));
  const text = await file.text();
  const format = /\.json$/i.test(file.name) || /^\s*\{/.test(text) ? "json" : "toml";
  const describe = viewOf(g.name).describeCourse || (() => "");
  try {
    const answer = await api("POST", "/api/courses/check", { game: g.name, text, format });
    if (answer.ok) {
      uploaded = answer.course;
      renderGameOptions();
      const check = $("course-check");
      check.hidden = false;
      check.className = "course-check ok";
      check.append(el("p", { dataset: { testid: "course-ok" } }, `✓ ${file.name}: course “${uploaded.name || "custom"}”, ${describe(uploaded)}.`));
      return;
    }
    uploaded = null;
    const keep = field("course").value;
    renderGameOptions();
    field("course").value = keep === UPLOADED ? game().options.find((o) => o.name === COURSE).default ?? DEFAULT : keep;
    showPreview(game());
    const check = $("course-check");
    check.hidden = false;
    check.className = "course-check bad";
    const problems = answer.problems && answer.problems.length ? answer.problems : ["the course is not valid"];
    check.append(el("p", {}, `✗ ${file.name} is not a valid course:`),
      el("ul", { dataset: { testid: "course-problems" } }, problems.map((p) => el("li", {}, p))));
  } catch (e) {
    clear(box);
    box.classList.add("bad");
    box.append(el("p", { dataset: { testid: "course-problems" } }, `✗ ${e.message}`));
  }
}

function renderGameOptions() {
  const g = game();
  const box = clear($("game-options"));
  for (const o of g.options) {
    if (o.name === "players") continue; // the number of seats
    const row = optionField(g, o);
    if (row) box.append(row);
  }
  if ($("course")) showPreview(g);
  if (solo()) setOptions(soloOptions(g));
  fitCourses(g);
  renderSeatRows();
}

/** Set the form's fields to `values` (the solo game's options). */
function setOptions(values) {
  for (const input of optionInputs()) {
    const value = values[input.dataset.option];
    if (value === undefined || (input.dataset.course && field("course").value === UPLOADED)) continue;
    if (input.type === "checkbox") input.checked = !!value;
    else if (value === null) input.value = DEFAULT;
    else input.value = Array.isArray(value) ? value.join(", ") : String(value);
  }
}

/** The options the form says, as JSON values (the fields the solo game fixes left out). */
function formOptions() {
  const out = {};
  for (const input of optionInputs()) {
    if (/** @type {HTMLElement} */ (input.closest("[data-field]")).hidden) continue;
    const name = input.dataset.option;
    if (input.dataset.nullable && input.value === DEFAULT) continue; // the game's default
    if (input.dataset.course) out[name] = input.value === UPLOADED ? uploaded : input.value;
    else if (input.dataset.flag) out[name] = input.value === "true";
    else if (input.type === "checkbox") out[name] = input.checked;
    else if (input.type === "number" || input.dataset.number) out[name] = input.value === "" ? input.value : Number(input.value);
    else if (input.dataset.list) {
      const text = input.value.trim();
      out[name] = text ? text.split(/[\s,]+/).map((x) => (/^-?\d+$/.test(x) ? Number(x) : x)) : [];
    } else out[name] = input.value;
  }
  return out;
}

/** The seats the form's choices allow: the game's range, narrowed by an option whose
 * choice seats fewer (`seats_by` of GET /api/games: a Cyclo sprint seats 2 teams). */
function seatRange(g) {
  let [min, max] = [g.seats.min, g.seats.max];
  for (const [name, by] of Object.entries(g.seats_by || {})) {
    const input = /** @type {HTMLInputElement} */ ($("game-options").querySelector(`[data-option="${name}"]`));
    const range = input && by[input.value];
    if (range) [min, max] = [Math.max(min, range[0]), Math.min(max, range[1])];
  }
  return { min, max };
}

function renderTeamCount() {
  const g = game();
  const select = /** @type {HTMLSelectElement} */ ($("team-count"));
  const seats = seatRange(g);
  const low = g.solo ? Math.max(2, seats.min) : seats.min;
  const players = g.options.find((o) => o.name === "players");
  const keep = Number(select.value) || (players ? players.default : low);
  clear(select);
  for (let n = low; n <= seats.max; n++) select.append(el("option", { value: String(n) }, String(n)));
  select.value = String(Math.min(seats.max, Math.max(low, keep)));
  select.dataset.min = String(low);
  select.dataset.max = String(seats.max);
  $("team-count-label").textContent = viewOf(g.name).words.seats;
}

// Counts the games chosen: a game's courses arriving after another game was chosen
// must not draw the form again over the choices already typed into the new one.
let gameTurn = 0;

async function onGame() {
  const turn = ++gameTurn;
  const g = game();
  $("create-form").dataset.game = g.name;
  drawOffers();
  $("solo-field").hidden = !g.solo;
  if (!g.solo) field("solo").checked = false;
  if (g.courses && !courses[g.name]) {
    try {
      courses[g.name] = (await api("GET", `/api/courses?game=${encodeURIComponent(g.name)}`)).courses || [];
    } catch (e) {
      error(`Could not load the courses: ${e.message}`);
    }
    if (turn !== gameTurn) return; // another game was chosen meanwhile and drew its form
  }
  uploaded = null;
  clear($("game-options")); // the last game's choices narrow no seats of this one
  renderTeamCount();
  renderGameOptions();
  renderTimeField($("time-control"), g.bots || []);
}

function onSolo() {
  const g = game();
  if (solo()) setOptions(soloOptions(g));
  else setOptions(Object.fromEntries(g.options.filter((o) => soloOptions(g)[o.name] !== undefined).map((o) => [o.name, o.default])));
  fitCourses(g);
  renderSeatRows();
}

async function create(event) {
  event.preventDefault();
  error(null);
  if ($("course") && field("course").value === UPLOADED && !uploaded) {
    error("The uploaded course was not accepted; pick another course.");
    return;
  }
  const n = solo() ? 1 : Number(field("team-count").value);
  const body = { game: game().name, options: formOptions(), seats: seatKinds.slice(0, n) };
  if (solo()) body.solo = true;
  if ($("rated") && !field("rated").checked) body.rated = false;
  let creator;
  try {
    creator = creatorOf($("creator"));
    Object.assign(body, timeOf($("time-control")));
  } catch (e) {
    error(e.message);
    return;
  }
  if (creator) body.creator = creator;
  const button = event.submitter || $("create-form").querySelector("[type=submit]");
  button.disabled = true;
  try {
    const answer = await postSignedIn("/api/tables", body, (b, profile) => (b.creator ? { ...b, creator: { ...b.creator, profile } } : b));
    keepCreator(answer, creator);
    location.href = answer.url || `/table/${answer.id}`;
  } catch (e) {
    const extra = e.problems && e.problems.length ? `: ${e.problems.join("; ")}` : "";
    error(`${e.message}${extra}`);
    button.disabled = false;
  }
}

async function loadGames() {
  try {
    games = (await api("GET", "/api/games")).games || [];
  } catch (e) {
    error(`Could not load the games: ${e.message}`);
    return;
  }
  knowGames(games);
  const select = $("game");
  clear(select);
  for (const g of games) select.append(el("option", { value: g.name }, g.title));
  drawOffers();
  await onGame();
}

// What the games offer beyond their tables (GET /api/games: "tutorial", "editor",
// "competitions"). The tutorial and editor links follow the game chosen in the create
// form ("New to Pistard?"), hidden for a game that offers none; the competitions panel
// shows while any game offers competitions.
const OFFER_LINKS = {
  tutorial: { testid: "tutorial-link", path: "/tutorial", text: (g) => `New to ${g.title}? Learn in 5 minutes` },
  editor: { testid: "editor-link", path: "/editor", text: (g) => (g.courses ? `Design a ${g.title} course` : `Design a ${g.title} layout`) },
};

function drawOffers() {
  const chosen = games.find((g) => g.name === /** @type {HTMLSelectElement} */ ($("game")).value) || games[0];
  for (const [offer, link] of Object.entries(OFFER_LINKS)) {
    const anchor = /** @type {HTMLAnchorElement} */ (document.querySelector(`[data-testid="${link.testid}"]`));
    if (!anchor) continue;
    anchor.hidden = !chosen || !chosen[offer];
    if (anchor.hidden) continue;
    anchor.href = `${link.path}?game=${encodeURIComponent(chosen.name)}`;
    anchor.dataset.game = chosen.name;
    anchor.textContent = link.text(chosen);
  }
  const panel = /** @type {HTMLElement} */ (document.querySelector(".competition-panel"));
  if (panel) panel.hidden = !games.some((g) => g.competitions);
}

// ------------------------------------------------------------------ tables

const STATUS_TITLES = { open: "Open — seats free", running: "Running", finished: "Finished", abandoned: "Abandoned — every player left" };

function tableCard(t) {
  const View = viewOf(t.game);
  const colour = (seat) => (View.colours || {})[seat];
  const free = (t.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
  const bits = [t.title, ...View.subtitle(t)];
  if (t.status !== "open") bits.push(`${t.moves} moves`);
  let outcome = null;
  if (t.status === "finished") {
    const { winner, text } = View.outcome(t.result);
    if (text) outcome = el("span", { class: "outcome" }, text);
    else if (winner) outcome = el("span", { class: "outcome" }, trophyIcon(), teamChip(winner, winner, colour(winner)));
  }
  const action = t.status === "open" ? `Join (${free} free)` : t.status === "running" ? "Watch" : "View";
  return el("li", { class: `table-card status-${t.status}`, dataset: { testid: "table-card", tableId: t.id, status: t.status, game: t.game } },
    el("a", { class: "card-link", href: `/table/${encodeURIComponent(t.id)}`, dataset: { testid: "table-link" } },
      el("span", { class: "card-id" }, t.id), el("span", { class: "card-action" }, action)),
    el("div", { class: "card-meta" }, bits.join(" · "), outcome ? " " : null, outcome),
    el("div", { class: "card-seats" }, (t.seats || []).map((s) => teamChip(s.seat, seatLabel(s), colour(s.seat)))));
}

// The lobby's pages (docs/protocol.md: GET /api/tables gives a page and the cursor of
// the next): the first page is reloaded every few seconds, later ones when asked for.
const lobby = { first: [], more: [], next: null };

async function loadTables() {
  const box = $("tables");
  try {
    const page = await api("GET", "/api/tables");
    const first = page.tables || [];
    if (lobby.more.length) {
      // Tables that newer ones pushed off the first page stay, with the later pages.
      const ids = new Set(first.map((t) => t.id));
      lobby.more = [...lobby.first.filter((t) => !ids.has(t.id)), ...lobby.more];
    } else {
      lobby.next = page.next || null;
    }
    lobby.first = first;
  } catch (e) {
    if (!box.childElementCount) box.append(el("p", { class: "muted" }, `Could not load the tables: ${e.message}`));
    return;
  }
  renderTables();
}

async function moreTables() {
  if (!lobby.next) return;
  try {
    const page = await api("GET", `/api/tables?cursor=${encodeURIComponent(lobby.next)}`);
    lobby.more.push(...(page.tables || []));
    lobby.next = page.next || null;
  } catch (e) {
    error(`Could not load more tables: ${e.message}`);
  }
  renderTables();
}

function renderTables() {
  const box = $("tables");
  const seen = new Set();
  const tables = [...lobby.first, ...lobby.more].filter((t) => !seen.has(t.id) && seen.add(t.id));
  clear(box);
  if (!tables.length) {
    box.append(el("p", { class: "muted" }, "No tables yet: create the first one."));
    return;
  }
  for (const status of ["open", "running", "finished", "abandoned"]) {
    const group = tables.filter((t) => t.status === status);
    if (!group.length) continue;
    box.append(el("h3", { class: "group-title" }, `${STATUS_TITLES[status]} (${group.length}${lobby.next ? "+" : ""})`),
      el("ul", { class: "table-list", dataset: { testid: `tables-${status}` } }, group.map(tableCard)));
  }
  if (lobby.next) {
    box.append(el("button", { type: "button", class: "btn", dataset: { testid: "more-tables" }, onclick: moreTables }, "More tables"));
  }
}

// ------------------------------------------------------------------ record replay

let recordReplay = null; // the viewer of the last uploaded record

/** Replay an uploaded record with its game's view. */
async function replayRecord(file) {
  error(null);
  const viewer = $("record-viewer");
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (e) {
    error(`${file.name} is not JSON: ${e.message}`);
    viewer.hidden = true;
    return;
  }
  try {
    const data = await api("POST", "/api/replay", record);
    const View = viewOf(data.game);
    const view = new View(clear($("record-board")), {});
    setTeamColours(view.colours || {});
    $("record-result-h").textContent = view.words.result;
    const players = data.players || {};
    // A seat's kind: records older than docs/games.md call it `controller`.
    const seats = Object.entries(players).map(([seat, p]) => ({ seat, kind: p.kind || p.controller || "human", name: p.name || seat, taken: true }));
    const table = { ...data, seats };
    view.setTable(table);
    viewer.hidden = false;
    if (recordReplay) recordReplay.stop(); // its keys would step the board too
    recordReplay = new ReplayViewer({ controls: $("record-controls"), log: $("record-log"), result: $("record-result"), root: viewer },
      data, { view, table });
    recordReplay.go(0); // an uploaded record is watched from the start
  } catch (e) {
    viewer.hidden = true;
    error(`${file.name}: ${e.message}`);
  }
}

// ------------------------------------------------------------------ start

$("create-form").addEventListener("submit", create);
$("game").addEventListener("change", onGame);
$("team-count").addEventListener("change", renderSeatRows);
// A choice that seats another number of players (a Cyclo mode) redraws the seats,
// and leaves only the courses it may race on (a track event: the velodrome).
$("game-options").addEventListener("change", (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const name = target.dataset && target.dataset.option;
  if (!name || target.dataset.course) return;
  fitCourses(game());
  fitFields(game());
  if (!(game().seats_by || {})[name]) return;
  renderTeamCount();
  renderSeatRows();
});
$("solo").addEventListener("change", onSolo);
$("record-file").addEventListener("change", (e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files && input.files[0];
  if (file) replayRecord(file).finally(() => {
    input.value = ""; // the same file may be chosen again
  });
});
loadGames();
loadTables();
setInterval(loadTables, 4000);
