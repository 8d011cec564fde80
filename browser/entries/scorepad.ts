/**
 * The score pad, on the page that has one (every page's script imports this
 * module when a page does): a pad per [data-dhumbal-scorepad], with this
 * page's engine runtime (the table's, shared). Tests import it for `padOf`.
 */

import { Pad } from "../scorepad/pad";
import { runtime } from "./runtime.js";
import { runtimeModule } from "./site.js";

const pads = new WeakMap<Element, Pad>();

export function padOf(root: Element | null): Pad | null {
  return (root && pads.get(root)) || null;
}

export function setup(): void {
  void runtimeModule(() => Promise.resolve({ runtime }));
  for (const root of document.querySelectorAll<HTMLElement>("[data-dhumbal-scorepad]")) {
    if (!pads.has(root)) pads.set(root, new Pad(root, runtime));
  }
}
