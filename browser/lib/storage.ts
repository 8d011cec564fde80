/**
 * The browser's storage, used safely: where the reader refused site storage,
 * merely naming localStorage throws (a SecurityError), a quota may be full,
 * and a value written by something else may not be JSON. Every read here
 * gives null (the caller's default holds) and every write is best effort
 * (the page keeps working for this visit).
 */

export type Kind = "localStorage" | "sessionStorage";

/** The storage of that kind, or null where it is refused. */
export function storage(kind: Kind): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

/** The text kept under `key`, or null. */
export function readText(kind: Kind, key: string): string | null {
  try {
    return storage(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** The JSON value kept under `key`, or null when there is none or it is not JSON. */
export function readJSON(kind: Kind, key: string): unknown {
  const text = readText(kind, key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Keep `value` under `key` (text as it is, anything else as JSON); false when it could not be kept. */
export function write(kind: Kind, key: string, value: unknown): boolean {
  try {
    const s = storage(kind);
    if (!s) return false;
    s.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
    return true;
  } catch {
    return false; // full or refused: it lasts for this page
  }
}

export function remove(kind: Kind, key: string): void {
  try {
    storage(kind)?.removeItem(key);
  } catch {
    /* refused: nothing was kept */
  }
}

/** A list of strings kept as JSON under `key` (anything else reads as empty). */
export function readList(kind: Kind, key: string): string[] {
  const list = readJSON(kind, key);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}

/** An object kept as JSON under `key` (anything else reads as empty). */
export function readRecord(kind: Kind, key: string): Record<string, unknown> {
  const data = readJSON(kind, key);
  return isRecord(data) ? data : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
