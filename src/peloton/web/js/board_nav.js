// @ts-check
// The Mind Cycling board's navigation, above the road: zoom buttons (and ctrl + wheel,
// or a two-finger pinch on a touch screen, over the road), and an overview strip of the
// whole course — its sections, every rider on the road, the part of the road in view
// as a frame. A click (or a drag) on the strip brings that part of the road into view.

import { el, svg, teamColour } from "./ui.js";

const STRIP_FILL = { start: "#cbd2dc", plain: "#b9cff5", sprint: "#b7e4c4", mountain: "#f6dc97" };

export class BoardNav {
  /** @param {import("./board.js").Board} board  the board it drives (its `host` scrolls) */
  constructor(board) {
    this.board = board;
    const host = board.host;
    // A board drawn again into the same host (the lobby's record viewer) replaces its nav.
    const before = host.previousElementSibling;
    if (before && before.classList.contains("board-nav")) before.remove();
    const button = (testid, label, title, fn) => el("button", {
      type: "button", class: "btn small zoom-btn", title, "aria-label": title, dataset: { testid }, onclick: fn,
    }, label);
    this.readout = el("span", { class: "zoom-readout", dataset: { testid: "zoom-level" }, "aria-live": "polite" }, "100%");
    this.strip = svg("svg", {
      class: "overview", "data-testid": "overview", role: "slider", tabindex: "0",
      "aria-label": "overview of the course: click to show that part of the road", preserveAspectRatio: "none",
    });
    this.box = el("div", { class: "board-nav", dataset: { testid: "board-nav" } },
      el("div", { class: "zoom-buttons", role: "group", "aria-label": "zoom" },
        button("zoom-out", "−", "zoom out", () => board.stepZoom(-1)),
        this.readout,
        button("zoom-in", "+", "zoom in", () => board.stepZoom(1)),
        button("zoom-reset", "1:1", "normal size", () => board.setZoom(1))),
      el("div", { class: "overview-wrap" }, this.strip));
    host.parentNode.insertBefore(this.box, host);

    // The strip: a click or a drag centres the road on that row; arrow keys step along.
    const jump = (e) => {
      const rect = this.strip.getBoundingClientRect();
      if (!rect.width || !this.rows) return;
      this.centreOn(((e.clientX - rect.left) / rect.width) * (this.rows + 2) + 0.5);
    };
    this.strip.addEventListener("pointerdown", (e) => {
      jump(e);
      this.strip.setPointerCapture && this.strip.setPointerCapture(e.pointerId);
    });
    this.strip.addEventListener("pointermove", (e) => {
      if (e.buttons & 1) jump(e);
    });
    this.strip.addEventListener("keydown", (e) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
      if (!step) return;
      e.preventDefault();
      host.scrollLeft += step * host.clientWidth * 0.5;
    });
    let queued = false;
    host.addEventListener("scroll", () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        this.update();
      });
    }, { passive: true });
    // Ctrl + wheel (a trackpad's pinch comes as one too) zooms about the pointer.
    host.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const anchor = e.clientX - host.getBoundingClientRect().left;
      // A mouse wheel's notch is a step of the zoom; a trackpad's pinch sends many
      // small deltas, followed smoothly.
      if (Math.abs(e.deltaY) >= 40) board.stepZoom(e.deltaY < 0 ? 1 : -1, anchor);
      else board.setZoom(Math.round(board.zoom * Math.exp(-e.deltaY / 200) * 100) / 100, anchor);
    }, { passive: false });
    // Two fingers on a touch screen: pinch to zoom about their middle.
    let pinch = null;
    const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
    host.addEventListener("touchstart", (e) => {
      if (e.touches.length === 2) pinch = { d: spread(e.touches), zoom: board.zoom };
    }, { passive: true });
    host.addEventListener("touchmove", (e) => {
      if (!pinch || e.touches.length !== 2) return;
      e.preventDefault();
      const mid = (e.touches[0].clientX + e.touches[1].clientX) / 2 - host.getBoundingClientRect().left;
      board.setZoom(Math.round(pinch.zoom * (spread(e.touches) / pinch.d) * 100) / 100, mid);
    }, { passive: false });
    host.addEventListener("touchend", () => {
      pinch = null;
    }, { passive: true });
  }

  /** Scroll the road so that `row` is in the middle of the view. */
  centreOn(row) {
    const b = this.board;
    const r = Math.max(1, Math.min(this.rows + 1, row));
    b.host.scrollLeft = Math.max(0, (b.x(r) + b.cell / 2) * b.zoom - b.host.clientWidth / 2);
    this.update();
  }

  /** Draw the strip's course: one column per row, one line per lane. */
  setCourse(course) {
    const strip = this.strip;
    while (strip.firstChild) strip.removeChild(strip.firstChild);
    this.rows = course.finish - 1;
    this.lanes = course.lanes || 5;
    strip.setAttribute("viewBox", `0 0 ${this.rows + 2} ${this.lanes}`);
    const sections = this.board.sections || {};
    let start = 1;
    for (let r = 1; r <= this.rows; r++) {
      if (r === this.rows || sections[r + 1] !== sections[r]) {
        svg("rect", { x: start - 1, y: 0, width: r - start + 1, height: this.lanes, fill: STRIP_FILL[sections[r]] || "#ddd" }, strip);
        start = r + 1;
      }
    }
    svg("rect", { x: this.rows, y: 0, width: 2, height: this.lanes, class: "ov-finish" }, strip);
    this.dots = svg("g", { class: "ov-riders" }, strip);
    this.frame = svg("rect", { x: 0, y: 0, width: 1, height: this.lanes, class: "ov-window", "data-testid": "overview-window" }, strip);
    this.update();
  }

  /** Riders and the frame of the part in view, after a move, a scroll or a zoom. */
  update() {
    const b = this.board;
    if (!this.frame || !b.course) return;
    this.readout.textContent = `${Math.round(b.zoom * 100)}%`;
    const cellPx = b.cell * b.zoom;
    const from = (b.host.scrollLeft / b.zoom - b.left) / b.cell; // rows hidden on the left
    const shown = b.host.clientWidth / cellPx;
    const x = Math.max(0, from);
    const w = Math.max(0.5, Math.min(this.rows + 2 - x, shown + Math.min(0, from)));
    this.frame.setAttribute("x", x.toFixed(2));
    this.frame.setAttribute("width", w.toFixed(2));
    this.strip.setAttribute("aria-valuemin", "1");
    this.strip.setAttribute("aria-valuemax", String(this.rows));
    this.strip.setAttribute("aria-valuenow", String(Math.max(1, Math.round(x + 1))));
    this.box.dataset.first = String(Math.max(1, Math.floor(x) + 1));
    this.box.dataset.last = String(Math.min(this.rows + 1, Math.floor(x + w)));
    const snap = b.snap;
    if (!snap || snap === this.drawn) return;
    this.drawn = snap;
    while (this.dots.firstChild) this.dots.removeChild(this.dots.firstChild);
    for (const r of snap.riders || []) {
      if (!r.square || r.finished) continue;
      const lane = "abcdefghijklmnopqrstuvwxyz".indexOf(r.square[0]);
      const row = Number(r.square.slice(1));
      svg("rect", {
        x: row - 1 + 0.1, y: lane + 0.1, width: 0.8, height: 0.8, fill: teamColour(r.team),
        class: r.id === snap.current_rider ? "ov-rider current" : "ov-rider", "data-ov-rider": r.id,
      }, this.dots);
    }
  }
}
