/**
 * The score pad's state in local storage, shared by every tab of the site:
 * written only over what this tab last read or wrote. Before each write the
 * kept text is read again; when another tab kept another sheet since, that
 * sheet is taken up here, not written over (a `storage` listener does the same
 * as soon as the other tab writes). A kept value that cannot be read is set
 * aside before anything is written (sheet.ts `setAside`); when it cannot be,
 * nothing is written over it at all until the reader starts a new match.
 *
 * A change typed is kept (the state's `pending`) the moment it is sent, before
 * the engine answers: a page closed meanwhile settles it on its next load, and
 * another tab open takes it up and settles it at once (`theirs`).
 */

import { keptText, loadState, readDraft, readState, type State, saveText, setAside, stateText } from "./sheet";

export class Keeper {
  private lastText: string | null = null; // the kept text as this tab last read or wrote it
  /** An unreadable kept sheet could not be set aside: nothing is written over it. */
  frozen = false;
  /** The browser refused the last write (private mode, or full). */
  full = false;

  /** The kept state on arrival (see sheet.ts `readState`), an unreadable one set aside. */
  load(): ReturnType<typeof loadState> {
    const kept = loadState();
    this.lastText = kept.text;
    if (kept.bad && kept.text !== null && !setAside(kept.text)) this.frozen = true;
    return kept;
  }

  /** Keep `state`; false when the browser refused it (said once by the caller, from `full`). */
  save(state: State): boolean {
    if (this.frozen) return true;
    const text = stateText(state);
    if (text === this.lastText) return true;
    const ok = saveText(text);
    if (ok) this.lastText = text;
    const first = !ok && !this.full;
    this.full = !ok;
    return !first;
  }

  /**
   * The state with the sheet another tab kept since this one last read or wrote, or
   * null when there is none, or it is this tab's own sheet. The draft stays when it
   * still fits the sheet taken up. The change waiting there for the engine is taken
   * up too: the tab that made it may be closed before its engine answers, and the
   * change would be lost on this tab's next write. Both tabs settling it is safe: the
   * second answer is the sheet the first kept (pad.ts `answered`), so one deal lands.
   */
  theirs(state: State): State | null {
    if (this.frozen) return null;
    const text = keptText();
    if (text === null || text === this.lastText) return null;
    this.lastText = text;
    const kept = readState(text);
    if (!kept.state) {
      if (!setAside(text)) this.frozen = true;
      return null;
    }
    const theirs = kept.state;
    if (JSON.stringify(theirs.sheet) === JSON.stringify(state.sheet)) {
      // the same sheet with a change waiting that this tab has not: taken up, the rest kept
      if (!theirs.pending || state.pending) return null;
      return { ...state, pending: theirs.pending };
    }
    return { ...theirs, draft: readDraft(state.draft, theirs.sheet) || theirs.draft };
  }
}
