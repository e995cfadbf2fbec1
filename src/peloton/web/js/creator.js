// @ts-check
// The create form's "your seat": which human seat the creator takes at the table they
// create (or none: they only watch), and under which name. The create request carries
// it (`creator`, docs/protocol.md), and the creator lands on the table already seated,
// their seat token kept as when joining.

import { playerName, tokens } from "./api.js";
import { el, clear } from "./ui.js";

const WATCH = ""; // the select's value for "I only watch"

/** Fill `box` with the seat select (the human seats among `letters`, whose kinds are
 * `kinds`) and the name field, keeping the seat chosen before while it is still human. */
export function renderCreatorField(box, { letters, kinds, seatName }) {
  const humans = letters.filter((_, i) => kinds[i] === "human");
  const before = box.querySelector("select");
  const name = box.querySelector("input");
  const keep = before ? before.value : null;
  const typed = name ? name.value : playerName.get();
  clear(box);
  box.hidden = !humans.length;
  if (!humans.length) return;
  const select = el("select", { id: "creator-seat", dataset: { testid: "creator-seat" }, "aria-label": "your seat" },
    humans.map((s) => el("option", { value: s }, seatName(s))), el("option", { value: WATCH }, "none: I only watch"));
  select.value = keep !== null && (keep === WATCH || humans.includes(keep)) ? keep : humans[0];
  box.append(
    el("label", { class: "field" }, el("span", {}, "Your seat"), select),
    el("label", { class: "field" }, el("span", {}, "Your name"),
      el("input", { type: "text", id: "creator-name", maxlength: "40", value: typed, placeholder: "your name", autocomplete: "nickname", dataset: { testid: "creator-name" } })),
  );
}

/** The `creator` of the create request: `{seat, name}`, or null to watch; throws an
 * Error saying what is missing. */
export function creatorOf(box) {
  const select = box.querySelector("select");
  if (box.hidden || !select || select.value === WATCH) return null;
  const name = box.querySelector("input").value.trim();
  if (!name) throw new Error(`Enter your name to take seat ${select.value} (or choose to only watch).`);
  return { seat: select.value, name };
}

/** After creating: keep the creator's seat token and name, as joining does. */
export function keepCreator(answer, creator) {
  if (!creator || !answer.token) return;
  tokens.set(answer.id, answer.token);
  playerName.set(creator.name);
}
