// @ts-check
// The plot of a competition's standings after each game, drawn in SVG: one line per
// team. A stage race plots the time gap of each team's best rider to the leader of
// the general classification after each leg (the leader on the top line, 0); the
// other kinds plot each team's best points after each event.

import { el, svg, teamColour } from "./ui.js";

const W = 640;
const H = 260;
const PAD = { left: 52, right: 16, top: 14, bottom: 34 };

/** The lists of `[id, value]` pairs of a standings object: its classifications. */
export function classifications(standings) {
  return Object.entries(standings || {}).filter(([, v]) => Array.isArray(v) && v.length && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[1] === "number"));
}

/** `{teams: {A: [v1, v2...]}, games: n}` from a competition's detail: per team, its
 * best rider's gap in seconds (stage race) or best points after each game. */
export function plotSeries(detail) {
  const teams = {};
  const history = detail.history || [];
  history.forEach((standings, i) => {
    const gaps = !!standings.yellow;
    const list = gaps ? standings.yellow : pointsOf(standings);
    const leader = list.length ? list[0][1] : 0;
    const best = {};
    for (const [id, value] of list) {
      const team = typeof id === "string" ? id[0] : String(id);
      const v = gaps ? value - leader : value;
      if (!(team in best) || (gaps ? v < best[team] : v > best[team])) best[team] = v;
    }
    for (const [team, v] of Object.entries(best)) {
      (teams[team] ||= Array(history.length).fill(null))[i] = v;
    }
  });
  return { teams, games: history.length };
}

/** `[[id, points], ...]` of a kind without a time classification: its `points` (an
 * omnium), else the duels each team won (a tournament's `table`), else its first list. */
function pointsOf(standings) {
  if (Array.isArray(standings.points)) return standings.points;
  const rows = Array.isArray(standings.table) ? standings.table : [];
  for (const field of ["points", "duels"]) {
    if (rows.length && rows.every((r) => typeof r[field] === "number")) return rows.map((r) => [r.rider || r.team, r[field]]);
  }
  return (classifications(standings)[0] || [])[1] || [];
}

/** Draw `series` in `box`; `unitTime`: values are seconds behind (drawn downwards). */
export function drawPlot(box, series, { unitTime, word }) {
  box.dataset.games = String(series.games);
  if (!series.games) {
    box.append(el("p", { class: "muted" }, `The plot starts after the first ${word}.`));
    return;
  }
  const values = Object.values(series.teams).flat().filter((v) => v !== null);
  const top = Math.max(1, ...values);
  const x = (i) => PAD.left + (series.games === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (series.games - 1));
  // Gaps: 0 (the leader) at the top, the largest gap at the bottom; points: 0 at the bottom.
  const y = (v) => (unitTime ? PAD.top + (v / top) * (H - PAD.top - PAD.bottom) : H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "plot-svg", role: "img", "data-testid": "plot-svg",
    "aria-label": unitTime ? `time gap of each team's best rider after each ${word}` : `points of each team after each ${word}` });
  for (const frac of [0, 0.5, 1]) {
    const v = Math.round(top * frac);
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }, root);
    svg("text", { x: PAD.left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, root).textContent = unitTime ? `+${v}s` : String(v);
  }
  for (let i = 0; i < series.games; i += 1) {
    svg("text", { x: x(i), y: H - 12, class: "tick", "text-anchor": "middle" }, root).textContent = `${word} ${i + 1}`;
  }
  for (const [team, points] of Object.entries(series.teams).sort()) {
    const colour = teamColour(team);
    const drawn = points.map((v, i) => (v === null ? null : [x(i), y(v)])).filter(Boolean);
    svg("polyline", { points: drawn.map((p) => p.join(",")).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, "data-team": team, class: "series" }, root);
    for (const [px, py] of drawn) svg("circle", { cx: px, cy: py, r: 4, fill: colour, stroke: "#fff", "stroke-width": 1.2 }, root);
    const [lx, ly] = drawn[drawn.length - 1];
    svg("text", { x: Math.min(lx + 7, W - 4), y: ly - 6, class: "series-label", fill: colour }, root).textContent = team;
  }
  box.append(root);
}
