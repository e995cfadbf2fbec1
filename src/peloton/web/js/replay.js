// Replay viewer: steps through `{moves, snapshots}` (GET /api/tables/{id}/replay or
// POST /api/replay) move by move and round by round, drawing each position with the
// game's view (views.js).

import { el, clear, renderLog, logFromReplay } from "./ui.js";

export class ReplayViewer {
  /**
   * @param {object} parts  {controls, log, result, root}: the elements the viewer fills
   *                        (`root` gets `data-replay-index`).
   * @param {object} data   the replay answer: moves and the snapshot before each move
   *                        and after the last one.
   * @param {object} options {view, table, onShow}: the game's view (already given the
   *                        table), the table summary, and a callback after each step.
   */
  constructor(parts, data, { view, table = null, onShow = null }) {
    this.onShow = onShow;
    this.parts = parts;
    this.view = view;
    this.moves = data.moves || [];
    this.snapshots = data.snapshots || [];
    this.entries = logFromReplay(data, (snap, i) => view.roundOf(snap, i));
    this.table = table;
    this.index = this.snapshots.length - 1; // position after `index` moves
    this.buildControls();
  }

  buildControls() {
    const box = clear(this.parts.controls);
    const button = (testid, label, title, fn) =>
      el("button", { type: "button", class: "btn small", title, "aria-label": title, dataset: { testid }, onclick: fn }, label);
    this.slider = el("input", {
      type: "range", min: "0", max: String(Math.max(0, this.snapshots.length - 1)), value: String(this.index),
      dataset: { testid: "replay-slider" }, "aria-label": "position",
      oninput: (e) => this.go(Number(e.target.value)),
    });
    this.where = el("span", { class: "replay-where", dataset: { testid: "replay-position" } });
    box.append(
      el("div", { class: "replay-buttons" },
        button("replay-first", "|‹ start", "start", () => this.go(0)),
        button("replay-prev-round", "« round", "previous round", () => this.stepRound(-1)),
        button("replay-prev", "‹ move", "previous move", () => this.go(this.index - 1)),
        button("replay-next", "move ›", "next move", () => this.go(this.index + 1)),
        button("replay-next-round", "round »", "next round", () => this.stepRound(1)),
        button("replay-last", "end ›|", "end", () => this.go(this.snapshots.length - 1))),
      this.slider,
      this.where,
    );
  }

  get snapshot() {
    return this.snapshots[this.index];
  }

  go(i) {
    if (!this.snapshots.length) return;
    this.index = Math.max(0, Math.min(this.snapshots.length - 1, i));
    this.show();
  }

  /** To the first position of the next round (dir 1) or of this/the previous round (dir -1). */
  stepRound(dir) {
    const round = (i) => this.view.roundOf(this.snapshots[i], i);
    let i = this.index;
    if (dir > 0) {
      const r = round(i);
      while (i < this.snapshots.length - 1 && round(i) === r) i++;
    } else {
      const r = round(i);
      // If we are past this round's start, go to it; otherwise to the previous round's start.
      while (i > 0 && round(i - 1) === r) i--;
      if (i === this.index && i > 0) {
        i--;
        const p = round(i);
        while (i > 0 && round(i - 1) === p) i--;
      }
    }
    this.go(i);
  }

  show() {
    const snap = this.snapshot;
    if (!snap) return;
    const view = this.view;
    const last = this.index > 0 ? this.moves[this.index - 1] : null;
    const hints = view.hints(last);
    view.render(snap, { hints });
    view.focus(snap, hints);
    this.slider.value = String(this.index);
    this.where.textContent = `move ${this.index} / ${this.moves.length} · ${view.status(snap)}${last ? ` · last: ${last}` : ""}`;
    if (this.parts.root) this.parts.root.dataset.replayIndex = String(this.index);
    renderLog(this.parts.log, this.entries, {
      current: this.index - 1, onPick: (i) => this.go(i + 1), head: (r) => view.logHead(r),
    });
    if (this.parts.result) view.result(this.parts.result, snap, { table: this.table });
    if (this.onShow) this.onShow(snap);
  }
}
