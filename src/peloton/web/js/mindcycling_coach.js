// @ts-check
// How the tutorial page (tutorial.js) guides a Mind Cycling move: a lesson's move may
// need the attack toggle pressed before its square sends it, or be a bottle given
// (a button, not a square), and a click on a square the board does not light still
// sends the move it means, so that the engine explains why it is refused. The other
// games need none of this: their moves are a button or a lit square
// (tutorial.js's default coach).

import { clear, el } from "./ui.js";

/** The expected move's parts: {text, rider, square, kind} (square null for a gift or a
 * stay), as the position's legal moves give them (the page reads no notation). */
function parts(snap, text) {
  const legal = (snap && snap.legal) || [];
  const found = legal.find((m) => typeof m === "object" && m.text === text);
  const p = /** @type {{rider?: string, square?: string | null, kind?: string}} */ (found || {});
  return { text, rider: p.rider || null, square: p.square || null, kind: p.kind || null };
}

/** Whether the move needs the attack toggle pressed first: an attack not yet armed,
 * or a plain ride while an attack is armed (its square would send an attack). */
function toggleNeeded(view, want) {
  return Boolean(want.square) && (want.kind === "attack" ? !view.attack : want.kind === "move" && view.attack);
}

export const MindCyclingCoach = {
  /** The move a click on `square` means now: the step's move on its square (its wheel
   * or relay too, and its attack once armed); elsewhere the board's lit move, or a
   * plain ride (an attack in attack mode), which the engine may refuse and explain. */
  clickMove(view, snap, square, text) {
    const rider = snap && snap.current_rider;
    if (!rider) return null;
    const want = text ? parts(snap, text) : null;
    if (want && want.square === square && (want.kind === "wheel" || want.kind === "relay" || want.kind === (view.attack ? "attack" : "move"))) {
      return want.text;
    }
    const target = view.targets(snap, true).get(square);
    return target && target.text ? target.text : `${rider}-${square}${view.attack ? "!" : ""}`;
  },

  /** The squares and buttons to light for the step's move `text`, and beside "Your
   * move" the button the move needs when it is not a square of the board (a bottle
   * given) or starts with one (the attack toggle). */
  guide(view, snap, text, { box, controls, send, redraw }) {
    const want = parts(snap, text);
    const square = want.square && view.board.squares[want.square];
    if (square && this.clickMove(view, snap, want.square, text) === text) square.classList.add("lesson-target");
    const toggle = controls.querySelector("[data-testid=attack-toggle]");
    if (toggle && toggleNeeded(view, want)) toggle.classList.add("lesson-target");
    clear(box);
    if (want.kind === "give") {
      box.append(el("button", {
        type: "button", class: "btn small lesson-target", dataset: { testid: "ask-give" },
        onclick: () => send(text),
      }, `Give bottle to ${text.split(">")[1]}`));
    } else if (want.kind === "attack" || toggleNeeded(view, want)) {
      box.append(el("button", {
        type: "button", class: `btn small attack-toggle ${view.attack ? "on" : ""} ${toggleNeeded(view, want) ? "lesson-target" : ""}`,
        "aria-pressed": view.attack ? "true" : "false", dataset: { testid: "ask-attack" },
        onclick: () => {
          view.attack = !view.attack;
          redraw();
        },
      }, view.attack ? "Cancel attack" : "Attack!"));
      const next = toggleNeeded(view, want) ? ` first: then the square ${want.square} lights up` : ` then the lit square ${want.square}`;
      box.append(el("span", { class: "small", dataset: { testid: "ask-then" } }, next));
    }
    return want.square ? [want.square] : [];
  },

  /** A new step: no attack armed. */
  reset(view) {
    view.attack = false;
  },

  /** The result panel shows as soon as a medal is won (the sprint's, mid-race). */
  resultShown(snap) {
    return Boolean(snap.is_over || (snap.result && Object.keys(snap.result.medals || {}).length));
  },
};
