/*
 * Material's small inline page scripts, as a file, so that the site's
 * Content-Security-Policy can forbid inline script (see
 * sitegen/dhumbal_site/csp.py). Material 9.8.2 writes these three scripts
 * into every page (partials/javascripts/base.html, palette.html and
 * content.html); the theme overrides of those partials load this file
 * instead, with data-part naming the piece to run where the inline script
 * stood. The code is Material's own, unminified; keep it in step with the
 * pinned mkdocs-material version.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var part = script && script.getAttribute("data-part");

  // partials/javascripts/base.html (in <head>): the storage helpers the
  // bundle and the palette script use, scoped to the site root. Where the
  // reader refused the site storage, merely naming localStorage throws (a
  // SecurityError), and a value written by something else may not be JSON:
  // then nothing is read (the defaults hold) and nothing is written, where
  // Material's own helpers throw (the bundle reads and writes through these).
  function base() {
    window.__md_scope = new URL(script.getAttribute("data-scope") || ".", location);
    window.__md_hash = function (text) {
      return Array.from(text).reduce(function (hash, ch) {
        return (hash << 5) - hash + ch.charCodeAt(0);
      }, 0);
    };
    window.__md_get = function (key, storage, scope) {
      try {
        storage = storage || localStorage;
        scope = scope || window.__md_scope;
        return JSON.parse(storage.getItem(scope.pathname + "." + key));
      } catch (e) {
        return null; /* storage refused, or not JSON */
      }
    };
    window.__md_set = function (key, value, storage, scope) {
      try {
        storage = storage || localStorage;
        scope = scope || window.__md_scope;
        storage.setItem(scope.pathname + "." + key, JSON.stringify(value));
      } catch (e) { /* storage full or refused */ }
    };
  }

  // partials/javascripts/palette.html (after the header): the reader's
  // colour scheme, before the page is painted.
  function palette() {
    var saved = window.__md_get("__palette");
    if (!saved || !saved.color) return;
    if (saved.color.media === "(prefers-color-scheme)") {
      var light = matchMedia("(prefers-color-scheme: light)").matches;
      var input = document.querySelector(light
        ? "[data-md-color-media='(prefers-color-scheme: light)']"
        : "[data-md-color-media='(prefers-color-scheme: dark)']");
      if (!input) return;
      saved.color.media = input.getAttribute("data-md-color-media");
      saved.color.scheme = input.getAttribute("data-md-color-scheme");
      saved.color.primary = input.getAttribute("data-md-color-primary");
      saved.color.accent = input.getAttribute("data-md-color-accent");
    }
    for (var key in saved.color) {
      if (Object.prototype.hasOwnProperty.call(saved.color, key)) {
        document.body.setAttribute("data-md-color-" + key, saved.color[key]);
      }
    }
  }

  // partials/javascripts/content.html with content.tabs.link: select the
  // content tabs whose labels the reader chose last.
  function tabs() {
    var chosen = window.__md_get("__tabs");
    if (!Array.isArray(chosen)) return;
    var sets = document.querySelectorAll(".tabbed-set");
    for (var s = 0; s < sets.length; s++) {
      var labels = sets[s].querySelector(".tabbed-labels").getElementsByTagName("label");
      search: for (var t = 0; t < chosen.length; t++) {
        for (var l = 0; l < labels.length; l++) {
          if (labels[l].innerText.trim() === chosen[t]) {
            document.getElementById(labels[l].htmlFor).checked = true;
            break search;
          }
        }
      }
    }
  }

  // partials/javascripts/content.html (after the content; run again by
  // instant navigation): open the content tab a link's #hash names.
  function content() {
    var target = document.getElementById(location.hash.slice(1));
    if (target && target.name) target.checked = target.name.indexOf("__tabbed_") === 0;
  }

  if (part === "base") base();
  else if (part === "palette") palette();
  else if (part === "tabs") tabs();
  else if (part === "content") content();
})();
