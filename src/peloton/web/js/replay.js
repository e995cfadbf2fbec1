// Replay viewer: steps through `{moves, snapshots}` (GET /api/tables/{id}/replay or
// POST /api/replay) move by move and round by round, drawing each position on a Board
// (Mind Cycling) or on another game's view (`view`: Mind Twist, Pistard).

import { el, clear, renderLog, renderResult, logFromReplay } from "./ui.js";

export class ReplayViewer {
  /**
   * @param {object} parts  {board, controls, log, result, status}: the Board and the
   *                        elements the viewer fills.
   * @param {object} data   the replay answer: moves and the snapshot before each move
   *                        and after the last one.
   */
  constructor(parts, data, { table = null, onShow = null, view = null } = {}) {
    this.onShow = onShow;
    this.parts = parts;
    this.view = view;
    this.moves = data.moves || [];
    this.snapshots = data.snapshots || [];
    this.entries = logFromReplay(data, view ? (snap, i) => view.roundOf(snap, i) : null);
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
    const round = (i) => (this.view ? this.view.roundOf(this.snapshots[i], i) : this.snapshots[i].round);
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
    if (this.view) {
      this.showView(snap);
      return;
    }
    const last = this.index > 0 ? this.moves[this.index - 1] : null;
    const hints = [];
    if (last) {
      const m = /^[A-G][DSC]\d-([a-z]\d+)/.exec(last);
      if (m) hints.push(m[1]);
    }
    this.parts.board.render(snap, { hints });
    this.parts.board.scrollToAction(snap, { squares: hints });
    this.slider.value = String(this.index);
    const phase = snap.phase === "setup" ? "setup" : snap.phase === "over" ? "finished" : `round ${snap.round}`;
    this.where.textContent = `move ${this.index} / ${this.moves.length} · ${phase}${last ? ` · last: ${last}` : ""}`;
    this.parts.root && (this.parts.root.dataset.replayIndex = String(this.index));
    renderLog(this.parts.log, this.entries, { current: this.index - 1, onPick: (i) => this.go(i + 1) });
    if (this.parts.result) renderResult(this.parts.result, snap.result, { table: this.table, teams: snap.teams });
    if (this.onShow) this.onShow(snap);
  }

  showView(snap) {
    const view = this.view;
    const last = this.index > 0 ? this.moves[this.index - 1] : null;
    const end = last && /[:+]([a-d]\d+)$/.exec(last); // a Pistard rider's end square
    view.render(snap, { hints: end ? [end[1]] : [] });
    this.slider.value = String(this.index);
    const over = snap.is_over || snap.phase === "over";
    this.where.textContent = `move ${this.index} / ${this.moves.length}${over ? " · finished" : ""}${last ? ` · last: ${last}` : ""}`;
    if (this.parts.root) this.parts.root.dataset.replayIndex = String(this.index);
    renderLog(this.parts.log, this.entries, {
      current: this.index - 1, onPick: (i) => this.go(i + 1), head: (r) => view.logHead(r),
    });
    if (this.parts.result) view.result(this.parts.result, snap, { table: this.table });
    if (this.onShow) this.onShow(snap);
  }
}
