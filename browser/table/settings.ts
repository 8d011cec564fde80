/**
 * The settings: the form that starts a new match with other rules (the
 * engine draws the fields for the chosen rules), and its Done. The reader's
 * display preferences beside it are every page's (prefs.ts, bootstrap.ts).
 */

import { closest } from "../lib/dom";
import { difficultyOf, type NewRequest } from "../protocol/messages";
import { pressPlay } from "./dock";
import { startFresh } from "./resume";
import type { Table } from "./table";

function onSubmit(t: Table, ev: SubmitEvent): void {
  const form = ev.target as HTMLFormElement;
  if (!form.matches?.("[data-dht-settings]")) return;
  ev.preventDefault();
  if (!t.state.core.live) {
    pressPlay(t); // as Play (or New game, asked first over a game in progress)
    return;
  }
  const options: Record<string, string> = {};
  const payload: NewRequest = { op: "new", options };
  for (const f of Array.from(form.elements) as HTMLInputElement[]) {
    if (!f.name) continue;
    if (f.name.indexOf("opt:") === 0) options[f.name.slice(4)] = f.value;
    else if (f.name === "profile") payload.profile = f.value;
    else if (f.name === "difficulty") payload.difficulty = difficultyOf(f.value);
  }
  // over a game in progress, asked first (resume.ts)
  startFresh(t, () => {
    t.markPlayed();
    t.send(payload).then(
      () => showNewDeal(t),
      () => {},
    );
  });
}

/** After "Start a new match": the new deal in view, the focus on its first control. */
function showNewDeal(t: Table): void {
  const details = t.root.querySelector<HTMLDetailsElement>("details.dht-settings");
  if (t.state.place.full && details) details.open = false;
  const top = t.board.getBoundingClientRect().top;
  // The table's heading line (Share, Full table) comes with it.
  if (!t.state.place.full && (top < 0 || top > innerHeight * 0.5)) t.root.scrollIntoView({ block: "start" });
  t.refocus("");
}

function onChange(t: Table, ev: Event): void {
  const el = ev.target as HTMLInputElement;
  if (!el.matches) return;
  // (the display preferences are every page's script's: bootstrap.ts)
  if (!el.matches("[data-dht-profile]") || !t.state.core.live) return;
  const difficulty = difficultyOf((el.form?.elements.namedItem("difficulty") as HTMLSelectElement | null)?.value);
  void t.send({ op: "settings", profile: el.value, difficulty }).catch(() => {});
}

export function attachSettings(t: Table): void {
  t.root.addEventListener("submit", (ev) => onSubmit(t, ev));
  t.root.addEventListener("change", (ev) => onChange(t, ev));
  // Done closes the settings (the display preferences are kept already), the focus back on their heading line.
  t.root.addEventListener("click", (ev) => {
    const details = closest(ev, "[data-dht-done]")?.closest<HTMLDetailsElement>("details.dht-settings");
    if (!details) return;
    details.open = false;
    details.querySelector<HTMLElement>("summary")?.focus({ preventScroll: true });
  });
}
