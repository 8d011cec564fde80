/**
 * Whether the reader's line is to be spared: the browser asks to save data,
 * or reports a 2G or 3G connection. Then nothing heavy loads without a press
 * (the engine, the table's code). One definition for the table and the pad.
 */

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

export function frugal(): boolean {
  const c = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return !!(c && (c.saveData || /(^|-)(2g|3g)$/.test(c.effectiveType || "")));
}

/** Only the browser's own "save data" (the service worker keeps only the pages read then). */
export function saveData(): boolean {
  const c = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return !!c?.saveData;
}
