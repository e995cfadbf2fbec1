// @ts-check
// Every game's view, by the game's name (GET /api/games): the one list the table page,
// the replay viewer and the lobby choose from. What a view is: gameview.js.

import { CycloView } from "./cyclo.js";
import { GameView } from "./gameview.js";
import { MindCyclingView } from "./mindcycling.js";
import { MindTwistView } from "./mindtwist.js";
import { PistardView } from "./pistard.js";

export const VIEWS = { cyclo: CycloView, "mind-cycling": MindCyclingView, "mind-twist": MindTwistView, pistard: PistardView };

/** The view class of `game` (the defaults of GameView for a game without one: its
 * table still plays by its snapshot's moves, with nothing drawn). */
export function viewOf(game) {
  return VIEWS[game] || GameView;
}

/** Give each view its game's entry of GET /api/games (`GameView.know`). */
export function knowGames(games) {
  for (const g of games || []) if (VIEWS[g.name]) VIEWS[g.name].know(g);
}
