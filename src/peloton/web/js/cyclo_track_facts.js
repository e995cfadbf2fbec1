// @ts-check
// The velodrome's facts as a snapshot gives them, for the loop (cyclo_track.js), its
// panels (cyclo_track_panels.js) and the Cyclo view: the lap, the race's distance and
// lines, the pacer, where a distance lies on the loop, the laps ridden and to go, the
// next line and what it pays, and the rider an elimination line would put out.

const LANES = "abcdefghijklmnopqrstuvwxyz";

/** The track's facts of a snapshot: `lap`, `distance` (D, the race's length), `half`,
 * `width` (lanes), `lines` [{at, kind, pays, list}] in course order, `pacer` (its
 * distance while it rides, else null). */
export function trackOf(snap) {
  const t = snap.track || {};
  const course = snap.course || {};
  const lap = t.lap || course.lap || 20;
  const widths = (course.spaces || []).map((s) => s.width || 0);
  const width = t.width || course.width || Math.max(4, ...widths);
  const distance = t.distance || course.length || 2 * lap;
  const lines = (t.lines || []).map((l) => ({ at: l.at ?? l.after, kind: l.kind, pays: l.pays || [], list: l.list || [] }));
  let pacer = t.pacer ?? snap.pacer ?? null;
  if (pacer && typeof pacer === "object") pacer = pacer.distance ?? pacer.position ?? null;
  return { lap, half: t.half || lap / 2, width, distance, lines, pacer: typeof pacer === "number" ? pacer : null };
}

/** A race's distance in laps: `1 lap`, `2 laps`, `1½ laps`. */
export function lapsWord(distance, lap) {
  const whole = Math.floor(distance / lap);
  if (distance % lap) return `${whole || ""}½ lap${whole ? "s" : ""}`;
  return `${whole} lap${whole === 1 ? "" : "s"}`;
}

/** The loop space (1 … lap) of distance `d` ≥ 1. */
export function loopSpace(d, lap) {
  return ((d - 1) % lap) + 1;
}

/** Full laps ridden at distance `d`. */
export function lapsRidden(d, lap) {
  return d > 0 ? Math.floor(d / lap) : 0;
}

/** The distance of the leader still racing (0 before anyone leaves the line). */
export function leaderDistance(snap, track) {
  const on = (snap.riders || []).filter((r) => typeof r.position === "number" && r.position <= track.distance);
  return on.length ? Math.max(...on.map((r) => r.position)) : 0;
}

/** The first line the leader has not crossed yet, or null. */
export function nextLine(snap, track) {
  const lead = leaderDistance(snap, track);
  return track.lines.find((l) => l.at >= lead) || null;
}

/** The rider an elimination line would put out now: the rearmost still racing (the
 * shortest distance; of two level, the one in the higher lane), while the next line
 * is an elimination line; else null. */
export function atRisk(snap, track) {
  const next = nextLine(snap, track);
  if (!next || next.kind !== "elimination" || snap.is_over) return null;
  const racing = (snap.riders || []).filter((r) => typeof r.position === "number" && r.position <= track.distance && !r.out);
  racing.sort((a, b) => a.position - b.position || LANES.indexOf(b.lane) - LANES.indexOf(a.lane));
  return racing.length ? racing[0].id : null;
}

/** `5, 3, 2, 1` or `nobody` */
export function paysText(line) {
  if (line.kind === "elimination") return "last rider out";
  if (line.kind === "finish" && !line.pays.length) return "finishing order";
  return line.pays.length ? `pays ${line.pays.join(", ")}` : "";
}

/** A line in words: `sprint 3 (lap 3)`, `elimination 2 (after 20)`, `finish (60)`. */
export function lineName(line, track) {
  const k = line.at / track.lap;
  const where = Number.isInteger(k) ? `lap ${k}` : `after ${line.at}`;
  return line.kind === "finish" ? `finish (${where})` : `${line.kind} ${track.lines.indexOf(line) + 1} (${where})`;
}

/** Laps to go for the leader, rounded up to a half lap (the lap it is in counts, as
 * on a lap board): `3 laps to go`, `1½ laps to go`, `final lap`, `race over`. */
export function lapsToGo(snap, track) {
  if (snap.is_over) return "race over";
  const left = track.distance - leaderDistance(snap, track);
  if (left <= 0) return "the leader has finished";
  const halves = Math.ceil((2 * left) / track.lap);
  if (halves <= 2) return "final lap";
  return `${Math.floor(halves / 2)}${halves % 2 ? "½" : ""} laps to go`;
}
