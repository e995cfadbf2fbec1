// @ts-check
// The Pistard layout builder (/editor?game=pistard): the track drawn as the table draws
// it (pistard.js), its squares painted with a colour by clicking or dragging, rows
// shuffled or copied, its length changed; checked live by the server (POST
// /api/editor/check: the loader's problems and the default layout's design rules, each
// placed on the track), downloaded, uploaded, shared by link and raced on at a new
// table. The draft is kept in localStorage, so a reload or a trip to the table loses
// nothing.

import { api, playerName } from "./api.js";
import { copyLink, fileSlug, formatOf, linkInAddress, openTable, saveFile, shareUrl } from "./editor_files.js";
import { PistardView, SQUARE_FILL } from "./pistard.js";
import {
  COLOUR_OF, DESIGN_RULES, LANES, LETTERS, LayoutCheck, MAX_LENGTH, colourAt, copyRowBefore, drawable, paint,
  parseSquare, resize, same, shuffleRow, trackOf,
} from "./pistard_editor_model.js";
import { el, clear, showError } from "./ui.js";

const GAME = "pistard";
const STORE = "peloton.pistard_editor.draft";
const HISTORY = 200; // edits that can be undone
const $ = (id) => document.getElementById(id);
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
const error = (message) => showError($("error"), message);

const state = {
  draft: { name: "custom", length: 40, rows: Array(40).fill("ygbr") },
  colour: "y",
  row: 1, // the cursor's row: the row the row tools change
  lane: 0, // the cursor's lane (the keyboard paints the cursor's square)
  painting: false,
  strokes: 0, // drags so far: the squares of one drag are undone as one
  past: [], // drafts before, for undo
  future: [], // drafts undone, for redo
  merge: null, // the kind of the last change (a drag, typing the name)
  drawn: null, // the draft the track shows
  narrow: null, // whether it was drawn upright (a phone)
};
const draft = () => state.draft;

const view = new PistardView($("board"), {});
const check = new LayoutCheck(draft, () => renderCheck());

// ------------------------------------------------------------------ changes

/** Make `next` the draft (undoable), then redraw and check it. Changes of one `merge`
 * kind in a row (the squares of one drag, typing a name) are undone as one. */
function change(next, merge = null) {
  if (same(next, state.draft)) return;
  if (!merge || merge !== state.merge) state.past.push(state.draft);
  if (state.past.length > HISTORY) state.past.shift();
  state.future = [];
  state.merge = merge;
  show(next);
}

function undo() {
  if (!state.past.length) return;
  state.future.push(state.draft);
  state.merge = null;
  show(state.past.pop());
}

function redo() {
  if (!state.future.length) return;
  state.past.push(state.draft);
  state.merge = null;
  show(state.future.pop());
}

/** Make `next` the draft shown, kept and checked. */
function show(next) {
  state.draft = next;
  state.row = Math.min(state.row, next.rows.length);
  try {
    localStorage.setItem(STORE, JSON.stringify(next));
  } catch {
    // Storage full or refused: the draft still lives in the page.
  }
  render();
  check.schedule();
  renderCheck();
}

function paintSquare(square, merge = null) {
  const p = parseSquare(square);
  if (!p) return;
  state.row = p.row;
  state.lane = p.lane;
  change(paint(draft(), p.row, p.lane, state.colour), merge);
  renderRowTools();
}

// ------------------------------------------------------------------ drawing

/** Draw the draft: the whole track when its length (or the screen's shape) changed,
 * else only the squares whose colour changed. */
function render() {
  const d = draft();
  const narrow = window.matchMedia("(max-width: 600px)").matches;
  const before = state.drawn;
  if (!before || before.rows.length !== d.rows.length || state.narrow !== narrow) {
    view.trackKey = ""; // pistard.js draws anew only for rows it has not drawn
    view.buildTrack(trackOf(d));
    state.narrow = narrow;
  } else {
    d.rows.forEach((row, i) => {
      if (row === before.rows[i]) return;
      for (let lane = 0; lane < 4; lane++) {
        const colour = colourAt(row, lane);
        if (colour !== colourAt(before.rows[i], lane)) recolour(`${LANES[lane]}${i + 1}`, colour);
      }
    });
  }
  view.root.setAttribute("aria-label", `Pistard track ${d.name}: ${d.rows.length} rows, 4 lanes`);
  state.drawn = d;
  if (document.activeElement !== $("name")) field("name").value = d.name;
  if (document.activeElement !== $("length")) field("length").value = String(d.length);
  renderRowTools();
  renderMarks();
}

function recolour(square, colour) {
  const path = view.squares[square];
  if (!path) return;
  path.setAttribute("fill", SQUARE_FILL[colour] || "#eee");
  path.setAttribute("data-colour", colour);
  path.setAttribute("class", `sq pi-sq c-${colour}`);
  // The tooltip's text changes in place: no node is drawn anew for a paint.
  const tip = path.firstChild && path.firstChild.firstChild;
  if (tip) tip.nodeValue = `${square} (${colour})`;
}

function renderPalette() {
  const box = clear($("palette"));
  for (const letter of LETTERS) {
    const on = letter === state.colour;
    box.append(el("button", {
      type: "button", role: "radio", class: "btn small pl-colour", "aria-checked": String(on), tabindex: on ? "0" : "-1",
      dataset: { testid: `colour-${letter}`, colour: letter },
      title: `paint ${COLOUR_OF[letter]} (key ${letter})`,
      onclick: () => {
        state.colour = letter;
        renderPalette();
      },
    }, el("span", { class: "pl-swatch", style: { background: SQUARE_FILL[COLOUR_OF[letter]] }, "aria-hidden": "true" }), COLOUR_OF[letter]));
  }
}

function renderRowTools() {
  const d = draft();
  const row = d.rows[state.row - 1] || "";
  const cursor = `${LANES[state.lane]}${state.row}`;
  $("row-facts").textContent = `Row ${state.row}: ${[...row].map((c) => COLOUR_OF[c] || `'${c}'`).join(", ")}`
    + ` · cursor ${cursor} (${colourAt(row, state.lane)}): Enter paints it ${COLOUR_OF[state.colour]}`;
  field("undo").disabled = !state.past.length;
  field("redo").disabled = !state.future.length;
  $("copy-before").textContent = `Copy row ${state.row === 1 ? d.rows.length : state.row - 1} to row ${state.row}`;
  $("shuffle").textContent = `Shuffle row ${state.row}`;
  for (const path of Object.values(view.squares || {})) {
    path.classList.toggle("pl-selected", path.dataset.square.slice(1) === String(state.row));
    path.classList.toggle("pl-cursor", path.dataset.square === cursor);
  }
}

/** The squares the design checks and problems are about, outlined on the track. */
function renderMarks() {
  // Only the squares marked before are unmarked: a class taken from every square would
  // touch (and restyle) the whole track on each paint.
  for (const path of view.root.querySelectorAll(".pl-advice, .pl-problem")) path.classList.remove("pl-advice", "pl-problem");
  const answer = check.answer();
  if (!answer) return;
  const mark = (item, cls) => {
    if (item.square && view.squares[item.square]) view.squares[item.square].classList.add(cls);
    else if (item.row) for (const lane of LANES) view.squares[`${lane}${item.row}`]?.classList.add(cls);
  };
  for (const advice of answer.advice) mark(advice, "pl-advice");
  for (const problem of answer.problems) mark(problem, "pl-problem");
}

// ------------------------------------------------------------------ the check

const STATE_TEXT = { checking: "checking…", failed: "could not check", valid: "✓ valid" };

function renderCheck() {
  const answer = check.answer();
  const status = check.status();
  const label = $("check-state");
  label.dataset.state = status;
  label.textContent = STATE_TEXT[status] || `${answer ? answer.problems.length : 0} problem(s)`;
  if (answer && answer.toml) $("toml").textContent = answer.toml;
  renderRules(answer);
  renderProblems(answer);
  renderMarks();
  field("play").disabled = !(answer && answer.ok);
}

function renderRules(answer) {
  const box = clear($("rules"));
  for (const [key, title] of DESIGN_RULES) {
    const broken = answer ? answer.advice.filter((a) => a.key === key) : [];
    const known = !!(answer && answer.ok);
    const rows = [...new Set(broken.map((a) => a.row).filter((r) => r))];
    const rule = known ? (broken.length ? "broken" : "holds") : "unknown";
    const where = broken.length ? (rows.length ? ` at row${rows.length > 1 ? "s" : ""} ${rows.join(", ")}` : "") : "";
    box.append(el("li", { class: `pl-rule ${rule}`, dataset: { testid: `rule-${key}`, state: rule }, title: broken.map((a) => a.message).join("\n") },
      el("span", { class: "pl-rule-mark", "aria-hidden": "true" }, { holds: "✓", broken: "✗", unknown: "–" }[rule]),
      el("span", {}, title, ": ", el("b", {}, { holds: "holds", broken: `broken${where}`, unknown: "not checked until the layout is valid" }[rule]))));
  }
}

function renderProblems(answer) {
  const box = clear($("problems"));
  if (check.failed && !answer) {
    box.append(el("p", { class: "pl-bad" }, `The server could not check the layout: ${check.failed}`));
    return;
  }
  if (!answer) return;
  if (answer.ok) {
    box.append(el("p", { class: "pl-good", dataset: { testid: "valid" } }, "This layout is valid: it may be downloaded, shared and raced on."));
    return;
  }
  box.append(el("ol", { class: "pl-problem-list" }, answer.problems.map((p) => el("li", {
    class: "pl-problem", dataset: { testid: "problem", key: p.key, row: p.row ?? "" },
  }, el("span", { dataset: { testid: "problem-text" } }, p.message), p.rule ? el("span", { class: "pl-rule-id" }, ` (${p.rule})`) : null))));
}

// ------------------------------------------------------------------ files and links

async function downloadToml() {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.toml) return error("The layout could not be written: the server did not check it.");
  saveFile(answer.toml, `${fileSlug(draft().name, "layout")}.toml`, "application/toml");
  notice(`Downloaded ${fileSlug(draft().name, "layout")}.toml.`);
}

function downloadJson() {
  error(null);
  saveFile(`${JSON.stringify(draft(), null, 2)}\n`, `${fileSlug(draft().name, "layout")}.json`, "application/json");
  notice(`Downloaded ${fileSlug(draft().name, "layout")}.json.`);
}

/** Open what a check answered (an upload, a link, a bundled layout), or say why not;
 * `name` renames it (a bundled layout opens as "my ..."). One edit: undo brings back
 * the layout before. */
function open(answer, what, name = null) {
  if (!answer.draft) {
    const why = [...answer.notes, ...answer.problems.map((p) => p.message)];
    error(`${what} cannot be opened: ${why.join("; ")}`);
    return false;
  }
  change(name === null ? answer.draft : { ...answer.draft, name });
  state.row = 1;
  renderRowTools();
  const notes = answer.notes.length ? ` (${answer.notes.join("; ")})` : "";
  notice(`Opened ${what}${notes}.`);
  return true;
}

async function ask(body, what) {
  error(null);
  try {
    return await api("POST", "/api/editor/check", { game: GAME, ...body });
  } catch (e) {
    error(`${what}: ${e.message}`);
    return null;
  }
}

async function upload(file) {
  const text = await file.text();
  const answer = await ask({ text, format: formatOf(file, text) }, file.name);
  if (answer) open(answer, file.name);
}

async function share() {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.link) return error("The layout could not be shared: the server did not check it.");
  const copied = await copyLink(shareUrl(GAME, answer.link), field("share-url"));
  notice(copied ? "The share link is copied: whoever opens it sees this layout."
    : "Copy the share link below: whoever opens it sees this layout.");
}

function notice(message) {
  const box = $("notice");
  box.hidden = !message;
  box.textContent = message || "";
}

// ------------------------------------------------------------------ starting points

async function loadLayouts() {
  let names = ["default"];
  try {
    const game = ((await api("GET", "/api/games")).games || []).find((g) => g.name === GAME);
    const option = game && game.options.find((o) => o.name === "layout");
    if (option && option.choices && option.choices.length) names = option.choices;
  } catch (e) {
    error(`Could not load the bundled layouts: ${e.message}`);
  }
  const select = $("start-layout");
  for (const name of names) select.append(el("option", { value: name }, `the ${name} layout`));
}

async function start(event) {
  event.preventDefault();
  const name = field("start-layout").value;
  const answer = await ask({ course: name }, `the ${name} layout`);
  if (answer) open(answer, `the ${name} layout`, `my ${name}`);
}

// ------------------------------------------------------------------ racing on it

async function play() {
  error(null);
  const answer = await check.now();
  if (!answer || !answer.ok) return error("Fix the layout's problems first.");
  const name = field("player-name").value.trim();
  if (!name) return error("Enter your name to ride team A.");
  const players = Number(field("players").value);
  const body = {
    game: GAME, options: { layout: draft(), players },
    seats: ["human", ...Array(players - 1).fill("greedy")], creator: { seat: "A", name },
  };
  field("play").disabled = true;
  const failed = await openTable(body);
  if (failed) {
    error(failed);
    field("play").disabled = false;
  }
}

// ------------------------------------------------------------------ events and start

/** The square under a pointer (a drag on a touch screen keeps its first target). */
function squareAt(e) {
  const hit = /** @type {Element | null} */ (document.elementFromPoint(e.clientX, e.clientY));
  const path = hit && hit.closest("[data-square]");
  return path && $("board").contains(path) ? path.getAttribute("data-square") : null;
}

$("board").addEventListener("pointerdown", (e) => {
  const square = squareAt(e);
  if (!square || e.button !== 0) return;
  e.preventDefault();
  state.painting = true;
  state.strokes += 1;
  paintSquare(square, `drag ${state.strokes}`);
});
$("board").addEventListener("pointermove", (e) => {
  if (!state.painting) return;
  const square = squareAt(e);
  if (square) paintSquare(square, `drag ${state.strokes}`);
});
window.addEventListener("pointerup", () => {
  state.painting = false;
});
window.addEventListener("pointercancel", () => {
  state.painting = false;
});
document.addEventListener("keydown", (e) => {
  if (/** @type {Element} */ (e.target).closest("input, select, textarea")) return; // a field's own keys
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && (key === "z" || key === "y")) {
    e.preventDefault();
    if (key === "y" || e.shiftKey) redo();
    else undo();
  } else if (!e.ctrlKey && !e.metaKey && !e.altKey && LETTERS.includes(e.key) && e.key.length === 1) {
    state.colour = e.key;
    renderPalette();
    renderRowTools();
  }
});
/** The track's keys: the arrows move the cursor (along the loop and across the lanes),
 * Enter or Space paints its square. */
$("board").addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const n = draft().rows.length;
  const moves = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1], PageDown: [8, 0], PageUp: [-8, 0] };
  if (moves[e.key]) {
    e.preventDefault();
    state.row = ((state.row - 1 + moves[e.key][0] + n) % n) + 1;
    state.lane = Math.min(3, Math.max(0, state.lane + moves[e.key][1]));
    renderRowTools();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    paintSquare(`${LANES[state.lane]}${state.row}`);
  }
});
window.matchMedia("(max-width: 600px)").addEventListener("change", render);
$("name").addEventListener("input", () => change({ ...draft(), name: field("name").value }, "name"));
$("length").addEventListener("change", () => {
  const n = Number(field("length").value);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_LENGTH) change(resize(draft(), n));
  else error(`The length must be a whole number of rows from 1 to ${MAX_LENGTH} (a track races on 20 to ${MAX_LENGTH}).`);
});
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("shuffle").addEventListener("click", () => change(shuffleRow(draft(), state.row)));
$("copy-before").addEventListener("click", () => change(copyRowBefore(draft(), state.row)));
$("download-toml").addEventListener("click", downloadToml);
$("download-json").addEventListener("click", downloadJson);
$("upload").addEventListener("change", (e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files && input.files[0];
  if (file) upload(file).finally(() => {
    input.value = ""; // the same file may be chosen again
  });
});
$("start-form").addEventListener("submit", start);
$("share").addEventListener("click", share);
$("play").addEventListener("click", play);
field("player-name").value = playerName.get() || "";

/** The draft to open: a share link's, else the one kept, else the default layout. */
async function boot() {
  renderPalette();
  const link = linkInAddress();
  let saved = null;
  try {
    saved = drawable(JSON.parse(localStorage.getItem(STORE) || "null"));
  } catch {
    saved = null; // a draft this page cannot read
  }
  if (saved) state.draft = saved;
  render();
  renderCheck();
  if (link) {
    const answer = await ask({ link }, "The share link");
    if (answer) open(answer, "the shared layout"); // a damaged link: its problem, nothing opened
  } else if (!saved) {
    const answer = await ask({ course: "default" }, "the default layout");
    // The first layout shown: nothing before it to undo back to.
    if (answer && answer.draft) show({ ...answer.draft, name: "my default" });
  }
  check.schedule();
  loadLayouts();
}

boot();
