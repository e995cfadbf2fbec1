// @ts-check
// The course editor page (/editor): a Mind Cycling course drawn on the board of
// board.js and changed by clicking it (or with the keyboard: a cursor square and a
// tool), checked live by the server's own validation (POST /api/editor/check, the
// messages of `peloton course check`, each placed on the road), downloaded or
// uploaded as a TOML course file, and raced on at a new table in one click. The draft
// is kept in localStorage, so a reload or a trip to the table loses nothing.

import { api } from "./api.js";
import { Board } from "./board.js";
import { LiveCheck } from "./editor_check.js";
import { copyLink, fileSlug, formatOf, linkInAddress, saveFile, shareUrl } from "./editor_files.js";
import { el, clear, showError } from "./ui.js";
import {
  History, LANE_LETTERS, MAX_FINISH, MAX_LANES, blankRoad, drawable, erase, normal, parseSquare, removeSquare,
  removeTab, same, sectionOf, squareName, startZone, tabAt, toggleSquare, toggleTab, withValue,
} from "./editor_model.js";

const GAME = "mind-cycling";
const STORE = "peloton.editor.draft";
const CHECK_DELAY = 300; // ms after the last change before the draft is checked
const $ = (id) => document.getElementById(id);
/** A form control of the page by id (an input, a select or a button), read by `value`
 * and switched by `disabled`, which the three share. */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
const error = (message) => showError($("error"), message);

/** The tools, in the order of their number keys. */
const TOOLS = [
  { id: "plain", label: "Plain tab", help: "a plain section starts on this row" },
  { id: "sprint", label: "Sprint tab", help: "the sprint section starts on this row" },
  { id: "mountain", label: "Mountain tab", help: "the mountain section starts on this row" },
  { id: "feed", label: "Feed zone", help: "a feed zone on this square" },
  { id: "rocks", label: "Rock", help: "a rocky mountain closes this square" },
  { id: "finish", label: "Finish line", help: "the finish line just after this row" },
  { id: "erase", label: "Eraser", help: "take away the feed zone, rock or tab here" },
];

const state = {
  history: new History(blankRoad(40, 5)),
  tool: "plain",
  cursor: { row: 1, lane: 0 },
  hover: null, // the square under the pointer
  games: null,
  courses: [],
};
const draft = () => state.history.now;

const board = new Board($("board"), {});
const check = new LiveCheck(draft, () => {
  const answer = check.answer();
  if (answer && answer.toml) $("toml").textContent = answer.toml;
  renderProblems();
  renderMarks();
  renderPlay();
}, CHECK_DELAY);
const marks = el("div", { class: "ed-marks", "aria-hidden": "true" });
$("board").append(marks);

// ------------------------------------------------------------------ changes

/** Make `next` the draft (undoable), then redraw and check it; whether it changed
 * anything. Changes of one `merge` kind in a row (typing a name) are undone as one. */
function change(next, merge = null) {
  if (!state.history.push(next, merge)) return false;
  changed();
  return true;
}

function changed() {
  const d = draft();
  state.cursor.row = Math.min(Math.max(1, state.cursor.row), d.finish - 1);
  state.cursor.lane = Math.min(Math.max(0, state.cursor.lane), d.lanes - 1);
  try {
    localStorage.setItem(STORE, JSON.stringify(d));
  } catch {
    // Storage full or refused: the draft still lives in the page.
  }
  render();
  check.schedule();
  renderCheckState();
}

function undo() {
  if (state.history.undo()) changed();
}

function redo() {
  if (state.history.redo()) changed();
}

/** Use the tool on a square. */
function apply(square) {
  const p = parseSquare(square);
  if (!p) return;
  state.cursor = { row: p.row, lane: p.lane };
  const d = draft();
  const tool = state.tool;
  let next = d;
  if (tool === "plain" || tool === "sprint" || tool === "mountain") next = toggleTab(d, p.row, tool);
  else if (tool === "feed" || tool === "rocks") next = toggleSquare(d, tool, square);
  else if (tool === "finish") next = withValue(d, "finish", p.row + 1);
  else if (tool === "erase") next = erase(d, square);
  // A change draws itself; a click that changes nothing still moves the cursor.
  if (!change(next)) render();
}

// ------------------------------------------------------------------ drawing

function render() {
  const d = draft();
  const shown = drawable(d);
  // The road is drawn again only when it changed (typing a name redraws nothing), and
  // then only what changed: an edit on a 199 × 9 road touches a square or a few rows,
  // not its 1,800 squares.
  const road = (course) => course && { ...course, name: "" };
  if (!same(road(shown), road(board.course))) {
    const keep = $("board").scrollLeft;
    board.updateCourse(shown);
    $("board").scrollLeft = keep;
  }
  if (document.activeElement !== $("name")) field("name").value = d.name;
  if (document.activeElement !== $("rows")) field("rows").value = String(d.finish - 1);
  if (document.activeElement !== $("lanes")) field("lanes").value = String(d.lanes);
  field("undo").disabled = !state.history.past.length;
  field("redo").disabled = !state.history.future.length;
  renderTools();
  renderMarks();
  renderCursorText();
  renderParts();
  renderPlay();
}

function renderTools() {
  const box = $("tools");
  if (!box.childElementCount) {
    TOOLS.forEach((t, i) => {
      box.append(el("button", {
        type: "button", role: "radio", class: `btn small ed-tool tool-${t.id}`, title: `${t.help} (key ${i + 1})`,
        dataset: { tool: t.id, testid: `tool-${t.id}` },
        onclick: () => pickTool(t.id),
        onkeydown: (e) => toolKeys(e, i),
      }, el("span", { class: "ed-swatch", "aria-hidden": "true" }), t.label));
    });
  }
  for (const button of /** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)) {
    const on = button.dataset.tool === state.tool;
    button.setAttribute("aria-checked", String(on));
    button.tabIndex = on ? 0 : -1;
  }
}

function pickTool(id) {
  state.tool = id;
  renderTools();
  renderCursorText();
}

/** Arrow keys move along the tool bar (a radio group: one tab stop). */
function toolKeys(e, i) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (!step) return;
  e.preventDefault();
  const next = (i + step + TOOLS.length) % TOOLS.length;
  pickTool(TOOLS[next].id);
  /** @type {HTMLElement} */ ($("tools").children[next]).focus();
}

/** Squares as the board draws them, for the marks laid over it. */
function box(row, lane, rows = 1, lanes = 1) {
  const c = board.cell;
  return { left: `${board.x(row)}px`, top: `${board.y(lane)}px`, width: `${rows * c}px`, height: `${lanes * c}px` };
}

function renderMarks() {
  const d = draft();
  clear(marks);
  const answer = check.answer();
  for (const [i, problem] of ((answer && answer.problems) || []).entries()) {
    if (problem.row === null || problem.row < 1 || problem.row >= d.finish) continue;
    const p = problem.square ? parseSquare(problem.square) : null;
    const style = p && p.lane < d.lanes ? box(p.row, p.lane) : box(problem.row, 0, 1, d.lanes);
    marks.append(el("div", {
      class: `ed-mark ${p ? "square" : "row"}`, style, title: problem.message,
      dataset: { testid: "problem-mark", problem: String(i) },
    }));
  }
  const { row, lane } = state.cursor;
  marks.append(el("div", { class: "ed-cursor-mark", style: box(row, lane), dataset: { testid: "cursor-mark" } }));
}

const KIND_WORDS = { start: "start zone", plain: "plain section", sprint: "sprint section", mountain: "mountain section" };

function describeSquare(square) {
  const d = draft();
  const p = parseSquare(square);
  const bits = [`${square} (row ${p.row}, lane ${LANE_LETTERS[p.lane]})`, KIND_WORDS[sectionOf(d, p.row)] || sectionOf(d, p.row)];
  const tab = tabAt(d, p.row);
  if (tab) bits.push(`${tab[1]} tab`);
  if (d.feed.includes(square)) bits.push("feed zone");
  if (d.rocks.includes(square)) bits.push("rock");
  if (p.row === d.finish - 1) bits.push("last row before the finish");
  return bits.join(" · ");
}

/** What using the tool on `square` would do, in words. */
function toolAction(square) {
  const d = draft();
  const p = parseSquare(square);
  const tool = state.tool;
  const tab = tabAt(d, p.row);
  if (tool === "plain" || tool === "sprint" || tool === "mountain") {
    if (tab && tab[1] === tool) return `take away the ${tool} tab of row ${p.row}`;
    if (tab) return `make the tab of row ${p.row} a ${tool} tab`;
    return `start a ${tool} section on row ${p.row}`;
  }
  if (tool === "feed" || tool === "rocks") {
    const word = tool === "feed" ? "feed zone" : "rock";
    return d[tool].includes(square) ? `take away the ${word} on ${square}` : `put a ${word} on ${square}`;
  }
  if (tool === "finish") return `put the finish line just after row ${p.row}`;
  if (d.feed.includes(square)) return `take away the feed zone on ${square}`;
  if (d.rocks.includes(square)) return `take away the rock on ${square}`;
  return tab ? `take away the ${tab[1]} tab of row ${p.row}` : "nothing to take away here";
}

/** The square under the pointer (or else the cursor's) and what the tool would do. */
function renderCursorText() {
  const square = state.hover || squareName(state.cursor.row, state.cursor.lane);
  const how = state.hover ? "click" : "Enter";
  // The pointer's square is not read out as it moves; the keyboard's cursor is.
  $("cursor").setAttribute("aria-live", state.hover ? "off" : "polite");
  $("cursor").textContent = `${describeSquare(square)} — ${how}: ${toolAction(square)}`;
}

/** The tabs, feed zones and rocks listed, each with a button to take it away. */
function renderParts() {
  const d = draft();
  const box = clear($("parts"));
  const zone = startZone(d);
  box.append(el("p", { class: "small", dataset: { testid: "facts" } },
    `${d.finish - 1} rows × ${d.lanes} lanes; finish line after row ${d.finish - 1}; `,
    zone.rows ? `start zone rows 1–${zone.rows} (${zone.capacity} squares).` : "no start zone yet (place a tab)."));
  const list = (title, items, testid) => {
    box.append(el("h3", {}, title));
    box.append(items.length ? el("ul", { class: "ed-list", dataset: { testid } }, items) : el("p", { class: "muted small" }, "none"));
  };
  list("Section tabs", d.sections.map((tab, i) => el("li", { class: `ed-item kind-${tab[1]}` },
    el("button", { type: "button", class: "link ed-goto", onclick: () => goTo(tab[0], 0) }, `row ${tab[0]}: ${tab[1]}`),
    el("button", { type: "button", class: "btn small", "aria-label": `remove the ${tab[1]} tab at row ${tab[0]}`, onclick: () => change(removeTab(d, i)) }, "remove"))), "tab-list");
  for (const [key, title] of [["feed", "Feed zones"], ["rocks", "Rocks"]]) {
    list(title, d[key].map((square) => el("li", { class: "ed-item" },
      el("button", { type: "button", class: "link ed-goto", onclick: () => goSquare(square) }, square),
      el("button", { type: "button", class: "btn small", "aria-label": `remove the ${key === "feed" ? "feed zone" : "rock"} at ${square}`, onclick: () => change(removeSquare(d, key, square)) }, "remove"))), `${key}-list`);
  }
}

// ------------------------------------------------------------------ the board's keyboard

function goTo(row, lane) {
  const d = draft();
  state.hover = null;
  state.cursor = { row: Math.min(Math.max(1, row), d.finish - 1), lane: Math.min(Math.max(0, lane), d.lanes - 1) };
  renderMarks();
  renderCursorText();
  scrollToCursor();
  $("board").focus({ preventScroll: true });
}

function goSquare(square) {
  const p = parseSquare(square);
  if (p) goTo(p.row, p.lane);
}

function scrollToCursor() {
  const host = $("board");
  const x = board.x(state.cursor.row);
  const c = board.cell;
  if (x < host.scrollLeft + c) host.scrollLeft = Math.max(0, x - 2 * c);
  else if (x + c > host.scrollLeft + host.clientWidth - c) host.scrollLeft = x + 3 * c - host.clientWidth;
}

function boardKeys(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const d = draft();
  const moves = {
    ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1], PageDown: [10, 0], PageUp: [-10, 0],
  };
  if (moves[e.key]) {
    e.preventDefault();
    goTo(state.cursor.row + moves[e.key][0], state.cursor.lane + moves[e.key][1]);
  } else if (e.key === "Home" || e.key === "End") {
    e.preventDefault();
    goTo(e.key === "Home" ? 1 : d.finish - 1, state.cursor.lane);
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    apply(squareName(state.cursor.row, state.cursor.lane));
  } else if (/^[1-7]$/.test(e.key)) {
    e.preventDefault();
    pickTool(TOOLS[Number(e.key) - 1].id);
  }
}

function pageKeys(e) {
  if (!(e.ctrlKey || e.metaKey)) return;
  const key = e.key.toLowerCase();
  if (key === "s") {
    e.preventDefault(); // the course file, not the page
    download();
    return;
  }
  if (e.target.closest("input, select, textarea")) return; // a field's own undo
  if (key === "z" && !e.shiftKey) {
    e.preventDefault();
    undo();
  } else if (key === "y" || (key === "z" && e.shiftKey)) {
    e.preventDefault();
    redo();
  }
}

// ------------------------------------------------------------------ the live check

const STATE_TEXT = { checking: "checking…", failed: "could not check", valid: "✓ valid" };

function renderCheckState() {
  const label = $("check-state");
  const status = check.status();
  label.dataset.state = status;
  label.textContent = STATE_TEXT[status] || `${check.answer() ? check.answer().problems.length : 0} problem(s)`;
}

function renderProblems() {
  renderCheckState();
  const box = clear($("problems"));
  if (check.failed) {
    box.append(el("p", { class: "ed-bad" }, `The server could not check the course: ${check.failed}`));
    return;
  }
  const answer = check.answer();
  if (!answer) return;
  if (answer.ok) {
    box.append(el("p", { class: "ed-good", dataset: { testid: "valid" } }, "This course is valid: it may be downloaded and raced on."));
    return;
  }
  box.append(el("ol", { class: "ed-problem-list" }, answer.problems.map((problem, i) => {
    const where = problem.square ? problem.square : problem.row !== null ? `row ${problem.row}` : null;
    const onRoad = problem.row !== null && problem.row >= 1 && problem.row < draft().finish;
    const text = el("span", { class: "ed-problem-text", dataset: { testid: "problem-text" } }, problem.message);
    return el("li", { class: `ed-problem key-${problem.key}`, dataset: { testid: "problem", key: problem.key, row: problem.row ?? "", square: problem.square ?? "", index: String(i) } },
      text,
      where && onRoad ? el("button", { type: "button", class: "btn small ed-show", "aria-label": `show ${where} on the board`, onclick: () => (problem.square ? goSquare(problem.square) : goTo(problem.row, state.cursor.lane)) }, `show ${where}`) : null,
      !onRoad && ["name", "lanes", "finish"].includes(problem.key) ? el("button", { type: "button", class: "btn small ed-show", onclick: () => $(problem.key === "finish" ? "rows" : problem.key).focus() }, `edit ${problem.key === "finish" ? "rows" : problem.key}`) : null);
  })));
}

// ------------------------------------------------------------------ files

function fileName(d) {
  return `${fileSlug(d.name)}.toml`;
}

async function download() {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.toml) {
    error("The course could not be written: the server did not check it.");
    return;
  }
  saveFile(answer.toml, fileName(draft()), "application/toml");
  notice(answer.ok ? `Downloaded ${fileName(draft())}.` : `Downloaded ${fileName(draft())}; it still has ${answer.problems.length} problem(s).`);
}

/** Open what a check answered for `what` (a file, a share link), or say why not. */
async function openChecked(body, what) {
  error(null);
  let answer;
  try {
    answer = await api("POST", "/api/editor/check", { game: GAME, ...body });
  } catch (e) {
    error(`${what}: ${e.message}`);
    return;
  }
  if (!answer.draft) {
    const why = [...answer.notes, ...answer.problems.map((p) => p.message)];
    error(`${what} cannot be opened: ${why.join("; ")}`);
    return;
  }
  change(answer.draft);
  goTo(1, 0);
  $("board").scrollLeft = 0;
  const notes = answer.notes.length ? ` (${answer.notes.join("; ")})` : "";
  notice(`Opened ${what}${notes}.`);
}

async function upload(file) {
  const text = await file.text();
  await openChecked({ text, format: formatOf(file, text) }, file.name);
}

/** Copy the link that opens this course in another browser (the check's token). */
async function share() {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.link) return error("The course could not be shared: the server did not check it.");
  const copied = await copyLink(shareUrl(GAME, answer.link), field("share-link"));
  notice(copied ? "The share link is copied: whoever opens it sees this course." : "Copy the share link beside: whoever opens it sees this course.");
}

function notice(message) {
  const box = $("notice");
  box.hidden = !message;
  box.textContent = message || "";
}

// ------------------------------------------------------------------ starting points

async function loadCourses() {
  try {
    state.courses = (await api("GET", `/api/courses?game=${GAME}`)).courses || [];
  } catch (e) {
    error(`Could not load the bundled courses: ${e.message}`);
  }
  const select = $("start-course");
  for (const c of state.courses) select.append(el("option", { value: c.name }, `${c.name} (${c.finish - 1} rows)`));
}

function start(event) {
  event.preventDefault();
  error(null);
  const name = field("start-course").value;
  const bundled = state.courses.find((c) => c.name === name);
  const before = state.history.past.length;
  if (bundled) change({ ...normal(bundled), name: `my ${bundled.name}` });
  else change(blankRoad(Number(field("start-rows").value), Number(field("start-lanes").value)));
  const d = draft();
  const what = bundled ? `the ${bundled.name} course` : `a blank road of ${d.finish - 1} rows and ${d.lanes} lanes`;
  notice(`Started from ${what}.${state.history.past.length > before ? " Undo brings back the course before." : ""}`);
  goTo(1, 0);
  $("board").scrollLeft = 0;
}

function showStartFields() {
  for (const blank of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".ed-blank"))) blank.hidden = field("start-course").value !== "";
}

// ------------------------------------------------------------------ racing on it

async function loadGames() {
  try {
    state.games = ((await api("GET", "/api/games")).games || []).find((g) => g.name === GAME) || null;
  } catch (e) {
    error(`Could not load the game's options: ${e.message}`);
  }
  const g = state.games;
  const option = (name) => (g ? g.options.find((o) => o.name === name) : null);
  const players = option("players");
  const riders = option("riders");
  const teams = field("play-teams");
  const low = 2;
  const high = g ? g.seats.max : 7;
  for (let n = low; n <= high; n++) teams.append(el("option", { value: String(n) }, String(n)));
  teams.value = String(Math.max(low, (players && players.default) || 2));
  for (const n of (riders && riders.choices) || [3, 4, 5, 6]) $("play-riders").append(el("option", { value: String(n) }, String(n)));
  field("play-riders").value = String((riders && riders.default) || 6);
  renderPlay();
}

function renderPlay() {
  const d = draft();
  const answer = check.answer();
  const valid = !!(answer && answer.ok);
  const zone = startZone(d);
  const need = Number(field("play-teams").value || 2) * Number(field("play-riders").value || 6);
  $("play-room").textContent = zone.capacity
    ? `You ride team A, greedy bots the others. The start zone holds ${zone.capacity} riders; this race needs ${need}.`
    : "Place a section tab first: the rows before it are the start zone.";
  $("play-room").classList.toggle("ed-bad", zone.capacity > 0 && zone.capacity < need);
  field("play").disabled = !valid || zone.capacity < need;
  const soloWhy = !valid ? "The course must be valid first." : d.lanes < 5 ? "The solo team's five riders start side by side: the road needs 5 lanes." : "";
  field("play-solo").disabled = !!soloWhy;
  $("solo-why").textContent = soloWhy || "One team of five against the course; the solver finds its best line.";
}

async function open(solo) {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.ok) {
    error("Fix the course's problems first.");
    return;
  }
  const g = state.games || { bots: ["greedy"], solo_options: {} };
  const course = normal(draft());
  let body;
  if (solo) {
    const options = { ...(g.solo_options || {}), course };
    delete options.players; // the number of seats
    body = { game: GAME, options, seats: ["human"], solo: true };
  } else {
    const n = Number(field("play-teams").value);
    const bot = g.bots.includes("greedy") ? "greedy" : g.bots[0];
    const seats = ["human", ...Array(n - 1).fill(bot)];
    body = { game: GAME, options: { course, riders: Number(field("play-riders").value) }, seats };
  }
  const button = field(solo ? "play-solo" : "play");
  button.disabled = true;
  try {
    const made = await api("POST", "/api/tables", body);
    location.href = made.url || `/table/${made.id}`;
  } catch (e) {
    const extra = e.problems && e.problems.length ? `: ${e.problems.join("; ")}` : "";
    error(`The table could not be opened: ${e.message}${extra}`);
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ start

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    const ok = saved && typeof saved.name === "string" && Number.isInteger(saved.lanes) && saved.lanes >= 1 && saved.lanes <= MAX_LANES
      && Number.isInteger(saved.finish) && saved.finish >= 2 && saved.finish <= MAX_FINISH && Array.isArray(saved.sections)
      && Array.isArray(saved.feed) && Array.isArray(saved.rocks);
    if (ok) state.history = new History(saved);
  } catch {
    // A draft this page cannot read: start from a blank road.
  }
}

$("board").addEventListener("click", (e) => {
  const target = /** @type {HTMLElement} */ (/** @type {Element} */ (e.target).closest("[data-square]"));
  if (target && target.dataset.square !== "#") apply(target.dataset.square);
});
$("board").addEventListener("keydown", boardKeys);
// The pointer where it last moved: when the keys scroll the road under a still pointer,
// the browser reports the pointer over a new square, which must not take the keyboard's
// cursor away.
const pointer = { x: NaN, y: NaN };
$("board").addEventListener("mouseover", (e) => {
  if (e.clientX === pointer.x && e.clientY === pointer.y) return;
  pointer.x = e.clientX;
  pointer.y = e.clientY;
  const target = /** @type {HTMLElement} */ (/** @type {Element} */ (e.target).closest("[data-square]"));
  const square = target && target.dataset.square !== "#" ? target.dataset.square : null;
  if (square !== state.hover) {
    state.hover = square;
    renderCursorText();
  }
});
$("board").addEventListener("mouseleave", () => {
  state.hover = null;
  renderCursorText();
});
document.addEventListener("keydown", pageKeys);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("download").addEventListener("click", download);
$("share").addEventListener("click", share);
$("upload").addEventListener("change", (e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files && input.files[0];
  if (file) upload(file).finally(() => {
    input.value = ""; // the same file may be chosen again
  });
});
$("start-form").addEventListener("submit", start);
$("start-course").addEventListener("change", showStartFields);
$("name").addEventListener("input", (e) => change(withValue(draft(), "name", /** @type {HTMLInputElement} */ (e.target).value), "name"));
$("rows").addEventListener("change", (e) => change(withValue(draft(), "finish", Number(/** @type {HTMLInputElement} */ (e.target).value) + 1)));
$("lanes").addEventListener("change", (e) => change(withValue(draft(), "lanes", Number(/** @type {HTMLInputElement} */ (e.target).value))));
$("play-teams").addEventListener("change", renderPlay);
$("play-riders").addEventListener("change", renderPlay);
$("play").addEventListener("click", () => open(false));
$("play-solo").addEventListener("click", () => open(true));

restore();
render();
check.schedule();
if (linkInAddress()) openChecked({ link: linkInAddress() }, "the shared course");
renderCheckState();
loadCourses();
loadGames();
