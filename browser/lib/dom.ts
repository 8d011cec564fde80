/**
 * Typed DOM look-ups: an event's target as an Element, the closest element
 * matching a selector, the reader's wish for reduced motion.
 */

/** The element an event is about (a text node's parent), or null. */
export function targetOf(ev: Event): Element | null {
  const t = ev.target;
  if (t instanceof Element) return t;
  return t instanceof Node ? t.parentElement : null;
}

/** The closest element to the event's target matching `selector`. */
export function closest<E extends Element = HTMLElement>(ev: Event, selector: string): E | null {
  return (targetOf(ev)?.closest(selector) as E | null) ?? null;
}

export function reducedMotion(): boolean {
  return !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/** Every element under `root` matching `selector`, as an array. */
export function all<E extends Element = HTMLElement>(root: ParentNode, selector: string): E[] {
  return Array.from(root.querySelectorAll<E>(selector));
}

/** An element with attributes (true: present and empty; false, null, undefined: absent) and text. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | null | undefined> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === true) el.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(key, value);
  }
  if (text !== undefined) el.textContent = text;
  return el;
}
