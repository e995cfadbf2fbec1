// @ts-check
// The create form's time control and stand-in bot (docs/protocol.md, "Clocks and
// absent players"): no clock, a preset (real-time bank + increment, or hours per
// move) or custom values; and the bot level that plays a seat whose player left or
// ran out of time. The server checks the values again and says what is wrong.

import { el, clear } from "./ui.js";

// The server's presets (server/live/clocks.py), by name.
const PRESETS = [
  ["none", "No clock"],
  ["blitz", "Blitz: 3 min + 2 s"],
  ["rapid", "Rapid: 10 min + 10 s"],
  ["slow", "Slow: 30 min + 30 s"],
  ["daily", "Daily: 24 h per move"],
  ["relaxed", "Relaxed: 72 h per move"],
  ["custom-realtime", "Custom real-time…"],
  ["custom-turn", "Custom hours per move…"],
];

/** Fill `box` for a game whose bots are `bots`, keeping the choices made before. */
export function renderTimeField(box, bots) {
  const before = box.querySelector("#clock-kind");
  const kept = before ? before.value : "none";
  const keptLevel = box.querySelector("#standin") ? box.querySelector("#standin").value : "medium";
  const levels = bots.filter((b) => b !== "random");
  clear(box);
  const kind = el("select", { id: "clock-kind", dataset: { testid: "clock-kind" }, onchange: () => showCustom(box) },
    PRESETS.map(([value, label]) => el("option", { value }, label)));
  kind.value = kept;
  const number = (id, value, min, max, step) =>
    el("input", { type: "number", id, value: String(value), min: String(min), max: String(max), step: String(step), dataset: { testid: id } });
  const standin = el("select", { id: "standin", dataset: { testid: "standin" } }, levels.map((b) => el("option", { value: b }, b)));
  standin.value = levels.includes(keptLevel) ? keptLevel : levels.includes("medium") ? "medium" : levels[0];
  box.append(
    el("label", { class: "field" }, el("span", {}, "Time control"), kind),
    el("label", { class: "field custom-realtime", hidden: true }, el("span", {}, "Minutes each"), number("clock-minutes", 10, 0.5, 240, 0.5)),
    el("label", { class: "field custom-realtime", hidden: true }, el("span", {}, "Seconds added per move"), number("clock-increment", 10, 0, 600, 1)),
    el("label", { class: "field custom-turn", hidden: true }, el("span", {}, "Hours per move"), number("clock-hours", 24, 1, 336, 1)),
    el("label", { class: "field" }, el("span", {}, "If a player leaves or runs out of time, a bot plays for them:"), standin),
  );
  showCustom(box);
}

function showCustom(box) {
  const kind = box.querySelector("#clock-kind").value;
  for (const node of box.querySelectorAll(".custom-realtime")) node.hidden = kind !== "custom-realtime";
  for (const node of box.querySelectorAll(".custom-turn")) node.hidden = kind !== "custom-turn";
}

/** The create request's `clock` and `standin`; throws an Error for a custom value
 * that is not a number. */
export function timeOf(box) {
  const kind = box.querySelector("#clock-kind");
  if (!kind) return {};
  const value = (id) => {
    const text = box.querySelector(`#${id}`).value.trim();
    const n = Number(text);
    if (!text || !Number.isFinite(n)) throw new Error(`Enter a number for the clock, not “${text}”.`);
    return n;
  };
  let clock = kind.value;
  if (clock === "custom-realtime") clock = { kind: "realtime", bank: value("clock-minutes") * 60, increment: value("clock-increment") };
  else if (clock === "custom-turn") clock = { kind: "turn", hours: value("clock-hours") };
  return { clock, standin: box.querySelector("#standin").value };
}
