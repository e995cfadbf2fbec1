// @ts-check
// Terms that explain themselves: any element carrying `data-term="key"` (a rider state,
// a move, a bonus, a panel's title) shows the game's explanation of that term on hover,
// on keyboard focus and on tap, with a link to the rule behind it. The terms come from
// /api/rules/{game}/terms (the game's <game>.terms.toml), fetched once per game.
//
// Accessible: a decorated element is focusable and `aria-describedby` a hidden text of
// the explanation; the visible tip is `role="tooltip"`; Escape closes it. The game of a
// term is its element's `data-term-game`, else the nearest `data-game` around it (the
// table page's root), else the game given to decorateTerms.

const fetched = new Map();
let tip = null;
let shownFor = null;
let lastPointer = "mouse";
let hideTimer = null;
let fallbackGame = "";

/** The terms of `game` ({key: {name, says, rule, href}}), fetched once; {} if none. */
export function termsOf(game) {
  if (!game) return Promise.resolve({});
  if (!fetched.has(game)) {
    fetched.set(game, fetch(`/api/rules/${encodeURIComponent(game)}/terms`)
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({})));
  }
  return fetched.get(game);
}

function gameOf(node) {
  if (node.dataset.termGame) return node.dataset.termGame;
  const around = node.closest("[data-game]");
  return (around && around.dataset.game) || fallbackGame;
}

function descriptions() {
  let box = document.getElementById("term-descriptions");
  if (!box) {
    box = document.createElement("div");
    box.id = "term-descriptions";
    box.hidden = true;
    document.body.append(box);
  }
  return box;
}

async function decorate(node) {
  const game = gameOf(node);
  const key = node.dataset.term;
  if (!game || !key || node.dataset.termReady === `${game}/${key}`) return;
  const terms = await termsOf(game);
  const term = terms[key];
  if (!term) return;
  node.dataset.termReady = `${game}/${key}`;
  node.classList.add("term");
  const interactive = node.matches("a[href], button, input, select, textarea, [tabindex]");
  if (!interactive) node.tabIndex = 0;
  const id = `term-${game}-${key}`;
  if (!document.getElementById(id)) {
    const text = document.createElement("span");
    text.id = id;
    text.textContent = `${term.name}: ${term.says} (rule ${term.rule})`;
    descriptions().append(text);
  }
  const ids = (node.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
  if (!ids.includes(id)) node.setAttribute("aria-describedby", [...ids, id].join(" "));
}

function ensureTip() {
  if (tip) return tip;
  tip = document.createElement("div");
  tip.className = "term-tip";
  tip.id = "term-tip";
  tip.setAttribute("role", "tooltip");
  tip.dataset.testid = "term-tip";
  tip.hidden = true;
  tip.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  tip.addEventListener("mouseleave", () => hideSoon());
  document.body.append(tip);
  return tip;
}

/** Show the explanation of `node`'s term beside it. */
export async function showTerm(node) {
  const game = gameOf(node);
  const term = (await termsOf(game))[node.dataset.term];
  if (!term) return;
  clearTimeout(hideTimer);
  const box = ensureTip();
  box.replaceChildren();
  const name = document.createElement("strong");
  name.textContent = term.name;
  const says = document.createElement("p");
  says.textContent = term.says;
  const link = document.createElement("a");
  link.href = term.href;
  link.className = "rule-link";
  link.dataset.rule = term.rule;
  link.dataset.game = game;
  link.textContent = `Rule ${term.rule} →`;
  box.append(name, says, link);
  box.dataset.term = node.dataset.term;
  box.hidden = false;
  shownFor = node;
  const r = node.getBoundingClientRect();
  const width = Math.min(300, window.innerWidth - 16);
  box.style.width = `${width}px`;
  const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
  box.style.left = `${left}px`;
  const below = r.bottom + 6;
  box.style.top = `${below}px`;
  const height = box.getBoundingClientRect().height;
  if (below + height > window.innerHeight - 8 && r.top - height - 6 > 8) box.style.top = `${r.top - height - 6}px`;
}

/** Hide the explanation shown. */
export function hideTerm() {
  clearTimeout(hideTimer);
  if (tip) tip.hidden = true;
  shownFor = null;
}

function hideSoon() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideTerm, 250);
}

let installed = false;

/** Decorate every `[data-term]` under `root`, now and as the page changes; `game` is the
 * game of terms with none around them. */
export function decorateTerms(root = document.body, game = "") {
  if (game) fallbackGame = game;
  for (const node of root.querySelectorAll("[data-term]")) decorate(node);
  if (installed) return;
  installed = true;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const added of change.addedNodes) {
        if (!(added instanceof Element)) continue;
        if (added.matches("[data-term]")) decorate(added);
        for (const node of added.querySelectorAll("[data-term]")) decorate(node);
      }
      const target = /** @type {Element} */ (change.target); // an attribute's change is an element's
      if (change.type === "attributes" && target.matches("[data-term]")) decorate(target);
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-term", "data-game"] });
  document.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType || "mouse";
  }, true);
  document.addEventListener("mouseover", (e) => {
    if (lastPointer === "touch") return; // a tap's emulated hover: the click decides
    const target = /** @type {Element} */ (e.target);
    const node = target.closest && target.closest("[data-term].term");
    if (node && node !== shownFor) showTerm(node);
    else if (!node && shownFor && !(tip && tip.contains(e.target))) hideSoon();
  });
  document.addEventListener("focusin", (e) => {
    if (lastPointer === "touch") return; // a tap focuses too: the click shows the tip
    const target = /** @type {Element} */ (e.target);
    const node = target.closest && target.closest("[data-term].term");
    if (node) showTerm(node);
  });
  document.addEventListener("focusout", (e) => {
    if (e.target === shownFor && lastPointer !== "touch") hideSoon();
  });
  document.addEventListener("click", (e) => {
    const target = /** @type {Element} */ (e.target);
    const node = target.closest && target.closest("[data-term].term");
    if (node && lastPointer === "touch") {
      showTerm(node);
    } else if (!node && tip && !tip.contains(e.target)) {
      hideTerm();
    }
  });
  document.addEventListener("keydown", (e) => {
    lastPointer = "keyboard";
    if (e.key === "Escape" && shownFor) hideTerm();
  });
}
