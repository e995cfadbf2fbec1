// @ts-check
// Replay viewer: steps through `{moves, snapshots}` (GET /api/tables/{id}/replay or
// POST /api/replay) move by move and round by round, drawing each position with the
// game's view (views.js). Keys: ← → a move, Home End the start and the end, space
// plays the moves one after another (and pauses); not while typing in a field.

/** Milliseconds between two moves when the replay plays by itself. */
const PLAY_EVERY = 800;

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
    this.timer = null;
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.buildControls();
  }

  /** Forget the keys and stop playing (the viewer is left). */
  stop() {
    this.pause();
    document.removeEventListener("keydown", this.onKey);
  }

  key(event) {
    if (!this.parts.controls.isConnected || this.parts.controls.hidden) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const steps = {
      ArrowLeft: () => this.go(this.index - 1),
      ArrowRight: () => this.go(this.index + 1),
      Home: () => this.go(0),
      End: () => this.go(this.snapshots.length - 1),
      " ": () => this.toggle(),
    };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    if (event.key !== " ") this.pause();
    step();
  }

  get playing() {
    return this.timer !== null;
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Play the moves one after another from here (from the start when at the end). */
  play() {
    if (this.playing) return;
    if (this.index >= this.snapshots.length - 1) this.go(0);
    this.timer = setInterval(() => {
      if (this.index >= this.snapshots.length - 1) this.pause();
      else this.go(this.index + 1);
    }, PLAY_EVERY);
    this.showPlaying();
  }

  pause() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.showPlaying();
  }

  showPlaying() {
    if (!this.playButton) return;
    this.playButton.textContent = this.playing ? "❚❚ pause" : "▶ play";
    this.playButton.setAttribute("aria-pressed", this.playing ? "true" : "false");
    if (this.parts.root) this.parts.root.dataset.replayPlaying = this.playing ? "true" : "false";
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
    this.playButton = button("replay-play", "▶ play", "play the moves one by one (space)", () => this.toggle());
    box.append(
      el("div", { class: "replay-buttons" },
        button("replay-first", "|‹ start", "start (Home)", () => this.go(0)),
        button("replay-prev-round", "« round", "previous round", () => this.stepRound(-1)),
        button("replay-prev", "‹ move", "previous move (←)", () => this.go(this.index - 1)),
        this.playButton,
        button("replay-next", "move ›", "next move (→)", () => this.go(this.index + 1)),
        button("replay-next-round", "round »", "next round", () => this.stepRound(1)),
        button("replay-last", "end ›|", "end (End)", () => this.go(this.snapshots.length - 1))),
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
    const hints = view.hints(last, snap);
    view.render(snap, { hints });
    view.focus(snap, hints);
    this.slider.value = String(this.index);
    const said = this.index > 0 && this.entries[this.index - 1] ? this.entries[this.index - 1].sentence : null;
    this.where.textContent = `move ${this.index} / ${this.moves.length} · ${view.status(snap)}${last ? ` · last: ${said || last}` : ""}`;
    this.where.title = last ? last : "";
    if (this.parts.root) this.parts.root.dataset.replayIndex = String(this.index);
    renderLog(this.parts.log, this.entries, {
      current: this.index - 1, onPick: (i) => this.go(i + 1), head: (r) => view.logHead(r),
    });
    if (this.parts.result) view.result(this.parts.result, snap, { table: this.table });
    if (this.onShow) this.onShow(snap);
  }
}
