// @ts-check
// The Cyclo course builder (/editor?game=cyclo): a tray of the bundled boards A1 … F2
// to click or drag into the course, the boards laid in order (moved, removed), the
// course drawn as the table draws it, its facts, and the server's check on every edit
// (POST /api/editor/check: the loader's problems with their rule ids and the position
// of the board each is about, advice, the course file and its share link). A course
// is saved as TOML or JSON, uploaded, shared by link, opened from a bundled course,
// and raced on at a new table in one click.

import { api, playerName } from "./api.js";
import { CycloBoard } from "./cyclo_board.js";
import { chequerDefs, courseFacts, courseLayout, drawBoard, suitedModes } from "./cyclo_editor_draw.js";
import { copyLink, fileSlug, formatOf, linkInAddress, openTable, saveFile, shareUrl } from "./editor_files.js";
import { el, clear } from "./ui.js";

const GAME = "cyclo";
const DELAY = 250; // ms after the last edit before the course is checked
const MAX_UPLOAD = 64 * 1024; // bytes: a course file is a few hundred
const BLANK = { name: "my-classic", boards: ["A1"] };

const $ = (id) => /** @type {any} */ (document.getElementById(id));

const state = {
  boards: /** @type {Record<string, any>} */ ({}), // bundled boards' data by name
  courses: /** @type {any[]} */ ([]), // bundled road courses
  modes: /** @type {Record<string, any>} */ ({}), // mode facts by name
  seatsBy: /** @type {Record<string, number[]>} */ ({}),
  bots: /** @type {string[]} */ ([]),
  draft: /** @type {{name: string, boards: string[], start?: number}} */ ({ ...BLANK, boards: [...BLANK.boards] }),
  answer: /** @type {any} */ (null),
  failed: /** @type {string | null} */ (null),
};

// ------------------------------------------------------------------ messages

function error(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

function notice(message) {
  $("notice").hidden = !message;
  $("notice").textContent = message || "";
}

// ------------------------------------------------------------------ the check

const check = { seq: 0, answered: -1, busy: false, timer: /** @type {any} */ (null), waiters: /** @type {Function[]} */ ([]) };

/** The draft as sent and saved: `start` only when the course does not begin at 1. */
function draft() {
  const out = { name: state.draft.name, boards: [...state.draft.boards] };
  return state.draft.start && state.draft.start !== 1 ? { ...out, start: state.draft.start } : out;
}

/** The draft changed: redraw now, check once the edits stop. */
function changed() {
  check.seq += 1;
  render();
  clearTimeout(check.timer);
  check.timer = setTimeout(runCheck, DELAY);
}

async function runCheck() {
  if (check.busy) return; // the check in flight sends the next one
  const seq = check.seq;
  check.busy = true;
  try {
    state.answer = await api("POST", "/api/editor/check", { game: GAME, course: draft() });
    state.failed = null;
  } catch (e) {
    state.failed = e.message;
  } finally {
    check.busy = false;
    check.answered = seq;
  }
  if (check.seq !== seq) {
    runCheck();
    return;
  }
  renderCheck();
  for (const wake of check.waiters.splice(0)) wake();
}

/** The answer for the draft shown, checked at once if it was not yet. */
function checkedNow() {
  if (check.answered === check.seq && !check.busy) return Promise.resolve(state.answer);
  clearTimeout(check.timer);
  const done = new Promise((resolve) => check.waiters.push(() => resolve(state.answer)));
  runCheck();
  return done;
}

// ------------------------------------------------------------------ editing

function addBoard(name, at = state.draft.boards.length) {
  state.draft.boards.splice(at, 0, name);
  changed();
}

function moveBoard(from, to) {
  const boards = state.draft.boards;
  if (to < 0 || to > boards.length || from === to) return;
  const [name] = boards.splice(from, 1);
  boards.splice(to > from ? to - 1 : to, 0, name);
  changed();
}

function removeBoard(index) {
  state.draft.boards.splice(index, 1);
  changed();
}

/** Open a draft (a bundled course, an upload, a share link). */
function open(opened) {
  state.draft = { name: String(opened.name || ""), boards: [...(opened.boards || [])] };
  if (opened.start && opened.start !== 1) state.draft.start = opened.start;
  $("name").value = state.draft.name;
  $("start-space").value = String(state.draft.start || 1);
  changed();
}

// Drag and drop: a tray board (`tray:NAME`) or a placed one (`placed:INDEX`) dropped
// on a placed board goes before it, on the end zone after the last.
function dragStart(e, what) {
  e.dataTransfer.setData("text/plain", what);
  e.dataTransfer.effectAllowed = "copyMove";
}

function dropAt(e, at) {
  e.preventDefault();
  e.currentTarget.classList.remove("cb-over");
  const what = e.dataTransfer.getData("text/plain") || "";
  if (what.startsWith("tray:")) addBoard(what.slice(5), at);
  else if (what.startsWith("placed:")) moveBoard(Number(what.slice(7)), at);
}

function dropTarget(node, at) {
  node.addEventListener("dragover", (e) => {
    e.preventDefault();
    node.classList.add("cb-over");
  });
  node.addEventListener("dragleave", () => node.classList.remove("cb-over"));
  node.addEventListener("drop", (e) => dropAt(e, at));
}

// ------------------------------------------------------------------ drawing

/** What a board is, in a few words: its track types and lines. */
function blurb(board) {
  const types = [];
  for (const [type] of board.runs || []) if (!types.includes(type) && type !== "end") types.push(type === "lastkm" ? "last km" : type);
  const lines = (board.lines || []).map(([, kind, cat]) => (kind === "mountain" ? `mountain ${cat}` : kind));
  if (board.finish) lines.push("finish");
  return [types.join(", "), ...lines].join(" · ");
}

function renderTray() {
  const box = $("tray");
  clear(box);
  for (const name of Object.keys(state.boards).sort()) {
    const board = state.boards[name];
    const card = el("button", {
      type: "button", class: "cb-tray-board", draggable: "true", title: `Add board ${name} at the end`,
      dataset: { testid: "tray-board", board: name }, onclick: () => addBoard(name),
    }, el("span", { class: "cb-board-name" }, name), drawBoard(board), el("span", { class: "cb-blurb small muted" }, blurb(board)));
    card.addEventListener("dragstart", (e) => dragStart(e, `tray:${name}`));
    box.append(card);
  }
}

/** The positions (1 = first board) the problems shown point at. */
function badPositions() {
  const answer = state.answer && check.answered === check.seq ? state.answer : null;
  return new Set(answer ? answer.problems.map((p) => p.row).filter((r) => r) : []);
}

function renderPlaced() {
  const list = $("placed");
  clear(list);
  const bad = badPositions();
  const boards = state.draft.boards;
  boards.forEach((name, i) => {
    const board = state.boards[name];
    const item = el("li", {
      class: `cb-placed-board${bad.has(i + 1) ? " cb-bad" : ""}${board ? "" : " cb-unknown"}`, draggable: "true",
      dataset: { testid: "placed-board", board: name, position: String(i + 1) },
    },
    el("span", { class: "cb-pos" }, String(i + 1)),
    el("span", { class: "cb-board-name" }, name),
    board ? drawBoard(board) : el("span", { class: "small" }, "not a bundled board"),
    el("span", { class: "cb-placed-tools" },
      el("button", { type: "button", class: "btn small ghost", title: "move earlier", "aria-label": `move ${name} earlier`, disabled: i === 0, dataset: { testid: "move-left" }, onclick: () => moveBoard(i, i - 1) }, "◀"),
      el("button", { type: "button", class: "btn small ghost", title: "move later", "aria-label": `move ${name} later`, disabled: i === boards.length - 1, dataset: { testid: "move-right" }, onclick: () => moveBoard(i, i + 2) }, "▶"),
      el("button", { type: "button", class: "btn small ghost cb-remove", title: "remove", "aria-label": `remove ${name}`, dataset: { testid: "remove" }, onclick: () => removeBoard(i) }, "×")));
    item.addEventListener("dragstart", (e) => dragStart(e, `placed:${i}`));
    dropTarget(item, i);
    list.append(item);
  });
  const end = el("li", { class: "cb-drop-end", dataset: { testid: "drop-end" } }, boards.length ? "drop a board here to add it at the end" : "click or drag a board here: A1, the start, first");
  dropTarget(end, boards.length);
  list.append(end);
}

let strip = /** @type {CycloBoard | null} */ (null);

function layout() {
  const known = state.draft.boards.map((n) => state.boards[n]).filter(Boolean);
  return courseLayout(state.draft.name, known, state.draft.start || 1);
}

function renderStrip(laid) {
  if (!strip) strip = new CycloBoard($("strip"));
  strip.key = ""; // redrawn on every edit: two courses may share a length and lines
  strip.render({ course: laid, riders: [] });
  $("strip").dataset.length = String(laid.length);
}

function renderFacts(laid) {
  const box = $("facts");
  clear(box);
  for (const fact of courseFacts(laid, state.modes, state.draft.start || 1)) {
    box.append(el("dt", {}, fact.label), el("dd", { dataset: { testid: `fact-${fact.key}` } }, fact.value));
  }
}

function renderPlay() {
  const mode = $("play-mode");
  const keep = mode.value;
  const suited = suitedModes(state.modes, state.draft.start || 1);
  clear(mode);
  for (const m of suited) mode.append(el("option", { value: m }, state.modes[m].word || m));
  if (suited.includes(keep)) mode.value = keep;
  const teams = $("play-teams");
  const keepTeams = teams.value;
  const [low, high] = state.seatsBy[mode.value] || [1, 6];
  clear(teams);
  for (let n = low; n <= high; n++) teams.append(el("option", { value: String(n) }, String(n)));
  teams.value = Number(keepTeams) >= low && Number(keepTeams) <= high ? keepTeams : String(Math.max(low, 2));
}

function render() {
  const laid = layout();
  renderPlaced();
  renderStrip(laid);
  renderFacts(laid);
  renderPlay();
  renderCheck();
}

function renderCheck() {
  const box = $("problems");
  clear(box);
  const answer = state.answer;
  const current = check.answered === check.seq && !check.busy;
  const status = !current ? "checking" : state.failed ? "failed" : answer && answer.ok ? "valid" : "invalid";
  $("check-state").dataset.state = status;
  $("check-state").textContent = { checking: "checking…", failed: "not checked", valid: "valid", invalid: "not valid" }[status];
  if (!current) return;
  if (state.failed) {
    box.append(el("p", { class: "cb-bad" }, `The course could not be checked: ${state.failed}`));
    return;
  }
  if (answer.ok) box.append(el("p", { class: "cb-good", dataset: { testid: "valid" } }, "A valid course: ready to race."));
  const list = el("ul", { class: "cb-problem-list" });
  for (const p of answer.problems) list.append(el("li", { class: "cb-problem", dataset: { testid: "problem", row: String(p.row || "") } }, el("span", { dataset: { testid: "problem-text" } }, p.message), showButton(p.row)));
  for (const a of answer.advice || []) list.append(el("li", { class: "cb-advice", dataset: { testid: "advice", row: String(a.row || "") } }, `Advice: ${a.message}`, showButton(a.row)));
  for (const n of answer.notes || []) list.append(el("li", { class: "muted" }, n));
  if (list.childNodes.length) box.append(list);
  $("toml").textContent = answer.toml || "";
  $("share-link").value = answer.link ? shareUrl(GAME, answer.link) : "";
  $("play").disabled = !answer.ok;
  renderPlacedMarks();
}

/** A button bringing the board at `row` (1 = the first) into view, or nothing. */
function showButton(row) {
  if (!row) return null;
  return el("button", {
    type: "button", class: "link cb-show", dataset: { testid: "show-board" },
    onclick: () => {
      const item = $("placed").querySelector(`[data-position="${row}"]`);
      if (item) {
        item.scrollIntoView({ block: "nearest" });
        item.querySelector("button").focus();
      }
    },
  }, `board ${row}`);
}

/** Mark the placed boards the problems point at (without rebuilding the list). */
function renderPlacedMarks() {
  const bad = badPositions();
  for (const item of $("placed").querySelectorAll(".cb-placed-board")) {
    item.classList.toggle("cb-bad", bad.has(Number(item.dataset.position)));
  }
}

// ------------------------------------------------------------------ files, links, tables

async function save(ext) {
  const answer = await checkedNow();
  if (!answer || !answer.draft) return error("The course could not be saved: it was not checked.");
  const text = ext === "toml" ? answer.toml : `${JSON.stringify(answer.draft, null, 2)}\n`;
  saveFile(text, `${fileSlug(state.draft.name)}.${ext}`, ext === "toml" ? "application/toml" : "application/json");
}

/** Open what the server answered for a file or a link, or say why nothing opened. */
function openAnswer(answer, what) {
  if (answer.draft) {
    open(answer.draft);
    notice(answer.notes && answer.notes.length ? `${what} opened: ${answer.notes.join("; ")}` : `${what} opened.`);
    error(null);
    return;
  }
  const why = [...answer.problems.map((p) => p.message), ...(answer.notes || [])];
  error(`${what} could not be opened: ${why.join("; ")}`);
}

async function upload(file) {
  error(null);
  if (file.size > MAX_UPLOAD) return error(`${file.name} is ${file.size} bytes, over the ${MAX_UPLOAD} a course file may have.`);
  try {
    const text = await file.text();
    openAnswer(await api("POST", "/api/editor/check", { game: GAME, text, format: formatOf(file, text) }), file.name);
  } catch (e) {
    error(`${file.name} could not be read: ${e.message}`);
  }
}

async function share() {
  const answer = await checkedNow();
  if (!answer || !answer.link) return error("No link: the course could not be checked.");
  const copied = await copyLink(shareUrl(GAME, answer.link), $("share-link"));
  notice(copied ? "Share link copied." : "Copy the share link from the field.");
}

async function createTable() {
  error(null);
  const answer = await checkedNow();
  if (!answer || !answer.ok) return error("Fix the course's problems first.");
  const name = $("play-name").value.trim();
  if (!name) return error("Enter your name to ride team A.");
  const n = Number($("play-teams").value);
  const bot = state.bots.includes("greedy") ? "greedy" : state.bots[0];
  const creator = { seat: "A", name };
  const body = {
    game: GAME, creator,
    options: { mode: $("play-mode").value, players: n, course: draft() },
    seats: ["human", ...Array(n - 1).fill(bot)],
  };
  $("play").disabled = true;
  const failed = await openTable(body);
  if (failed) {
    error(failed);
    $("play").disabled = false;
  }
}

// ------------------------------------------------------------------ start

async function start() {
  document.body.append(chequerDefs());
  try {
    const [courses, games] = await Promise.all([api("GET", `/api/courses?game=${GAME}`), api("GET", "/api/games")]);
    // Every bundled board lies on some bundled course, written inline there.
    for (const course of courses.courses) for (const b of course.boards || []) state.boards[b.name] = b;
    state.courses = courses.courses.filter((c) => c.boards);
    const game = games.games.find((g) => g.name === GAME) || {};
    state.modes = (game.choice_facts && game.choice_facts.mode) || {};
    state.seatsBy = (game.seats_by && game.seats_by.mode) || {};
    state.bots = game.bots || ["greedy"];
  } catch (e) {
    error(`The boards could not be loaded: ${e.message}`);
    return;
  }
  for (const c of state.courses) {
    const from = c.start && c.start !== 1 ? ` from space ${c.start}` : "";
    $("start-course").append(el("option", { value: c.name }, `${c.name}: ${c.boards.map((b) => b.name).join(" ")}${from}`));
  }
  renderTray();
  $("play-name").value = playerName.get() || "";
  $("name").value = state.draft.name;
  const token = linkInAddress();
  if (token) {
    try {
      const answer = await api("POST", "/api/editor/check", { game: GAME, link: token });
      openAnswer(answer, "The share link");
      if (answer.draft) return;
    } catch (e) {
      error(`The share link could not be opened: ${e.message}`);
    }
  }
  changed();
}

$("start-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const chosen = state.courses.find((c) => c.name === $("start-course").value);
  open(chosen ? { name: chosen.name, boards: chosen.boards.map((b) => b.name), start: chosen.start } : BLANK);
  notice(null);
});
$("name").addEventListener("input", () => {
  state.draft.name = $("name").value;
  changed();
});
$("start-space").addEventListener("input", () => {
  const value = Number($("start-space").value);
  state.draft.start = Number.isInteger(value) && value >= 1 ? value : 1;
  changed();
});
$("play-mode").addEventListener("change", renderPlay);
$("play").addEventListener("click", createTable);
$("download-toml").addEventListener("click", () => save("toml"));
$("download-json").addEventListener("click", () => save("json"));
$("share").addEventListener("click", share);
$("upload").addEventListener("change", () => {
  const file = $("upload").files[0];
  $("upload").value = "";
  if (file) upload(file);
});

start();
