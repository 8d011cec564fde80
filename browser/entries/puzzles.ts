/**
 * The Puzzles page (the trainer and the reader's progress) and the daily
 * puzzle on another page, set up on each page that has them (every page's
 * script imports this module when one does).
 */

import { clearListeners, onProgress, Progress } from "../puzzles/progress";
import { useRelease } from "../puzzles/puzzle";
import { daily, Trainer } from "../puzzles/trainer";
import { controllerOf, loadedTableCode } from "./site.js";

// A table docked beside the puzzle being replaced goes back to its place first.
useRelease((stage) => {
  const table = controllerOf(stage.querySelector("[data-dhumbal-table]"));
  const code = loadedTableCode();
  if (table && code) code.undock(table, false, true);
});

let trainer: Trainer | null = null;
const dailies = new WeakSet<Element>();
const trainers = new WeakMap<Element, Trainer>();

export function setup(): void {
  trainer?.stop();
  trainer = null;
  clearListeners();
  for (const root of document.querySelectorAll<HTMLElement>(".dh-daily[data-dhumbal-daily]")) {
    if (dailies.has(root)) continue;
    dailies.add(root);
    daily(root);
  }
  const root = document.querySelector<HTMLElement>("[data-dhumbal-trainer]");
  if (!root || trainers.has(root)) return;
  trainer = new Trainer(root);
  trainers.set(root, trainer);
  const box = document.querySelector<HTMLElement>("[data-dhumbal-puzzles]");
  if (box) {
    const progress = new Progress(box, trainer.items);
    onProgress((announce) => progress.update(announce));
    progress.update(false);
  }
  trainer.start();
}
