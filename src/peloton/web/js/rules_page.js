// @ts-check
// The rules page (/rules/{game}): its diagrams drawn by the game's board renderer, its
// terms explained on hover and tap, and the anchor of the address's rule id in view
// once the diagrams have taken their room.

import { drawDiagrams, ruleAnchor } from "./rules.js";
import { decorateTerms } from "./terms.js";

const data = JSON.parse(document.getElementById("rules-data").textContent);
const text = document.querySelector(".rules-text");
drawDiagrams(text, data);
decorateTerms(document.body, data.game);
const id = decodeURIComponent(location.hash.slice(1));
if (id) {
  const anchor = ruleAnchor(document, id);
  if (anchor) anchor.scrollIntoView();
}
