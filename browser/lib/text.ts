/**
 * Small text helpers every part uses: `{name}` placeholders filled, Latin
 * digits written in the page's own digits (a page gives them in
 * data-digits: Nepali writes ०–९), cards written as printed, JSON read
 * without throwing. The words themselves always come from the page (the
 * catalogs, drawn by the build or the engine), never from here.
 */

export const LATIN = "0123456789";
const SUITS: Record<string, string> = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

/** `text` with each Latin digit replaced by the one `digits` has at its place. */
export function localDigits(text: string, digits: string = LATIN): string {
  return text.replace(/[0-9]/g, (d) => digits.charAt(+d) || d);
}

/** `template` with every `{key}` replaced by its value, numbers in `digits`. */
export function fill(
  template: string | null | undefined,
  values: Record<string, string | number>,
  digits?: string,
): string {
  let text = template || "";
  for (const [key, value] of Object.entries(values)) {
    text = text.split(`{${key}}`).join(localDigits(String(value), digits));
  }
  return text;
}

/** A card's code (`KS`) as printed on it (`K♠`). */
export function printed(code: string): string {
  const suit = SUITS[code.charAt(code.length - 1)];
  return suit ? code.slice(0, -1) + suit : code;
}

/** The JSON value of `text`, or null. */
export function parseJSON(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** `text` escaped for a CSS selector's attribute value. */
export function cssEscape(text: string): string {
  return typeof CSS !== "undefined" && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
}
