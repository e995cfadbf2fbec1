// @ts-check
// HTTP API, seat tokens and the live WebSocket of docs/protocol.md.

import { applyDelta } from "./delta.js";

/** An error answer of the HTTP API: `{"error": {"code", "message"}}` (and `problems`). */
export class ApiError extends Error {
  constructor(status, code, message, problems) {
    super(message);
    this.status = status;
    this.code = code;
    this.problems = problems || [];
  }
}

/** Call the HTTP API; resolves to the JSON answer or throws an ApiError. `headers`
 * may carry the seat token (`Authorization: Bearer ...`): a game with hidden
 * information answers as that seat may see it. A replay answer (its first snapshot
 * and each move's changes, docs/protocol.md "Replays") comes with its `snapshots`
 * rebuilt (see replaySnapshots). */
export async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", `cannot reach the server (${err.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data && Array.isArray(data.changes) && data.snapshot) {
    data.snapshots = replaySnapshots(data);
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    const problems = e.problems || (data && data.problems) || [];
    throw new ApiError(
      response.status,
      e.code || `http_${response.status}`,
      e.message || `${method} ${path} failed (${response.status})`,
      problems,
    );
  }
  return data;
}

/** Every snapshot of a replay answer, the first before any move: each move's changes
 * applied to the snapshot before it (delta.js). The objects and lists on a changed
 * path are copied, the rest is shared: the snapshots cost about what the changes do,
 * not a whole snapshot each. */
export function replaySnapshots(replay) {
  const out = [replay.snapshot];
  for (const changes of replay.changes) out.push(applyDelta(out[out.length - 1], changes));
  return out;
}

// Seat tokens live in localStorage under `peloton.token.{table id}` (protocol: ids and tokens).
export const tokens = {
  key: (id) => `peloton.token.${id}`,
  get(id) {
    try {
      return localStorage.getItem(this.key(id));
    } catch {
      return null;
    }
  },
  set(id, token) {
    try {
      localStorage.setItem(this.key(id), token);
    } catch {
      /* private mode: the seat lasts as long as the page */
    }
  },
  clear(id) {
    try {
      localStorage.removeItem(this.key(id));
    } catch {
      /* ignore */
    }
  },
};

/** The Authorization header of the seat token of a table (none for a spectator). */
export function authHeaders(tableId) {
  const token = tokens.get(tableId);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Download `path` as `filename` with `headers` (a seat token: the file as that seat
 * may see it, where a plain link would fetch a spectator's). */
export async function download(path, filename, headers) {
  const answer = await fetch(path, { headers });
  if (!answer.ok) throw new ApiError(answer.status, `http_${answer.status}`, `download failed (${answer.status})`);
  const url = URL.createObjectURL(await answer.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export const playerName = {
  get() {
    try {
      return localStorage.getItem("peloton.name") || "";
    } catch {
      return "";
    }
  },
  set(name) {
    try {
      localStorage.setItem("peloton.name", name);
    } catch {
      /* ignore */
    }
  },
};

/** How often the live socket pings (ms) and how long it waits for any message before
 * it takes the connection for dead. A page may set `globalThis.pelotonLiveTiming`
 * before the table's script runs to change them (the browser tests make them short). */
export const LIVE_TIMING = { pingEvery: 10000, deadAfter: 25000 };

/**
 * The table's WebSocket: sends `hello` on every (re)connect, reconnects with backoff,
 * and hands every server message to `onMessage`. It pings every `pingEvery` ms, and a
 * connection that brings nothing (not even the `pong`) for `deadAfter` ms is taken for
 * dead and replaced: a server that went away without closing, a network that dropped
 * the connection, or a server that dropped a client too slow to read (the new
 * connection's `welcome` brings the table back).
 */
export class LiveSocket {
  constructor(tableId, { getToken, onMessage, onStatus }) {
    this.tableId = tableId;
    this.getToken = getToken;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.timing = { ...LIVE_TIMING, ...(globalThis.pelotonLiveTiming || {}) };
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    this.heard = 0; // when the current connection last brought a message (ms)
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.heard = Date.now();
    // A connection that does not even open within deadAfter is dead too.
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.keepAlive(ws), Math.min(this.timing.pingEvery, this.timing.deadAfter / 2));
    ws.onopen = () => {
      this.attempt = 0;
      this.heard = Date.now();
      this.onStatus("live");
      this.send({ type: "hello", token: this.getToken() || null });
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return; // a connection we replaced (e.g. before joining a seat)
      this.heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object" && msg.type !== "pong") this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      if (!this.closed) this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }

  /** Ping the connection, or give it up if it has been silent for too long. */
  keepAlive(ws) {
    if (this.ws !== ws) return;
    if (Date.now() - this.heard > this.timing.deadAfter) {
      this.drop(ws);
      this.scheduleReconnect();
      return;
    }
    if (ws.readyState === WebSocket.OPEN && Date.now() - this.heard >= this.timing.pingEvery / 2) {
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /** Forget a connection (its late events are ignored) and close it. */
  drop(ws) {
    clearInterval(this.pinger);
    if (this.ws === ws) this.ws = null;
    ws.onclose = null;
    ws.onmessage = null;
    try {
      ws.close();
    } catch {
      /* already closed */
    }
  }

  scheduleReconnect() {
    this.onStatus("offline");
    // 0.5 s, 1 s, 2 s, 4 s ... at most 10 s, with a little jitter so tabs do not stampede.
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Drop the connection and open a new one (a new token is sent in the new hello). */
  reconnect() {
    this.attempt = 0;
    if (this.ws) this.drop(this.ws);
    this.connect();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.drop(this.ws);
  }
}
