// @ts-check
// At the end of a game of a competition (a stage race's leg, an omnium's event): the
// way to its next table, in the end dialog. The server opens the next table with the
// same seats and tells everyone at the finished one (the `next` message,
// docs/protocol.md); a page opened later asks the competition where it goes on. A
// player's seat token is the same at every table of the competition: it is copied to
// the next table's id before going there.

import { api, tokens } from "./api.js";
import { el } from "./ui.js";

/** Where the competition `compId` goes on after table `tableId`: `{id, url, game,
 * over, standings}` like a `next` message, or null while its next table is not open. */
export async function nextOf(compId, tableId) {
  const detail = await api("GET", `/api/competitions/${encodeURIComponent(compId)}`);
  const standings = `/competitions/${encodeURIComponent(compId)}`;
  const at = detail.tables.findIndex((t) => t.table === tableId);
  const following = at >= 0 ? detail.tables[at + 1] : null;
  if (following) return { id: following.table, url: following.url, game: detail.game, over: false, standings, seats: following.seats };
  if (detail.status === "finished") return { id: null, url: standings, game: detail.game, over: true, standings };
  return null;
}

// A player's seat in a competition: `{seat, token}`, kept under the competition's id
// (a heat of two teams may not seat them: their token is copied only where it is).
const key = (compId) => `comp-${compId}`;

export const compSeat = {
  get(compId) {
    const text = tokens.get(key(compId));
    const at = text ? text.indexOf(":") : -1;
    return at > 0 ? { seat: text.slice(0, at), token: text.slice(at + 1) } : null;
  },
  set(compId, seat, token) {
    tokens.set(key(compId), `${seat}:${token}`);
  },
};

/** Before going to table `tableId` (whose seats are `seats`) of competition `compId`:
 * the player's token goes with them when their seat is there. */
export function enterTable(compId, tableId, seats) {
  const mine = compSeat.get(compId);
  if (mine && (!seats || seats.includes(mine.seat))) tokens.set(tableId, mine.token);
}

/** Go to the next table, seated there as here (the same token) when it seats them. */
export function goNext(next, { compId, tableId, seat }) {
  const token = tokens.get(tableId);
  if (token && seat) compSeat.set(compId, seat, token);
  if (next.id) enterTable(compId, next.id, next.seats);
  location.href = next.url;
}

/** The end dialog's buttons for a table of competition `compId`: "Next leg" (or
 * event) once its table is open, "Final standings" once the competition is over, and
 * the standings page. */
export function nextActions(next, { compId, tableId, seat }) {
  const standings = el("a", { class: "btn", href: `/competitions/${encodeURIComponent(compId)}`, dataset: { testid: "competition-standings" } }, "Standings");
  if (next && next.id) {
    const word = next.game || "game";
    return [el("button", { type: "button", class: "btn primary", dataset: { testid: "next-game", table: next.id },
      title: `the competition goes on at its next table, with the same seats`,
      onclick: () => goNext(next, { compId, tableId, seat }) }, `Next ${word}`), standings];
  }
  if (next && next.over) {
    return [el("a", { class: "btn primary", href: next.standings || next.url, dataset: { testid: "final-standings" } }, "Final standings")];
  }
  return [standings];
}

/** A table of a competition links its standings page from the top bar (`bar`), once. */
export function showStandingsLink(bar, compId) {
  if (!bar || bar.querySelector('[data-testid="table-standings"]')) return;
  bar.prepend(el("a", { class: "btn ghost", href: `/competitions/${encodeURIComponent(compId)}`, dataset: { testid: "table-standings" },
    title: "the competition this table is a game of: its jerseys and standings" }, "Standings"));
}
