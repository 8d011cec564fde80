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
 *                             | "failed"), or null
 *   DhumbalRuntime.ensure()   Promise<void>: start the worker and load the
 *                             engine (idempotent; rejects with the error while
 *                             status is "error": call retry())
 *   DhumbalRuntime.request(payload)  Promise<result>: ensure(), then send one
 *                             JSON request to dhumbal.web.handle; rejects with
 *                             an Error carrying .code
 *   DhumbalRuntime.onStatus(callback)  callback(status, errorCode) now and on
 *                             every change; returns an unsubscribe function
 *   DhumbalRuntime.onProgress(callback)  callback(loaded, total) as the
 *                             engine's files arrive (bytes; total 0 while
 *                             unknown); returns an unsubscribe function
 *   DhumbalRuntime.retry()    after an error: a fresh worker, loading again
 *   DhumbalRuntime.version    the engine's version once ready; .timings, the
 *                             worker's load steps in ms (for the benchmark)
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

  function send(type, fields) {
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending[id] = { resolve: resolve, reject: reject };
      var message = { id: id, type: type };
      for (var key in fields) message[key] = fields[key];
      try {
        worker.postMessage(message);
      } catch (err) {
        delete pending[id];
        reject(fail("failed", String((err && err.message) || err)));
      }
    });
  }

  function rejectAll(err) {
    var ids = Object.keys(pending);
    for (var i = 0; i < ids.length; i++) {
      var entry = pending[ids[i]];
      delete pending[ids[i]];
      entry.reject(err);
    }
  }

  function onMessage(event) {
    var message = event.data || {};
    if (message.type === "progress") {
      progressed(+message.loaded || 0, +message.total || 0);
      return;
    }
    if (message.type === "status") {
      // The init answer settles loading; later, "error" means the engine died.
      if (message.status === "error" && runtime.status === "ready") broken("failed", "the engine stopped");
      return;
    }
    var entry = pending[message.id];
    if (!entry) return;
    delete pending[message.id];
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
    try {
      worker = new Worker(workerURL, options);
    } catch (err) {
      return broken("blocked", String((err && err.message) || err));
    }
    if (!moduleType) return broken("unsupported", unsupported);
    var current = worker;
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
    loading = send("init", { base: base }).then(
      function (info) {
        if (worker !== current) throw fail("failed", "superseded");
        runtime.version = (info && info.version) || null;
        runtime.timings = (info && info.timings) || null;
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

  function request(payload) {
    return ensure().then(function () {
      return send("request", { payload: payload });
    });
  }

  function retry() {
    if (runtime.status !== "error") return ensure();
    if (worker) worker.terminate();
    worker = null;
    loading = null;
    return ensure();
  }

  window.DhumbalRuntime = runtime;
})();
