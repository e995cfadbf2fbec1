// The lobby: the list of tables, the create form (with course upload and check) and
// the replay of an uploaded record.

import { api } from "./api.js";
import { Board } from "./board.js";
import { ReplayViewer } from "./replay.js";
import { el, clear, teamChip, seatLabel, showError, trophyIcon } from "./ui.js";

const $ = (id) => document.getElementById(id);
const LETTERS = "ABCDEFG";
const UPLOADED = "__uploaded__";
const errorBox = $("error");
const error = (message) => showError(errorBox, message);

let courses = [];
let uploaded = null; // the checked course object of an uploaded file
const seatKinds = ["human", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy"];

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

function renderSeatRows() {
  const solo = $("solo").checked;
  const n = solo ? 1 : Number($("team-count").value);
  const box = clear($("seat-rows"));
  for (let i = 0; i < n; i++) {
    const team = LETTERS[i];
    const select = el("select", {
      dataset: { testid: "seat-kind", seat: team }, "aria-label": `seat ${team}`,
      onchange: (e) => {
        seatKinds[i] = e.target.value;
      },
    },
    el("option", { value: "human" }, "human player"),
    el("option", { value: "greedy" }, "greedy bot"),
    el("option", { value: "random" }, "random bot"),
    // The search bots' levels (peloton.bots), weakest first; they think longer.
    el("optgroup", { label: "search bots (slower)" },
      ["easy", "medium", "hard", "expert"].map((level) => el("option", { value: level }, `${level} bot`))));
    select.value = seatKinds[i];
    box.append(el("label", { class: "seat-row" }, teamChip(team, `Team ${team}`), select));
  }
  for (const node of document.querySelectorAll(".not-solo")) node.hidden = solo;
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
    (t.seats || []).map((s) => teamChip(s.seat, seatLabel(s))));
  const bits = [
    typeof t.course === "string" ? t.course : "custom",
    t.solo ? "solo" : `${t.riders} riders`,
    `wind ${t.wind}`,
  ];
  if (t.status !== "open") bits.push(t.round ? `round ${t.round}` : "setup");
  const result = t.result || {};
  let outcome = null;
  if (t.status === "finished") {
    if (result.solo_score) outcome = el("span", { class: "outcome" }, `solo: ${result.solo_score[0]} rounds`);
    else if (result.trophy) outcome = el("span", { class: "outcome" }, trophyIcon(), teamChip(result.trophy));
  }
  const action = t.status === "open" ? `Join (${free} free)` : t.status === "running" ? "Watch" : "View";
  return el("li", { class: `table-card status-${t.status}`, dataset: { testid: "table-card", tableId: t.id, status: t.status } },
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
renderSeatRows();
loadCourses();
loadTables();
setInterval(loadTables, 4000);
