// The table page: play, watch and replay one table (docs/protocol.md). Mind Cycling
// is drawn by board.js and the code here; the other games by their view
// (mindtwist.js, pistard.js), which draws the board, the controls and the result.

import { api, authHeaders, tokens, playerName, LiveSocket } from "./api.js";
import { Board } from "./board.js";
import { MindTwistView } from "./mindtwist.js";
import { PistardView } from "./pistard.js";
import { ReplayViewer } from "./replay.js";
import { showSolver } from "./solver.js";
import {
  el, clear, teamChip, seatLabel, seatOf, showError, renderLog, renderResult,
  logFromReplay, setTeamColours, TYPE_NAMES,
} from "./ui.js";

const VIEWS = { "mind-twist": MindTwistView, pistard: PistardView };

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const WIND_TEXT = {
  front: "Wind from the front →|",
  left: "Three-quarter wind from the front left",
  right: "Three-quarter wind from the front right",
};
const KIND_TEXT = {
  wheel: "Take the wheel",
  relay: "Take a relay",
  stay: "Stay",
};

const S = {
  table: null, // summary (+ course_data)
  course: null,
  snap: null,
  seat: null, // our team letter once the server welcomed our token
  log: [], // {move, round}
  logLoading: false,
  attack: false, // attack mode: the squares lit are the attack destinations
  placeRider: null,
  pending: false, // a move was sent; wait for its update (or an error)
  hover: [], // squares to mark while a control is hovered
  mode: "live",
  replay: null,
  conn: "connecting",
  welcomes: 0, // how many welcomes this page got (one per connection)
  view: null, // the game's view (not Mind Cycling)
};

let board = null; // Mind Cycling's road, made when the table turns out to be one
const socket = new LiveSocket(tableId, {
  getToken: () => tokens.get(tableId),
  onMessage,
  onStatus: (s) => {
    S.conn = s;
    // Moves can only go out on an open socket: the turn controls follow the connection.
    if (S.snap) render();
    else renderHeader();
  },
});
const errorBox = $("error");

function error(message) {
  showError(errorBox, message);
}

function notice(message) {
  const box = $("notice");
  box.hidden = !message;
  box.textContent = message || "";
}

// ------------------------------------------------------------------ data

/** The game's view (other games) or Mind Cycling's board, made once the game is known. */
function ensureView(game) {
  if (S.view || board) return;
  const View = VIEWS[game];
  if (View) {
    S.view = new View($("board-host"), { onSquare });
    setTeamColours(S.view.colours || {});
    const legend = document.querySelector(".legend");
    if (legend) S.view.legend(legend);
    $("result-h").textContent = "Result";
    $("seats-h").textContent = "Players";
  } else {
    board = new Board($("board-host"), { onSquare, onHover: hoverSquare });
  }
}

const isMC = () => !S.view;
const movesOf = (snap) => (S.view ? S.view.movesPlayed(snap) : snap.moves_played);
const phaseOf = (snap) => (S.view ? S.view.phase(snap) : snap.phase);
const roundOf = (snap, i) => (S.view ? S.view.roundOf(snap, i) : snap.round);
const logHead = () => (S.view ? (r) => S.view.logHead(r) : null);

function applyTable(t) {
  if (!t) return;
  ensureView(t.game || "mind-cycling");
  const course = t.course_data || (t.course && typeof t.course === "object" ? t.course : null);
  S.table = { ...(S.table || {}), ...t };
  if (board && course && (!S.course || JSON.stringify(course) !== JSON.stringify(S.course))) {
    S.course = course;
    board.setCourse(course);
    board.lastFocus = null;
  }
}

function setSnapshot(snap) {
  if (!snap) return;
  const before = S.snap;
  S.snap = snap;
  S.pending = false;
  // A snapshot that lists the moves (Mind Twist: as this viewer may see them) is the
  // log: a dial shown as dial:? becomes its value once a pass or a wrong guess reveals it.
  if (S.view && Array.isArray(snap.moves) && S.mode === "live") {
    S.log = snap.moves.map((move, i) => ({ move, round: S.view.roundOf(snap, i) }));
  }
  if (!before || before.current_rider !== snap.current_rider || movesOf(before) !== movesOf(snap)) {
    S.attack = false;
    S.hover = [];
  }
  const unplaced = (snap.placement && snap.placement.riders) || [];
  if (!unplaced.includes(S.placeRider)) S.placeRider = unplaced[0] || null;
}

async function loadLog() {
  if (S.logLoading) return;
  S.logLoading = true;
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`, undefined, authHeaders(tableId));
    S.log = logFromReplay(data, S.view ? roundOf : null);
  } catch (e) {
    /* the log stays as it is; the board is still right */
  } finally {
    S.logLoading = false;
    render();
  }
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome": {
      S.welcomes += 1;
      S.seat = msg.seat || null;
      applyTable(msg.table);
      setSnapshot(msg.snapshot);
      if (S.snap && S.log.length !== movesOf(S.snap)) loadLog();
      break;
    }
    case "update": {
      const prev = S.snap;
      applyTable(msg.table);
      if (prev && typeof msg.index === "number" && msg.index === S.log.length && movesOf(prev) === msg.index) {
        S.log.push({ move: msg.move, round: roundOf(prev, msg.index), by: msg.by });
      } else if (typeof msg.index !== "number" || msg.index >= S.log.length) {
        loadLog();
      }
      setSnapshot(msg.snapshot);
      if (msg.by && msg.by === S.seat) error(null);
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

async function refresh() {
  try {
    const detail = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`, undefined, authHeaders(tableId));
    applyTable(detail);
    if (!S.snap || movesOf(detail.snapshot) >= movesOf(S.snap)) setSnapshot(detail.snapshot);
    render();
  } catch (e) {
    error(e.message);
  }
}

// ------------------------------------------------------------------ playing

function myTurn() {
  return (
    S.mode === "live" && S.conn === "live" && S.seat && S.snap && phaseOf(S.snap) !== "over" &&
    S.snap.current_player === S.seat && (!S.table || S.table.status !== "open")
  );
}

/** square -> {text, kind, describe} of the moves the board offers as clicks. */
function targets() {
  if (S.view) return S.view.targets ? S.view.targets(S.snap, myTurn() && !S.pending) : new Map();
  const out = new Map();
  if (!myTurn() || S.pending) return out;
  const snap = S.snap;
  if (snap.phase === "setup") {
    const p = snap.placement;
    if (!p || p.team !== S.seat || !S.placeRider) return out;
    for (const sq of p.squares) {
      out.set(sq, { text: `${S.placeRider}@${sq}`, kind: "place", describe: `place ${S.placeRider} on ${sq}` });
    }
    return out;
  }
  const kind = S.attack ? "attack" : "move";
  for (const m of snap.legal || []) {
    if (m.kind === kind && m.square) out.set(m.square, m);
  }
  return out;
}

function sendMove(text) {
  if (!S.snap || S.pending) return;
  const ok = socket.send({ type: "move", move: text, index: movesOf(S.snap) });
  if (!ok) {
    error("Not connected to the table; reconnecting…");
    return;
  }
  S.pending = true;
  error(null);
  render();
}

function onSquare(square) {
  if (S.view) {
    if (!myTurn() || S.pending) return;
    const text = S.view.clickSquare(S.snap, square);
    if (text) sendMove(text);
    else render();
    return;
  }
  const move = targets().get(square);
  if (move) sendMove(move.text);
}

function hoverSquare(square) {
  const move = square ? targets().get(square) : null;
  $("hint").textContent = move ? move.describe : "";
}

// ------------------------------------------------------------------ rendering

function renderHeader() {
  const t = S.table || {};
  $("title").textContent = `Table ${tableId}`;
  const bits = [];
  if (t.game && t.game !== "mind-cycling") {
    bits.push(t.title || t.game);
    for (const [k, v] of Object.entries(t.options || {})) {
      if (k !== "players" && (typeof v !== "object" || Array.isArray(v))) bits.push(`${k} ${Array.isArray(v) ? v.join(",") : v}`);
    }
  }
  if (t.course) bits.push(`${typeof t.course === "string" ? t.course : (S.course && S.course.name) || "custom"} course`);
  if (t.solo) bits.push("solo challenge");
  else if (t.riders) bits.push(`${t.riders} riders a team`);
  if (t.wind) bits.push(`wind ${t.wind}`);
  if (S.snap && isMC()) bits.push(`relay limit ${S.snap.relay_limit}`);
  $("subtitle").textContent = bits.join(" · ");
  const status = $("status");
  status.textContent = t.status || "…";
  status.className = `pill status-${t.status || "unknown"}`;
  const conn = $("connection");
  conn.textContent = { live: "● live", connecting: "○ connecting", offline: "○ reconnecting" }[S.conn] || S.conn;
  conn.className = `pill conn conn-${S.conn}`;
  conn.dataset.state = S.conn;
  const wind = $("wind-legend");
  if (wind) wind.textContent = WIND_TEXT[(S.snap && S.snap.wind) || t.wind] || "";
}

function renderRoot() {
  const root = $("root");
  const snap = S.snap;
  root.dataset.moves = snap ? String(movesOf(snap)) : "-1";
  root.dataset.phase = snap ? phaseOf(snap) : "";
  root.dataset.round = snap && snap.round !== undefined ? String(snap.round) : "";
  root.dataset.game = (S.table && S.table.game) || "";
  root.dataset.seat = S.seat || "";
  root.dataset.currentPlayer = (snap && snap.current_player) || "";
  root.dataset.myTurn = myTurn() && !S.pending ? "true" : "false";
  root.dataset.status = (S.table && S.table.status) || "";
  root.dataset.mode = S.mode;
  root.dataset.welcomes = String(S.welcomes);
  document.body.classList.toggle("replaying", S.mode === "replay");
}

function renderTurn() {
  const box = clear($("turn"));
  const snap = S.snap;
  const t = S.table || {};
  if (!snap) return;
  const who = (team) => {
    const s = seatOf(t, team);
    return teamChip(team, s ? `${team} · ${seatLabel(s)}` : team);
  };
  if (S.mode === "replay") {
    box.append(el("p", {}, "Replay mode: live play is hidden. "),
      el("button", { type: "button", class: "btn", dataset: { testid: "replay-exit" }, onclick: toggleReplay }, "Back to the live table"));
    return;
  }
  if (phaseOf(snap) === "over") {
    box.append(el("p", { class: "turn-line big", dataset: { testid: "game-over" } }, isMC() ? "The race is over." : "The game is over."));
  } else if (t.status === "open") {
    const free = (t.seats || []).filter((s) => s.kind === "human" && !s.taken).length;
    box.append(el("p", { class: "turn-line" }, `Waiting for players: ${free} free seat${free === 1 ? "" : "s"}. Share the invite link.`));
  } else if (myTurn()) {
    const line = el("p", { class: "turn-line big your-turn", dataset: { testid: "your-turn" } }, "Your turn");
    if (snap.phase === "race" && snap.current_rider) line.append(`: ${snap.current_rider}`);
    if (snap.due) line.append(`: ${snap.due}`);
    if (S.pending) line.append(el("span", { class: "muted" }, " (sending…)"));
    box.append(line);
  } else if (snap.is_chance) {
    box.append(el("p", { class: "turn-line" }, `Rolling the dice for ${snap.roller || "…"}`));
  } else {
    const line = el("p", { class: "turn-line" }, "To play: ", who(snap.current_player || "?"));
    if (snap.current_rider) line.append(` with ${snap.current_rider}`);
    if (snap.phase === "setup") line.append(" (placing riders)");
    box.append(line);
  }
  const phase = phaseOf(snap);
  const status = phase === "over" ? "Finished" : !isMC() ? (snap.round ? `Round ${snap.round}` : "Playing")
    : phase === "setup" ? "Setup" : `Round ${snap.round}`;
  box.append(el("p", { class: "muted small" }, `${status} · ${movesOf(snap)} moves · `,
    S.seat ? el("span", {}, isMC() ? "you ride for " : "you play ", teamChip(S.seat)) : "you are watching"));
}

function controlButton(move, label, testid) {
  return el("button", {
    type: "button", class: `btn move-btn kind-${move.kind}`, title: move.describe,
    dataset: { testid, move: move.text, square: move.square || "" },
    onclick: () => sendMove(move.text),
    onmouseenter: () => {
      $("hint").textContent = move.describe;
      S.hover = move.square ? [move.square] : [];
      drawBoard();
    },
    onmouseleave: () => {
      $("hint").textContent = "";
      S.hover = [];
      drawBoard();
    },
    onfocus: () => {
      $("hint").textContent = move.describe;
    },
  }, label);
}

function renderControls() {
  const box = clear($("controls"));
  if (S.view) {
    S.view.controls(box, S.snap, {
      seat: S.seat, myTurn: myTurn(), pending: S.pending, send: sendMove, table: S.table, rerender: render,
    });
    return;
  }
  if (!myTurn()) {
    $("hint").textContent = "";
    return;
  }
  const snap = S.snap;
  if (snap.phase === "setup") {
    const p = snap.placement || { riders: [] };
    box.append(el("p", { class: "small" }, "Pick a rider, then a lit square of the start zone."));
    const list = el("div", { class: "place-list", dataset: { testid: "placement" } });
    for (const rid of p.riders) {
      list.append(el("button", {
        type: "button", class: `btn rider-btn ${rid === S.placeRider ? "selected" : ""}`,
        "aria-pressed": rid === S.placeRider ? "true" : "false",
        dataset: { testid: "place-rider", rider: rid },
        onclick: () => {
          S.placeRider = rid;
          render();
        },
      }, teamChip(rid[0], rid), el("span", { class: "muted" }, ` ${TYPE_NAMES[rid[1]]}`)));
    }
    box.append(list);
    return;
  }
  const legal = snap.legal || [];
  const rider = (snap.riders || []).find((r) => r.id === snap.current_rider);
  if (rider) {
    const facts = [TYPE_NAMES[rider.type], `allowance ${rider.allowance}`,
      rider.wind ? "in the wind" : "sheltered", rider.bottle ? "bottle" : "no bottle"];
    if (rider.exhausted) facts.push("exhausted");
    if (rider.leader) facts.push(`linked to ${rider.leader}`);
    box.append(el("p", { class: "rider-facts", dataset: { testid: "rider-facts" } },
      teamChip(rider.team, rider.id), " ", facts.join(" · ")));
  }
  const normal = legal.filter((m) => m.kind === "move");
  const attacks = legal.filter((m) => m.kind === "attack");
  if (normal.length || attacks.length) {
    box.append(el("p", { class: "small" }, S.attack ? "Attack: click a red square (throws the bottle, +3, nobody may follow)." : "Click a lit square to ride there."));
  }
  const row = el("div", { class: "move-buttons" });
  if (attacks.length) {
    row.append(el("button", {
      type: "button", class: `btn attack-toggle ${S.attack ? "on" : ""}`, "aria-pressed": S.attack ? "true" : "false",
      dataset: { testid: "attack-toggle" },
      title: "attack: throw the bottle, ride with allowance + 3; nobody may follow",
      onclick: () => {
        S.attack = !S.attack;
        render();
      },
    }, S.attack ? "Cancel attack" : "Attack!"));
  }
  for (const m of legal) {
    if (m.kind === "wheel" || m.kind === "relay") {
      const dest = m.square === "#" ? "across the line" : m.square;
      row.append(controlButton(m, `${KIND_TEXT[m.kind]} → ${dest}`, `${m.kind}-button`));
    } else if (m.kind === "give") {
      row.append(controlButton(m, `Give bottle to ${m.target}`, "give-button"));
    } else if (m.kind === "stay") {
      row.append(controlButton(m, "Stay (no square reachable)", "stay-button"));
    }
  }
  if (row.childElementCount) box.append(row);
}

function renderJoin() {
  const box = $("join");
  const t = S.table;
  const free = ((t && t.seats) || []).filter((s) => s.kind === "human" && !s.taken);
  if (S.mode !== "live" || S.seat || !free.length || !t || t.status === "finished") {
    box.hidden = true;
    clear(box);
    return;
  }
  if (!box.hidden && box.dataset.seats === free.map((s) => s.seat).join("")) return; // keep typed name
  box.hidden = false;
  box.dataset.seats = free.map((s) => s.seat).join("");
  clear(box);
  const name = el("input", {
    type: "text", maxlength: "40", placeholder: "your name", value: playerName.get(),
    dataset: { testid: "join-name" }, "aria-label": "your name", autocomplete: "nickname",
  });
  const buttons = el("div", { class: "join-seats" });
  for (const s of free) {
    buttons.append(el("button", {
      type: "button", class: "btn primary", dataset: { testid: "join-seat", seat: s.seat },
      onclick: () => join(s.seat, name.value.trim()),
    }, "Ride for ", teamChip(s.seat)));
  }
  box.append(el("h3", {}, "Take a seat"), el("label", { class: "field" }, el("span", {}, "Name"), name), buttons);
}

async function join(seat, name) {
  if (!name) {
    error("Enter your name before taking a seat.");
    return;
  }
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { seat, name });
    tokens.set(tableId, answer.token);
    playerName.set(name);
    S.seat = answer.seat || seat;
    error(null);
    socket.reconnect(); // the new hello carries the token
    refresh();
  } catch (e) {
    error(e.message);
    refresh();
  }
}

function renderSeats() {
  const box = clear($("seats"));
  const t = S.table;
  if (!t) return;
  const list = el("ul", { class: "seat-list" });
  const snap = S.mode === "replay" && S.replay ? S.replay.snapshot : S.snap;
  const points = (snap && ((snap.result && snap.result.points) || snap.points)) || {};
  for (const s of t.seats || []) {
    const playing = snap && phaseOf(snap) !== "over" && snap.current_player === s.seat;
    const score = snap && snap.spaces ? `space ${snap.spaces[s.seat]}` : `${points[s.seat] || 0} pts`;
    list.append(el("li", { class: `seat ${playing ? "playing" : ""}`, dataset: { seat: s.seat, testid: "seat" } },
      teamChip(s.seat, `${s.seat} · ${seatLabel(s)}`),
      s.seat === S.seat ? el("span", { class: "badge you" }, "you") : null,
      playing ? el("span", { class: "badge turn" }, "to play") : null,
      el("span", { class: "pts" }, score)));
  }
  box.append(list);
}

function drawBoard() {
  if (S.view) {
    if (S.mode !== "live" || !S.snap) return;
    const last = S.log.length ? S.log[S.log.length - 1].move : null;
    const end = last && /[:+]([a-d]\d+)$/.exec(last);
    const tg = targets();
    S.view.render(S.snap, { targets: tg, hints: end ? [end[1]] : [], mine: S.seat });
    return tg;
  }
  if (S.mode !== "live" || !S.snap || !S.course) return;
  const last = S.log.length ? S.log[S.log.length - 1].move : null;
  const hints = [...S.hover];
  const m = last && /^[A-G][DSC]\d-([a-z]\d+)/.exec(last);
  if (m && !hints.length) hints.push(m[1]);
  const tg = targets();
  board.render(S.snap, { targets: tg, hints, mine: S.seat });
  return tg;
}

function render() {
  renderHeader();
  renderRoot();
  if (!S.snap) return;
  renderTurn();
  renderJoin();
  renderSeats();
  if (S.mode === "live") {
    const tg = drawBoard();
    if (board) board.scrollToAction(S.snap, { squares: tg ? [...tg.keys()] : [] });
    renderControls();
    if (S.view) S.view.result($("result"), S.snap, { table: S.table });
    else renderResult($("result"), S.snap.result, { table: S.table, teams: S.snap.teams });
    renderLog($("log"), S.log, { head: logHead() });
  } else {
    clear($("controls"));
  }
}

// ------------------------------------------------------------------ replay, invite

async function toggleReplay() {
  const button = $("replay-toggle");
  if (S.mode === "replay") {
    S.mode = "live";
    S.replay = null;
    $("replay-controls").hidden = true;
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Replay";
    if (board) board.lastFocus = null;
    render();
    return;
  }
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`, undefined, authHeaders(tableId));
    S.mode = "replay";
    button.setAttribute("aria-pressed", "true");
    button.textContent = "Live";
    $("replay-controls").hidden = false;
    S.replay = new ReplayViewer(
      { board, controls: $("replay-controls"), log: $("log"), result: $("result"), root: $("root") },
      data, { table: S.table, onShow: renderSeats, view: S.view },
    );
    S.log = logFromReplay(data, S.view ? roundOf : null);
    render();
    S.replay.go(0);
  } catch (e) {
    error(e.message);
  }
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

// ------------------------------------------------------------------ start

async function init() {
  $("copy-invite").addEventListener("click", copyInvite);
  $("replay-toggle").addEventListener("click", toggleReplay);
  $("download-record").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("download-record").setAttribute("download", `peloton-${tableId}.json`);
  $("download-record").addEventListener("click", downloadRecord);
  renderHeader();
  try {
    let detail;
    try {
      detail = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`, undefined, authHeaders(tableId));
    } catch (e) {
      if (e.code !== "bad_token") throw e;
      // A token this table does not know: say so, forget it, and watch.
      error(`${e.message} (${e.code})`);
      tokens.clear(tableId);
      detail = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    }
    applyTable(detail);
    setSnapshot(detail.snapshot);
    render();
    if (detail.solo) showSolver(tableId, $("solver-panel"));
  } catch (e) {
    error(e.status === 404 ? `There is no table "${tableId}".` : e.message);
    return;
  }
  loadLog();
  socket.connect();
}

/** A seated player downloads the record as its seat may see it (its own dials in a
 * game with hidden information): the link's plain GET would be a spectator's. */
async function downloadRecord(event) {
  const headers = authHeaders(tableId);
  if (!headers.Authorization) return;
  event.preventDefault();
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers });
    if (!answer.ok) throw new Error(`download failed (${answer.status})`);
    const url = URL.createObjectURL(await answer.blob());
    const a = el("a", { href: url, download: `peloton-${tableId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    error(e.message);
  }
}

window.addEventListener("resize", () => {
  if (board) board.lastFocus = null;
  if (S.view && S.snap && S.mode === "live") drawBoard();
});
init();
