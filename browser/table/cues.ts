/**
 * Cues beyond the screen: a short sound and a vibration when it becomes the
 * reader's turn and when a call is caught. Both are off until the reader
 * turns them on in the settings (prefs.ts). The sound is made in the browser
 * (Web Audio, no file to download); the vibration only where the device has
 * one. `cueLog` lists the cues given (tests and tools read it).
 */

import { prefs } from "./prefs";
import type { Table } from "./table";

type Tone = [frequency: number, seconds: number];

const CUES = {
  turn: {
    tones: [
      [660, 0.09],
      [880, 0.12],
    ] as Tone[],
    buzz: [60],
  },
  caught: {
    tones: [
      [330, 0.16],
      [220, 0.28],
    ] as Tone[],
    buzz: [90, 60, 90],
  },
};

export type CueName = keyof typeof CUES;

export const cueLog: { cue: CueName; sound: boolean; vibrate: boolean }[] = [];

let audio: AudioContext | null = null;

function tones(list: Tone[]): void {
  const Ctx =
    window.AudioContext || (window as Window & { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    audio ??= new Ctx();
    if (audio.state === "suspended") void audio.resume();
    let at = audio.currentTime + 0.02;
    for (const [frequency, seconds] of list) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(at);
      osc.stop(at + seconds + 0.02);
      at += seconds + 0.04;
    }
  } catch {
    /* no sound here: the screen says it all the same */
  }
}

/** Give the cue; `force`: a preview as the reader turns one on (a press: sound may start). */
export function cue(name: CueName, force?: "sound" | "vibrate"): void {
  const p = prefs();
  const sound = force ? force === "sound" : p.sound;
  const vibrate = force ? force === "vibrate" : p.vibrate;
  const given = CUES[name];
  cueLog.push({ cue: name, sound, vibrate });
  if (sound) tones(given.tones);
  if (vibrate && navigator.vibrate) {
    try {
      navigator.vibrate(given.buzz);
    } catch {
      /* not allowed here */
    }
  }
}

export function attachCues(t: Table): void {
  // Once an answer is shown in full: a caught call that has just ended the deal, or the
  // turn back to the reader after the bots' moves.
  t.moments.on("shown", (result, payload) => {
    const area = t.board.querySelector(".dht-play-area");
    if (!area || !result.summary) return;
    const moved = payload?.op === "act" || payload?.op === "next-deal";
    const over = area.getAttribute("data-over") === "true";
    const wasOver = t.state.cues.over;
    t.state.cues.over = over;
    if (over) {
      if (moved && !wasOver && area.getAttribute("data-caught") === "true") cue("caught");
      return;
    }
    const bots = result.playback?.frames?.length;
    if (moved && result.summary.your_turn && bots) cue("turn");
  });
}
