// @ts-check
// The end of a game at the table page: a dialog with the result as the game has it
// (its view's result panel: places, points, medals...) and a Rematch button, and the
// invitation a player gets when someone at the table opened the rematch
// (docs/protocol.md: POST /api/tables/{id}/rematch, the `rematch` message).
//
// The dialog sits in the page above the board (not modal: the board, the log and the
// replay stay usable), opens once when the game is over and can be closed.

import { api, authHeaders, tokens } from "./api.js";
import { el, clear, teamChip } from "./ui.js";
import { nextActions, nextOf } from "./competition_next.js";

/** Open (or join) the rematch of table `tableId` and go to it, seated. */
export async function joinRematch(tableId) {
  const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, undefined, authHeaders(tableId));
  if (answer.token) tokens.set(answer.id, answer.token);
  location.href = answer.url || `/table/${encodeURIComponent(answer.id)}`;
  return answer;
}

export class EndDialog {
  /** `before`: the element the dialog goes in front of; `tableId`: this table. */
  constructor(before, { tableId, showResult }) {
    this.tableId = tableId;
    this.showResult = showResult; // (box, snap) => fills box with the result
    this.closed = false;
    this.key = null;
    this.next = null; // a competition's next table (competition_next.js), once known
    this.asked = false;
    this.node = el("dialog", { class: "end-dialog panel", dataset: { testid: "end-dialog" }, "aria-labelledby": "end-dialog-h" });
    before.parentNode.insertBefore(this.node, before);
  }

  /** Show the dialog when the game is over (live play), unless the player closed it. */
  update({ table, snap, seat, view, live }) {
    this.last = { table, snap, seat, view, live };
    const over = live && snap && view.phase(snap) === "over";
    if (!over || this.closed) {
      if (this.node.open) this.node.close();
      return;
    }
    if (table && table.competition && !this.next && !this.asked) {
      this.asked = true; // a page opened after the end asks where the competition goes on
      nextOf(table.competition, this.tableId).then((next) => { if (next && !this.next) this.setNext(next); }).catch(() => {});
    }
    const key = [view.movesPlayed(snap), seat || "", (table && table.rematch) || "", this.next ? this.next.id || "over" : ""].join("|");
    if (key !== this.key) {
      this.key = key;
      this.render({ table, snap, seat, view });
    }
    if (!this.node.open) this.node.show();
  }

  render({ table, snap, seat, view }) {
    const box = clear(this.node);
    const rematch = table && table.rematch;
    const message = el("p", { class: "end-error error-text", dataset: { testid: "rematch-error" }, hidden: true });
    const actions = el("div", { class: "end-actions" });
    if (table && table.competition) {
      actions.append(...nextActions(this.next, { compId: table.competition, tableId: this.tableId, seat }));
    } else if (seat) {
      actions.append(el("button", {
        type: "button", class: "btn primary", dataset: { testid: "rematch" },
        title: "a new table with the same options and seats; the other players are invited",
        onclick: async (event) => {
          event.target.disabled = true;
          try {
            await joinRematch(this.tableId);
          } catch (e) {
            message.hidden = false;
            message.textContent = e.message;
            event.target.disabled = false;
          }
        },
      }, rematch ? "Join the rematch" : "Rematch"));
    } else if (rematch) {
      actions.append(el("a", { class: "btn primary", href: `/table/${encodeURIComponent(rematch)}`, dataset: { testid: "watch-rematch" } }, "Watch the rematch"));
    }
    actions.append(
      el("a", { class: "btn", href: "/", dataset: { testid: "to-lobby" } }, "Back to the lobby"),
      el("button", { type: "button", class: "btn ghost", dataset: { testid: "end-close" }, onclick: () => this.close() }, "Close"),
    );
    const result = el("div", { class: "end-result", dataset: { testid: "end-result" } });
    box.append(
      el("div", { class: "end-head" },
        el("h2", { id: "end-dialog-h" }, view.words.over),
        seat ? el("span", { class: "muted" }, "you played ", teamChip(seat)) : null),
      result, message, actions);
    this.showResult(result, snap);
    // The result panel beside the board holds the same parts: here they are named
    // data-part, so that each data-testid names one element of the page.
    for (const part of result.querySelectorAll("[data-testid]")) {
      part.dataset.part = part.dataset.testid;
      delete part.dataset.testid;
    }
  }

  /** A competition's next table is open (a `next` message): the dialog opens again
   * with the way there. */
  setNext(next) {
    this.next = next;
    this.closed = false;
    this.key = null;
    if (this.last) this.update(this.last);
  }

  close() {
    this.closed = true;
    if (this.node.open) this.node.close();
  }
}

/** The invitation to a rematch opened by seat `by` (a `rematch` message), in `box`: a
 * player takes their seat there with one click; a spectator may watch it. */
export function showInvitation(box, { id, by }, { tableId, seat }) {
  clear(box);
  box.hidden = false;
  box.dataset.testid = "notice";
  const invite = el("div", { class: "rematch-invite", dataset: { testid: "rematch-invite", table: id } },
    el("span", {}, teamChip(by), seat && by === seat ? " You opened a rematch. " : " opened a rematch. "));
  if (seat) {
    invite.append(el("button", {
      type: "button", class: "btn primary small", dataset: { testid: "rematch-join" },
      onclick: () => joinRematch(tableId).catch((e) => invite.append(el("span", { class: "error-text" }, ` ${e.message}`))),
    }, "Take your seat"));
  } else {
    invite.append(el("a", { class: "btn small", href: `/table/${encodeURIComponent(id)}`, dataset: { testid: "rematch-watch" } }, "Watch it"));
  }
  box.append(invite);
}
