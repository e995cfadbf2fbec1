// @ts-check
// Cyclo The Game's panels beside the board: the race panel (the result, the event
// card last drawn with its effect and the cards left, the round's order, each rider's
// square, tokens and flags and each team's tokens, the line lists, the finish line's
// list, green and red points with their leaders in a leg), the board's legend, and
// the lobby's summary and small strip of a course.

import { TRACK, DARK_FILL, piece } from "./cyclo_board.js";
import { el, clear, svg, teamChip, seatLabel, seatOf, trophyIcon } from "./ui.js";

export const CARD_COUNT = 24;

const riderChip = (id) => teamChip(id[0], id);

/** `A1 C1 F2 E1 · 120 spaces · start, flat, slope, end, cobbles, last km` */
export function describeCourse(course) {
  if (!course || !course.boards) return course && course.lap ? `velodrome: ${course.lap} spaces a lap, ${course.width} lanes (track events)` : "";
  const types = [];
  let spaces = 0;
  course.boards.forEach((b, i) => {
    let k = 0;
    for (const [type, count] of b.runs || []) {
      for (let j = 0; j < count; j++) {
        k += 1;
        if (i === 0 && k < (course.start || 1)) continue;
        spaces += 1;
        if (!types.includes(type)) types.push(type);
      }
    }
  });
  return `${course.boards.map((b) => b.name).join(" ")} · ${spaces} spaces · ${types.map((t) => (TRACK[t] || { name: t }).name).join(", ")}`;
}

/** A small strip of the course's boards, a space a bar in its track type's colour. */
export function coursePreview(course) {
  const box = el("div", { class: "cy-preview", dataset: { testid: "course-preview" } });
  if (!course || !course.boards) {
    box.append(el("span", { class: "muted small" }, describeCourse(course)));
    return box;
  }
  const bars = [];
  course.boards.forEach((b, i) => {
    let k = 0;
    for (const [type, count, width] of b.runs || []) {
      for (let j = 0; j < count; j++) {
        k += 1;
        if (i === 0 && k < (course.start || 1)) continue;
        bars.push({ board: b.name, type, width, dark: (b.dark || []).includes(k), event: (b.events || []).includes(k), first: bars.length === 0 || bars[bars.length - 1].board !== b.name });
      }
    }
  });
  const w = 3;
  const root = svg("svg", { viewBox: `0 0 ${bars.length * w + 2} 34`, class: "cy-preview-strip", role: "img", "aria-label": `course ${course.name}` });
  bars.forEach((s, i) => {
    const h = 5 + s.width * 4;
    svg("rect", { x: 1 + i * w, y: 22 - h, width: w, height: h, fill: s.dark ? DARK_FILL : (TRACK[s.type] || TRACK.flat).fill }, root);
    if (s.event) svg("rect", { x: 1 + i * w, y: 24, width: w, height: 3, fill: "#7c3aed" }, root);
    if (s.first) {
      svg("line", { x1: 1 + i * w, y1: 0, x2: 1 + i * w, y2: 34, stroke: "#475467", "stroke-width": 0.6 }, root);
      const t = svg("text", { x: 2 + i * w, y: 33, class: "cy-preview-board" }, root);
      t.textContent = s.board;
    }
  });
  box.append(root);
  return box;
}

/** The cards drawn since the deck was last shuffled. */
export function drawnCount(snap) {
  return CARD_COUNT - Object.values(snap.cards_left || {}).reduce((a, b) => a + b, 0);
}

/** The event card last drawn, its effect in words at this level, and the cards left. */
function cardBox(snap, card) {
  if (!snap.events) return el("div", { hidden: true });
  const left = Object.values(snap.cards_left || {}).reduce((a, b) => a + b, 0);
  const box = el("div", { class: "cy-card-box" });
  if (!snap.card) {
    box.append(el("p", { class: "small muted", dataset: { testid: "cards-left" } }, `Event cards: none drawn yet, ${left} of ${CARD_COUNT} in the deck.`));
    return box;
  }
  const shown = (snap.deck || {})[snap.card] || { name: snap.card, effect: "" };
  const { by: drawer, animate } = card || {};
  box.append(el("div", { class: `cy-card${animate ? " fresh" : ""}`, dataset: { testid: "event-card", card: snap.card } },
    el("div", { class: "cy-card-name" }, shown.name),
    el("div", { class: "cy-card-effect" }, `${snap.level === "pro" ? "Pro" : "Starter"}: ${shown.effect}`),
    shown.limit ? el("div", { class: "cy-card-limit small" }, `no effect on ${shown.limit}`) : null,
    el("div", { class: "cy-card-by small muted" }, drawer ? `drawn by ${drawer}` : "the last card drawn")),
  el("p", { class: "small muted", dataset: { testid: "cards-left" } }, `${left} of ${CARD_COUNT} cards left in the deck.`));
  return box;
}

/** The race panel: the result once over, the card last drawn (`card`: its drawer, if
 * known, and whether it is news), the round's order, riders and tokens, the line
 * lists, the finish line's list, and green and red points in a leg. */
export function racePanel(box, snap, { table = null, card = null } = {}) {
  clear(box);
  const result = snap.result || {};
  const name = (t) => {
    const s = seatOf(table, t);
    return s ? `${t} · ${seatLabel(s)}` : t;
  };
  const byId = Object.fromEntries((snap.riders || []).map((r) => [r.id, r]));
  if (result.over) box.append(final(snap, result, name));
  box.append(cardBox(snap, card));
  if (!snap.is_over) box.append(orderLine(snap));
  box.append(teamsTable(snap, name));
  const lines = snap.course.lines.filter((l) => l.scores && l.kind !== "finish");
  if (lines.length) {
    box.append(el("h3", {}, "Lines"), el("div", { dataset: { testid: "line-lists" } }, lines.map((line, i) => {
      const list = (snap.lines || [])[i] || [];
      return el("p", { class: "small cy-line-list", dataset: { line: `${line.kind}-${line.after}` } },
        el("strong", {}, `${line.kind === "mountain" ? `mountain ${line.category}` : "sprint"} after ${line.after}: `),
        list.length ? list.map((id, k) => el("span", {}, k ? ", " : "", riderChip(id))) : el("span", { class: "muted" }, "nobody yet"));
    })));
  }
  box.append(el("h3", {}, "Finish line"));
  const finish = snap.finish || [];
  box.append(finish.length
    ? el("ol", { class: "places", dataset: { testid: "finish-list" } }, finish.map((f) => el("li", { dataset: { rider: f.rider } },
      riderChip(f.rider), el("span", { class: "pts" }, `round ${f.round}, #${f.past}${result.times && result.times[f.rider] !== undefined ? ` · ${result.times[f.rider]} s` : ""}`))))
    : el("p", { class: "muted small", dataset: { testid: "finish-list" } }, "nobody across the line yet"));
  if ((snap.mode_facts || {}).course_lines) box.append(pointsTable(snap, byId));
}

export function final(snap, result, name) {
  const box = el("div", { class: "final", dataset: { testid: "final" } });
  if (result.winner_team) {
    box.append(el("div", { class: "trophy", dataset: { testid: "winner", team: result.winner_team, rider: result.winner || "" } },
      trophyIcon(), result.winner ? ["Winner: ", riderChip(result.winner), ` for team `, teamChip(result.winner_team, name(result.winner_team))]
        : ["Winning team: ", teamChip(result.winner_team, name(result.winner_team))]));
  }
  const times = result.times || {};
  const points = result.points || {};
  const mountain = result.mountain || {};
  const leg = !!(snap.mode_facts || {}).course_lines; // green and red points (CY-8.1)
  const head = ["#", "Rider", ...(Object.keys(times).length ? ["Time"] : []), ...(leg ? ["Green", "Red"] : [])];
  const rows = (result.places || []).map((id, i) => el("tr", { dataset: { rider: id } },
    el("td", {}, String(i + 1)), el("td", {}, riderChip(id)),
    Object.keys(times).length ? el("td", {}, times[id] === undefined ? "—" : `${times[id]} s`) : null,
    leg ? el("td", {}, String(points[id] || 0)) : null, leg ? el("td", {}, String(mountain[id] || 0)) : null));
  box.append(el("h3", {}, "Places"), el("table", { class: "points", dataset: { testid: "places" } },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))), el("tbody", {}, rows)));
  const teamTimes = result.team_times || {};
  box.append(el("h3", {}, "Teams"), el("ol", { class: "places", dataset: { testid: "team-places" } }, (result.teams || []).map((t) =>
    el("li", { dataset: { team: t } }, teamChip(t, name(t)), teamTimes[t] !== undefined ? el("span", { class: "pts" }, `${teamTimes[t]} s`) : null))));
  return box;
}

export function orderLine(snap) {
  const byId = Object.fromEntries((snap.riders || []).map((r) => [r.id, r]));
  return el("p", { class: "small cy-order", dataset: { testid: "order" } }, el("strong", {}, `Round ${snap.round} order: `),
    (snap.order || []).map((id) => {
      const r = byId[id] || {};
      return el("span", { class: `cy-order-rider${r.due ? " due" : ""}${r.turn_over ? " over" : ""}`, title: r.turn_over ? "turn over" : r.due ? "due" : "to come" },
        r.due ? "▶" : "", id, r.turn_over ? "✓" : "", " ");
    }));
}

function teamsTable(snap, name) {
  const pro = snap.level === "pro";
  const head = el("tr", {}, el("th", {}, "Rider"), el("th", {}, "Square"), pro ? el("th", {}, "Tokens") : null, el("th", {}, "Flags"));
  const body = el("tbody");
  for (const team of snap.players || []) {
    body.append(el("tr", { class: "cy-team-row", dataset: { team } }, el("td", { colspan: pro ? 4 : 3 },
      teamChip(team, name(team)), pro ? el("span", { class: "muted small", dataset: { testid: "team-tokens", team } }, ` · ${(snap.team_tokens || {})[team] || 0} team tokens`) : null)));
    for (const r of (snap.riders || []).filter((x) => x.team === team)) {
      const flags = [r.skip ? "s" : "", r.technical ? "x" : "", r.hunger ? `h${r.hunger}` : ""].filter(Boolean).join(" ");
      const icon = svg("svg", { viewBox: "-9 -9 18 18", width: 16, height: 16, class: "cy-icon" });
      piece(icon, r.id, 6);
      body.append(el("tr", { dataset: { rider: r.id, testid: "rider-row" } },
        el("td", {}, icon, ` ${r.id}`), el("td", {}, r.finished ? "finished" : r.square || ""),
        pro ? el("td", { dataset: { testid: "rider-tokens" } }, String(r.tokens)) : null, el("td", { class: "cy-flags" }, flags)));
    }
  }
  return el("div", {}, el("h3", {}, pro ? "Riders and tokens" : "Riders"), el("table", { class: "points cy-riders-table", dataset: { testid: "riders" } }, el("thead", {}, head), body));
}

function pointsTable(snap, byId) {
  const ids = Object.keys(byId);
  const green = Object.fromEntries(ids.map((id) => [id, byId[id].points || 0]));
  const red = Object.fromEntries(ids.map((id) => [id, byId[id].mountain || 0]));
  const lead = (pts) => {
    const top = Math.max(0, ...Object.values(pts));
    return top > 0 ? ids.filter((id) => pts[id] === top) : [];
  };
  const greenLead = lead(green);
  const redLead = lead(red);
  const rows = [...ids].sort((a, b) => green[b] - green[a] || red[b] - red[a] || (a < b ? -1 : 1)).map((id) => el("tr", { dataset: { rider: id } },
    el("td", {}, riderChip(id), greenLead.includes(id) ? el("span", { class: "cy-jersey green", title: "green jersey: most points", dataset: { term: "jerseys" } }, "green") : null,
      redLead.includes(id) ? el("span", { class: "cy-jersey red", title: "red jersey: most mountain points", dataset: { term: "jerseys" } }, "red") : null),
    el("td", {}, String(green[id])), el("td", {}, String(red[id]))));
  return el("div", {}, el("h3", {}, "Points"), el("table", { class: "points", dataset: { testid: "points" } },
    el("thead", {}, el("tr", {}, el("th", {}, "Rider"), el("th", {}, "Green"), el("th", {}, "Red"))), el("tbody", {}, rows)));
}

/** The board's legend into `host`: the track types of `course` (all of them before it
 * is known) with their dice, what the marks mean, the pieces and their badges. `state`
 * keeps whether it is unfolded ({open}: folded at first on a phone). */
export function drawLegend(host, course, state) {
  clear(host);
  // On a phone the legend folds away under its title, so the play is close to the board.
  if (state.open === undefined) state.open = !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
  const box = el("div", { class: "cy-legend-items" });
  const details = el("details", { class: "cy-legend", open: state.open, dataset: { testid: "cy-legend" } }, el("summary", {}, "Legend"), box);
  details.addEventListener("toggle", () => {
    state.open = details.open;
  });
  host.append(details);
  const meaning = (course && course.legend) || {};
  const types = course ? [...new Set(course.spaces.map((s) => s.type))] : Object.keys(TRACK).filter((t) => t !== "track");
  const terrain = (course && course.terrain) || {};
  for (const t of types) {
    const track = TRACK[t] || TRACK.flat;
    const facts = terrain[t];
    let dice = "";
    if (facts) {
      dice = `${facts.dice} ${facts.dice === 1 ? "die" : "dice"}`;
      if (facts.sprinter_dice !== facts.dice) dice += `, sprinter ${facts.sprinter_dice}`;
      if (facts.climber_bonus) dice += `, climber +${facts.climber_bonus}`;
    }
    const title = facts ? `${meaning[t] || track.name}: tokens S/C/H ${facts.panels.join("/")}; wheel and swap ${facts.wheel ? "yes" : "no"}; hold back ${facts.hold_back ? "yes" : "no"}` : track.name;
    box.append(el("span", { dataset: { legend: t }, title },
      el("i", { class: "lg cy-lg", style: { background: track.fill, "border-color": track.ink } }), track.name, dice ? el("small", {}, ` (${dice})`) : null));
  }
  if (!course || course.spaces.some((x) => x.dark)) {
    box.append(el("span", { dataset: { term: "dark-square" } }, el("i", { class: "lg cy-lg", style: { background: DARK_FILL } }), "dark square (back 3 on cobbles, 1 on a slope)"));
  }
  box.append(el("span", { dataset: { term: "event" } }, el("i", { class: "lg cy-lg-card" }, "?"), "event space (draws a card)"));
  const kinds = course ? new Set(course.lines.map((l) => l.kind)) : new Set(["sprint", "mountain"]);
  if (kinds.has("sprint")) box.append(el("span", {}, el("i", { class: "lg cy-lg-line sprint" }), "sprint line"));
  if (kinds.has("mountain")) box.append(el("span", {}, el("i", { class: "lg cy-lg-line mountain" }), "mountain line (category 3, 2, 1, HC)"));
  box.append(el("span", {}, el("i", { class: "lg cy-lg-line finish" }), "finish, then the run-out #1–#9"));
  const shapes = el("span", {});
  for (const id of ["AS1", "AC1", "AH1"]) {
    const s = svg("svg", { viewBox: "-9 -9 18 18", width: 16, height: 16, class: "cy-icon" });
    piece(s, id, 6.5);
    shapes.append(s);
  }
  box.append(el("span", {}, shapes, "sprinter, climber, helper (team colour)"),
    el("span", {}, el("i", { class: "lg cy-lg-badge skip" }, "s"), "loses its next turn"),
    el("span", {}, el("i", { class: "lg cy-lg-badge technical" }, "x"), "technical problem"),
    el("span", {}, el("i", { class: "lg cy-lg-badge hunger" }, "h"), "hunger"),
    el("span", {}, el("i", { class: "lg cy-lg-badge tokens" }, "2"), "own tokens"));
}
