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

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(updateLanguageLinks);
  } else {
    updateLanguageLinks();
  }
})();
