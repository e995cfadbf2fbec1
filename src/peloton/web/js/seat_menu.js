// @ts-check
// Leaving a table and coming back (docs/protocol.md, "Clocks and absent players"): the
// table menu's "Leave table" (after a confirm dialog) hands our seat to the table's
// stand-in bot; while the bot plays it, a "Take my seat back" button returns it to us.
// The dialog says what leaving does by the server's rule (presence.py, `leave`): when
// every other person at the table has left already, the table ends as abandoned,
// unless it is a competition's (its stand-ins play it out).
// Both are asked of the server with our seat token; the server then sends every
// viewer a fresh `welcome`, so the page needs no reply to show the change.

import { api, authHeaders } from "./api.js";
import { el, clear } from "./ui.js";

export class SeatMenu {
  /** `bar`: the page's top actions; `before`: what the take-back box goes in front of. */
  constructor(bar, before, { tableId, onError }) {
    this.path = `/api/tables/${encodeURIComponent(tableId)}`;
    this.tableId = tableId;
    this.onError = onError;
    this.menu = el("details", { class: "table-menu", dataset: { testid: "table-menu" }, hidden: true },
      el("summary", { class: "btn ghost", "aria-label": "table menu", dataset: { testid: "table-menu-button" } }, "⋯"),
      el("div", { class: "menu-items" },
        el("button", { type: "button", class: "btn ghost", dataset: { testid: "leave-table" }, onclick: () => this.confirm() }, "Leave table")));
    bar.append(this.menu);
    this.dialog = el("dialog", { class: "leave-dialog panel", dataset: { testid: "leave-dialog" }, "aria-labelledby": "leave-h" });
    document.body.append(this.dialog);
    this.away = el("div", { class: "away-box", dataset: { testid: "away-box" }, hidden: true });
    before.parentNode.insertBefore(this.away, before);
    this.mine = null;
    this.table = null;
  }

  /** Show what our seat (`seat`, at `table`) allows: the menu while we play it, the
   * take-back button while the bot does. */
  update({ table, seat, live }) {
    this.table = table;
    const mine = seat && table ? (table.seats || []).find((s) => s.seat === seat) : null;
    this.mine = mine;
    const running = table && table.status === "running" && live;
    this.menu.hidden = !(running && mine && !mine.away);
    if (this.menu.hidden) this.menu.open = false;
    const away = running && mine && mine.away;
    this.away.hidden = !away;
    // A dialog open while someone else leaves or comes back says what leaving does now.
    if (this.dialog.open && this.dialog.dataset.outcome !== this.outcome()) this.fill();
    const key = away ? `${mine.away}|${mine.standin}` : "";
    if (this.away.dataset.key === key) return;
    this.away.dataset.key = key;
    clear(this.away);
    if (!away) return;
    const why = mine.away === "timeout" ? "your time ran out" : "you left the table";
    this.away.append(
      el("p", {}, `A bot (${mine.standin}) plays your seat since ${why}.`),
      el("button", { type: "button", class: "btn primary", dataset: { testid: "reclaim-seat" }, onclick: () => this.reclaim() }, "Take my seat back"));
  }

  /** What our leaving does to the table now: `standin` (a bot plays our seat, other
   * people play on), `abandon` (we are the last person: the table ends as abandoned)
   * or `competition` (the last person at a competition's table: the stand-ins play it
   * out). The server's rule: abandoned when every human seat has left, outside a
   * competition. */
  outcome() {
    const t = this.table || {};
    const me = this.mine && this.mine.seat;
    const others = (t.seats || []).filter((s) => s.kind === "human" && s.seat !== me);
    if (!others.every((s) => s.away === "left")) return "standin";
    return t.competition ? "competition" : "abandon";
  }

  confirm() {
    this.menu.open = false;
    this.fill();
    this.dialog.showModal();
  }

  fill() {
    const level = (this.table && this.table.standin) || "medium";
    const outcome = this.outcome();
    const back = "You can take it back from this browser until the game ends.";
    const says = {
      standin: [`A bot (${level}) plays your seat from now on. ${back}`],
      abandon: ["You are the last person at this table: if you leave, the game ends here as abandoned, with no result, and nobody can take a seat back."],
      competition: [`A bot (${level}) plays your seat from now on. ${back}`,
        "You are the last person at this table, but it belongs to a competition: it is not abandoned, the stand-in bots play it out so that the competition goes on."],
    }[outcome];
    this.dialog.dataset.outcome = outcome;
    clear(this.dialog);
    this.dialog.append(
      el("h2", { id: "leave-h" }, outcome === "abandon" ? "Leave and end this table?" : "Leave this table?"),
      ...says.map((text) => el("p", { dataset: { testid: "leave-says" } }, text)),
      el("div", { class: "end-actions" },
        el("button", { type: "button", class: "btn primary", dataset: { testid: "leave-confirm" }, onclick: () => this.leave() },
          outcome === "abandon" ? "Leave and end the table" : "Leave table"),
        el("button", { type: "button", class: "btn ghost", dataset: { testid: "leave-cancel" }, onclick: () => this.dialog.close() }, "Stay")));
  }

  async leave() {
    this.dialog.close();
    await this.ask("leave");
  }

  async reclaim() {
    await this.ask("reclaim", this.mine ? { seat: this.mine.seat } : undefined);
  }

  async ask(what, body) {
    try {
      await api("POST", `${this.path}/${what}`, body, authHeaders(this.tableId));
      this.onError(null);
    } catch (e) {
      this.onError(`${e.message}${e.code ? ` (${e.code})` : ""}`);
    }
  }
}
