// @ts-check
// The table page's seats: the panel listing each seat (its player or bot, whose turn,
// the seat's standing as the game's view says) and the form to take a free seat.

import { playerName } from "./api.js";
import { el, clear, teamChip, seatLabel } from "./ui.js";

/** The seats panel of `table` at `snap` (`seat`: ours, or null). */
export function renderSeats(box, { table, seat, snap, view }) {
  clear(box);
  const list = el("ul", { class: "seat-list" });
  for (const s of table.seats || []) {
    const playing = snap && view.phase(snap) !== "over" && table.status !== "abandoned" && snap.current_player === s.seat;
    list.append(el("li", { class: `seat ${playing ? "playing" : ""}`, dataset: { seat: s.seat, testid: "seat" } },
      teamChip(s.seat, `${s.seat} · ${s.away ? s.name || "player" : seatLabel(s)}`),
      // A seat taken signed in links to its player's page (ratings and games).
      s.profile ? el("a", { class: "profile-link small", href: `/players/${encodeURIComponent(s.profile)}`, title: `${s.profile}'s profile`, dataset: { testid: "seat-profile" } }, "profile") : null,
      s.seat === seat ? el("span", { class: "badge you" }, "you") : null,
      // Its player left or ran out of time: the table's stand-in bot plays it.
      s.away ? el("span", { class: "badge away", dataset: { testid: "seat-away" } }, `played by a bot (${s.standin})`) : null,
      playing ? el("span", { class: "badge turn" }, "to play") : null,
      el("span", { class: "pts" }, snap ? view.seatScore(snap, s.seat) : "")));
  }
  box.append(list);
}

/** The join form: a name and a button per free human seat, shown to a live page
 * without a seat; `onJoin(seat, name)` takes one. A name being typed is kept, also when
 * another player takes a seat meanwhile and the buttons are built again. */
export function renderJoin(box, { table, seat, live, view, onJoin }) {
  const free = ((table && table.seats) || []).filter((s) => s.kind === "human" && !s.taken);
  if (!live || seat || !free.length || !table || table.status === "finished") {
    box.hidden = true;
    clear(box);
    return;
  }
  const seats = free.map((s) => s.seat).join("");
  if (!box.hidden && box.dataset.seats === seats) return;
  const typed = box.querySelector('[data-testid="join-name"]');
  const value = typed ? typed.value : playerName.get();
  box.hidden = false;
  box.dataset.seats = seats;
  clear(box);
  const name = el("input", {
    type: "text", maxlength: "40", placeholder: "your name", value,
    dataset: { testid: "join-name" }, "aria-label": "your name", autocomplete: "nickname",
  });
  const buttons = el("div", { class: "join-seats" }, free.map((s) => el("button", {
    type: "button", class: "btn primary", dataset: { testid: "join-seat", seat: s.seat },
    onclick: () => onJoin(s.seat, name.value.trim()),
  }, `${view.words.join} `, teamChip(s.seat))));
  box.append(el("h3", {}, "Take a seat"), el("label", { class: "field" }, el("span", {}, "Name"), name), buttons);
}
