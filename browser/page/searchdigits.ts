/**
 * Nepali writes numbers in Devanagari digits everywhere, but Material fills
 * the search results' counts ("मिल्ने # पृष्ठ") with Latin digits: on Nepali
 * pages those counts are rewritten as they appear. Only the counts: the
 * results' own text comes from the Nepali pages already.
 */

import { localDigits } from "../lib/text";

const DIGITS = "०१२३४५६७८९";
const COUNTS = ".md-search-result__meta, .md-search-result__more > summary";

function devanagari(node: Node): void {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
    if (/[0-9]/.test(text.data)) text.data = localDigits(text.data, DIGITS);
  }
}

export function watchSearchCounts(): void {
  if (document.documentElement.lang !== "ne") return;
  const search = document.querySelector(".md-search");
  if (!search || typeof MutationObserver === "undefined") return;
  new MutationObserver(() => {
    for (const count of search.querySelectorAll(COUNTS)) devanagari(count);
  }).observe(search, { childList: true, subtree: true, characterData: true });
}
