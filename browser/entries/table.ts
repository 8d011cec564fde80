/**
 * The table's code, loaded on the reader's intent (browser/table/loader.ts):
 * a table's controller mounted on its element, with this page's engine
 * runtime, and what every page's script asks of a table once its code is
 * here. Tools and tests import it too, for the same module instances.
 */

import { pressPlay, verdict } from "../table/dock";
import { mountTable } from "../table/mount";
import { openRules, ownHistory, playFrom, reveal, small, undock } from "../table/place";
import { offer, resume } from "../table/resume";
import type { Table } from "../table/table";
import { runtime } from "./runtime.js";

export { cue, cueLog } from "../table/cues";
export { offer, openRules, ownHistory, playFrom, pressPlay, resume, reveal, runtime, small, undock, verdict };

export function mount(root: HTMLElement, carried: string): Table {
  return mountTable(root, carried, runtime);
}
