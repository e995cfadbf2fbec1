// @ts-check
// A game's rules drawn into the page: the server's HTML of the rules page (rendered from
// Markdown on the server, raw HTML escaped) and each diagram drawn by the game's own
// view, the class a live table draws with (views.js), from the snapshot the server
// built through the game's API. Used by the rules page (rules_page.js) and by the
// table's Rules panel (rules_panel.js).

import { setTeamColours } from "./ui.js";
import { viewOf } from "./views.js";

/** Draw every `figure[data-diagram]` inside `root` from `data.diagrams`. A diagram
 * that fails to draw says so in its figure instead of breaking the page. */
export function drawDiagrams(root, data) {
  const View = viewOf(data.game);
  if (View.colours) setTeamColours(View.colours);
  for (const figure of root.querySelectorAll("figure[data-diagram]")) {
    const diagram = data.diagrams[Number(figure.dataset.diagram)];
    const host = figure.querySelector(".diagram-board");
    if (!diagram || !host || host.dataset.drawn) continue;
    host.dataset.drawn = "1";
    host.classList.add("board-scroll");
    const view = new View(host, {});
    view.setTable(diagram.table);
    view.render(diagram.snapshot, { targets: new Map(), hints: diagram.highlight || [], mine: null });
    // A board that scrolls (Mind Cycling's road) shows the riders, as a table would.
    view.focus(diagram.snapshot, diagram.highlight || []);
    // The table's own board keeps its test id to itself.
    for (const node of host.querySelectorAll("[data-testid]")) node.dataset.testid = `diagram-${node.dataset.testid}`;
    figure.dataset.position = diagram.position;
  }
}

/** Fill `host` with the rules page `data` (from /api/rules/{game} or the page's own
 * JSON) and draw its diagrams. */
export function showRules(host, data) {
  host.innerHTML = data.html;
  host.dataset.game = data.game;
  drawDiagrams(host, data);
}

/** The anchor element of rule `id` inside `root` (ids hold dots: no CSS selector). */
export function ruleAnchor(root, id) {
  for (const node of root.querySelectorAll("[id]")) if (node.id === id) return node;
  return null;
}
