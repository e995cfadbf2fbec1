// @ts-check
// The panels of Cyclo's track events beside the velodrome: the result once over, the
// laps to go and the next line, the round's order, each rider's square, laps and
// tokens, the race's lines with what each pays and who crossed it, the points of a
// tempo or points race, the eliminated riders, and the times of the timed events
// (pursuit, team pursuit, team sprint: a rider's time is 10 a round less the spaces
// past the line; a team's is its third rider's, in a team sprint its last). The
// legend of the loop is here too.

import { piece } from "./cyclo_board.js";
import { final, orderLine } from "./cyclo_panels.js";
import { LINE_INK, LOOP_FILL } from "./cyclo_track.js";
import { atRisk, lapsRidden, lapsToGo, lapsWord, lineName, nextLine, paysText, trackOf } from "./cyclo_track_facts.js";
import { el, clear, svg, teamChip, seatLabel, seatOf } from "./ui.js";

const riderChip = (id) => teamChip(id[0], id);
/** The snapshot's facts of its mode (`mode_facts`): `timed` (times, not places,
 * decide), `points` (its lines pay points), `eliminations`, `pacer`.
 * @type {(snap: import("./cyclo.js").CycloSnapshot) => Partial<import("./cyclo.js").ModeFacts>} */
const factsOf = (snap) => snap.mode_facts || {};

/** A finished rider's time (CY-10.2): 10 a round less the spaces past the line. */
export function ownTime(entry) {
  return 10 * entry.round - entry.past;
}

export function trackPanel(box, snap, { table = null } = {}) {
  clear(box);
  const track = trackOf(snap);
  const result = snap.result || {};
  const name = (t) => {
    const s = seatOf(table, t);
    return s ? `${t} · ${seatLabel(s)}` : t;
  };
  if (result.over) box.append(final(snap, result, name));
  box.append(trackSummary(snap));
  if (!snap.is_over) box.append(orderLine(snap));
  box.append(ridersTable(snap, track, name));
  const facts = factsOf(snap);
  if (facts.points) box.append(pointsTable(snap));
  if (facts.timed) box.append(timesTable(snap, result, name));
  if (facts.eliminations) box.append(eliminated(snap, result));
  const lines = track.lines.filter((l) => l.kind !== "finish");
  if (lines.length) {
    box.append(el("h3", {}, "Lines"), el("div", { dataset: { testid: "line-lists" } }, lines.map((line) =>
      el("p", { class: "small cy-line-list", dataset: { line: `${line.kind}-${line.at}` } },
        el("strong", { style: { color: LINE_INK[line.kind] || "inherit" } }, `${lineName(line, track)}`), el("span", { class: "muted" }, ` ${paysText(line)}: `),
        line.list.length ? line.list.map((id, k) => el("span", {}, k ? ", " : "", riderChip(id))) : el("span", { class: "muted" }, "nobody yet")))));
  }
  box.append(el("h3", {}, "Finish line"));
  const finish = snap.finish || [];
  box.append(finish.length
    ? el("ol", { class: "places", dataset: { testid: "finish-list" } }, finish.map((f) => el("li", { dataset: { rider: f.rider } },
      riderChip(f.rider), el("span", { class: "pts" }, `round ${f.round}, #${f.past}${facts.timed ? ` · ${ownTime(f)} s` : ""}`))))
    : el("p", { class: "muted small", dataset: { testid: "finish-list" } }, "nobody across the line yet"));
}

function ridersTable(snap, track, name) {
  const pro = snap.level === "pro";
  const head = el("tr", {}, el("th", {}, "Rider"), el("th", {}, "Square"), el("th", {}, "Laps"), pro ? el("th", {}, "Tokens") : null);
  const body = el("tbody");
  const out = new Set((snap.result || {}).eliminated || []);
  for (const team of snap.players || []) {
    body.append(el("tr", { class: "cy-team-row", dataset: { team } }, el("td", { colspan: pro ? 4 : 3 }, teamChip(team, name(team)))));
    for (const r of (snap.riders || []).filter((x) => x.team === team)) {
      const icon = svg("svg", { viewBox: "-9 -9 18 18", width: 16, height: 16, class: "cy-icon" });
      piece(icon, r.id, 6);
      const where = out.has(r.id) ? "eliminated" : r.finished ? "finished" : r.position === 0 ? "start line" : r.square || "";
      body.append(el("tr", { dataset: { rider: r.id, testid: "rider-row" } },
        el("td", {}, icon, ` ${r.id}`), el("td", {}, where),
        el("td", { dataset: { testid: "rider-laps" } }, typeof r.position === "number" ? String(typeof r.laps === "number" ? r.laps : lapsRidden(Math.min(r.position, track.distance), track.lap)) : "—"),
        pro ? el("td", { dataset: { testid: "rider-tokens" } }, String(r.tokens)) : null));
    }
  }
  return el("div", {}, el("h3", {}, "Riders"), el("table", { class: "points cy-riders-table", dataset: { testid: "riders" } }, el("thead", {}, head), body));
}

/** Race points, most first (a tempo or points race). */
function pointsTable(snap) {
  const riders = [...(snap.riders || [])].sort((a, b) => (b.points || 0) - (a.points || 0) || (a.id < b.id ? -1 : 1));
  return el("div", {}, el("h3", {}, "Points"), el("table", { class: "points", dataset: { testid: "track-points" } },
    el("thead", {}, el("tr", {}, el("th", {}, "Rider"), el("th", {}, "Points"))),
    el("tbody", {}, riders.map((r) => el("tr", { dataset: { rider: r.id } }, el("td", {}, riderChip(r.id)), el("td", {}, String(r.points || 0)))))));
}

/** Own times of the finished riders and, once known, each team's time. */
function timesTable(snap, result, name) {
  const finish = snap.finish || [];
  const teamTimes = result.team_times || {};
  const rows = finish.map((f) => el("tr", { dataset: { rider: f.rider } }, el("td", {}, riderChip(f.rider)), el("td", {}, `${ownTime(f)} s`)));
  const box = el("div", { dataset: { testid: "times" } }, el("h3", {}, "Times"));
  box.append(rows.length
    ? el("table", { class: "points" }, el("thead", {}, el("tr", {}, el("th", {}, "Rider"), el("th", {}, "Time"))), el("tbody", {}, rows))
    : el("p", { class: "muted small" }, "nobody has finished yet: a time is 10 s a round, less the spaces past the line"));
  const teams = Object.entries(teamTimes);
  if (teams.length) {
    box.append(el("p", { class: "small", dataset: { testid: "team-times" } }, el("strong", {}, "Team times: "),
      teams.map(([t, time], i) => el("span", { dataset: { team: t } }, i ? ", " : "", teamChip(t, name(t)), ` ${time} s`))));
  }
  return box;
}

function eliminated(snap, result) {
  const out = result.eliminated || [];
  return el("div", {}, el("h3", {}, el("span", { dataset: { term: "elimination" } }, "Eliminated")),
    out.length
      ? el("ol", { class: "places", dataset: { testid: "eliminated" } }, out.map((id) => el("li", { dataset: { rider: id } }, riderChip(id))))
      : el("p", { class: "muted small", dataset: { testid: "eliminated" } }, "nobody yet: the last rider at each line is out"));
}

/** The loop's legend: spaces and lanes, the lines, the pacer, the badges. */
export function drawTrackLegend(host, snap, state) {
  clear(host);
  if (state.open === undefined) state.open = !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
  const box = el("div", { class: "cy-legend-items" });
  const details = el("details", { class: "cy-legend", open: state.open, dataset: { testid: "cy-legend" } }, el("summary", {}, "Legend"), box);
  details.addEventListener("toggle", () => {
    state.open = details.open;
  });
  host.append(details);
  const track = trackOf(snap);
  box.append(el("span", {}, el("i", { class: "lg cy-lg", style: { background: LOOP_FILL[0], "border-color": "#b45309" } }),
    `velodrome: ${track.lap} spaces a lap, ${track.width} lanes (a inside); the race: ${lapsWord(track.distance, track.lap)}`));
  const kinds = new Set(track.lines.map((l) => l.kind));
  if (kinds.has("sprint")) box.append(el("span", {}, el("i", { class: "lg cy-lg-line sprint" }), "sprint line (points to the first across)"));
  if (kinds.has("elimination")) box.append(el("span", {}, el("i", { class: "lg vd-lg-line elimination" }), "elimination line (the last rider is out)"));
  box.append(el("span", {}, el("i", { class: "lg cy-lg-line finish" }), "start and finish, then the run-out #1–#9"));
  if (factsOf(snap).pacer) box.append(el("span", {}, el("i", { class: "lg vd-lg-pacer" }, "P"), "keirin pacer: no rider may reach it, no tokens while it rides"));
  box.append(el("span", {}, el("i", { class: "lg vd-lg-laps" }, "2"), "laps ridden"),
    el("span", {}, el("i", { class: "lg cy-lg-badge tokens" }, "2"), "own tokens"));
}

/** The track's words for a panel: the laps to go, the next line. */
export function trackSummary(snap) {
  const track = trackOf(snap);
  const next = nextLine(snap, track);
  const risk = atRisk(snap, track);
  return el("p", { class: "small vd-summary", dataset: { testid: "track-summary" } },
    el("strong", {}, lapsToGo(snap, track)), next && !snap.is_over ? ` · next: ${lineName(next, track)}, ${paysText(next)}` : "",
    risk ? el("span", { class: "vd-risk", dataset: { testid: "at-risk", rider: risk } }, ` · last now: ${risk}`) : null);
}
