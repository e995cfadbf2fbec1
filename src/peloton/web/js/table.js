// @ts-check
// The table page: play, watch and replay one table of any game (docs/protocol.md).
// This module is the shell: the socket, the seats, the log, the replay and the
// dispatch of messages. The game is drawn and played by its view (views.js; what a
// view does: gameview.js), which knows nothing of sockets or seats.

import { api, authHeaders, download, tokens, playerName, LiveSocket } from "./api.js";
import { ReplayViewer } from "./replay.js";
import * as seats from "./seats.js";
import { showSolver } from "./solver.js";
import { el, clear, teamChip, seatLabel, seatOf, showError, renderLog, logFromReplay, setTeamColours, HintLine } from "./ui.js";
import { knowGames, viewOf } from "./views.js";
import { applyDelta, DeltaError } from "./delta.js";
import { TurnSignal } from "./turn_signal.js";
import { EndDialog, showInvitation } from "./end_dialog.js";
import { showStandingsLink } from "./competition_next.js";
import { renderSoloResult, soloSeatScore } from "./solo_panel.js";
import { postSignedIn, storedProfile } from "./profile_keys.js";
import { ClockView } from "./clock.js";
import { SeatMenu } from "./seat_menu.js";
import { ChatPanel } from "./chat_panel.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const tablePath = `/api/tables/${encodeURIComponent(tableId)}`;

const S = {
  table: null, // the summary, with the object options in full (course_data)
  snap: null,
  seat: null, // our seat letter once the server welcomed our token
  log: [], // {move, round, by}
  logLoading: false,
  pending: false, // a move was sent; wait for its update (or an error)
  hint: null, // the hint line under the controls, with the squares a hovered control marks
  mode: "live",
  replay: null,
  conn: "connecting",
  welcomes: 0, // how many welcomes this page got (one per connection)
  resyncs: 0, // how many updates could not be followed (each reconnected for a welcome)
  view: null, // the game's view, made once the game is known
  solver: null, // a solo table's solver answer (solver.js)
  signal: null, // the "your turn" signal (turn_signal.js)
  ending: null, // the end-of-game dialog (end_dialog.js)
  clock: null, // the seats' clocks (clock.js)
  seatMenu: null, // leaving the table, taking the seat back (seat_menu.js)
  chat: null, // the chat panel (chat_panel.js)
  moveLists: ["legal"], // the snapshot's lists of the moves at hand (the welcome's move_lists)
};

const socket = new LiveSocket(tableId, {
  getToken: () => tokens.get(tableId),
  onMessage,
  onStatus: (s) => {
    S.conn = s;
    if (s !== "live" && S.chat) S.chat.offline();
    // Moves can only go out on an open socket: the turn controls follow the connection.
    if (S.snap) render();
    else renderHeader();
  },
});
const error = (message) => showError($("error"), message);

function notice(message) {
  const box = $("notice");
  box.hidden = !message;
  box.textContent = message || "";
}

// ------------------------------------------------------------------ data

/** A table summary received: merged into the one we have (the object options in full
 * stay), or taken `whole` (an update's changes applied to the one we had). */
function applyTable(t, { whole = false } = {}) {
  if (!t) return;
  S.table = whole ? t : { ...(S.table || {}), ...t };
  if (!S.view) {
    const View = viewOf(S.table.game);
    S.view = new View($("board-host"), { onSquare, onHover: hoverSquare });
    setTeamColours(S.view.colours || {});
    if (S.table.solo) soloView(S.view);
    $("seats-h").textContent = S.view.words.seats;
    $("result-h").textContent = S.view.words.result;
  }
  S.view.setTable(S.table);
  S.view.legend($("legend"));
  if (S.table.competition) showStandingsLink(document.querySelector(".top-actions"), S.table.competition);
}

function setSnapshot(snap) {
  if (!snap) return;
  S.snap = snap;
  S.pending = false;
  // A snapshot that lists the moves (as this viewer may see them) is the log: a hidden
  // move shown as `dial:?` becomes its value once it is revealed.
  if (Array.isArray(snap.moves) && S.mode === "live") {
    // A move's words stay while its text does; a dial revealed since reads anew.
    const said = (move, i) => (S.log[i] && S.log[i].move === move ? S.log[i].sentence : null);
    S.log = snap.moves.map((move, i) => ({ move, round: S.view.roundOf(snap, i), sentence: said(move, i) }));
    if (S.log.some((entry) => !entry.sentence)) setTimeout(loadLog, 0);
  }
}

/** Read the log whole (GET .../replay): its moves in words. `tries`: how many more times
 * it is read at once when the answer turns out older than the log. */
async function loadLog(tries = 2) {
  if (S.logLoading) return;
  S.logLoading = true;
  const lastBefore = lastMove();
  let again = false;
  try {
    const data = await api("GET", `${tablePath}/replay`, undefined, authHeaders(tableId));
    const read = logFromReplay(data, (snap, i) => S.view.roundOf(snap, i));
    if (read.length >= S.log.length) {
      S.log = read;
    } else {
      // Updates arrived while the answer was on its way: it is older than the log, so
      // it gives its words only to the moves it shows alike, and is read again for the
      // rest (the moves after it stayed, or the log would lag the board).
      S.log = S.log.map((entry, i) => (read[i] && read[i].move === entry.move ? read[i] : entry));
      again = S.log.some((entry) => !entry.sentence);
    }
  } catch {
    /* the log stays as it is; the board is still right */
  } finally {
    S.logLoading = false;
  }
  // Only the log is drawn again, not the controls (a button must not be replaced under
  // a finger), unless its last move reads anew: the board's hints come from it.
  if (S.mode === "live" && S.snap && lastMove() === lastBefore) drawLog();
  else render();
  if (again && tries > 0) loadLog(tries - 1);
}

/** The last move of the log as this viewer reads it (null before the first). */
function lastMove() {
  return S.log.length ? S.log[S.log.length - 1].move : null;
}

function drawLog() {
  renderLog($("log"), S.log, { head: (r) => S.view.logHead(r) });
}

/** @param {import("./types").ServerMessage} msg a message of the table's socket */
function onMessage(msg) {
  if (S.chat.handle(msg)) return;
  switch (msg.type) {
    case "welcome": {
      S.welcomes += 1;
      S.seat = msg.seat || null;
      S.moveLists = msg.move_lists || ["legal"];
      S.chat.welcome(S.seat);
      applyTable(msg.table);
      setSnapshot(msg.snapshot);
      if (S.snap && S.log.length !== S.view.movesPlayed(S.snap)) loadLog();
      break;
    }
    case "update": {
      // The move and what it changed (docs/protocol.md, "Deltas"): applied to the
      // snapshot and summary we have, which must be those of the move before.
      const prev = S.snap;
      const have = prev ? S.view.movesPlayed(prev) : -1;
      if (prev && typeof msg.index === "number" && msg.index < have) return; // a refresh got here first
      let next;
      try {
        if (!prev || !S.table || msg.index !== have) throw new DeltaError(`update ${msg.index} after ${have} moves`);
        next = { snap: applyDelta(prev, msg.changes || []), table: applyDelta(S.table, msg.table_changes || []) };
      } catch (e) {
        if (!(e instanceof DeltaError)) throw e;
        resync();
        return;
      }
      // The moves at hand are the update's own: only the seat to move gets them.
      for (const key of S.moveLists) if (key in prev || msg[key]) next.snap[key] = msg[key] || [];
      applyTable(next.table, { whole: true });
      if (msg.index === S.log.length) {
        S.log.push({ move: msg.move, round: S.view.roundOf(prev, msg.index), by: msg.by, sentence: msg.sentence || null });
      } else if (msg.index > S.log.length) {
        loadLog(); // the log missed moves: read it whole
      }
      setSnapshot(next.snap);
      if (msg.by && msg.by === S.seat) error(null);
      break;
    }
    case "next": { // a competition's next table is open (competition_next.js)
      S.ending.setNext(msg);
      break;
    }
    case "rematch": {
      applyTable(msg.table);
      showInvitation($("notice"), msg, { tableId, seat: S.seat });
      break;
    }
    case "error": {
      S.pending = false;
      error(`${msg.message || "error"}${msg.code ? ` (${msg.code})` : ""}`);
      if (msg.code === "bad_token") {
        tokens.clear(tableId);
        S.seat = null;
        socket.reconnect();
      } else if (msg.code === "not_found") {
        socket.close(); // the server closes too (4404): no table to come back to
      } else if (msg.code === "stale") {
        refresh();
      }
      break;
    }
    default:
      return;
  }
  render();
}

/** An update we cannot follow (a move missed, changes that do not fit): connect again,
 * and the new connection's `welcome` brings the whole state (messages of the old one
 * are ignored from now on). */
function resync() {
  S.resyncs += 1;
  socket.reconnect();
}

async function refresh() {
  try {
    const detail = await api("GET", tablePath, undefined, authHeaders(tableId));
    applyTable(detail);
    if (!S.snap || S.view.movesPlayed(detail.snapshot) >= S.view.movesPlayed(S.snap)) setSnapshot(detail.snapshot);
    render();
  } catch (e) {
    error(e.message);
  }
}

// ------------------------------------------------------------------ playing

function myTurn() {
  return (
    S.mode === "live" && S.conn === "live" && S.seat && S.snap && S.view.phase(S.snap) !== "over" &&
    S.snap.current_player === S.seat && (!S.table || S.table.status === "running") &&
    !(seatOf(S.table, S.seat) || {}).away // a bot plays our seat while we are away
  );
}

const targets = () => S.view.targets(S.snap, myTurn() && !S.pending);

function sendMove(text) {
  if (!S.snap || S.pending) return;
  if (!socket.send({ type: "move", move: text, index: S.view.movesPlayed(S.snap) })) {
    error("Not connected to the table; reconnecting…");
    return;
  }
  S.pending = true;
  error(null);
  render();
}

function onSquare(square) {
  if (!myTurn() || S.pending) return;
  const text = S.view.clickSquare(S.snap, square);
  if (text) sendMove(text);
  else render();
}

function hoverSquare(square) {
  const target = square && S.snap ? targets().get(square) : null;
  S.hint.say(target ? target.describe : "");
}

/** A control hovered: say what it does and mark its squares on the board. */
function hint(describe, squares) {
  S.hint.say(describe, squares);
  drawBoard();
}

// ------------------------------------------------------------------ rendering

function renderHeader() {
  const t = S.table || {};
  $("title").textContent = `Table ${tableId}`;
  $("subtitle").textContent = S.view ? [t.title, ...S.view.constructor.subtitle(t)].filter(Boolean).join(" · ") : "";
  const status = $("status");
  status.textContent = t.status || "…";
  status.className = `pill status-${t.status || "unknown"}`;
  const conn = $("connection");
  conn.textContent = { live: "● live", connecting: "○ connecting", offline: "○ reconnecting" }[S.conn] || S.conn;
  conn.className = `pill conn conn-${S.conn}`;
  conn.dataset.state = S.conn;
}

function renderRoot() {
  const snap = S.snap;
  Object.assign($("root").dataset, {
    moves: snap ? String(S.view.movesPlayed(snap)) : "-1",
    phase: snap ? S.view.phase(snap) : "",
    round: snap && snap.round !== undefined ? String(snap.round) : "",
    game: (S.table && S.table.game) || "",
    seat: S.seat || "",
    currentPlayer: (snap && snap.current_player) || "",
    myTurn: myTurn() && !S.pending ? "true" : "false",
    status: (S.table && S.table.status) || "",
    mode: S.mode,
    welcomes: String(S.welcomes),
    resyncs: String(S.resyncs),
  });
  document.body.classList.toggle("replaying", S.mode === "replay");
}

function renderTurn() {
  const box = clear($("turn"));
  const snap = S.snap;
  const t = S.table || {};
  const view = S.view;
  if (S.mode === "replay") {
    box.append(el("p", {}, "Replay mode: live play is hidden. "),
      el("button", { type: "button", class: "btn", dataset: { testid: "replay-exit" }, onclick: toggleReplay }, "Back to the live table"));
    return;
  }
  const actor = view.actor(snap);
  if (view.phase(snap) === "over") {
    box.append(el("p", { class: "turn-line big", dataset: { testid: "game-over" } }, view.words.over));
  } else if (t.status === "abandoned") {
    box.append(el("p", { class: "turn-line", dataset: { testid: "abandoned" } }, "Abandoned: every player left the table before the end."));
  } else if (t.status === "open") {
    const free = (t.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
    box.append(el("p", { class: "turn-line" }, `Waiting for players: ${free} free seat${free === 1 ? "" : "s"}. Share the invite link.`));
  } else if (myTurn()) {
    const line = el("p", { class: "turn-line big your-turn", dataset: { testid: "your-turn" } }, "Your turn");
    if (actor) line.append(`: ${actor}`);
    if (S.pending) line.append(el("span", { class: "muted" }, " (sending…)"));
    box.append(line);
  } else if (view.waiting(snap)) {
    box.append(el("p", { class: "turn-line" }, view.waiting(snap)));
  } else {
    const s = seatOf(t, snap.current_player);
    const player = snap.current_player || "?";
    const line = el("p", { class: "turn-line" }, "To play: ", teamChip(player, s ? `${player} · ${seatLabel(s)}` : player));
    if (actor) line.append(` with ${actor}`);
    if (view.note(snap)) line.append(` (${view.note(snap)})`);
    box.append(line);
  }
  const status = view.status(snap);
  box.append(el("p", { class: "muted small" }, `${status[0].toUpperCase()}${status.slice(1)} · ${view.movesPlayed(snap)} moves · `,
    S.seat ? el("span", {}, `${view.words.you} `, teamChip(S.seat)) : "you are watching"));
}

async function join(seat, name) {
  const signed = storedProfile(); // a seat taken signed in counts for the profile's ratings
  if (signed) name = signed.name;
  if (!name) {
    error("Enter your name before taking a seat.");
    return;
  }
  try {
    const answer = await postSignedIn(`${tablePath}/join`, { seat, name }, (b, profile) => ({ ...b, profile }));
    tokens.set(tableId, answer.token);
    playerName.set(name);
    S.seat = answer.seat || seat;
    error(null);
    socket.reconnect(); // the new hello carries the token
  } catch (e) {
    error(e.message);
  }
  refresh();
}

function renderSeats() {
  const snap = S.mode === "replay" && S.replay ? S.replay.snapshot : S.snap;
  seats.renderSeats($("seats"), { table: S.table, seat: S.seat, snap, view: S.view });
}

function drawBoard() {
  if (S.mode !== "live" || !S.snap) return new Map();
  const tg = targets();
  const hints = S.hint.squares.length ? [...S.hint.squares] : S.view.hints(lastMove(), S.snap);
  S.view.render(S.snap, { targets: tg, hints, mine: S.seat });
  return tg;
}

function render() {
  renderHeader();
  renderRoot();
  if (!S.snap) return;
  renderFlow();
  renderTurn();
  seats.renderJoin($("join"), { table: S.table, seat: S.seat, live: S.mode === "live", view: S.view, onJoin: join });
  renderSeats();
  // The controls are drawn anew (or taken away) below: a hint of the old ones goes.
  S.hint.reset();
  if (S.mode !== "live") {
    clear($("controls"));
    return;
  }
  const tg = drawBoard();
  S.view.focus(S.snap, [...tg.keys()]);
  S.view.controls($("controls"), S.snap, {
    seat: S.seat, myTurn: myTurn(), pending: S.pending, send: sendMove, table: S.table, rerender: render, hint,
  });
  S.view.result($("result"), S.snap, { table: S.table });
  drawLog();
}

// ------------------------------------------------------------------ replay, invite, record

async function toggleReplay(at = null) {
  const button = $("replay-toggle");
  if (S.mode === "replay") {
    S.mode = "live";
    if (S.replay) S.replay.stop();
    S.replay = null;
    setUrlMove(null);
    $("root").dataset.replayOf = "";
    $("replay-controls").hidden = true;
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Replay";
    S.chat.live();
    S.view.refocus();
    render();
    return;
  }
  try {
    const data = await api("GET", `${tablePath}/replay`, undefined, authHeaders(tableId));
    enterReplay(data, { at: typeof at === "number" ? at : null });
  } catch (e) {
    error(e.message);
  }
}

/** Step through `data` (a replay answer) on the board, from move `at` (default: the
 * last, the position the log shows); `line`: the solver's line, not this table's. */
function enterReplay(data, { at = null, line = false } = {}) {
  const button = $("replay-toggle");
  S.mode = "replay";
  button.setAttribute("aria-pressed", "true");
  button.textContent = "Live";
  $("replay-controls").hidden = false;
  if (S.replay) S.replay.stop();
  S.replay = new ReplayViewer(
    { controls: $("replay-controls"), log: $("log"), result: $("result"), root: $("root") },
    data, { table: S.table, onShow: line ? renderSeats : replayShown, view: S.view },
  );
  $("root").dataset.replayOf = line ? "solver-line" : "table";
  S.log = logFromReplay(data, (snap, i) => S.view.roundOf(snap, i));
  if (line) S.chat.live();
  else S.chat.showReplay(data.chat);
  render();
  S.replay.go(at === null ? data.moves.length : at);
}

async function copyInvite() {
  const url = `${location.origin}/table/${tableId}`;
  try {
    await navigator.clipboard.writeText(url);
    notice(`Invite link copied: ${url}`);
  } catch {
    notice(`Invite link: ${url}`);
  }
}

/** A seated player downloads the record as its seat may see it (its own hidden moves
 * in a game with hidden information): the link's plain GET would be a spectator's. */
function downloadRecord(event) {
  const headers = authHeaders(tableId);
  if (!headers.Authorization) return;
  event.preventDefault();
  download(`${tablePath}/record`, `peloton-${tableId}.json`, headers).catch((e) => error(e.message));
}

async function init() {
  flowInit();
  $("copy-invite").addEventListener("click", copyInvite);
  $("replay-toggle").addEventListener("click", toggleReplay);
  /** @type {HTMLAnchorElement} */ ($("download-record")).href = `${tablePath}/record`;
  $("download-record").setAttribute("download", `peloton-${tableId}.json`);
  $("download-record").addEventListener("click", downloadRecord);
  renderHeader();
  // The games' entries (what a view tells of an option's choice in the header); the
  // table plays without them.
  api("GET", "/api/games").then((answer) => {
    knowGames(answer.games);
    renderHeader();
  }, () => {});
  try {
    let detail;
    try {
      detail = await api("GET", tablePath, undefined, authHeaders(tableId));
    } catch (e) {
      if (e.code !== "bad_token") throw e;
      // A token this table does not know: say so, forget it, and watch.
      error(`${e.message} (${e.code})`);
      tokens.clear(tableId);
      detail = await api("GET", tablePath);
    }
    applyTable(detail);
    setSnapshot(detail.snapshot);
    render();
    if (detail.solo) {
      showSolver(tableId, $("solver-panel"), {
        onAnswer: (answer) => {
          S.solver = answer;
          if (S.mode === "live") render();
        },
        onShowLine: showLine,
      });
    }
  } catch (e) {
    error(e.status === 404 ? `There is no table "${tableId}".` : e.message);
    return;
  }
  loadLog();
  socket.connect();
  const asked = new URLSearchParams(location.search).get("move");
  if (asked !== null && /^\d+$/.test(asked)) toggleReplay(Number(asked));
}

// ------------------------------------------------------------------ the flow of a game
// The "your turn" signal, the end-of-game dialog and rematch, a solo table's panel,
// replays opened at a move of the URL (?move=N) and the solver's line on the board.

function flowInit() {
  S.hint = new HintLine($("hint"));
  S.chat = new ChatPanel($("chat"), { send: (message) => socket.send(message), downloadPath: `${tablePath}/chat`, heading: $("chat-h") });
  S.signal = new TurnSignal(document.querySelector(".top-actions"));
  S.signal.setBase(`Table ${tableId} · Peloton`);
  S.ending = new EndDialog(document.querySelector(".board-wrap"), {
    tableId,
    showResult: (box, snap) => S.view.result(box, snap, { table: S.table }),
  });
  S.clock = new ClockView($("turn"));
  S.seatMenu = new SeatMenu(document.querySelector(".top-actions"), $("turn"), { tableId, onError: error });
}

function renderFlow() {
  S.signal.update(myTurn(), S.view.movesPlayed(S.snap));
  S.ending.update({ table: S.table, snap: S.snap, seat: S.seat, view: S.view, live: S.mode === "live" });
  S.clock.update(S.table, { live: S.mode === "live" });
  S.seatMenu.update({ table: S.table, seat: S.seat, live: S.mode === "live" });
}

/** A solo table's view: its result is the solo panel, its seat's standing the round. */
function soloView(view) {
  view.result = (box, snap) => renderSoloResult(box, snap, S.solver);
  view.seatScore = (snap) => soloSeatScore(snap);
}

/** Keep the replayed move in the address (`?move=N`), so the link opens there. */
function setUrlMove(index) {
  const url = new URL(location.href);
  if (index === null) url.searchParams.delete("move");
  else url.searchParams.set("move", String(index));
  history.replaceState(null, "", url);
}

function replayShown() {
  renderSeats(); // the replay's snapshot, as its onShow gave it
  if (S.replay) setUrlMove(S.replay.index);
  if (S.replay) S.chat.replayAt(S.replay.index);
}

/** The solver's line (`moves`) stepped through on the board: the table's record with
 * the line's moves, replayed by the server (POST /api/replay). */
async function showLine(moves) {
  try {
    const record = await api("GET", `${tablePath}/record`, undefined, authHeaders(tableId));
    const data = await api("POST", "/api/replay", { ...record, moves, result: undefined });
    enterReplay(data, { at: 0, line: true });
    $("replay-toggle").scrollIntoView({ block: "nearest" });
  } catch (e) {
    error(`The solver's line could not be shown: ${e.message}`);
  }
}

window.addEventListener("resize", () => {
  if (!S.view) return;
  S.view.refocus();
  if (S.snap && S.mode === "live") drawBoard();
});
init();
