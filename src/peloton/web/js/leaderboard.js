// @ts-check
// The leaderboard page `/leaderboard/{game}`: a game's best players by rating (μ − 3σ),
// a tab per game, and the bots' fixed ratings for comparison.

import { api } from "./api.js";
import { storedProfile } from "./profile_keys.js";
import { clear, el } from "./ui.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/")[2] || "");

function error(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

async function start() {
  let board;
  try {
    board = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
  } catch (e) {
    error(`Could not load the leaderboard: ${e.message}`);
    return;
  }
  $("title").textContent = `${board.title} leaderboard`;
  document.title = `Peloton · ${board.title} leaderboard`;
  const tabs = $("tabs");
  clear(tabs);
  for (const g of board.games) {
    tabs.append(el("a", { class: "btn small", href: `/leaderboard/${encodeURIComponent(g.name)}`, "aria-current": g.name === board.game ? "page" : null }, g.title));
  }
  const mine = storedProfile();
  const players = $("players");
  clear(players);
  if (!board.players.length) {
    players.append(el("p", { class: "muted" }, "Nobody is rated yet: finish a rated game signed in to be the first."));
  } else {
    players.append(el("table", { class: "rating-table" },
      el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Player"), el("th", { class: "num" }, "Rating"), el("th", { class: "num wide" }, "μ ± σ"), el("th", { class: "num" }, "Games"))),
      el("tbody", {}, board.players.map((p) => el("tr", { class: mine && mine.name === p.name ? "me" : null, dataset: { testid: "leader" } },
        el("td", { class: "num" }, String(p.rank)),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
        el("td", { class: "num" }, p.rating.toFixed(2)),
        el("td", { class: "num wide" }, `${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}`),
        el("td", { class: "num" }, String(p.games)))))));
  }
  const bots = $("bots");
  clear(bots);
  if (!board.bots.length) {
    bots.append(el("p", { class: "muted" }, "The bots of this game are not rated yet: each counts as a new player (25 ± 8.3)."));
    return;
  }
  bots.append(el("table", { class: "rating-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Bot"), el("th", { class: "num" }, "Rating"), el("th", { class: "num wide" }, "μ ± σ"))),
    el("tbody", {}, board.bots.map((b) => el("tr", {},
      el("td", {}, b.name), el("td", { class: "num" }, b.rating.toFixed(2)), el("td", { class: "num wide" }, `${b.mu.toFixed(1)} ± ${b.sigma.toFixed(1)}`))))));
}

start();
