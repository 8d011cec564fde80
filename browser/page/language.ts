/**
 * The header's language menu, kept on the current page. Material's instant
 * navigation swaps the page content and the <head> tags but keeps the header,
 * so the language links drawn with the first page would go on pointing at it.
 * Each page lists where it is in every language in
 * <meta name="dhumbal:alternate" data-lang content> (overrides/main.html);
 * after every navigation the menu's links are set from them. A language
 * switch is a full page load: each language's sitemap lists only its pages.
 */

import { cssEscape } from "../lib/text";

export function updateLanguageLinks(): void {
  for (const meta of document.querySelectorAll('meta[name="dhumbal:alternate"]')) {
    const lang = meta.getAttribute("data-lang") || "";
    const target = new URL(meta.getAttribute("content") || "", location.href).href;
    for (const link of document.querySelectorAll<HTMLAnchorElement>(
      `.md-select__link[hreflang="${cssEscape(lang)}"]`,
    )) {
      link.href = target;
    }
  }
}
