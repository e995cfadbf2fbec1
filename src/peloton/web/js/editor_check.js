// @ts-check
// The course editor's live check: the draft is sent to POST /api/editor/check a moment
// after the last change, one request at a time (the server counts a client's checks
// in progress, and an answer to an older draft would only be thrown away), and each
// answer is kept with the draft it is about.

import { api } from "./api.js";
import { normal, same } from "./editor_model.js";

const RETRY = 2000; // ms before a check that could not be made is tried again

export class LiveCheck {
  /**
   * @param {() => object} current  the draft shown now
   * @param {() => void} onAnswer  called when the answer for the draft shown comes
   * @param {number} delay  ms after the last change before the draft is sent
   */
  constructor(current, onAnswer, delay = 300) {
    this.current = current;
    this.onAnswer = onAnswer;
    this.delay = delay;
    this.seq = 0; // changes so far
    this.answered = -1; // the change the last answer (or failure) is about
    this.last = null; // {answer..., checked: the draft sent}
    this.failed = null; // the message of the last failure
    this.busy = false;
    this.timer = null;
    this.retry = null;
    this.waiters = [];
  }

  /** The draft changed: check it once the changes stop. */
  schedule() {
    clearTimeout(this.retry);
    this.seq += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), this.delay);
  }

  /** The last answer, when it is about the draft shown now. */
  answer() {
    return this.last && same(this.last.checked, this.current()) ? this.last : null;
  }

  /** "checking", "failed", "valid" or "invalid". */
  status() {
    if (this.answered !== this.seq) return "checking";
    if (this.failed) return "failed";
    const answer = this.answer();
    return answer && answer.ok ? "valid" : "invalid";
  }

  /** The answer for the draft shown now, checked at once if it was not yet. */
  now() {
    if (this.answer() && this.answered === this.seq) return Promise.resolve(this.answer());
    clearTimeout(this.timer);
    const done = new Promise((resolve) => this.waiters.push(() => resolve(this.answer())));
    this.run();
    return done;
  }

  /** Check the draft shown again (after a failure). */
  again() {
    this.seq += 1;
    this.run();
  }

  async run() {
    if (this.busy) return; // the answer in flight sends the next check
    const seq = this.seq;
    const checked = normal(this.current());
    this.busy = true;
    try {
      const answer = await api("POST", "/api/editor/check", { course: checked });
      this.last = { ...answer, checked };
      this.failed = null;
    } catch (e) {
      this.failed = e.message;
      // Busy (another check of this client in progress) or out of reach: try again
      // shortly, so that the draft shown is checked without another change.
      if (e.status === 429 || e.status === 0) this.retry = setTimeout(() => this.seq === seq && this.again(), RETRY);
    } finally {
      this.busy = false;
      this.answered = seq;
    }
    if (this.seq !== seq) {
      clearTimeout(this.timer);
      this.run();
      return;
    }
    this.onAnswer();
    for (const wake of this.waiters.splice(0)) wake();
  }
}
