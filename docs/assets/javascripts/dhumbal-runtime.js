/*
 * window.DhumbalRuntime: the page's handle on the Dhumbal engine, which runs
 * under Pyodide in a module Web Worker (dhumbal-worker.mjs).
 *
 * Nothing is loaded until ensure() is first called (the table calls it when
 * the reader shows intent), so reading a page downloads no WebAssembly. This
 * is a classic script listed in extra_javascript: Material's instant
 * navigation does not run it again (only scripts inside the replaced content
 * are re-run), so one runtime, with its worker and loaded engine, serves
 * every page the reader visits until a full page load.
 *
 *   DhumbalRuntime.status     "idle" | "loading" | "ready" | "error"
 *   DhumbalRuntime.error      the last error's code ("blocked" | "unsupported"
 *                             | "failed" | "timeout"), or null
 *   DhumbalRuntime.ensure()   Promise<void>: start the worker and load the
 *                             engine (idempotent; rejects with the error while
 *                             status is "error": call retry())
 *   DhumbalRuntime.request(payload[, {timeout}])  Promise<result>: ensure(),
 *                             then send one JSON request to dhumbal.table.web.handle;
 *                             rejects with an Error carrying .code
 *                             ("timeout" after limits.request ms, or `timeout`)
 *   DhumbalRuntime.onStatus(callback)  callback(status, errorCode) now and on
 *                             every change; returns an unsubscribe function
 *   DhumbalRuntime.onProgress(callback)  callback(loaded, total) as the
 *                             engine's files arrive (bytes; total 0 while
 *                             unknown); returns an unsubscribe function
 *   DhumbalRuntime.retry()    after an error: a fresh worker, loading again
 *   DhumbalRuntime.version    the engine's version once ready; .timings, the
 *                             worker's load steps in ms (for the benchmark)
 *   DhumbalRuntime.progress   while loading: {loaded, total} bytes of the
 *                             engine's files so far (total grows as files start)
 *   DhumbalRuntime.limits     the watchdog's limits in ms (see below); a page may
 *                             set window.DhumbalRuntimeLimits before this script
 *                             to change them
 *   DhumbalRuntime.options    {snapshot}: whether the worker keeps a memory
 *                             snapshot of the loaded engine and starts from it
 *                             on the next visit (on; see DECISIONS.md,
 *                             "A memory snapshot"); window.DhumbalRuntimeOptions =
 *                             {snapshot: false} before this script turns it off
 *   DhumbalRuntime.config     the build's runtime files, from the page's
 *                             <meta name="dhumbal:runtime"> (null without it:
 *                             the worker reads the engine's manifest)
 *
 * The watchdog (the last section below) turns every way the engine can stop
 * into the error state, which the table shows with Retry: a download that
 * stalls or trickles too slowly to finish (the worker reports it: "blocked";
 * see dhumbal-worker.mjs), a worker that dies while loading
 * or after (it holds a Web Lock for its lifetime, which the page is granted
 * the moment it ends; without Web Locks, the timeouts: "failed"), a worker
 * that falls silent while loading (limits.silence: "failed"), and a request
 * that is not answered in time (limits.request: "timeout").
 *
 * No rule and no reader-visible text lives here: the table shows the engine's
 * HTML and localized messages, and for an error only gets the code.
 */
(function () {
  "use strict";

  if (window.DhumbalRuntime) return;

  // The site root: this script is served from <root>/assets/javascripts/.
  var script =
    document.currentScript || document.querySelector('script[src*="dhumbal-runtime.js"]');
  var base = new URL("../../", script ? script.src : location.href).href;
  var workerURL = new URL("assets/javascripts/dhumbal-worker.mjs", base).href;

  // The build's runtime files (sitegen/dhumbal_site/runtime.py): with them the
  // worker starts every download at once.
  function runtimeConfig() {
    var meta = document.querySelector('meta[name="dhumbal:runtime"]');
    if (!meta) return null;
    try {
      var config = JSON.parse(meta.getAttribute("content"));
      return config && typeof config === "object" && typeof config.cache === "string" ? config : null;
    } catch (err) {
      return null;
    }
  }

  var worker = null;
  var loading = null; // the promise ensure() returns while loading or ready
  var nextId = 1;
  var pending = {}; // id -> {resolve, reject}
  var listeners = [];
  var watchers = []; // progress

  var runtime = {
    status: "idle",
    error: null,
    version: null,
    timings: null,
    progress: { loaded: 0, total: 0 },
    limits: null, // set below, once the watchdog's defaults are defined
    options: { snapshot: !(window.DhumbalRuntimeOptions && window.DhumbalRuntimeOptions.snapshot === false) },
    config: runtimeConfig(),
    base: base,
    ensure: ensure,
    request: request,
    onStatus: onStatus,
    onProgress: onProgress,
    retry: retry
  };

  function fail(code, message) {
    var err = new Error(message || code);
    err.code = code;
    return err;
  }

  function setStatus(status, code) {
    runtime.error = status === "error" ? code || "failed" : null;
    if (runtime.status === status) return;
    runtime.status = status;
    var current = listeners.slice();
    for (var i = 0; i < current.length; i++) {
      try {
        current[i](status, runtime.error);
      } catch (err) {
        setTimeout(function () {
          throw err;
        });
      }
    }
  }

  function onStatus(callback) {
    listeners.push(callback);
    callback(runtime.status, runtime.error);
    return function unsubscribe() {
      var i = listeners.indexOf(callback);
      if (i >= 0) listeners.splice(i, 1);
    };
  }

  function onProgress(callback) {
    watchers.push(callback);
    callback(runtime.progress.loaded, runtime.progress.total);
    return function unsubscribe() {
      var i = watchers.indexOf(callback);
      if (i >= 0) watchers.splice(i, 1);
    };
  }

  function progressed(loaded, total) {
    runtime.progress = { loaded: loaded, total: total };
    var current = watchers.slice();
    for (var i = 0; i < current.length; i++) current[i](loaded, total);
  }

  function send(type, fields, timeout) {
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending[id] = { resolve: resolve, reject: reject, timer: null };
      var message = { id: id, type: type };
      for (var key in fields) message[key] = fields[key];
      try {
        worker.postMessage(message);
      } catch (err) {
        delete pending[id];
        reject(fail("failed", String((err && err.message) || err)));
        return;
      }
      if (timeout > 0) pending[id].timer = setTimeout(function () { requestTimedOut(id, timeout); }, timeout);
    });
  }

  function settle(id) {
    var entry = pending[id];
    if (!entry) return null;
    delete pending[id];
    if (entry.timer) clearTimeout(entry.timer);
    return entry;
  }

  function rejectAll(err) {
    var ids = Object.keys(pending);
    for (var i = 0; i < ids.length; i++) {
      var entry = settle(ids[i]);
      if (entry) entry.reject(err);
    }
  }

  function onMessage(event) {
    var message = event.data || {};
    lifeSign(message);
    if (message.type === "progress") {
      progressed(+message.loaded || 0, +message.total || 0);
      return;
    }
    if (message.type === "alive") return;
    if (message.type === "status") {
      // The init answer settles loading; later, "error" means the engine died.
      if (message.status === "error" && runtime.status === "ready") broken("failed", "the engine stopped");
      return;
    }
    var entry = settle(message.id);
    if (!entry) return;
    if (message.ok) {
      entry.resolve(message.result);
    } else {
      var error = message.error || {};
      entry.reject(fail(error.code || "failed", error.message));
    }
  }

  function broken(code, message) {
    // The worker cannot go on: drop it, fail what waits, report the code.
    var err = fail(code, message);
    unwatch();
    if (worker) worker.terminate();
    worker = null;
    rejectAll(err);
    loading = Promise.reject(err);
    loading.catch(function () {});
    setStatus("error", code);
    return err;
  }

  function start() {
    var unsupported = "this browser cannot run module workers with WebAssembly";
    if (typeof Worker !== "function" || typeof WebAssembly !== "object") return broken("unsupported", unsupported);
    setStatus("loading");
    // A browser that supports module workers reads the "type" option; one
    // that does not would start a classic worker, which cannot load ours.
    var moduleType = false;
    var options = {
      name: "dhumbal",
      get type() {
        moduleType = true;
        return "module";
      }
    };
    // A name of its own: the worker holds a Web Lock of that name while it lives.
    options.name = "dhumbal-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
    try {
      worker = new Worker(workerURL, options);
    } catch (err) {
      return broken("blocked", String((err && err.message) || err));
    }
    if (!moduleType) return broken("unsupported", unsupported);
    var current = worker;
    watch(current);
    worker.onmessage = onMessage;
    worker.onerror = function (event) {
      // The worker script could not be loaded or crashed.
      if (event && event.preventDefault) event.preventDefault();
      if (worker === current) {
        broken(runtime.status === "ready" ? "failed" : "blocked", (event && event.message) || "worker error");
      }
    };
    worker.onmessageerror = function () {
      if (worker === current) broken("failed", "a message could not be read");
    };
    var given = { stall: limits().stall, window: limits().window, total: limits().total };
    loading = send("init", { base: base, runtime: runtime.config, limits: given, options: runtime.options }).then(
      function (info) {
        if (worker !== current) throw fail("failed", "superseded");
        runtime.version = (info && info.version) || null;
        runtime.timings = (info && info.timings) || null;
        loaded();
        setStatus("ready");
      },
      function (err) {
        if (worker === current) throw broken(err.code || "failed", err.message);
        throw err;
      }
    );
    loading.catch(function () {});
    return null;
  }

  function ensure() {
    if (!loading) start();
    return loading;
  }

  function request(payload, options) {
    var timeout = options && options.timeout !== undefined ? options.timeout : limits().request;
    return ensure().then(function () {
      return send("request", { payload: payload }, timeout);
    });
  }

  function retry() {
    if (runtime.status !== "error") return ensure();
    unwatch();
    if (worker) worker.terminate();
    worker = null;
    loading = null;
    return ensure();
  }

  // -- watchdog -------------------------------------------------------------------
  //
  // Every way the engine can stop becomes the error state within seconds:
  //   stall    a download that brings no data for this long: the worker
  //            reports it ("blocked"; limits.stall goes to the worker)
  //   window, total  a download that trickles: once it has run for `window`,
  //            the rate over the last `window` must bring the bytes left
  //            within `total` of the start, and loading may never take longer
  //            than `total` (the worker reports it: "blocked")
  //   silence  while loading, no message at all from the worker for this long
  //            (it sends progress twice a second unless Python is busy): the
  //            worker is dead or hung ("failed")
  //   request  a request not answered in this long ("timeout"); the worker is
  //            dropped, and Retry starts a fresh one
  // A worker that dies (terminated, crashed, closed) is known at once where
  // the browser has Web Locks: it holds the lock named after it while it
  // lives, and the page's request for that lock is granted when it ends.
  var DEFAULT_LIMITS = { stall: 8000, silence: 20000, request: 30000, window: 20000, total: 600000 };
  var guard = null; // {worker, timer, lastSign, abort}

  function watchdogLimits() {
    var given = window.DhumbalRuntimeLimits || {};
    var out = {};
    for (var key in DEFAULT_LIMITS) {
      var value = Number(given[key]);
      out[key] = value > 0 ? value : DEFAULT_LIMITS[key];
    }
    return out;
  }

  function limits() {
    return runtime.limits;
  }

  function watch(target) {
    unwatch();
    guard = { worker: target, timer: null, lastSign: Date.now(), abort: null };
    var mine = guard;
    mine.timer = setInterval(function () {
      if (guard !== mine || runtime.status !== "loading") return;
      var quiet = Date.now() - mine.lastSign;
      if (quiet > limits().silence && worker === mine.worker) {
        broken("failed", "the engine's worker gave no sign of life for " + Math.round(quiet / 1000) + " s while loading");
      }
    }, 1000);
  }

  function loaded() {
    // Loading is over: the silence check stops (a busy engine may be quiet);
    // requests have their own timeouts, and the lock still watches the worker.
    if (guard && guard.timer) clearInterval(guard.timer);
    if (guard) guard.timer = null;
  }

  function unwatch() {
    if (!guard) return;
    if (guard.timer) clearInterval(guard.timer);
    if (guard.abort) guard.abort.abort();
    guard = null;
  }

  function lifeSign(message) {
    if (!guard) return;
    guard.lastSign = Date.now();
    if (message.type === "alive" && message.lock && !guard.abort) holdLock(guard, String(message.lock));
  }

  function holdLock(mine, name) {
    if (!(navigator.locks && navigator.locks.request && typeof AbortController === "function")) return;
    mine.abort = new AbortController();
    navigator.locks.request(name, { signal: mine.abort.signal }, function () {
      // Granted: the worker that held it is gone.
      if (guard === mine && worker === mine.worker) broken("failed", "the engine's worker stopped");
    }).catch(function () { /* aborted: this page dropped the worker itself */ });
  }

  function requestTimedOut(id, timeout) {
    if (!pending[id]) return;
    broken("timeout", "the engine did not answer within " + Math.round(timeout / 1000) + " s");
  }

  runtime.limits = watchdogLimits();
  window.DhumbalRuntime = runtime;
})();
