/**
 * A table's controller, made and attached to its parts: what the table's
 * code does once it has come on the reader's intent (bootstrap.ts loads it).
 * The order of the parts is the order their listeners run in.
 */

import type { Runtime } from "../entries/runtime";
import { attachCues } from "./cues";
import { attachDock } from "./dock";
import { attachFelt } from "./felt";
import { attachGuide } from "./guide";
import { attachHand } from "./hand";
import { attachMotion } from "./motion";
import { attachPlace } from "./place";
import { attachResume } from "./resume";
import { attachReview } from "./review";
import { attachSettings } from "./settings";
import { attachSummary } from "./summary";
import { Table } from "./table";
import { attachWhy } from "./why";

export function mountTable(root: HTMLElement, carried: string, runtime: Runtime): Table {
  const t = new Table(root, carried, runtime);
  root.addEventListener("pointerdown", () => {
    t.state.core.keyboard = false;
  });
  root.addEventListener("keydown", () => {
    t.state.core.keyboard = true;
  });
  attachDock(t);
  attachWhy(t);
  attachHand(t);
  attachFelt(t);
  attachMotion(t);
  attachSummary(t);
  attachReview(t);
  attachSettings(t);
  attachResume(t);
  attachCues(t);
  attachGuide(t);
  attachPlace(t);
  return t;
}
