// @ts-check
// The "your turn" signal of the table page, for a player whose tab is in the
// background: the tab's title ("● Your turn — Peloton") and its icon change while it
// is this player's turn and change back after; a short tone (made with WebAudio, no
// sound file) marks the start of each turn when the player switched sound on. The
// sound switch is off by default and remembered in localStorage (`peloton.sound`).

import { el } from "./ui.js";

const SOUND_KEY = "peloton.sound";
export const TURN_TITLE = "● Your turn — Peloton";

/** An icon as a data URL: a disc of `colour` (the turn's), or the brand's wheel. */
function icon(colour, ring) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" fill="${colour}" stroke="${ring}" stroke-width="4"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
const TURN_ICON = icon("#f59e0b", "#b45309");
const IDLE_ICON = icon("#e2e8f0", "#475569");

export const sound = {
  get() {
    try {
      return localStorage.getItem(SOUND_KEY) === "on";
    } catch {
      return false;
    }
  },
  set(on) {
    try {
      localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    } catch {
      /* private mode: the switch lasts as long as the page */
    }
  },
};

/** Two short rising notes: enough to be heard from another tab, soft enough to bear. */
function chime() {
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return false;
  try {
    const audio = new Context();
    const start = audio.currentTime;
    for (const [i, frequency] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      const at = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.16);
    }
    setTimeout(() => audio.close().catch(() => {}), 600);
    return true;
  } catch {
    return false;
  }
}

export class TurnSignal {
  /** `host`: where the sound switch goes (the page's top actions). */
  constructor(host) {
    this.base = document.title;
    this.mine = false;
    this.link = document.querySelector("link[rel~=icon]") || document.head.appendChild(el("link", { rel: "icon" }));
    this.baseIcon = this.link.getAttribute("href");
    this.chimes = 0; // tones played (read by the browser tests through data-chimes)
    this.button = el("button", {
      type: "button", class: "btn ghost sound-toggle", dataset: { testid: "sound-toggle" },
      onclick: () => this.toggle(),
    });
    host.append(this.button);
    this.showSwitch();
  }

  /** The page's own title when it is not our turn (it may change: the table's id). */
  setBase(title) {
    this.base = title;
    if (!this.mine) document.title = title;
  }

  toggle() {
    sound.set(!sound.get());
    this.showSwitch();
    if (sound.get()) this.play(); // a click lets the browser start audio: a sample
  }

  showSwitch() {
    const on = sound.get();
    this.button.textContent = on ? "♪ Sound on" : "♪ Sound off";
    this.button.setAttribute("aria-pressed", on ? "true" : "false");
    this.button.title = on ? "a tone marks the start of your turn: click to switch it off" : "click for a tone at the start of your turn";
  }

  play() {
    if (chime()) {
      this.chimes += 1;
      document.documentElement.dataset.chimes = String(this.chimes);
    }
  }

  /** Say whether it is our turn now, `moves` into the game; the signal changes only
   * when that changes. */
  update(mine, moves = null) {
    mine = !!mine;
    // A tone when a move made it our turn; not when the page opens or reconnects.
    const moved = this.moves !== undefined && moves !== this.moves;
    this.moves = moves;
    if (mine === this.mine) return;
    this.mine = mine;
    document.title = mine ? TURN_TITLE : this.base;
    this.link.setAttribute("href", mine ? TURN_ICON : this.baseIcon || IDLE_ICON);
    document.documentElement.dataset.turnSignal = mine ? "on" : "off";
    if (mine && moved && sound.get()) this.play();
  }
}
