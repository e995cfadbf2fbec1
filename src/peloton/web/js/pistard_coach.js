// @ts-check
// How the tutorial page (tutorial.js) guides a Pistard ride: a ride is a die, then a
// square, so until the asked move's die is chosen its die button is lit; once chosen,
// the lit square that sends the move is.

/** The ride the step asks for, as the snapshot gives its parts (`legal_moves`). */
function ride(snap, text) {
  const moves = /** @type {{text: string, kind?: string, die?: number, end?: string}[]} */ (snap.legal_moves || []);
  return moves.find((m) => m.text === text) || null;
}

export const PistardCoach = {
  clickMove(view, snap, square, _text) {
    return view.clickSquare(snap, square);
  },

  guide(view, snap, text, { controls }) {
    const m = ride(snap, text);
    if (!m || m.kind !== "ride" || !m.end) return [];
    if (view.die !== m.die) {
      const die = controls.querySelector(`[data-testid=die-button][data-die="${m.die}"]`);
      if (die) die.classList.add("lesson-target");
      return [m.end];
    }
    for (const node of view.host.querySelectorAll(`[data-square="${CSS.escape(m.end)}"]`)) node.classList.add("lesson-target");
    return [m.end];
  },

  reset(view) {
    view.die = null;
  },

  resultShown(snap) {
    return Boolean(snap.is_over);
  },
};
