// @ts-check
// The rules everywhere in the web front end:
//
// * on a table page, a Rules panel that opens beside the board (a drawer on the right;
//   the whole screen on a phone) without leaving the game: the same content as the
//   rules page, fetched the first time it opens, diagrams drawn by the game's own view;
//   closable (its button, Escape);
// * rule ids shown to users (option helps, error messages, hints) turned into links to
//   their rule: on a table page a link opens the panel at the rule, elsewhere it leads
//   to the rules page;
// * terms (`data-term`) explained on hover and tap (terms.js).
//
// It is loaded as its own module by the lobby and the table page and reads the table's
// game from the page root's `data-game` (set by table.js), so the pages need no change
// beyond loading it.

import { ruleAnchor, showRules } from "./rules.js";
import { decorateTerms, hideTerm } from "./terms.js";

const RULE_ID = /\b([A-Z]{2})-(\d+(?:\.\d+)*)\b/g;
const SKIP = "a, button, select, option, textarea, input, svg, script, style, code, .rules-drawer";

let prefixes = null; // prefix -> game, from /api/rules
let drawer = null;
let loaded = null; // the game whose rules the drawer holds
let loading = null;

function rulesIndex() {
  if (!prefixes) {
    prefixes = fetch("/api/rules").then((r) => (r.ok ? r.json() : { games: [] })).then((d) => {
      const out = {};
      for (const g of d.games || []) if (g.prefix) out[g.prefix] = g.name;
      return out;
    }).catch(() => ({}));
  }
  return prefixes;
}

const tableRoot = () => /** @type {HTMLElement} */ (document.querySelector("body.table-page #root"));
const tableGame = () => (tableRoot() && tableRoot().dataset.game) || "";

/** Wrap each rule id in the text under `root` in a link to its rule (ids of games
 * without a rules page stay text). */
export async function linkifyRules(root) {
  const games = await rulesIndex();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      RULE_ID.lastIndex = 0;
      if (!RULE_ID.test(node.nodeValue)) return NodeFilter.FILTER_REJECT;
      return node.parentElement && node.parentElement.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
    },
  });
  /** @type {Text[]} */
  const found = [];
  while (walker.nextNode()) found.push(/** @type {Text} */ (walker.currentNode));
  for (const node of found) {
    const text = node.nodeValue;
    const parts = [];
    let last = 0;
    RULE_ID.lastIndex = 0;
    for (let m = RULE_ID.exec(text); m; m = RULE_ID.exec(text)) {
      const game = games[m[1]];
      if (!game) continue;
      parts.push(text.slice(last, m.index));
      const link = document.createElement("a");
      link.className = "rule-link";
      link.href = `/rules/${game}#${m[0]}`;
      link.dataset.rule = m[0];
      link.dataset.game = game;
      link.textContent = m[0];
      parts.push(link);
      last = m.index + m[0].length;
    }
    if (!parts.length) continue;
    parts.push(text.slice(last));
    node.replaceWith(...parts.filter((p) => p !== ""));
  }
}

function buildDrawer() {
  drawer = document.createElement("aside");
  drawer.className = "rules-drawer";
  drawer.id = "rules-drawer";
  drawer.setAttribute("aria-label", "Rules");
  drawer.dataset.testid = "rules-panel";
  drawer.hidden = true;
  drawer.innerHTML = `<div class="rules-drawer-head"><h2 id="rules-drawer-title">Rules</h2>
    <a class="btn small" id="rules-full" target="_blank" rel="noopener">Full page</a>
    <button type="button" class="btn small" id="rules-close" data-testid="rules-close" aria-label="Close the rules">×</button></div>
    <div class="rules-drawer-body rules-text" id="rules-body" tabindex="-1"></div>`;
  document.body.append(drawer);
  drawer.querySelector("#rules-close").addEventListener("click", closeRules);
  drawer.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeRules();
  });
  drawer.addEventListener("click", (e) => {
    const link = /** @type {Element} */ (e.target).closest("a[href^='#']");
    if (!link) return;
    e.preventDefault();
    goTo(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  return drawer;
}

function goTo(id) {
  const body = drawer.querySelector("#rules-body");
  const anchor = id ? ruleAnchor(body, id) : null;
  if (anchor) {
    anchor.scrollIntoView({ block: "start" });
    anchor.classList.add("rule-flash");
    setTimeout(() => anchor.classList.remove("rule-flash"), 1500);
  } else {
    body.scrollTop = 0;
  }
  drawer.dataset.rule = id || "";
}

/** Open the Rules panel of `game` (default: the table's), at rule `id` if given. */
export async function openRules(game = tableGame(), id = "") {
  if (!game) return;
  if (!drawer) buildDrawer();
  drawer.hidden = false;
  document.body.classList.add("rules-open");
  const toggle = document.getElementById("rules-toggle");
  if (toggle) toggle.setAttribute("aria-expanded", "true");
  if (loaded !== game) {
    const body = drawer.querySelector("#rules-body");
    body.textContent = "Loading the rules…";
    loading = loading || fetch(`/api/rules/${encodeURIComponent(game)}`).then((r) => {
      if (!r.ok) throw new Error(`no rules page for ${game}`);
      return r.json();
    });
    try {
      const data = await loading;
      showRules(body, data);
      drawer.querySelector("#rules-drawer-title").textContent = `${data.title}: rules`;
      loaded = game;
    } catch (e) {
      body.textContent = e.message;
      return;
    } finally {
      loading = null;
    }
  }
  drawer.querySelector("#rules-full").href = `/rules/${game}${id ? `#${id}` : ""}`;
  goTo(id);
  if (!id) drawer.querySelector("#rules-body").focus({ preventScroll: true });
}

/** Close the Rules panel; the board has its room back. */
export function closeRules() {
  if (!drawer) return;
  drawer.hidden = true;
  document.body.classList.remove("rules-open");
  const toggle = document.getElementById("rules-toggle");
  if (toggle) {
    toggle.setAttribute("aria-expanded", "false");
    toggle.focus({ preventScroll: true });
  }
  hideTerm();
}

function install() {
  decorateTerms(document.body);
  const main = document.querySelector("main");
  if (main) {
    linkifyRules(main);
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        linkifyRules(main);
      });
    }).observe(main, { childList: true, subtree: true, characterData: true });
  }
  if (!tableRoot()) return; // the lobby: rule links lead to the rules pages
  const toggle = document.getElementById("rules-toggle");
  if (toggle) {
    toggle.addEventListener("click", () => {
      if (drawer && !drawer.hidden) closeRules();
      else openRules();
    });
  }
  // On a table, a link to a rule of this game opens the panel, and the game goes on.
  document.addEventListener("click", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const link = /** @type {HTMLElement} */ (target.closest && target.closest("a.rule-link[data-rule]"));
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const game = link.dataset.game || tableGame();
    if (game !== tableGame()) return;
    e.preventDefault();
    hideTerm();
    openRules(game, link.dataset.rule);
  });
}

install();
