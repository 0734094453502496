// Optional sound: short tones made in code with the Web Audio API (no sound file is fetched)
// for a card played, a trick won, a meld and your turn.  Off until the player turns it on in
// the settings or with the speaker button; the choice is kept with the other settings.
import { settings } from "./common.js";

/** @typedef {{ f: number, to?: number, at: number, len: number, wave?: OscillatorType, gain?: number }} Tone */

/** Each sound as a few tones: frequency (Hz, gliding to ``to``), start and length (s).
 * @type {Record<string, Tone[]>} */
export const SOUNDS = {
  // a soft tap: a quick falling triangle wave
  play: [{ f: 520, to: 260, at: 0, len: 0.07, wave: "triangle", gain: 0.25 }],
  // two notes upwards
  trick: [{ f: 440, at: 0, len: 0.09 }, { f: 660, at: 0.08, len: 0.14 }],
  // a rising major arpeggio
  meld: [{ f: 523, at: 0, len: 0.09 }, { f: 659, at: 0.08, len: 0.09 }, { f: 784, at: 0.16, len: 0.18 }],
  // a bell-like ping that dies away
  turn: [{ f: 880, at: 0, len: 0.35, gain: 0.18 }, { f: 1320, at: 0, len: 0.2, gain: 0.06 }],
};

/** @type {AudioContext|null} */
let ctx = null;

/** The audio context, made on first use (browsers start it only after a click or key, so a
 * context made earlier is resumed then). @returns {AudioContext|null} */
function audio() {
  if (ctx) return ctx;
  const Ctor = typeof window === "undefined" ? undefined : window.AudioContext;
  if (!Ctor) return null;
  ctx = new Ctor();
  const wake = () => { if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {}); };
  window.addEventListener("pointerdown", wake, { capture: true });
  window.addEventListener("keydown", wake, { capture: true });
  return ctx;
}

/** Play the named sounds one after another (nothing when sound is off).
 * @param {string[]} names */
export function play(names) {
  if (!settings.sound || !names.length) return;
  const a = audio();
  if (!a) return;
  let start = a.currentTime + 0.01;
  for (const name of names) {
    const tones = SOUNDS[name];
    if (!tones) continue;
    let end = 0;
    for (const tone of tones) {
      const t0 = start + tone.at, t1 = t0 + tone.len;
      const osc = a.createOscillator();
      const amp = a.createGain();
      osc.type = tone.wave || "sine";
      osc.frequency.setValueAtTime(tone.f, t0);
      if (tone.to) osc.frequency.exponentialRampToValueAtTime(tone.to, t1);
      // a quick rise and an exponential fall, so no tone clicks on or off
      amp.gain.setValueAtTime(0.0001, t0);
      amp.gain.exponentialRampToValueAtTime(tone.gain ?? 0.15, t0 + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t1);
      osc.connect(amp).connect(a.destination);
      osc.start(t0);
      osc.stop(t1 + 0.02);
      end = Math.max(end, tone.at + tone.len);
    }
    start += end + 0.03;
  }
}

/** Turn sound on or off (a click: the moment a browser lets a page start its audio).
 * @param {boolean} on */
export function setSound(on) {
  settings.sound = on;
  if (on) {
    const a = audio();
    if (a && a.state === "suspended") a.resume().catch(() => {});
  }
}
