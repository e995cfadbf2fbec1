// @ts-check
// The first-race tutorial (/tutorial): the lesson's steps beside the real Mind Cycling
// board. The server holds the lesson and checks every move with the engine
// (GET/POST /api/tutorial/steps/{n}); this page draws the position, lights the move the
// step asks for, sends the learner's clicks, explains a refused move with the
// engine's reason, and shows the opponent's replies one by one. The step number lives
// in the address (`/tutorial#3`), so a reload resumes the lesson.

import { api, playerName, tokens } from "./api.js";
import { MindCyclingView } from "./mindcycling.js";
import { clear, el, showError, HintLine } from "./ui.js";

const $ = (id) => document.getElementById(id);
/** A button of the page by id. */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, calm() ? 0 : ms));

const REACHED_KEY = "peloton.tutorial.reached";

function storedReached() {
  try {
    return Math.max(1, Number(localStorage.getItem(REACHED_KEY)) || 1);
  } catch {
    return 1;
  }
}

const S = {
  lesson: null, // GET /api/tutorial
  view: null, // the step view of the server (GET/POST /api/tutorial/steps/{n})
  snap: null, // the position drawn
  number: 1,
  busy: false,
  reached: storedReached(), // the furthest step opened (kept in this browser), for the dots
};

const board = new MindCyclingView($("board-host"), { onSquare: (sq) => clickSquare(sq) });
const hintLine = new HintLine($("hint"));

/** The expected move's parts: {text, rider, square, kind} (square null for a gift or a
 * stay), as the position's legal moves give them (the page reads no notation). */
function expected() {
  const text = S.view && S.view.expect;
  if (!text) return null;
  const legal = (S.view.snapshot && S.view.snapshot.legal) || [];
  const found = legal.find((m) => typeof m === "object" && m.text === text);
  const parts = /** @type {{rider?: string, square?: string | null, kind?: string}} */ (found || {});
  return { text, rider: parts.rider || null, square: parts.square || null, kind: parts.kind || null };
}

function myTurn() {
  return Boolean(S.view && !S.view.finished && !S.busy && S.snap === S.view.snapshot);
}

// ------------------------------------------------------------------ drawing

function draw() {
  const snap = S.snap;
  if (!snap) return;
  const mine = myTurn();
  board.render(snap, { targets: board.targets(snap, mine), hints: S.hints || [], mine: S.lesson.learner });
  // What the learner can click now for the step's move: its square only when a click
  // there sends that move (so a click on it is never refused), else the button that
  // gets it there first (the attack toggle, for an attack: the square lights once the
  // attack is armed).
  for (const node of document.querySelectorAll(".lesson-target")) node.classList.remove("lesson-target");
  const want = mine ? expected() : null;
  const square = want && want.square && board.board.squares[want.square];
  if (square && moveOfSquare(want.square) === want.text) square.classList.add("lesson-target");
  hintLine.reset(); // the controls are drawn anew: a hint of the old ones goes
  board.controls($("controls"), snap, {
    myTurn: mine,
    pending: S.busy,
    send,
    table: null,
    rerender: draw,
    hint: (text, squares) => hintLine.say(text, squares),
  });
  askAction(want);
  if (want) {
    const buttons = [.../** @type {NodeListOf<HTMLElement>} */ ($("controls").querySelectorAll("[data-move]"))].filter((b) => b.dataset.move === want.text);
    for (const b of buttons) b.classList.add("lesson-target");
    const toggle = $("controls").querySelector("[data-testid=attack-toggle]");
    if (toggle && toggleNeeded(want)) toggle.classList.add("lesson-target");
  }
  board.focus(snap, want && want.square ? [want.square] : []);
  const result = $("result");
  const medals = snap.result && Object.keys(snap.result.medals || {}).length;
  result.hidden = !medals;
  if (medals) board.result(result, snap, {});
  // Between two of the learner's moves the panel has nothing to show.
  $("play-panel").hidden = !$("controls").childElementCount && !medals;
}

/** Whether the step's move needs the attack toggle pressed first: an attack not yet
 * armed, or a plain ride while an attack is armed (its square would send an attack). */
function toggleNeeded(want) {
  return Boolean(want && want.square) && (want.kind === "attack" ? !board.attack : want.kind === "move" && board.attack);
}

/** Beside the step's "Your move", the button the move needs when it is not a square
 * of the board (a bottle given) or starts with one (the attack toggle): on a phone
 * the move buttons are further down the page. */
function askAction(want) {
  const box = $("ask-action");
  if (!box) return;
  clear(box);
  if (!want) return;
  if (want.kind === "give") {
    box.append(el("button", {
      type: "button", class: "btn small lesson-target", dataset: { testid: "ask-give" },
      onclick: () => send(want.text),
    }, `Give bottle to ${want.text.split(">")[1]}`));
  } else if (want.kind === "attack" || toggleNeeded(want)) {
    box.append(el("button", {
      type: "button", class: `btn small attack-toggle ${board.attack ? "on" : ""} ${toggleNeeded(want) ? "lesson-target" : ""}`,
      "aria-pressed": board.attack ? "true" : "false", dataset: { testid: "ask-attack" },
      onclick: () => {
        board.attack = !board.attack;
        draw();
      },
    }, board.attack ? "Cancel attack" : "Attack!"));
    const next = toggleNeeded(want) ? ` first: then the square ${want.square} lights up` : ` then the lit square ${want.square}`;
    box.append(el("span", { class: "small", dataset: { testid: "ask-then" } }, next));
  }
}

function paragraphs(box, text) {
  clear(box);
  for (const part of (text || "").split(/\n\s*\n/)) if (part.trim()) box.append(el("p", {}, part.trim()));
}

function feedback(kind, text) {
  const box = $("feedback");
  clear(box);
  box.hidden = !text;
  box.className = `feedback ${kind || ""}`;
  if (text) box.append(el("span", { dataset: { testid: "feedback-text" } }, text));
}

function showStep() {
  const v = S.view;
  const main = /** @type {HTMLElement} */ (document.querySelector("main.tutorial"));
  main.dataset.step = String(v.number);
  main.dataset.finished = String(v.finished);
  main.dataset.done = String(v.done);
  $("progress-label").textContent = `Step ${v.number} of ${v.count}`;
  const bar = $("progress-bar");
  bar.setAttribute("aria-valuemax", String(v.count));
  bar.setAttribute("aria-valuenow", String(v.number));
  $("progress-fill").style.width = `${(100 * (v.number - (v.finished ? 0 : 1))) / v.count}%`;
  const dots = $("step-dots");
  clear(dots);
  for (const s of S.lesson.steps) {
    const state = s.number < v.number || (s.number === v.number && v.finished) ? "done" : s.number === v.number ? "current" : "todo";
    const label = `${s.number}. ${s.title}`;
    // A step already reached can be opened again from its dot.
    const open = s.number <= S.reached && s.number !== v.number;
    const dot = open
      ? el("button", { type: "button", class: "dot-button", title: label, "aria-label": label, onclick: () => !S.busy && openStep(s.number) })
      : el("span", { class: "visually-hidden" }, label);
    dots.append(el("li", { class: `dot ${state}`, title: label, "aria-current": s.number === v.number ? "step" : null, dataset: { step: s.number } }, dot));
  }
  $("step-title").textContent = v.title;
  paragraphs($("step-text"), v.text);
  const ask = $("ask");
  ask.hidden = v.finished;
  clear(ask);
  if (!v.finished) {
    ask.append(el("strong", {}, "Your move: "), el("span", { dataset: { testid: "ask-text" } }, v.ask),
      el("div", { id: "ask-action", class: "ask-action" }));
  }
  const after = $("after");
  after.hidden = !v.finished || !v.after;
  paragraphs(after, v.after);
  button("back").disabled = v.number <= 1 || S.busy;
  const last = v.number >= v.count;
  $("next").hidden = last;
  button("next").disabled = !v.finished || S.busy;
  $("play-real").hidden = !last;
}

function addTurns(turns) {
  const list = $("turns");
  for (const t of turns) {
    list.hidden = false;
    const who = t.by === "you" ? "You" : `Team ${t.by}`;
    list.append(el("li", { class: `turn-by-${t.by === "you" ? "you" : "them"}`, dataset: { move: t.move } },
      el("strong", {}, `${who}: `), t.describe));
  }
}

// ------------------------------------------------------------------ moves

/** The move a click on `square` means now (null when no rider is to move): the step's
 * move on its square (its wheel or relay too, and its attack once armed); elsewhere
 * the board's lit move, or a plain ride (an attack in attack mode). */
function moveOfSquare(square) {
  const rider = S.snap && S.snap.current_rider;
  if (!rider) return null;
  const want = expected();
  if (want && want.square === square && (want.kind === "wheel" || want.kind === "relay" || want.kind === (board.attack ? "attack" : "move"))) {
    return want.text;
  }
  const target = board.targets(S.snap, true).get(square);
  return target && target.text ? target.text : `${rider}-${square}${board.attack ? "!" : ""}`;
}

/** A click on a square of the board (lit or not): the move it means is sent as it is;
 * the server's engine decides. */
function clickSquare(square) {
  if (!myTurn()) return;
  const text = moveOfSquare(square);
  if (text) send(text);
}

async function send(text) {
  if (!myTurn()) return;
  S.busy = true;
  feedback(null, "");
  showStep();
  let answer;
  try {
    answer = await api("POST", `/api/tutorial/steps/${S.view.number}`, { move: text, done: S.view.done });
  } catch (e) {
    S.busy = false;
    if (e.code === "illegal_move" || e.code === "notation") {
      feedback("refused", `Not quite: ${e.message}. Try the highlighted move.`);
    } else if (e.code === "off_lesson") {
      feedback("refused", `Nice idea, but not now: ${e.message}.`);
    } else {
      showError($("error"), `The tutorial could not play ${text}: ${e.message}`);
    }
    showStep();
    draw();
    return;
  }
  // The learner's move and the opponent's replies, one position at a time.
  for (const [i, turn] of answer.turns.entries()) {
    if (i) await pause(650);
    S.snap = turn.snapshot;
    S.hints = board.hints(turn.move, turn.snapshot);
    addTurns([turn]);
    draw();
  }
  S.view = answer;
  S.snap = answer.snapshot;
  S.busy = false;
  S.hints = [];
  showStep();
  draw();
  if (answer.finished) $("next").focus({ preventScroll: true });
}

// ------------------------------------------------------------------ steps

async function openStep(number) {
  S.busy = true;
  let view;
  try {
    view = await api("GET", `/api/tutorial/steps/${number}`);
  } catch (e) {
    S.busy = false;
    if (e.code === "not_found" && number !== 1) {
      openStep(1);
      return;
    }
    showError($("error"), `Could not load step ${number} of the tutorial: ${e.message}`);
    return;
  }
  S.busy = false;
  S.view = view;
  S.snap = view.snapshot;
  S.number = view.number;
  S.hints = [];
  S.reached = Math.max(S.reached, view.number);
  try {
    localStorage.setItem(REACHED_KEY, String(S.reached));
  } catch {
    /* private mode: the dots remember this visit only */
  }
  board.attack = false;
  board.refocus();
  if (location.hash !== `#${view.number}`) history.replaceState(null, "", `#${view.number}`);
  clear($("turns"));
  $("turns").hidden = true;
  feedback(null, "");
  showStep();
  addTurns(view.turns);
  draw();
}

/** The final button: a real table against two bots, on the short course with teams
 * of three (like the lesson's), the learner seated as team A. */
async function playReal() {
  const play = button("play-real");
  play.disabled = true;
  try {
    const games = (await api("GET", "/api/games")).games || [];
    const game = games.find((g) => g.name === "mind-cycling");
    const bots = (game && game.bots) || [];
    const bot = bots.includes("easy") ? "easy" : bots[0];
    const table = await api("POST", "/api/tables", {
      game: "mind-cycling", options: { players: 3, course: "short", riders: 3 }, seats: ["human", bot, bot],
    });
    const name = playerName.get() || "Newcomer";
    const seat = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, { seat: "A", name });
    tokens.set(table.id, seat.token);
    location.href = table.url || `/table/${table.id}`;
  } catch (e) {
    showError($("error"), `Could not start a race: ${e.message}`);
    play.disabled = false;
  }
}

function stepFromHash() {
  const n = Number(location.hash.slice(1));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

async function start() {
  try {
    S.lesson = await api("GET", "/api/tutorial");
  } catch (e) {
    showError($("error"), `Could not load the tutorial: ${e.message}`);
    return;
  }
  $("lesson-title").textContent = S.lesson.title;
  board.setTable({ course_data: S.lesson.course, wind: "front" });
  board.legend($("legend"));
  $("back").addEventListener("click", () => S.view && openStep(S.view.number - 1));
  $("next").addEventListener("click", () => S.view && S.view.finished && openStep(S.view.number + 1));
  $("play-real").addEventListener("click", playReal);
  // Squares the board does not light (out of reach, behind, taken) are clickable too:
  // the engine explains why the move they mean is refused.
  $("board-host").addEventListener("click", (e) => {
    const square = /** @type {HTMLElement} */ (/** @type {Element} */ (e.target).closest("[data-square]"));
    if (square && !square.classList.contains("legal")) clickSquare(square.dataset.square);
  });
  window.addEventListener("hashchange", () => {
    const n = stepFromHash();
    if (!S.view || n !== S.view.number) openStep(n);
  });
  window.addEventListener("resize", () => board.refocus());
  await openStep(stepFromHash());
}

start();
