// @ts-check
// The profile page: `/profile` (this device's profile: make one, move its key, sign
// out) and `/players/{name}` (a player's ratings and games, finished and running).

import { api } from "./api.js";
import { canSign, createProfile, exportCode, exportLink, forgetProfile, importCode, storedProfile } from "./profile_keys.js";
import { clear, el } from "./ui.js";

const $ = (id) => document.getElementById(id);

function error(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

/** The player the page shows: the one in the address, else this device's. */
function shownName() {
  const match = location.pathname.match(/^\/players\/([^/]+)$/);
  if (match) return decodeURIComponent(match[1]);
  const mine = storedProfile();
  return mine ? mine.name : null;
}

async function busy(button, work) {
  button.disabled = true;
  error(null);
  try {
    await work();
  } catch (e) {
    error(e.message);
  } finally {
    button.disabled = false;
  }
}

function renderNewProfile(box) {
  const name = el("input", { type: "text", id: "profile-name", maxlength: "24", placeholder: "e.g. Eddy_M", autocomplete: "nickname", dataset: { testid: "profile-name" } });
  const create = el("button", { type: "submit", class: "btn primary", dataset: { testid: "create-profile" } }, "Create my profile");
  const code = el("textarea", { class: "code", id: "import-code", "aria-label": "profile code", placeholder: "paste the code shown on your other device", dataset: { testid: "import-code" } });
  const take = el("button", { type: "button", class: "btn", dataset: { testid: "import-profile" } }, "Use this profile here");
  box.append(
    el("form", { onsubmit: (event) => { event.preventDefault(); busy(create, async () => { await createProfile(name.value.trim()); await show(); }); } },
      el("p", { class: "hint" }, "Pick your name once: 2 to 24 letters, digits, '-', '_' or '.'. Your browser keeps the key that proves it; there is no password. Seats you take signed in count for your ratings."),
      el("label", { class: "field" }, el("span", {}, "Your name"), name),
      el("div", { class: "row" }, create)),
    el("h3", {}, "Already have a profile on another device?"),
    el("p", { class: "hint" }, "Open its link here, or paste its code (shown on that device, under “Move to another device”)."),
    code,
    el("div", { class: "row" }, take),
  );
  take.addEventListener("click", () => busy(take, async () => { await importCode(code.value); await show(); }));
  if (!canSign()) {
    create.disabled = take.disabled = true;
    error("Profiles need a browser that can make keys here: open the site over https (or on localhost).");
  }
}

function renderSignedIn(box, mine) {
  const code = el("textarea", { class: "code", readonly: true, "aria-label": "your profile code", dataset: { testid: "export-code" } }, exportCode(mine));
  const link = el("input", { type: "text", readonly: true, "aria-label": "your profile link", value: exportLink(mine), dataset: { testid: "export-link" } });
  const moving = el("div", { hidden: true, dataset: { testid: "export" } },
    el("p", { class: "hint" }, "This code is your key: whoever has it can play as you. Open the link, or paste the code, on your other device."),
    el("label", { class: "field" }, el("span", {}, "Link"), link),
    code);
  const reveal = el("button", { type: "button", class: "btn", dataset: { testid: "show-export" } }, "Move to another device");
  reveal.addEventListener("click", () => { moving.hidden = !moving.hidden; });
  const out = el("button", { type: "button", class: "btn ghost small", dataset: { testid: "forget-profile" } }, "Remove from this device");
  out.addEventListener("click", () => {
    if (!confirm(`Remove ${mine.name}'s key from this browser? Without its code you cannot sign in as ${mine.name} here again.`)) return;
    if (mine.session) api("POST", "/api/profiles/sign-out", { session: mine.session }).catch(() => {});
    forgetProfile();
    show();
  });
  box.append(
    el("p", {}, "Signed in as ", el("a", { href: `/players/${encodeURIComponent(mine.name)}`, dataset: { testid: "signed-in-as" } }, mine.name), "."),
    el("div", { class: "row" }, reveal, out),
    moving,
  );
}

function renderAccount() {
  const box = $("account");
  clear(box);
  const mine = storedProfile();
  if (mine) renderSignedIn(box, mine);
  else renderNewProfile(box);
}

const signed = (x) => (x > 0 ? `+${x.toFixed(2)}` : x.toFixed(2));

function renderRatings(player) {
  const box = $("ratings");
  clear(box);
  $("ratings-panel").hidden = false;
  if (!player.ratings.length) {
    box.append(el("p", { class: "muted" }, "No rated game finished yet."));
    return;
  }
  box.append(el("table", { class: "rating-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "num" }, "Rating"), el("th", { class: "num wide" }, "μ ± σ"), el("th", { class: "num" }, "Games"), el("th", {}, ""))),
    el("tbody", {}, player.ratings.map((r) => el("tr", { dataset: { testid: `rating-${r.game}` } },
      el("td", {}, r.title),
      el("td", { class: "num", dataset: { testid: "rating-value" } }, r.rating.toFixed(2)),
      el("td", { class: "num wide" }, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
      el("td", { class: "num" }, String(r.games)),
      el("td", {}, el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, "leaderboard")))))));
}

function opponents(t) {
  return t.players.filter((p) => p.seat !== t.seat).map((p) => p.profile || p.name || (p.kind === "human" ? "free seat" : p.kind)).join(", ");
}

function renderTables(player) {
  const box = $("tables");
  clear(box);
  $("tables-panel").hidden = false;
  if (!player.tables.length) {
    box.append(el("p", { class: "muted" }, "No games yet."));
    return;
  }
  box.append(el("table", { class: "rating-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Table"), el("th", {}, "Status"), el("th", { class: "wide" }, "Against"), el("th", { class: "num" }, "Place"), el("th", { class: "num" }, "Rating"))),
    el("tbody", {}, player.tables.map((t) => {
      const change = t.rating;
      const delta = change ? change.after - change.before : 0;
      return el("tr", { dataset: { testid: "player-table", status: t.status } },
        el("td", {}, el("a", { href: t.url }, `${t.title} · ${t.id}`)),
        el("td", {}, el("span", { class: `pill status-${t.status}` }, t.status), t.rated ? "" : el("small", { class: "muted" }, " unrated")),
        el("td", { class: "wide" }, opponents(t)),
        el("td", { class: "num" }, change ? String(change.place) : "–"),
        el("td", { class: "num" }, change ? el("span", { class: `delta ${delta >= 0 ? "up" : "down"}` }, `${change.after.toFixed(2)} (${signed(delta)})`) : "–"));
    }))));
}

async function show() {
  renderAccount();
  const name = shownName();
  const mine = storedProfile();
  $("title").textContent = name || "Your profile";
  document.title = `Peloton · ${name || "profile"}`;
  $("subtitle").textContent = name && (!mine || mine.name !== name)
    ? "A player's ratings and games."
    : "A name, kept by a key in this browser: no password.";
  if (!name) {
    $("ratings-panel").hidden = $("tables-panel").hidden = true;
    return;
  }
  try {
    const player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    $("title").textContent = player.name; // as registered, whatever the address's case
    renderRatings(player);
    renderTables(player);
  } catch (e) {
    error(`Could not load ${name}'s games: ${e.message}`);
  }
}

async function start() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key) {
    history.replaceState(null, "", location.pathname); // the code leaves the address bar
    try {
      await importCode(key);
    } catch (e) {
      await show();
      error(`The profile link did not work: ${e.message}`);
      return;
    }
  }
  await show();
}

start();
