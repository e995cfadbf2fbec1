// @ts-check
// What every builder page does with a checked course (cyclo_editor.js,
// pistard_editor.js): save it as a file, read an uploaded file's format, share it by a
// link that opens the same course (`/editor?game=...&course=TOKEN`, the check's `link`),
// and open a table on it with its creator seated.

import { api } from "./api.js";
import { keepCreator } from "./creator.js";
import { el } from "./ui.js";

/** A file name of `name` (lower case, dashes), `fallback` when nothing is left. */
export function fileSlug(name, fallback = "course") {
  return String(name || "").toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || fallback;
}

/** Hand the browser `text` to save as the file `name`. */
export function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An uploaded file's format for the check: JSON by its name or its first character. */
export function formatOf(file, text) {
  return /\.json$/i.test(file.name) || /^\s*[{[]/.test(text) ? "json" : "toml";
}

/** The share link of the check's `token` for `game`. */
export function shareUrl(game, token) {
  return `${location.origin}/editor?game=${encodeURIComponent(game)}&course=${encodeURIComponent(token)}`;
}

/** The share token this page was opened with (`?course=`), or null. */
export function linkInAddress() {
  return new URLSearchParams(location.search).get("course");
}

/** Show `url` in the `box` field and copy it; whether the clipboard took it. */
export async function copyLink(url, box) {
  box.hidden = false;
  box.value = url;
  try {
    await navigator.clipboard.writeText(url);
    return true;
  } catch {
    box.select(); // no clipboard here (an http page on another host): copy by hand
    return false;
  }
}

/** Create the table `body` asks for (its `creator` seated, their token kept) and go to
 * it; the error's words when the server refuses it. */
export async function openTable(body) {
  try {
    const made = await api("POST", "/api/tables", body);
    keepCreator(made, body.creator);
    location.href = made.url || `/table/${made.id}`;
    return null;
  } catch (e) {
    const extra = e.problems && e.problems.length ? `: ${e.problems.join("; ")}` : "";
    return `The table could not be created: ${e.message}${extra}`;
  }
}
