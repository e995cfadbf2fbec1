// The lobby: the list of tables, the create form (a game, its options — Mind Cycling's
// with course upload and check — and the seats) and the replay of an uploaded record.

import { api } from "./api.js";
import { Board } from "./board.js";
import { COLOURS as MT_COLOURS, MindTwistView } from "./mindtwist.js";
import { PistardView } from "./pistard.js";
import { ReplayViewer } from "./replay.js";
import { el, clear, teamChip, seatLabel, showError, trophyIcon, setTeamColours } from "./ui.js";

const $ = (id) => document.getElementById(id);
const MC = "mind-cycling";
const UPLOADED = "__uploaded__";
const VIEWS = { "mind-twist": MindTwistView, pistard: PistardView };
const SEARCH_BOTS = ["easy", "medium", "hard", "expert", "mcts"];
const errorBox = $("error");
const error = (message) => showError(errorBox, message);

let courses = [];
let uploaded = null; // the checked course object of an uploaded file
// GET /api/games: each game's title, options, seats and bots. Until it answers, Mind
// Cycling with its usual bots.
let games = [{ name: MC, title: "Mind Cycling", options: [], seats: { min: 1, max: 7, letters: [..."ABCDEFG"] },
  bots: ["random", "greedy", ...SEARCH_BOTS] }];
let seatKinds = [];

const gameName = () => $("game").value || MC;
const game = () => games.find((g) => g.name === gameName()) || games[0];
const isMC = () => gameName() === MC;

// ------------------------------------------------------------------ create form

function courseSummary(c) {
  const kinds = (c.sections || []).map((s) => s[1]).join(", ");
  return `${c.finish - 1} rows · ${kinds}`;
}

async function loadCourses() {
  const select = $("course");
  try {
    const data = await api("GET", "/api/courses");
    courses = data.courses || [];
  } catch (e) {
    error(`Could not load the courses: ${e.message}`);
  }
  clear(select);
  for (const c of courses) {
    select.append(el("option", { value: c.name }, `${c.name} — ${courseSummary(c)}`));
  }
  if (courses.some((c) => c.name === "standard")) select.value = "standard";
  if (uploaded) addUploadedOption();
}

function addUploadedOption() {
  const select = $("course");
  let opt = select.querySelector(`option[value="${UPLOADED}"]`);
  if (!opt) {
    opt = el("option", { value: UPLOADED });
    select.append(opt);
  }
  opt.textContent = `uploaded: ${uploaded.name || "custom"} — ${courseSummary(uploaded)}`;
  select.value = UPLOADED;
}

async function checkCourseFile(file) {
  const box = $("course-check");
  clear(box);
  box.hidden = false;
  box.className = "course-check";
  box.append(el("p", { class: "muted" }, `Checking ${file.name}…`));
  const text = await file.text();
  const format = /\.json$/i.test(file.name) || /^\s*\{/.test(text) ? "json" : "toml";
  try {
    const answer = await api("POST", "/api/courses/check", { text, format });
    clear(box);
    if (answer.ok) {
      uploaded = answer.course;
      box.classList.add("ok");
      box.append(el("p", { dataset: { testid: "course-ok" } },
        `✓ ${file.name}: course “${uploaded.name || "custom"}”, ${courseSummary(uploaded)}.`));
      addUploadedOption();
    } else {
      uploaded = null;
      const opt = $("course").querySelector(`option[value="${UPLOADED}"]`);
      if (opt) opt.remove();
      box.classList.add("bad");
      const problems = answer.problems && answer.problems.length ? answer.problems : ["the course is not valid"];
      box.append(
        el("p", {}, `✗ ${file.name} is not a valid course:`),
        el("ul", { dataset: { testid: "course-problems" } }, problems.map((p) => el("li", {}, p))),
      );
    }
  } catch (e) {
    clear(box);
    box.classList.add("bad");
    box.append(el("p", { dataset: { testid: "course-problems" } }, `✗ ${e.message}`));
  }
}

/** The seat kinds of the chosen game: human, then its bots (search levels grouped). */
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

function renderSeatRows() {
  const g = game();
  const solo = isMC() && $("solo").checked;
  const n = solo ? 1 : Number($("team-count").value);
  const box = clear($("seat-rows"));
  const letters = (g.seats && g.seats.letters) || [..."ABCDEFG"];
  const fallback = g.bots.includes("greedy") ? "greedy" : g.bots[0];
  for (let i = 0; i < n; i++) {
    const team = letters[i];
    if (!seatKinds[i] || (seatKinds[i] !== "human" && !g.bots.includes(seatKinds[i]))) seatKinds[i] = i === 0 ? "human" : fallback;
    const select = el("select", {
      dataset: { testid: "seat-kind", seat: team }, "aria-label": `seat ${team}`,
      onchange: (e) => {
        seatKinds[i] = e.target.value;
      },
    }, seatOptions(g.bots));
    select.value = seatKinds[i];
    const label = g.name === "mind-twist" ? `${team === "R" ? "Red" : "Blue"} (${team})` : isMC() ? `Team ${team}` : `Player ${team}`;
    box.append(el("label", { class: "seat-row" }, teamChip(team, label, g.name === "mind-twist" ? MT_COLOURS[team] : null), select));
  }
  for (const node of document.querySelectorAll(".not-solo")) node.hidden = solo || (g.seats.min === g.seats.max && !isMC());
}

/** The generic options form of a game other than Mind Cycling (from GET /api/games). */
function renderGameOptions() {
  const box = clear($("game-options"));
  const g = game();
  box.hidden = isMC();
  if (isMC()) return;
  for (const o of g.options) {
    if (o.name === "players") continue; // the number of seats
    const id = `option-${o.name}`;
    let input;
    if (o.choices) {
      input = el("select", { id, dataset: { testid: id, option: o.name } }, o.choices.map((c) => el("option", { value: c }, String(c))));
      input.value = o.default;
    } else if (typeof o.default === "boolean") {
      input = el("input", { id, type: "checkbox", dataset: { testid: id, option: o.name } });
      input.checked = o.default;
    } else if (typeof o.default === "number") {
      input = el("input", { id, type: "number", value: String(o.default), dataset: { testid: id, option: o.name } });
    } else if (Array.isArray(o.default)) {
      input = el("input", { id, type: "text", value: o.default.join(", "), dataset: { testid: id, option: o.name, list: "1" } });
    } else if (typeof o.default === "string") {
      input = el("input", { id, type: "text", value: o.default, dataset: { testid: id, option: o.name } });
    } else {
      continue; // an object option (e.g. an inline layout) has no form field
    }
    box.append(el("label", { class: "field" }, el("span", {}, o.name.replace(/_/g, " "), " ",
      el("small", { class: "muted" }, `(${o.help})`)), input));
  }
}

/** The options the form says, as JSON values. */
function gameOptions() {
  const out = {};
  for (const input of $("game-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") out[name] = input.checked;
    else if (input.type === "number") out[name] = input.value === "" ? input.value : Number(input.value);
    else if (input.dataset.list) {
      const text = input.value.trim();
      out[name] = text ? text.split(/[\s,]+/).map((x) => (/^-?\d+$/.test(x) ? Number(x) : x)) : [];
    } else out[name] = input.value;
  }
  return out;
}

function renderTeamCount() {
  const g = game();
  const select = $("team-count");
  const low = isMC() ? 2 : g.seats.min;
  const high = isMC() ? 7 : g.seats.max;
  const keep = Number(select.value);
  clear(select);
  for (let n = low; n <= high; n++) select.append(el("option", { value: String(n) }, String(n)));
  select.value = String(Math.min(high, Math.max(low, isMC() ? keep || 3 : keep || low)));
  $("team-count-label").textContent = isMC() ? "Teams" : "Players";
}

function onGame() {
  $("create-form").dataset.game = gameName();
  renderGameOptions();
  renderTeamCount();
  renderSeatRows();
}

async function loadGames() {
  try {
    const data = await api("GET", "/api/games");
    if (data.games && data.games.length) games = data.games;
  } catch (e) {
    error(`Could not load the games: ${e.message}`);
  }
  const select = $("game");
  const chosen = select.value || MC;
  clear(select);
  for (const g of games) select.append(el("option", { value: g.name }, g.title));
  select.value = games.some((g) => g.name === chosen) ? chosen : MC;
  onGame();
}

function onSolo() {
  const solo = $("solo").checked;
  if (solo && courses.some((c) => c.name === "solo") && $("course").value !== UPLOADED) $("course").value = "solo";
  if (!solo && $("course").value === "solo" && courses.some((c) => c.name === "standard")) $("course").value = "standard";
  renderSeatRows();
}

async function create(event) {
  event.preventDefault();
  error(null);
  if (!isMC()) {
    const n = Number($("team-count").value) || game().seats.min;
    await send({ game: gameName(), options: gameOptions(), seats: seatKinds.slice(0, n) }, event);
    return;
  }
  const solo = $("solo").checked;
  const choice = $("course").value;
  if (choice === UPLOADED && !uploaded) {
    error("The uploaded course was not accepted; pick another course.");
    return;
  }
  const n = solo ? 1 : Number($("team-count").value);
  const body = {
    course: choice === UPLOADED ? uploaded : choice,
    wind: $("wind").value,
    relay_limit: Number($("relay-limit").value) || 3,
    seats: seatKinds.slice(0, n),
    solo,
  };
  if (!solo) body.riders = Number($("riders").value);
  await send(body, event);
}

async function send(body, event) {
  const button = event.submitter || $("create-form").querySelector("[type=submit]");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/tables", body);
    location.href = answer.url || `/table/${answer.id}`;
  } catch (e) {
    const extra = e.problems && e.problems.length ? `: ${e.problems.join("; ")}` : "";
    error(`${e.message}${extra}`);
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ tables

const STATUS_TITLES = { open: "Open — seats free", running: "Running", finished: "Finished" };

function tableCard(t) {
  const free = (t.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
  const seats = el("div", { class: "card-seats" },
    (t.seats || []).map((s) => teamChip(s.seat, seatLabel(s), t.game === "mind-twist" ? MT_COLOURS[s.seat] : null)));
  const mc = !t.game || t.game === MC;
  const colour = (team) => (t.game === "mind-twist" ? MT_COLOURS[team] : null);
  const bits = [t.title || "Mind Cycling"];
  if (mc) {
    bits.push(typeof t.course === "string" ? t.course : "custom", t.solo ? "solo" : `${t.riders} riders`, `wind ${t.wind}`);
    if (t.status !== "open") bits.push(t.round ? `round ${t.round}` : "setup");
  } else {
    for (const [k, v] of Object.entries(t.options || {})) {
      if (k !== "players" && (typeof v !== "object" || Array.isArray(v))) bits.push(`${k} ${Array.isArray(v) ? v.join(",") : v}`);
    }
    if (t.status !== "open") bits.push(`${t.moves} moves`);
  }
  const result = t.result || {};
  let outcome = null;
  if (t.status === "finished") {
    const winner = typeof t.result === "string" ? t.result : result.winner;
    if (result.solo_score) outcome = el("span", { class: "outcome" }, `solo: ${result.solo_score[0]} rounds`);
    else if (result.trophy) outcome = el("span", { class: "outcome" }, trophyIcon(), teamChip(result.trophy));
    else if (winner) outcome = el("span", { class: "outcome" }, trophyIcon(), teamChip(winner, winner, colour(winner)));
  }
  const action = t.status === "open" ? `Join (${free} free)` : t.status === "running" ? "Watch" : "View";
  return el("li", { class: `table-card status-${t.status}`, dataset: { testid: "table-card", tableId: t.id, status: t.status, game: t.game || MC } },
    el("a", { class: "card-link", href: `/table/${encodeURIComponent(t.id)}`, dataset: { testid: "table-link" } },
      el("span", { class: "card-id" }, t.id), el("span", { class: "card-action" }, action)),
    el("div", { class: "card-meta" }, bits.join(" · "), outcome ? " " : null, outcome),
    seats);
}

async function loadTables() {
  const box = $("tables");
  let tables;
  try {
    tables = (await api("GET", "/api/tables")).tables || [];
  } catch (e) {
    if (!box.childElementCount) box.append(el("p", { class: "muted" }, `Could not load the tables: ${e.message}`));
    return;
  }
  clear(box);
  if (!tables.length) {
    box.append(el("p", { class: "muted" }, "No tables yet: create the first one."));
    return;
  }
  for (const status of ["open", "running", "finished"]) {
    const group = tables.filter((t) => t.status === status);
    if (!group.length) continue;
    box.append(el("h3", { class: "group-title" }, `${STATUS_TITLES[status]} (${group.length})`),
      el("ul", { class: "table-list", dataset: { testid: `tables-${status}` } }, group.slice(0, 30).map(tableCard)));
  }
}

// ------------------------------------------------------------------ record replay

let recordBoard = null;
let recordView = null;

/** The replay of a record of another game, drawn by that game's view. */
function replayGame(data, record, viewer) {
  const View = VIEWS[data.game];
  if (!View) throw new Error(`this page cannot draw a ${data.game} game`);
  const host = clear($("record-board"));
  recordBoard = null;
  recordView = new View(host, {});
  setTeamColours(recordView.colours || {});
  $("record-result-h").textContent = "Result";
  viewer.hidden = false;
  const players = data.players || (record && record.players) || {};
  const table = { seats: Object.entries(players).map(([seat, p]) => ({ seat, kind: p.kind || p.controller || "human", name: p.name || seat, taken: true })) };
  const replay = new ReplayViewer(
    { controls: $("record-controls"), log: $("record-log"), result: $("record-result"), root: viewer },
    data, { table, view: recordView },
  );
  replay.go(0);
}

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
    if (data.game && data.game !== MC) {
      replayGame(data, record, viewer);
      return;
    }
    const host = $("record-board");
    if (recordView) {
      clear(host);
      recordView = null;
      recordBoard = null;
    }
    $("record-result-h").textContent = "Medals & points";
    setTeamColours({});
    const course = (record && record.course) || data.course || data.course_data;
    if (!course) throw new Error("the record has no course");
    viewer.hidden = false;
    if (!recordBoard) recordBoard = new Board($("record-board"));
    recordBoard.setCourse(course);
    recordBoard.lastFocus = null;
    const players = (record && record.players) || {};
    const table = {
      seats: Object.keys((record && record.teams) || {}).map((team) => {
        const p = players[team] || {};
        const kind = p.controller && p.controller !== "human" ? p.controller : "human";
        return { seat: team, kind, name: p.name || team, taken: true };
      }),
    };
    const replay = new ReplayViewer(
      { board: recordBoard, controls: $("record-controls"), log: $("record-log"), result: $("record-result"), root: viewer },
      data, { table },
    );
    replay.go(0);
  } catch (e) {
    viewer.hidden = true;
    error(`${file.name}: ${e.message}`);
  }
}

// ------------------------------------------------------------------ start

$("create-form").addEventListener("submit", create);
$("game").addEventListener("change", onGame);
$("team-count").addEventListener("change", renderSeatRows);
$("solo").addEventListener("change", onSolo);
$("course-file").addEventListener("change", (e) => {
  const file = e.target.files && e.target.files[0];
  if (file) checkCourseFile(file).finally(() => {
    e.target.value = "";
  });
});
$("record-file").addEventListener("change", (e) => {
  const file = e.target.files && e.target.files[0];
  if (file) replayRecord(file).finally(() => {
    e.target.value = ""; // the same file may be chosen again
  });
});
onGame();
loadGames();
loadCourses();
loadTables();
setInterval(loadTables, 4000);
