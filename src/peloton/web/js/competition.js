// @ts-check
// The standings page of a competition (/competitions/{id}): who wears each jersey
// (or leads), every classification with its gaps, a plot of the standings after each
// game, the games so far with the current table linked, and the competition file to
// download. Read from GET /api/competitions/{id} (docs/protocol.md, "Competitions"),
// again every few seconds while the competition runs.

import { api } from "./api.js";
import { el, clear, teamChip, teamColour, seatLabel, showError } from "./ui.js";
import { classifications, drawPlot, plotSeries } from "./competition_plot.js";
import { enterTable } from "./competition_next.js";

const $ = (id) => document.getElementById(id);
const compId = decodeURIComponent(location.pathname.split("/").pop());
const error = (message) => showError($("error"), message);
const REFRESH_MS = 3000;

//: The stage race's jerseys (CY-12.2): what each rewards, its colour, its list.
const JERSEYS = [
  { name: "yellow", title: "Yellow jersey", what: "general classification (lowest time)", colour: "#facc15", list: "yellow", unit: "time" },
  { name: "green", title: "Green jersey", what: "points", colour: "#16a34a", list: "green", unit: "points" },
  { name: "red", title: "Red jersey", what: "mountains", colour: "#dc2626", list: "red", unit: "points" },
];
//: What a classification list is called; a list not named here is shown by its key.
const LISTS = { yellow: "General classification", green: "Points (green)", red: "Mountains (red)", points: "Points", qualifying: "Qualifying (time)", ranking: "Ranking", standings: "Standings" };

/** `1:05` (minutes and seconds) for a time in seconds; `+0:12` for a gap. */
export function clock(seconds, sign = false) {
  const s = Math.abs(Math.round(seconds));
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return sign ? `${seconds < 0 ? "−" : "+"}${text}` : text;
}

/** The team of a rider id (its first letter, the seat), or the id itself. */
const teamOf = (id) => (typeof id === "string" && /^[A-F]/.test(id) ? id[0] : id);

function who(detail, id) {
  const seat = (detail.seats || []).find((s) => s.seat === teamOf(id));
  return teamChip(teamOf(id), `${id}${seat ? ` · ${seatLabel(seat)}` : ""}`, teamColour(teamOf(id)));
}

function renderJerseys(detail) {
  const box = clear($("jerseys"));
  const standings = (detail.played && detail.standings) || {}; // nothing to lead before the first game
  if (standings.jerseys) {
    for (const j of JERSEYS) {
      const id = standings.jerseys[j.name];
      if (!id) continue;
      const entry = (standings[j.list] || []).find(([r]) => r === id);
      const value = entry ? (j.unit === "time" ? clock(entry[1]) : `${entry[1]} pts`) : "";
      box.append(el("div", { class: "jersey-card", dataset: { testid: "jersey", jersey: j.name, rider: id } },
        jerseyIcon(j.colour),
        el("div", { class: "jersey-text" },
          el("strong", {}, j.title), el("span", { class: "muted" }, j.what),
          el("span", { class: "jersey-rider" }, who(detail, id), " ", el("span", { class: "jersey-value" }, value)))));
    }
  } else {
    const [key, list] = classifications(standings)[0] || [];
    const leader = detail.winner || (list && list[0] && list[0][0]);
    if (leader) {
      box.append(el("div", { class: "jersey-card", dataset: { testid: "jersey", jersey: "leader", rider: leader } },
        jerseyIcon("#1f6feb"),
        el("div", { class: "jersey-text" }, el("strong", {}, detail.winner ? "Winner" : "Leader"),
          el("span", { class: "muted" }, LISTS[key] || key || ""), el("span", { class: "jersey-rider" }, who(detail, leader)))));
    }
  }
  if (!box.childElementCount) box.append(el("p", { class: "muted" }, `No ${detail.game} finished yet: the leaders show after the first.`));
}

/** A jersey drawn in SVG, in `colour`. */
function jerseyIcon(colour) {
  const span = el("span", { class: "jersey-icon", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 32 32" width="34" height="34"><path d="M11 4l-7 4 3 7 3-1v14h12V14l3 1 3-7-7-4c-1 2-3 3-5 3s-4-1-5-3z" fill="${colour}" stroke="#1b2230" stroke-width="1.2" stroke-linejoin="round"/></svg>`;
  return span;
}

function renderClassifications(detail) {
  const box = clear($("classifications"));
  for (const [key, list] of detail.played ? classifications(detail.standings) : []) {
    const time = key === "yellow" || key === "qualifying";
    const best = list[0][1];
    const rows = list.map(([id, value], i) => el("tr", { dataset: { testid: "standing-row", rider: id } },
      el("td", { class: "num" }, String(i + 1)), el("td", {}, who(detail, id)),
      el("td", { class: "num" }, time ? clock(value) : String(value)),
      el("td", { class: "num muted" }, i === 0 ? "" : time ? clock(value - best, true) : `${Math.abs(best - value)}`)));
    box.append(el("div", { class: "classification", dataset: { testid: "classification", list: key } },
      el("h3", {}, LISTS[key] || key),
      el("table", { class: "standings-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Rider"), el("th", {}, time ? "Time" : "Points"), el("th", {}, time ? "Gap" : "Behind"))),
        el("tbody", {}, rows))));
  }
  const rows = Array.isArray(detail.standings && detail.standings.table) ? detail.standings.table : [];
  if (rows.length && detail.played) box.append(rowsTable(detail, rows));
  if (!box.childElementCount) box.append(el("p", { class: "muted" }, "The standings start after the first game."));
}

/** A kind's own standings table (`standings.table`: one object per rider or team, in
 * rank order): a column per plain value, a list of values joined. */
function rowsTable(detail, rows) {
  const columns = Object.keys(rows[0]).filter((k) => rows.some((r) => r[k] !== null && typeof r[k] !== "object") || Array.isArray(rows[0][k]));
  const shown = (v) => (v === null || v === undefined ? "–" : Array.isArray(v) ? v.join(" · ") : String(v));
  const id = (r) => r.rider || r.team;
  return el("div", { class: "classification wide", dataset: { testid: "classification", list: "table" } },
    el("h3", {}, "Standings"),
    el("table", { class: "standings-table" },
      el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, cap(c.replace(/_/g, " ")))))),
      el("tbody", {}, rows.map((r) => el("tr", { dataset: { testid: "standing-row", rider: id(r) } },
        columns.map((c) => (c === "rider" || c === "team" ? el("td", {}, who(detail, r[c])) : el("td", { class: "num" }, shown(r[c])))))))));
}

function renderGames(detail) {
  const box = clear($("games"));
  for (const g of detail.tables) {
    const current = g.table === detail.current;
    box.append(el("li", { class: `game-row${current ? " current" : ""}`, dataset: { testid: "game-row", table: g.table, status: g.status } },
      el("span", { class: "game-name" }, `${cap(detail.game)} ${g.number}: ${g.name}`),
      el("span", { class: "muted" }, current ? "under way" : g.status),
      el("a", { class: `btn small${current ? " primary" : ""}`, href: g.url, dataset: { testid: "game-link" },
        onclick: () => enterTable(detail.id, g.table, g.seats) }, current ? "Go to the table" : "View")));
  }
  if (detail.games && detail.games > detail.tables.length) {
    box.append(el("li", { class: "game-row muted" }, `${detail.games - detail.tables.length} more to come`));
  }
}

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function render(detail) {
  const root = $("root");
  root.dataset.status = detail.status;
  root.dataset.played = String(detail.played);
  document.title = `${cap(detail.title)} ${detail.id} · Peloton`;
  $("title").textContent = `${cap(detail.title)} ${detail.id}`;
  const count = detail.games ? `${detail.played} of ${detail.games} ${detail.game}s ridden` : `${detail.played} ${detail.game}${detail.played === 1 ? "" : "s"} played`;
  $("subtitle").textContent = `${detail.seats.length} teams · ${count}`;
  $("status").textContent = detail.status === "finished" && detail.winner ? `finished · won by ${detail.winner}` : detail.status;
  const link = /** @type {HTMLAnchorElement} */ ($("current-table"));
  link.hidden = !detail.current;
  if (detail.current) {
    link.href = `/table/${encodeURIComponent(detail.current)}`;
    const game = detail.tables.find((t) => t.table === detail.current);
    link.onclick = () => enterTable(detail.id, detail.current, game ? game.seats : null);
  }
  /** @type {HTMLAnchorElement} */ ($("download-file")).href = `/api/competitions/${encodeURIComponent(detail.id)}/file`;
  $("download-file").hidden = detail.status === "stopped";
  $("problem").hidden = !detail.problem;
  $("problem").textContent = detail.problem ? `This competition stopped: ${detail.problem}` : "";
  renderJerseys(detail);
  renderClassifications(detail);
  const gaps = !!(detail.standings && detail.standings.yellow);
  $("plot-h").textContent = gaps ? `General classification after each ${detail.game}: the gap of each team's best rider` : `Points after each ${detail.game}: each team's best`;
  drawPlot(clear($("plot")), plotSeries(detail), { unitTime: !!(detail.standings && detail.standings.yellow), word: detail.game });
  renderGames(detail);
}

async function refresh() {
  try {
    const detail = await api("GET", `/api/competitions/${encodeURIComponent(compId)}`);
    render(detail);
    error(null);
    if (detail.status === "running") setTimeout(refresh, REFRESH_MS);
  } catch (e) {
    error(`The standings could not be loaded: ${e.message}`);
    setTimeout(refresh, REFRESH_MS * 3);
  }
}

refresh();
