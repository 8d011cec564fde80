/**
 * The "page not found" page. Hosts that serve only the root 404.html show the
 * default language's page for a missing French, Dutch or Nepali address: that
 * reader goes to their language's 404 page (overrides/404.html lists the
 * language roots in data attributes).
 */

import { parseJSON } from "../lib/text";

export function redirectNotFound(): void {
  const marker = document.querySelector("[data-dh-notfound]");
  if (!marker) return;
  const roots = parseJSON(marker.getAttribute("data-roots"));
  const langs = parseJSON(marker.getAttribute("data-langs"));
  if (!Array.isArray(roots) || !Array.isArray(langs)) return;
  const here = document.documentElement.lang;
  const path = location.pathname;
  if (/\/404\.html$/.test(path)) return;
  for (const [i, root] of roots.entries()) {
    if (typeof root === "string" && langs[i] !== here && root.length > 1 && path.indexOf(root) === 0) {
      location.replace(`${root}404.html`);
      return;
    }
  }
}
