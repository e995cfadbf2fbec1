// @ts-check
// The clocks of a table with a time control (docs/protocol.md, "Clocks"): each seat's
// time left, the clock of the seat to move counting down live, red when it runs low.
// The server is the authority (it lets the flag fall); this only shows what every
// message's `table.clock` says, counted down from when the message came.

import { el, clear, teamChip } from "./ui.js";

/** Seconds as a clock shows them: `9:58`, `1:02:03`, `23 h 59 min`. */
export function formatClock(seconds, kind) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  if (kind === "turn" && h >= 1) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (h >= 1) return `${h}:${String(m).padStart(2, "0")}:${sec}`;
  return `${m}:${sec}`;
}

/** The time control in words: `10 min + 10 s`, `24 h per move`. */
export function describeControl(clock) {
  if (!clock) return "no clock";
  if (clock.kind === "turn") return `${clock.hours} h per move`;
  const amount = (x) => (x >= 60 && x % 60 === 0 ? `${x / 60} min` : `${x} s`);
  return `${amount(clock.bank)} + ${amount(clock.increment)}`;
}

/** Whether `seconds` left is low: under a fifth of the time, and under a minute of a
 * real-time bank or an hour of a turn. */
function low(seconds, clock) {
  const whole = clock.kind === "turn" ? clock.hours * 3600 : clock.bank;
  const floor = clock.kind === "turn" ? 3600 : 30;
  return seconds <= Math.max(floor, whole / 5) && seconds < whole;
}

export class ClockView {
  /** Mounted in front of `before` (the table page's turn line). */
  constructor(before) {
    this.node = el("div", { class: "clocks", dataset: { testid: "clocks" }, hidden: true, "aria-label": "clocks" });
    before.parentNode.insertBefore(this.node, before);
    this.clock = null;
    this.at = 0;
    this.timer = null;
  }

  /** Show `table.clock` (a new one restarts the count from now); `live`: counting. */
  update(table, { live = true } = {}) {
    const clock = table && table.clock;
    if (!clock || !live) {
      this.node.hidden = true;
      this.stop();
      return;
    }
    if (clock !== this.clock) {
      this.clock = clock;
      this.at = performance.now();
      this.render(table);
    }
    this.node.hidden = false;
    const running = clock.running && table.status === "running";
    if (running && !this.timer) this.timer = setInterval(() => this.tick(), 250);
    if (!running) this.stop();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Each seat's time as of now. */
  left(seat) {
    const c = this.clock;
    const base = c.remaining[seat] ?? 0;
    return seat === c.running ? base - (performance.now() - this.at) / 1000 : base;
  }

  render(table) {
    const c = this.clock;
    clear(this.node);
    this.node.append(el("span", { class: "clock-control muted small", dataset: { testid: "clock-control" } }, `Clock: ${describeControl(c)}`));
    this.faces = {};
    for (const s of table.seats || []) {
      if (!(s.seat in c.remaining)) continue;
      const face = el("span", { class: "clock-time" });
      const box = el("span", {
        class: `clock ${s.seat === c.running ? "running" : ""}`,
        dataset: { testid: "clock", seat: s.seat, running: s.seat === c.running ? "true" : "false" },
      }, teamChip(s.seat), face);
      this.faces[s.seat] = { box, face };
      this.node.append(box);
    }
    this.tick();
  }

  tick() {
    for (const [seat, { box, face }] of Object.entries(this.faces || {})) {
      const left = this.left(seat);
      face.textContent = formatClock(left, this.clock.kind);
      box.classList.toggle("low", low(left, this.clock));
      box.dataset.seconds = String(Math.max(0, Math.round(left)));
    }
  }
}
