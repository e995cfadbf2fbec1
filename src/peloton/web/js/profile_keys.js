// @ts-check
// The player's profile in this browser: its name, its private key and its session.
//
// No password: the browser makes an ECDSA P-256 key pair (WebCrypto) and keeps it in
// localStorage; the server keeps the public key with the name. To sign in, the browser
// signs a challenge of the server's (docs/protocol.md, "Profiles and ratings") and gets
// a session, which it shows when it takes a seat. The key moves to another device as a
// code (or a link holding the code after `#key=`, which never reaches the server).

import { ApiError, api, playerName } from "./api.js";

const STORE = "peloton.profile";
const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };

/** The profile kept in this browser, `{name, jwk, session}`, or null. */
export function storedProfile() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) || "null");
    return found && typeof found.name === "string" && found.jwk ? found : null;
  } catch {
    return null;
  }
}

function keep(profile) {
  localStorage.setItem(STORE, JSON.stringify(profile));
  playerName.set(profile.name); // the name fields of the lobby and tables show it
}

/** Forget the profile on this device (its key too: export it first to keep it). */
export function forgetProfile() {
  localStorage.removeItem(STORE);
}

/** Whether this browser can make and use keys (WebCrypto needs https or localhost). */
export function canSign() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

function b64url(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

const publicPart = (jwk) => ({ kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y });

async function sign(jwk, text) {
  const key = await crypto.subtle.importKey("jwk", { ...publicPart(jwk), d: jwk.d }, ALGORITHM, false, ["sign"]);
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, new TextEncoder().encode(text));
  return b64url(new Uint8Array(signature)); // r || s, 64 bytes: what the server reads
}

async function answer(path, name, jwk, extra = {}) {
  const asked = await api("POST", "/api/profiles/challenge", { name });
  return api("POST", path, { name: asked.name, challenge: asked.challenge, signature: await sign(jwk, asked.text), ...extra });
}

/** Make a key pair and register `name` with it; the profile kept. */
export async function createProfile(name) {
  if (!canSign()) throw new Error("This browser cannot make keys here: open the site over https (or on localhost).");
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const made = await answer("/api/profiles", name, jwk, { key: publicPart(jwk) });
  const profile = { name: made.name, jwk: { ...publicPart(jwk), d: jwk.d }, session: made.session };
  keep(profile);
  return profile;
}

/** Sign in again with the kept key (a new session); the profile kept. */
export async function signIn(profile = storedProfile()) {
  const got = await answer("/api/profiles/session", profile.name, profile.jwk);
  const signed = { ...profile, name: got.name, session: got.session };
  keep(signed);
  return signed;
}

/** The code that moves this profile's key to another device. */
export function exportCode(profile = storedProfile()) {
  return b64url(new TextEncoder().encode(JSON.stringify({ name: profile.name, key: profile.jwk })));
}

/** The link that moves it: the code after `#key=`, never sent to the server. */
export function exportLink(profile = storedProfile()) {
  return `${location.origin}/profile#key=${exportCode(profile)}`;
}

/** Take a profile from an export code: it is kept once the server accepts its
 * signature (a wrong or damaged code keeps nothing). */
export async function importCode(code) {
  let data;
  try {
    data = JSON.parse(new TextDecoder().decode(fromB64url(code.trim())));
  } catch {
    throw new Error("This is not a profile code: copy the whole code shown on your other device.");
  }
  if (!data || typeof data.name !== "string" || !data.key || !data.key.d) {
    throw new Error("This code holds no profile key: copy the whole code shown on your other device.");
  }
  return signIn({ name: data.name, jwk: { ...publicPart(data.key), d: data.key.d }, session: null });
}

/** POST `body` with the profile's session as `where(body, session)` puts it (a join's
 * `profile`, a creator's `profile`); without a profile, `body` as it is. A session
 * the server no longer knows is renewed once by signing in again. */
export async function postSignedIn(path, body, where) {
  let profile = storedProfile();
  if (!profile) return api("POST", path, body);
  if (!profile.session) profile = await signIn(profile);
  try {
    return await api("POST", path, where(body, profile.session));
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== "not_signed_in") throw e;
    profile = await signIn(profile);
    return api("POST", path, where(body, profile.session));
  }
}
