// @ts-check
// A game's tutorial (/tutorial?game=...&lesson=...): the lesson's steps beside the
// game's own table view (views.js). The server holds the lesson and checks every move
// with the engine (GET/POST /api/tutorial/steps/{n}); this page draws the position,
// lights the move the step asks for (its button or square; the game's coach adds what
// its moves need, mindcycling_coach.js), sends the learner's moves, explains a refused
// move with the engine's reason, and shows the other seats' replies and the dice one by
// one. The step number lives in the address (`#3`), so a reload resumes the lesson.

import { api, playerName, tokens } from "./api.js";
import { CycloCoach } from "./cyclo_coach.js";
import { MindCyclingCoach } from "./mindcycling_coach.js";
import { PistardCoach } from "./pistard_coach.js";
import { clear, el, showError, HintLine } from "./ui.js";
import { knowGames, viewOf } from "./views.js";

const $ = (id) => document.getElementById(id);
/** A button of the page by id. */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, calm() ? 0 : ms));

const params = new URLSearchParams(location.search);
/** The query every API call carries: the game and the lesson of this page. */
const QUERY = (() => {
  const q = new URLSearchParams();
  if (params.get("game")) q.set("game", String(params.get("game")));
  if (params.get("lesson")) q.set("lesson", String(params.get("lesson")));
  const text = q.toString();
  return text ? `?${text}` : "";
})();
const REACHED_KEY = `peloton.tutorial.reached${QUERY}`;

/** How the page guides a game's moves: a lit square sends its move, and the buttons and
 * squares of the asked move are lit. A game whose moves need more names its coach here. */
const DEFAULT_COACH = {
  clickMove(view, snap, square, _text) {
    return view.clickSquare(snap, square);
  },
  guide(view, snap, text, _ctx) {
    const lit = [];
    for (const [square, target] of view.targets(snap, true)) {
      const moves = target.moves ? target.moves.map((m) => m.text) : [target.text];
      if (!moves.includes(text)) continue;
      lit.push(square);
      for (const node of view.host.querySelectorAll(`[data-square="${CSS.escape(square)}"]`)) node.classList.add("lesson-target");
    }
    return lit;
  },
  reset(_view) {},
  /** Whether the result panel shows: once the game is over. */
  resultShown(snap) {
    return Boolean(snap.is_over);
  },
};
const COACHES = { cyclo: CycloCoach, "mind-cycling": MindCyclingCoach, pistard: PistardCoach };

function storedReached() {
  try {
    return Math.max(1, Number(localStorage.getItem(REACHED_KEY)) || 1);
  } catch {
    return 1;
  }
}

const S = {
  lesson: null, // GET /api/tutorial
  game: null, // the game's entry of GET /api/games
  view: null, // the step view of the server (GET/POST /api/tutorial/steps/{n})
  snap: null, // the position drawn
  number: 1,
  busy: false,
  hints: [],
  reached: storedReached(), // the furthest step opened (kept in this browser), for the dots
};

/** @type {any} */
let board = null; // the game's view, once the lesson says which game it is
/** @type {any} */
let View = null;
let coach = DEFAULT_COACH;
const hintLine = new HintLine($("hint"));

/** The move the step asks for next, or null. */
function expected() {
  return (S.view && S.view.expect) || null;
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
  for (const node of document.querySelectorAll(".lesson-target")) node.classList.remove("lesson-target");
  hintLine.reset(); // the controls are drawn anew: a hint of the old ones goes
  board.controls($("controls"), snap, {
    seat: S.lesson.learner,
    myTurn: mine,
    pending: S.busy,
    send,
    table: null,
    rerender: draw,
    hint: (text, squares) => hintLine.say(text, squares),
  });
  const want = mine ? expected() : null;
  let focus = [];
  const box = $("ask-action");
  if (box) clear(box);
  if (want) {
    for (const b of $("controls").querySelectorAll("[data-move]")) {
      if (/** @type {HTMLElement} */ (b).dataset.move === want) b.classList.add("lesson-target");
    }
    focus = coach.guide(board, snap, want, { box: box || el("div"), controls: $("controls"), send, redraw: draw }) || [];
  }
  board.focus(snap, focus);
  const result = $("result");
  const over = coach.resultShown(snap);
  result.hidden = !over;
  if (over) board.result(result, snap, {});
  // Between two of the learner's moves the panel has nothing to show.
  $("play-panel").hidden = !$("controls").childElementCount && !over;
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
  main.dataset.busy = String(S.busy); // a move sent and its replies not all shown yet
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
    const who = t.by === "you" ? "You" : t.by === "chance" ? "Dice" : View.seatName(t.by);
    list.append(el("li", { class: `turn-by-${t.by === "you" ? "you" : "them"}`, dataset: { move: t.move } },
      el("strong", {}, `${who}: `), t.describe));
  }
}

// ------------------------------------------------------------------ moves

/** A click on a square of the board (lit or not): the move it means is sent as it is;
 * the server's engine decides. */
function clickSquare(square) {
  if (!myTurn()) return;
  const text = coach.clickMove(board, S.snap, square, expected());
  if (text) send(text);
  else draw(); // a choice to make first (a view's variants): its controls show it
}

async function send(text) {
  if (!myTurn()) return;
  S.busy = true;
  feedback(null, "");
  showStep();
  let answer;
  try {
    answer = await api("POST", `/api/tutorial/steps/${S.view.number}${QUERY}`, { move: text, done: S.view.done });
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
    view = await api("GET", `/api/tutorial/steps/${number}${QUERY}`);
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
  coach.reset(board);
  board.refocus();
  if (location.hash !== `#${view.number}`) history.replaceState(null, "", `#${view.number}`);
  clear($("turns"));
  $("turns").hidden = true;
  feedback(null, "");
  showStep();
  addTurns(view.turns);
  draw();
}

/** The final button: the real table the lesson names (its options, bots in the other
 * seats), the learner seated in the first seat. */
async function playReal() {
  const play = button("play-real");
  play.disabled = true;
  try {
    const plan = S.lesson.table || {};
    const options = plan.options || {};
    const bots = (S.game && S.game.bots) || [];
    const bot = bots.includes(plan.bot) ? plan.bot : bots[0];
    const seats = Number(options.players) || (S.game && S.game.seats && S.game.seats.min) || 2;
    const table = await api("POST", "/api/tables", {
      game: S.lesson.game, options, seats: ["human", ...Array(seats - 1).fill(bot)],
    });
    const letters = (S.game && S.game.seats && S.game.seats.letters) || ["A"];
    const name = playerName.get() || "Newcomer";
    const seat = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, { seat: letters[0], name });
    tokens.set(table.id, seat.token);
    location.href = table.url || `/table/${table.id}`;
  } catch (e) {
    showError($("error"), `Could not start a game: ${e.message}`);
    play.disabled = false;
  }
}

function stepFromHash() {
  const n = Number(location.hash.slice(1));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** The game's other lessons (Cyclo's Starter and Pro), as links. */
function lessonLinks() {
  const box = $("lessons");
  const lessons = S.lesson.lessons || [];
  box.hidden = lessons.length < 2;
  clear(box);
  for (const l of lessons) {
    const href = `/tutorial?game=${encodeURIComponent(S.lesson.game)}&lesson=${encodeURIComponent(l.id)}`;
    box.append(l.id === S.lesson.lesson
      ? el("span", { class: "pill on", "aria-current": "page", dataset: { lesson: l.id } }, l.title)
      : el("a", { class: "pill", href, dataset: { lesson: l.id } }, l.title));
  }
}

async function start() {
  try {
    S.lesson = await api("GET", `/api/tutorial${QUERY}`);
    const games = (await api("GET", "/api/games")).games || [];
    knowGames(games);
    S.game = games.find((g) => g.name === S.lesson.game) || null;
  } catch (e) {
    showError($("error"), `Could not load the tutorial: ${e.message}`);
    return;
  }
  const title = S.game ? S.game.title : S.lesson.game;
  document.title = `Peloton · learn ${title}`;
  $("game-title").textContent = `Learn ${title}`;
  document.body.dataset.game = S.lesson.game;
  $("lesson-title").textContent = S.lesson.title;
  lessonLinks();
  View = viewOf(S.lesson.game);
  coach = COACHES[S.lesson.game] || DEFAULT_COACH;
  board = new View($("board-host"), { onSquare: (sq) => clickSquare(sq) });
  board.setTable({ game: S.lesson.game, options: (S.lesson.table || {}).options || {}, course_data: S.lesson.course, wind: "front" });
  board.legend($("legend"));
  $("back").addEventListener("click", () => S.view && openStep(S.view.number - 1));
  $("next").addEventListener("click", () => S.view && S.view.finished && openStep(S.view.number + 1));
  $("play-real").addEventListener("click", playReal);
  // Squares the board does not light (out of reach, behind, taken) are clickable too
  // where the game's coach gives them a move: the engine explains why it is refused.
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
