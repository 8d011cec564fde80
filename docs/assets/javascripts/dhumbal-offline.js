/*
 * window.DhumbalOffline: the site on this device (the service worker, sw.js,
 * written by sitegen/dhumbal_site/offline.py from serviceworker.js).
 *
 * Once the page has loaded, this registers the service worker at the site
 * root and asks it to keep every page of the language being read (unless the
 * browser asks to save data: then only the pages read are kept, as they are
 * read). While the table's engine is loading, the reader waits for it: the
 * service worker is registered, and its downloads start, once the engine is
 * ready (or has failed). When a new build of the site takes over while a page
 * is open (its controllerchange, or the new service worker's "updated"
 * message, for a page still loading when it took over), a quiet notice says so, with a button that shows the new version; until the page is
 * reloaded, links load whole pages (the new build's), not Material's instant
 * navigation (which would put the new build's content into the old page).
 * On the offline page (offline.html), "Try again" loads the address again
 * and the list shows the pages this device keeps.
 *
 *   DhumbalOffline.status   "idle" | "unsupported" | "off" | "registering" |
 *                           "keeping" | "ready" | "error" (also on <html
 *                           data-dh-offline>, for tests and the benchmark)
 *   DhumbalOffline.ready    Promise: settles once the language is kept (or
 *                           the service worker cannot be used)
 *   DhumbalOffline.build    the id of the build that controls the page, once known
 *
 * A classic script in extra_javascript: it runs once per full page load, as
 * the runtime does (instant navigation keeps the window).
 */
(function () {
  "use strict";

  if (window.DhumbalOffline) return;

  var script = document.currentScript || document.querySelector('script[src*="dhumbal-offline.js"]');
  var base = new URL("../../", script ? script.src : location.href).href;
  var meta = document.querySelector('meta[name="dhumbal:offline"]');
  var config = {};
  try {
    config = JSON.parse((meta && meta.getAttribute("content")) || "{}") || {};
  } catch (err) {
    config = {};
  }

  var settle;
  var offline = {
    status: "idle",
    build: null,
    ready: new Promise(function (resolve) {
      settle = resolve;
    })
  };
  window.DhumbalOffline = offline;

  function setStatus(status) {
    offline.status = status;
    document.documentElement.setAttribute("data-dh-offline", status);
    if (status !== "registering" && status !== "keeping") settle(status);
  }

  var container = navigator.serviceWorker;
  var hadController = !!(container && container.controller);

  function ask(worker, message) {
    return new Promise(function (resolve, reject) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) {
        resolve(event.data || {});
      };
      try {
        worker.postMessage(message, [channel.port2]);
      } catch (err) {
        reject(err);
      }
    });
  }

  function saveData() {
    var connection = navigator.connection;
    return !!(connection && connection.saveData);
  }

  function register() {
    setStatus("registering");
    // While the table's engine loads, the reader waits for it: the service
    // worker (and what it downloads) comes after.
    idleEngine()
      .then(function () {
        return container.register(new URL(config.sw, base).href, { scope: base, updateViaCache: "none" });
      })
      .then(function (registration) {
        return new Promise(function (resolve, reject) {
          // Active at once, or once installed; an install that fails (a file of
          // the site that does not match its build) leaves the worker redundant.
          var installing = registration.installing || registration.waiting;
          if (installing) {
            installing.addEventListener("statechange", function () {
              if (installing.state === "redundant" && !registration.active) reject(new Error("install failed"));
            });
          }
          container.ready.then(resolve);
        });
      })
      .then(function (registration) {
        setStatus("keeping");
        return idleEngine().then(function () {
          return current(registration);
        }).then(function (active) {
          var lang = document.documentElement.getAttribute("lang") || "en";
          return ask(active, { type: "keep", lang: lang, saveData: saveData() });
        });
      })
      .then(function (answer) {
        offline.build = answer.build || null;
        setStatus(answer.ok ? "ready" : "error");
        keepEngine();
      })
      .catch(function () {
        setStatus("error");
      });
  }

  // The worker to ask: the active one, once no newer build is on its way. A
  // newer build waiting to take over (it asked to at install) is asked again
  // now and then: Chromium stops the old worker before the new one takes
  // over, and a message to the old one in that moment (this page's own
  // "keep") starts it again and can leave the new one waiting for minutes,
  // with the page never told. Nothing is asked of the old one meanwhile.
  var NUDGE_MS = 2000;

  function current(registration) {
    return new Promise(function (resolve) {
      var timer = null;
      function check() {
        var newer = registration.installing || registration.waiting;
        if (!newer && registration.active) {
          if (timer) clearInterval(timer);
          resolve(registration.active);
          return;
        }
        if (newer && newer.state === "installed") newer.postMessage({ type: "take-over" });
        if (!timer) timer = setInterval(check, NUDGE_MS);
      }
      check();
    });
  }

  // The reader waits for the engine while it loads: the service worker and the
  // language's pages come after it. (onStatus calls back at once with the
  // current status, before it has returned its unsubscribe function.)
  function whenStatus(accept) {
    return new Promise(function (resolve) {
      var runtime = window.DhumbalRuntime;
      if (!runtime || !runtime.onStatus) return resolve(null);
      var off = null;
      var done = false;
      off = runtime.onStatus(function (status) {
        if (done || !accept(status)) return;
        done = true;
        if (off) setTimeout(off, 0);
        resolve(status);
      });
      if (done) off();
    });
  }

  function idleEngine() {
    return whenStatus(function (status) {
      return status !== "loading";
    });
  }

  // Once the table has started here, the service worker keeps its worker script
  // too (the worker itself keeps the engine's files), for the next visit offline.
  function keepEngine() {
    whenStatus(function (status) {
      return status === "ready";
    }).then(function (status) {
      if (!status) return null;
      return container.ready.then(current).then(function (active) {
        return ask(active, { type: "engine" });
      });
    }).catch(function () {});
  }

  function unregister() {
    // Under `mkdocs serve` (no service worker): a page kept by an earlier build must not be shown.
    container.getRegistrations().then(function (registrations) {
      registrations.forEach(function (registration) {
        if (registration.scope === base) registration.unregister();
      });
    }).then(function () {
      setStatus("off");
    }, function () {
      setStatus("off");
    });
  }

  // -- the "updated" notice ---------------------------------------------------------

  var notice = null;
  var NOTICE_MS = 15000;

  function fullLoads(event) {
    // After an update, a link within the site loads the whole page.
    var link = event.target && event.target.closest && event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || (url.pathname === location.pathname && url.hash)) return;
    event.stopPropagation(); // Material's instant navigation never sees it; the browser follows the link
  }

  function showUpdated() {
    document.addEventListener("click", fullLoads, true);
    if (notice || !config.updated) return;
    notice = document.createElement("div");
    notice.className = "dh-updated";
    notice.setAttribute("role", "status");
    var text = document.createElement("p");
    text.className = "dh-updated__text";
    text.textContent = config.updated;
    var reload = document.createElement("button");
    reload.type = "button";
    reload.className = "dh-updated__reload";
    reload.textContent = config.reload || "";
    reload.addEventListener("click", function () {
      location.reload();
    });
    var close = document.createElement("button");
    close.type = "button";
    close.className = "dh-updated__close";
    close.setAttribute("aria-label", config.close || "");
    close.textContent = "\u00d7";
    close.addEventListener("click", function () {
      hideUpdated();
    });
    notice.appendChild(text);
    notice.appendChild(reload);
    notice.appendChild(close);
    document.body.appendChild(notice);
    // At the bottom of the screen, above the safe area (dhumbal.css): never over
    // the page's title or header. While a table is on screen (its hand and
    // controls sit at the bottom) it waits, hidden by the stylesheet; the page
    // ends above it (html.dh-updated-on pads the body by its height).
    document.documentElement.classList.add("dh-updated-on");
    measure();
    window.addEventListener("resize", measure);
    // Quiet: it goes by itself after NOTICE_MS on screen (not counting the time
    // it waits, or the reader points at it or is on its buttons); until the page
    // is reloaded, links load the new version anyway.
    var shown = 0;
    var clock = setInterval(function () {
      if (notice.hidden) {
        clearInterval(clock);
        return;
      }
      if (!notice.offsetParent || notice.matches(":hover, :focus-within")) return;
      shown += 1000;
      if (shown >= NOTICE_MS) {
        clearInterval(clock);
        hideUpdated();
      }
    }, 1000);
  }

  function measure() {
    if (notice && !notice.hidden) {
      document.documentElement.style.setProperty("--dh-updated-height", notice.offsetHeight + "px");
    }
  }

  function hideUpdated() {
    notice.hidden = true;
    document.documentElement.classList.remove("dh-updated-on");
    document.documentElement.style.removeProperty("--dh-updated-height");
    window.removeEventListener("resize", measure);
  }

  // -- the offline page -----------------------------------------------------------------

  function offlinePage() {
    var root = document.querySelector("[data-dh-offline]");
    if (!root) return;
    var retry = root.querySelector("[data-dh-offline-retry]");
    if (retry) {
      retry.addEventListener("click", function () {
        location.reload();
      });
    }
    if (!window.caches) return;
    var items = Array.prototype.slice.call(root.querySelectorAll("[data-dh-offline-pages] li"));
    Promise.all(items.map(function (item) {
      var link = item.querySelector("a");
      return caches.match(new URL(link.getAttribute("href"), location.href).href).then(function (kept) {
        item.hidden = !kept;
        return !!kept;
      }, function () {
        return false;
      });
    })).then(function (kept) {
      var any = kept.some(Boolean);
      var saved = root.querySelector("[data-dh-offline-saved]");
      var none = root.querySelector("[data-dh-offline-none]");
      if (saved) saved.hidden = !any;
      if (none) none.hidden = any;
    });
  }

  // -- start ------------------------------------------------------------------------------

  offlinePage();
  if (!container || !window.caches || !window.isSecureContext) {
    setStatus("unsupported");
    return;
  }
  container.addEventListener("controllerchange", function () {
    // The first service worker taking over a page is no news; a later one is a new build.
    if (hadController) showUpdated();
    hadController = true;
  });
  // A new build that took over tells the page (sw.js): the page may still have
  // been loading when it did, too early to see the controllerchange. Its
  // message waits in the page's queue until this listens.
  container.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "updated") showUpdated();
  });
  container.startMessages();
  var begin = config.sw ? register : unregister;
  if (document.readyState === "complete") begin();
  else window.addEventListener("load", begin, { once: true });
})();
