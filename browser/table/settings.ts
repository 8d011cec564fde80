/**
 * The settings: the form that starts a new match with other rules (the
 * engine draws the fields for the chosen rules), and the reader's display
 * preferences kept in this browser (prefs.ts: pace of the bots' moves,
 * four-colour suits, sound and vibration).
 */

import { closest } from "../lib/dom";
import type { Request } from "../protocol/messages";
import { cue } from "./cues";
import { pressPlay } from "./dock";
import { prefs, savePrefs } from "./prefs";
import { startFresh } from "./resume";
import type { Table } from "./table";

/** The display preferences as kept, in the form. */
export function showPrefs(t: Table): void {
  const p = prefs();
  const speed = t.root.querySelector<HTMLSelectElement>("[data-dht-speed]");
  const checks: [string, boolean][] = [
    ["[data-dht-4c]", p.fourColour],
    ["[data-dht-sound]", p.sound],
    ["[data-dht-vibrate]", p.vibrate],
  ];
  if (speed) speed.value = p.speed;
  for (const [selector, on] of checks) {
    const box = t.root.querySelector<HTMLInputElement>(selector);
    if (box) box.checked = on;
  }
}

function onSubmit(t: Table, ev: SubmitEvent): void {
  const form = ev.target as HTMLFormElement;
  if (!form.matches?.("[data-dht-settings]")) return;
  ev.preventDefault();
  if (!t.state.core.live) {
    pressPlay(t); // as Play (or New game, asked first over a game in progress)
    return;
  }
  const options: Record<string, string> = {};
  const payload: Request = { op: "new", options };
  for (const f of Array.from(form.elements) as HTMLInputElement[]) {
    if (!f.name) continue;
    if (f.name.indexOf("opt:") === 0) options[f.name.slice(4)] = f.value;
    else if (f.name === "profile" || f.name === "difficulty") payload[f.name] = f.value;
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
  if (el.matches("[data-dht-speed], [data-dht-4c], [data-dht-sound], [data-dht-vibrate]")) {
    const p = prefs();
    if (el.matches("[data-dht-speed]")) p.speed = el.value as typeof p.speed;
    else if (el.matches("[data-dht-4c]")) p.fourColour = el.checked;
    else if (el.matches("[data-dht-sound]")) p.sound = el.checked;
    else p.vibrate = el.checked;
    savePrefs(p);
    // Turned on: once now, to hear (or feel) what it will be.
    if (el.checked && el.matches("[data-dht-sound]")) cue("turn", "sound");
    if (el.checked && el.matches("[data-dht-vibrate]")) cue("turn", "vibrate");
    return;
  }
  if (!el.matches("[data-dht-profile]") || !t.state.core.live) return;
  const difficulty = (el.form?.elements.namedItem("difficulty") as HTMLSelectElement | null)?.value;
  void t.send({ op: "settings", profile: el.value, difficulty }).catch(() => {});
}

export function attachSettings(t: Table): void {
  showPrefs(t);
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
