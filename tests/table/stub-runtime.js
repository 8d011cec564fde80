/*
 * A stand-in for the runtime module (assets/dhumbal/runtime.js, built from
 * browser/entries/runtime.ts) in the table's fast browser tests: the same
 * export, `runtime`, with the same interface, but requests go to the test
 * process's dhumbal.table.web.handle through Playwright's exposed function
 * window.dhumbalHandle(json) instead of Pyodide in a worker. A test reaches it
 * as the page does: import("…/assets/dhumbal/runtime.js").
 *
 * window.__stubFail = "<code>" (set before the page loads) makes ensure()
 * fail with that error code until retry() is called; window.__stubDelay
 * (milliseconds) is how long the engine takes to start (50 ms unless set);
 * window.__stubHold = true keeps it starting until runtime.__release().
 */
var listeners = [];
var loading = null;
var held = [];
var rt = {
  status: "idle",
  error: null,
  calls: { ensure: 0, request: 0, retry: 0 },
  ensure: ensure,
  request: request,
  onStatus: onStatus,
  onProgress: onProgress,
  retry: retry,
  progress: { loaded: 0, total: 0 },
  limits: { stall: 8000, silence: 20000, request: 30000, window: 20000, total: 600000 },
  options: { snapshot: false },
  config: null,
  version: null,
  timings: null,
  base: new URL("../../", import.meta.url).href,
};

// No download here: the progress never moves.
function onProgress(cb) {
  cb(0, 0);
  return () => {};
}

function set(status, code) {
  rt.error = status === "error" ? code : null;
  if (rt.status === status) return;
  rt.status = status;
  listeners.slice().forEach(function (cb) {
    cb(status, rt.error);
  });
}

function onStatus(cb) {
  listeners.push(cb);
  cb(rt.status, rt.error);
  return function () {
    var i = listeners.indexOf(cb);
    if (i >= 0) listeners.splice(i, 1);
  };
}

function ensure() {
  rt.calls.ensure++;
  if (loading) return loading;
  set("loading");
  loading = new Promise(function (resolve, reject) {
    setTimeout(function started() {
      if (window.__stubHold) {
        held.push(started);
        return;
      }
      if (window.__stubFail) {
        var err = new Error("stub failure");
        err.code = window.__stubFail;
        set("error", err.code);
        reject(err);
      } else {
        set("ready");
        resolve();
      }
    }, window.__stubDelay || 50);
  });
  loading.catch(function () {});
  return loading;
}

function request(payload) {
  rt.calls.request++;
  return ensure()
    .then(function () {
      return window.dhumbalHandle(JSON.stringify(payload));
    })
    .then(function (text) {
      return JSON.parse(text);
    });
}

function retry() {
  rt.calls.retry++;
  window.__stubFail = null;
  loading = null;
  return ensure();
}

// Test hook: the engine dies (as when the worker crashes); requests fail until retry().
rt.__die = function (code) {
  var err = new Error("stub engine died");
  err.code = code;
  loading = Promise.reject(err);
  loading.catch(function () {});
  set("error", code);
};

// Test hook: the engine held starting (window.__stubHold) is ready now.
rt.__release = function () {
  window.__stubHold = false;
  held.splice(0).forEach(function (started) {
    started();
  });
};

export const runtime = rt;
