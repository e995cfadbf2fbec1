// @ts-check
// The table chat panel (docs/protocol.md, "Chat"): the messages of the table, who
// wrote each (a seat's colour and name, or a spectator) and when; a line to write; a
// seated player's switch muting the spectators. In a replay it shows the chat up to
// the move on the board. Every text is put in the page as text (never as HTML), so a
// message reads exactly as it was written. The panel knows nothing of the socket: it
// is given `send` and handed the server's chat messages.

import { el, clear, teamChip } from "./ui.js";
import { playerName } from "./api.js";

/** The error codes the server answers a chat message with: shown in the panel. */
const CHAT_ERRORS = new Set(["bad_chat", "chat_flood", "chat_muted"]);

export class ChatPanel {
  /**
   * @param {HTMLElement} box  the element the panel fills
   * @param {object} options   {send(message) -> bool, downloadPath, heading}: `heading`
   *                           (optional) gets an unread count while the panel is out of
   *                           sight (a phone's page scrolled to the board)
   */
  constructor(box, { send, downloadPath, heading = null }) {
    this.box = box;
    this.send = send;
    this.messages = [];
    this.muted = false;
    this.mutedBy = null;
    this.seat = null;
    this.spectator = null; // this connection's spectator number, once the server said
    this.limits = { chars: 500, messages: 5, seconds: 10 };
    this.replay = null; // {messages, at}: the chat of a replay, up to move `at`
    this.unsent = ""; // the last text sent, given back if the server refuses it
    this.loaded = false; // the chat so far was asked for on this connection
    this.unread = 0; // messages come while the panel was out of sight
    this.inView = true;
    this.heading = heading || null;
    this.build(downloadPath);
    this.render();
    if (this.heading && "IntersectionObserver" in globalThis) {
      new IntersectionObserver((seen) => {
        this.inView = seen.some((e) => e.isIntersecting);
        if (this.inView) this.markRead();
      }).observe(this.list);
    }
  }

  markRead() {
    this.unread = 0;
    this.showUnread();
  }

  showUnread() {
    if (!this.heading) return;
    let badge = this.heading.querySelector(".chat-unread");
    if (!badge) {
      badge = el("span", { class: "chat-unread", dataset: { testid: "chat-unread" } });
      this.heading.append(badge);
    }
    badge.hidden = this.unread === 0;
    badge.textContent = this.unread ? `${this.unread} new` : "";
  }

  build(downloadPath) {
    clear(this.box);
    this.status = el("p", { class: "chat-status muted small", dataset: { testid: "chat-status" }, "aria-live": "polite" });
    this.muteBox = el("input", { type: "checkbox", dataset: { testid: "chat-mute" }, onchange: () => this.toggleMute() });
    this.muteLabel = el("label", { class: "chat-mute small" }, this.muteBox, " Mute spectators");
    this.list = el("ol", { class: "chat-list", role: "log", "aria-label": "chat messages", dataset: { testid: "chat-list" } });
    this.input = el("input", {
      type: "text", class: "chat-input", maxlength: String(this.limits.chars), autocomplete: "off",
      placeholder: "Write to the table…", "aria-label": "chat message", dataset: { testid: "chat-input" },
    });
    this.nameInput = el("input", {
      type: "text", class: "chat-name", maxlength: "40", autocomplete: "nickname", value: playerName.get(),
      placeholder: "your name (optional)", "aria-label": "your name in the chat", dataset: { testid: "chat-name" },
    });
    this.sendButton = el("button", { type: "submit", class: "btn small", dataset: { testid: "chat-send" } }, "Send");
    this.form = el("form", { class: "chat-form", dataset: { testid: "chat-form" }, onsubmit: (e) => this.submit(e) },
      this.nameInput, this.input, this.sendButton);
    this.note = el("p", { class: "chat-note small", role: "status", dataset: { testid: "chat-note" } });
    const download = el("a", { class: "link small", href: downloadPath, download: "", dataset: { testid: "chat-download" } }, "Download chat");
    this.box.append(
      el("div", { class: "chat-head" }, this.status, this.muteLabel),
      this.list, this.form, this.note, el("p", { class: "chat-foot" }, download),
    );
  }

  // ---------------------------------------------------------------- from the table

  /** The server welcomed this page: ask for the chat so far on a new connection (a
   * welcome for a seat taken at the table changes nothing of the chat). */
  welcome(seat) {
    this.seat = seat || null;
    if (!this.loaded) this.loaded = this.send({ type: "chat_log" });
    this.render();
  }

  /** The connection dropped: the next welcome asks for the chat again (messages may
   * have come meanwhile). */
  offline() {
    this.loaded = false;
  }

  /** A server message: handled here (true) if it is the chat's. */
  handle(msg) {
    switch (msg.type) {
      case "chat_log":
        this.messages = Array.isArray(msg.messages) ? msg.messages : [];
        this.muted = Boolean(msg.muted);
        this.mutedBy = msg.muted_by || null;
        this.spectator = typeof msg.spectator === "number" ? msg.spectator : null;
        if (msg.limits) this.limits = msg.limits;
        break;
      case "chat": {
        const m = msg.message;
        const last = this.messages.length ? this.messages[this.messages.length - 1].id : -1;
        if (!m || m.id <= last) return true; // already in a log that crossed it
        this.messages.push(m);
        if (!this.inView && m.seat !== this.seat) {
          this.unread += 1;
          this.showUnread();
        }
        if (this.messages.length > 1000) this.messages.shift();
        if (this.unsent && m.text === this.unsent.trim() && m.seat === this.seat) {
          this.unsent = "";
          const number = !m.seat && /^spectator (\d+)$/.exec(m.name || "");
          if (number && !this.spectator) this.spectator = Number(number[1]);
        }
        break;
      }
      case "chat_muted":
        this.muted = Boolean(msg.muted);
        this.mutedBy = msg.by || null;
        break;
      case "error":
        if (!CHAT_ERRORS.has(msg.code)) return false;
        this.say(msg.message || msg.code, true);
        // The refused text comes back to the line, to be sent again later.
        if (this.unsent && !this.input.value) this.input.value = this.unsent;
        this.unsent = "";
        return true;
      default:
        return false;
    }
    this.render();
    return true;
  }

  /** Show the chat of a replay (`messages`: the replay answer's `chat`). */
  showReplay(messages) {
    this.replay = { messages: messages || [], at: null };
    this.render();
  }

  /** The replay shows the position after `index` moves: the chat written until then. */
  replayAt(index) {
    if (!this.replay) return;
    this.replay.at = index;
    this.render();
  }

  /** Back to the live table. */
  live() {
    this.replay = null;
    this.render();
  }

  // ---------------------------------------------------------------- writing

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    const message = { type: "chat", text };
    if (!this.seat) {
      const name = this.nameInput.value.trim();
      if (name) {
        message.name = name;
        playerName.set(name);
      }
    }
    if (!this.send(message)) {
      this.say("Not connected to the table: the message was not sent.", true);
      return;
    }
    this.unsent = text;
    this.input.value = "";
    this.say(null);
  }

  toggleMute() {
    if (!this.seat) return;
    if (!this.send({ type: "chat_mute", muted: this.muteBox.checked })) {
      this.muteBox.checked = this.muted;
      this.say("Not connected to the table.", true);
    }
  }

  say(text, refused = false) {
    this.note.textContent = text || "";
    this.note.classList.toggle("refused", Boolean(text && refused));
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const replaying = this.replay !== null;
    const shown = replaying
      ? this.replay.messages.filter((m) => this.replay.at === null || m.move <= this.replay.at)
      : this.messages;
    const stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    clear(this.list);
    if (!shown.length) {
      this.list.append(el("li", { class: "chat-empty muted" }, replaying ? "No chat yet at this move." : "No messages yet."));
    }
    for (const m of shown) this.list.append(this.line(m));
    if (stick || replaying) this.list.scrollTop = this.list.scrollHeight;

    const spectator = !this.seat;
    const silenced = spectator && this.muted;
    this.muteLabel.hidden = spectator || replaying;
    this.muteBox.checked = this.muted;
    this.nameInput.hidden = !spectator;
    this.form.hidden = replaying;
    this.input.disabled = silenced;
    this.sendButton.disabled = silenced;
    this.box.dataset.muted = this.muted ? "true" : "false";
    this.box.dataset.count = String(this.messages.length);
    let status;
    if (replaying) {
      status = this.replay.at === null ? "The chat of the replay." : `The chat up to move ${this.replay.at}. Back to the live table to write.`;
    } else if (silenced) {
      status = "The players have muted the spectators: you can read the chat, not write.";
    } else if (this.muted) {
      status = `Spectators are muted${this.mutedBy ? ` (by seat ${this.mutedBy})` : ""}.`;
    } else if (spectator) {
      status = this.spectator
        ? `You are watching: you write as “spectator ${this.spectator}”, or under the name you give.`
        : "You are watching: you write under the name you give, or as a numbered spectator.";
    } else {
      status = `At most ${this.limits.chars} characters, ${this.limits.messages} messages in ${this.limits.seconds} s.`;
    }
    this.status.textContent = status;
  }

  /** One message: who (seat colour and name, or a spectator), when, and the text. */
  line(m) {
    const when = new Date(m.at);
    const time = Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const who = m.seat
      ? teamChip(m.seat, m.name || m.seat)
      : el("span", { class: "chat-spectator" }, m.name, /^spectator \d+$/.test(m.name || "") ? "" : " (spectator)");
    return el("li", { class: `chat-line${m.seat ? "" : " from-spectator"}`, dataset: { testid: "chat-line", seat: m.seat || "", move: String(m.move) } },
      el("time", { class: "chat-time", datetime: m.at, title: Number.isNaN(when.getTime()) ? "" : `${when.toLocaleString()} · after move ${m.move}` }, time),
      el("span", { class: "chat-who" }, who),
      el("span", { class: "chat-text", dataset: { testid: "chat-text" } }, m.text));
  }
}
