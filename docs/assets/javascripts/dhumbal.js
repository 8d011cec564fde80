/*
 * DhumbalPage.each(setup): run setup on this page and on every page Material's
 * instant navigation draws after it (document$), or once the document is read
 * where there is no instant navigation. This file comes first in
 * extra_javascript, so every page script sets itself up through it.
 */
(function () {
  "use strict";

  function each(setup) {
    if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
      window.document$.subscribe(setup);
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", setup);
    } else {
      setup();
    }
  }

  window.DhumbalPage = { each: each };
})();

/*
 * Keep the header's language menu pointing at the current page.
 *
 * Material's instant navigation swaps the page content and the <head> tags
 * but keeps the header, so the language links rendered with the first page
 * would go on pointing at that page. Each page lists where it is in every
 * language in <meta name="dhumbal:alternate" data-lang content> tags (see
 * overrides/main.html); after every navigation the menu's links are set from
 * them. Switching language is always a full page load: each language's
 * sitemap lists only its own pages, so instant navigation leaves those links
 * alone.
 */
(function () {
  "use strict";

  function updateLanguageLinks() {
    var metas = document.querySelectorAll('meta[name="dhumbal:alternate"]');
    for (var i = 0; i < metas.length; i++) {
      var lang = metas[i].getAttribute("data-lang");
      var target = new URL(metas[i].getAttribute("content"), location.href).href;
      var links = document.querySelectorAll('.md-select__link[hreflang="' + lang + '"]');
      for (var j = 0; j < links.length; j++) {
        links[j].href = target;
      }
    }
  }

  window.DhumbalPage.each(updateLanguageLinks);
})();

/*
 * Nepali writes numbers in Devanagari digits everywhere, but Material fills
 * the search result counts ("मिल्ने # पृष्ठ", "यस पृष्ठमा थप #") with Latin
 * digits. On Nepali pages, rewrite those counts as they appear. Only the
 * counts: the results' own text already comes from the Nepali pages, where
 * card indices (10♥) stay as printed on the cards.
 */
(function () {
  "use strict";

  var DIGITS = "०१२३४५६७८९";
  var COUNTS = ".md-search-result__meta, .md-search-result__more > summary";

  function devanagari(node) {
    var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (var text = walker.nextNode(); text; text = walker.nextNode()) {
      if (/[0-9]/.test(text.data)) {
        text.data = text.data.replace(/[0-9]/g, function (d) { return DIGITS.charAt(+d); });
      }
    }
  }

  function rewrite(root) {
    var counts = root.querySelectorAll(COUNTS);
    for (var i = 0; i < counts.length; i++) devanagari(counts[i]);
  }

  if (document.documentElement.lang !== "ne") return;
  var search = document.querySelector(".md-search");
  if (!search || typeof MutationObserver === "undefined") return;
  new MutationObserver(function () { rewrite(search); })
    .observe(search, { childList: true, subtree: true, characterData: true });
})();

/*
 * The "page not found" page. Hosts that serve only the root 404.html show the
 * default language's page for a missing French, Dutch or Nepali address: send
 * that reader to their language's 404 page (overrides/404.html lists the
 * language roots in data attributes; no inline script, for the site's
 * Content-Security-Policy).
 */
(function () {
  "use strict";

  var marker = document.querySelector("[data-dh-notfound]");
  if (!marker) return;
  var roots, langs;
  try {
    roots = JSON.parse(marker.getAttribute("data-roots"));
    langs = JSON.parse(marker.getAttribute("data-langs"));
  } catch (e) {
    return;
  }
  var here = document.documentElement.lang;
  var path = location.pathname;
  if (/\/404\.html$/.test(path)) return;
  for (var i = 0; i < roots.length; i++) {
    if (langs[i] !== here && roots[i].length > 1 && path.indexOf(roots[i]) === 0) {
      location.replace(roots[i] + "404.html");
      return;
    }
  }
})();
