/**
 * The parts of a pre-rendered table nobody sees before the reader's intent
 * (the first-run guide, the settings form, the question before a fresh game)
 * come inert, in <template data-dht-later> elements (the engine's renderer,
 * dhumbal/view/table.py): a page before Play neither styles nor lays them
 * out (issue 49; DECISIONS.md has what it saved). They are put in place when
 * the table's controller is made (loader.ts), or when the reader opens the
 * table's settings before that (bootstrap.ts), and the kept display
 * preferences are shown in them then.
 */

import { showPrefs } from "./prefs";

export function unfold(root: HTMLElement): void {
  const later = root.querySelectorAll<HTMLTemplateElement>("template[data-dht-later]");
  if (!later.length) return;
  for (const part of later) part.replaceWith(part.content);
  showPrefs(root);
}
