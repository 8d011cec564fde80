/**
 * An evening, not one match (issue 52): when a match is over, the same
 * players play again with the same rules. The finished sheet joins the
 * evening (kept with the pad's state, sheet.ts), which the engine draws with
 * each player's totals added up by name ([data-pad-evening]); the deal passes
 * on to the player after the last dealer, as between deals (the player after
 * them at the table when they left). Only the players at the table at the end
 * are seated again. "New match" ends the evening, on the reader's say.
 */

import { emptyState, MAX_EVENING, type State, type View } from "./sheet";

/** What playing again needs of the pad. */
export interface EveningPad {
  state: State;
  readonly entry: HTMLFormElement;
  t(key: string, params?: Record<string, string | number>): string;
  num(n: number | string): string;
  say(text: string, urgent?: boolean): void;
  view(): View | null;
  save(): void;
  render(): void;
  send(change: null): void;
}

export function playAgain(pad: EveningPad): void {
  const sheet = pad.state.sheet;
  if (!sheet || !pad.view()?.over) return;
  if (pad.state.evening.length >= MAX_EVENING) {
    pad.say(pad.t("evening_full", { count: pad.num(MAX_EVENING) }), true);
    return;
  }
  // the players at the table at the end, by their last move (a player who left is not seated again)
  const last = new Map<number, boolean>();
  for (const m of sheet.moves || []) last.set(m.s, m.j);
  const seated = sheet.names.map((_, i) => i).filter((i) => last.get(i) !== false);
  let dealer = (sheet.dealer + sheet.deals.length) % sheet.names.length;
  while (!seated.includes(dealer)) dealer = (dealer + 1) % sheet.names.length;
  const names = seated.map((i) => sheet.names[i] || "");
  pad.state = {
    ...emptyState(),
    sheet: { v: 1, profile: sheet.profile, names, dealer: seated.indexOf(dealer), deals: [], end: false },
    evening: [...pad.state.evening, sheet],
  };
  pad.save();
  pad.render();
  pad.say(pad.t("again_said", { name: sheet.names[dealer] || "" }));
  pad.entry.querySelector<HTMLElement>("[data-caller]")?.focus();
  pad.send(null);
}
