// @ts-check
// How the tutorial page (tutorial.js) guides a Cyclo ride: a ride that spends tokens
// is a token choice, then a space (or its ride button), so until the asked ride's
// tokens are chosen their button is lit; once chosen, the ride's own button and space
// are (tutorial.js's default guide).

/** The ride the step asks for, as the snapshot gives its parts (`rides`). */
function ride(snap, text) {
  const rides = /** @type {{text: string, tokens: string, target: string}[]} */ (snap.rides || []);
  return rides.find((r) => r.text === text) || null;
}

export const CycloCoach = {
  clickMove(view, snap, square, _text) {
    return view.clickSquare(snap, square);
  },

  guide(view, snap, text, { controls }) {
    const r = ride(snap, text);
    if (r && view.token !== r.tokens) {
      const button = controls.querySelector(`[data-testid=token-button][data-token="${r.tokens || "none"}"]`);
      if (button) button.classList.add("lesson-target");
      return [];
    }
    const lit = [];
    for (const [square, target] of view.targets(snap, true)) {
      if (target.text !== text) continue;
      lit.push(square);
      for (const node of view.host.querySelectorAll(`[data-square="${CSS.escape(square)}"]`)) node.classList.add("lesson-target");
    }
    return lit;
  },

  reset(view) {
    view.token = null;
  },

  resultShown(snap) {
    return Boolean(snap.is_over);
  },
};
