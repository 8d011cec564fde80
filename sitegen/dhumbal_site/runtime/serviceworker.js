// The Dhumbal site's service worker. The site build writes it to the site
// root as sw.js, after `const BUILD = {...}` (sitegen/dhumbal_site/runtime/offline.py):
//
//   BUILD.id         this build (a hash of everything below and of this file)
//   BUILD.shell      {path: revision}: what every page needs (scripts, styles,
//                    fonts, icons, manifests, offline pages), from the site root
//   BUILD.later      {path: revision}: the table's worker script, kept once the
//                    reader has played (a page view loads nothing of the engine)
//   BUILD.languages  {code: {root, pages: {path: revision}}}: each language's
//                    pages (by their URL, "rules/dashain/"), search index, sitemap
//   BUILD.offline    {code: path}: each language's offline page
//   BUILD.engine     the engine's cache name (the table's worker fills it: see
//                    browser/worker/); BUILD.pyodide, where Pyodide's files are;
//                    BUILD.engineFiles {path: "sha256-…"}: the engine's files
//
// Nothing kept is trusted by its name or headers alone: a copy is kept only
// once its bytes match this build's revision (or, for the engine's files,
// integrity), and checked again each time it is used or carried over; a
// copy that fails is deleted and asked for again.
//
// Caches, each named "dhumbal:<scope path>:…" so that two sites on one host
// (a project site under /dhumbal/ and another) never touch each other's:
//   site-<id>   the shell, the pages of every language the reader has read,
//               and a small state (the languages kept), for this build
//   engine-…    Pyodide and the engine, written by the table's worker the
//               first time the reader plays; read here for the worker's
//               module scripts (its fetches read the cache themselves)
//
// Install keeps the shell and the languages the previous build kept (files
// whose revision did not change are copied from the old cache, not fetched
// again, when their bytes still match it; a file whose bytes do not match its
// revision fails the install, so a half-published site is never kept); then
// it takes over at once (skipWaiting, clients.claim) and deletes every other
// cache of its scope, carrying Pyodide's files over (those that match) when
// the new engine cache names the same Pyodide, and tells every open page (a
// message, "updated"): the page shows a quiet notice (browser/page/offline.ts).
// A page of the old build left open may still start its table, and so make
// its build's engine cache again: its messages bring that cache's end.
//
// Requests: this build's pages and files come from the site cache, else the
// network (and are kept when their bytes match this build's revision); a page
// neither kept nor reachable gets the offline page of its language (an
// instant-navigation fetch gets a network error, so that Material falls back
// to a full page load, which gets the offline page). Anything else, and
// everything outside the scope, goes to the network untouched.
"use strict";

const SCOPE = new URL(self.registration.scope);
const PREFIX = `dhumbal:${SCOPE.pathname}:`;
const SITE_CACHE = `${PREFIX}site-${BUILD.id}`;
const ENGINE_CACHE = PREFIX + BUILD.engine;
const STATE = new URL("__dhumbal__/state.json", SCOPE).href;
const REVISION = "X-Dhumbal-Revision";

// Every path this build knows, with its revision and the language it belongs to.
const KNOWN = new Map();
for (const [path, revision] of Object.entries({ ...BUILD.shell, ...BUILD.later })) KNOWN.set(path, { revision, lang: null });
for (const [code, { pages }] of Object.entries(BUILD.languages)) {
  for (const [path, revision] of Object.entries(pages)) KNOWN.set(path, { revision, lang: code });
}

function pathOf(url) {
  // A page's URL, whether asked for as "rules/x/" or "rules/x/index.html".
  const path = url.pathname.slice(SCOPE.pathname.length).replace(/(^|\/)index\.html$/, "$1");
  try {
    return decodeURIComponent(path);
  } catch (err) {
    return path; // a malformed escape ("%E0%A4"): no page of the site, but still an address to answer
  }
}

function languageOf(path) {
  let best = BUILD.default;
  let length = -1;
  for (const [code, { root }] of Object.entries(BUILD.languages)) {
    if (root && path.startsWith(root) && root.length > length) {
      best = code;
      length = root.length;
    }
  }
  return best;
}

async function digest(buffer) {
  const hash = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 12);
}

// The Subresource Integrity string of `buffer` (the engine's files: BUILD.engineFiles).
async function integrityOf(buffer) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  let text = "";
  for (const byte of hash) text += String.fromCharCode(byte);
  return "sha256-" + btoa(text);
}

// `response` as a new response of the same bytes if they hash (by `hashOf`) to
// `expected`; else null (cut short, replaced, damaged on the device).
async function checked(response, expected, hashOf = digest) {
  if (!response || !expected) return null;
  try {
    const body = await response.arrayBuffer();
    if ((await hashOf(body)) !== expected) return null;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (err) {
    return null;
  }
}

// The response for `path` as this build made it: from an older cache of this
// scope when the revision is the same and its bytes still match it, else from
// the network, its bytes checked against the revision. Null when the network
// gives something else.
async function fresh(path, revision, older) {
  const url = new URL(path, SCOPE).href;
  for (const cache of older) {
    const kept = await cache.match(url);
    const good = kept && kept.headers.get(REVISION) === revision ? await checked(kept, revision) : null;
    if (good) return good;
  }
  // "reload", not "no-cache": a host that validates by modification time alone
  // (to the second) can answer 304 for a file republished within that second,
  // and the HTTP cache's older bytes would fail the check below.
  const response = await fetch(url, { cache: "reload" });
  if (!response.ok) return null;
  const body = await response.arrayBuffer();
  if ((await digest(body)) !== revision) return null;
  const headers = new Headers(response.headers);
  headers.set(REVISION, revision);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function olderCaches() {
  const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX + "site-") && n !== SITE_CACHE);
  return Promise.all(names.map((n) => caches.open(n)));
}

async function keptLanguages(cache) {
  const state = await cache.match(STATE);
  if (!state) return [];
  try {
    const data = await state.json();
    return Array.isArray(data.languages) ? data.languages.filter((c) => c in BUILD.languages) : [];
  } catch (err) {
    return [];
  }
}

async function keepLanguage(code, older, yieldToNewer) {
  const cache = await caches.open(SITE_CACHE);
  const entries = Object.entries(BUILD.languages[code].pages);
  // Noted first: a newer build taking over keeps the languages noted here.
  const languages = new Set(await keptLanguages(cache));
  languages.add(code);
  await cache.put(STATE, new Response(JSON.stringify({ build: BUILD.id, languages: [...languages] }), {
    headers: { "content-type": "application/json" },
  }));
  let kept = 0;
  // A few at a time: the reader's own requests come first. A newer build
  // waiting to take over does not wait for this (it keeps the language itself).
  for (let i = 0; i < entries.length; i += 4) {
    if (yieldToNewer && (self.registration.installing || self.registration.waiting)) {
      return { kept, pages: entries.length, stopped: true };
    }
    const batch = entries.slice(i, i + 4).map(async ([path, revision]) => {
      const url = new URL(path, SCOPE).href;
      const have = await cache.match(url);
      if (have && have.headers.get(REVISION) === revision) return true;
      const response = await fresh(path, revision, older).catch(() => null);
      if (!response) return false;
      await cache.put(url, response);
      return true;
    });
    kept += (await Promise.all(batch)).filter(Boolean).length;
  }
  return { kept, pages: entries.length };
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const older = await olderCaches();
    const cache = await caches.open(SITE_CACHE);
    await Promise.all(Object.entries(BUILD.shell).map(async ([path, revision]) => {
      const response = await fresh(path, revision, older);
      if (!response) throw new Error(`${path} does not match this build (revision ${revision})`);
      await cache.put(new URL(path, SCOPE).href, response);
    }));
    // The languages the reader kept with the previous build stay kept.
    const languages = new Set();
    for (const old of older) for (const code of await keptLanguages(old)) languages.add(code);
    for (const code of languages) await keepLanguage(code, older);
    await self.skipWaiting();
  })());
});

// The integrity of the engine's file at `url`, if it is one of this build's.
function engineIntegrity(url) {
  const path = pathOf(new URL(url));
  return Object.prototype.hasOwnProperty.call(BUILD.engineFiles, path) ? BUILD.engineFiles[path] : null;
}

// Every cache of this scope that this build does not name goes; Pyodide's
// files move to the new engine cache first when they are the same files and
// their bytes match this build's (a copy an older worker kept unchecked, cut
// short or replaced, stays behind).
async function tidy() {
  const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== SITE_CACHE && n !== ENGINE_CACHE);
  const engine = await caches.open(ENGINE_CACHE);
  const pyodide = new URL(BUILD.pyodide, SCOPE).href;
  for (const name of names) {
    if (name.startsWith(PREFIX + "engine-")) {
      const old = await caches.open(name);
      for (const request of await old.keys()) {
        if (request.url.startsWith(pyodide) && !(await engine.match(request))) {
          const good = await checked(await old.match(request), engineIntegrity(request.url), integrityOf);
          if (good) await engine.put(request, good);
        }
      }
    }
    await caches.delete(name);
  }
}

// An engine cache of another build, made again by a page of that build still
// open (its table's worker keeps the files its page names), goes too, once no
// newer build is on its way and the site's manifest says this build is the
// site's: a page of a newer build, loaded before its service worker took
// over, keeps its files for that build. (The path is the worker's too.)
async function dropOtherEngines() {
  const others = (await caches.keys()).filter((n) => n.startsWith(PREFIX + "engine-") && n !== ENGINE_CACHE);
  if (!others.length || self.registration.installing || self.registration.waiting) return;
  try {
    const response = await fetch(new URL("assets/engine/manifest.json", SCOPE).href, { cache: "no-store" });
    if (!response.ok || PREFIX + (await response.json()).cache !== ENGINE_CACHE) return;
  } catch (err) {
    return; // offline: the next message, or the next build, tidies
  }
  for (const name of others) await caches.delete(name);
}

// A page open while a new build takes over is told so by a message, not only
// by its controllerchange: a page still loading when this build claims it
// (its scripts not run yet) would miss that event, and so the news. A
// client's messages wait until its page listens (its message queue starts
// when the page has parsed), so no page misses this one. A first install
// (no older build of this scope on the device) is no news.
async function activate() {
  const upgraded = (await caches.keys()).some((n) => n.startsWith(PREFIX + "site-") && n !== SITE_CACHE);
  await tidy();
  await self.clients.claim();
  if (!upgraded) return;
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage({ type: "updated", build: BUILD.id });
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(activate());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  if (data.type === "keep" && typeof data.lang === "string" && data.lang in BUILD.languages) {
    const work = (async () => {
      await dropOtherEngines().catch(() => {});
      if (data.saveData) return { kept: 0, pages: 0, saveData: true };
      return keepLanguage(data.lang, await olderCaches(), true);
    })();
    event.waitUntil(work.then(
      (result) => port && port.postMessage({ ok: true, build: BUILD.id, ...result }),
      (err) => port && port.postMessage({ ok: false, build: BUILD.id, error: String((err && err.message) || err) }),
    ));
  } else if (data.type === "engine") {
    // The table has started: keep the worker script too (the worker keeps the engine's files).
    const work = (async () => {
      const cache = await caches.open(SITE_CACHE);
      const older = await olderCaches();
      for (const [path, revision] of Object.entries(BUILD.later)) {
        const url = new URL(path, SCOPE).href;
        const have = await cache.match(url);
        if (have && have.headers.get(REVISION) === revision) continue;
        const response = await fresh(path, revision, older);
        if (response) await cache.put(url, response);
      }
      await dropOtherEngines().catch(() => {});
    })();
    event.waitUntil(work.then(() => port && port.postMessage({ ok: true, build: BUILD.id }),
      (err) => port && port.postMessage({ ok: false, error: String(err) })));
  } else if (data.type === "take-over") {
    // A page saw this build waiting although it asked to take over at install
    // (skipWaiting): it asks again. Chromium stops the old worker before this
    // one takes over; a request that starts the old worker again meanwhile (a
    // page's message, a fetch) can leave this one waiting for minutes.
    event.waitUntil(self.skipWaiting());
  } else if (data.type === "build" && port) {
    port.postMessage({ ok: true, build: BUILD.id });
  }
});

async function fromSite(request, path, known, navigate) {
  const cache = await caches.open(SITE_CACHE);
  const url = new URL(path, SCOPE).href;
  const kept = await cache.match(url);
  if (kept) {
    const good = known ? await checked(kept, known.revision) : kept;
    if (good) return good;
    await cache.delete(url); // damaged on this device: asked for again
  }
  try {
    const response = await fetch(request);
    if (response.ok && known) {
      // Kept when its bytes are this build's (a newer build's page waits for its own service worker).
      const copy = response.clone();
      copy.arrayBuffer().then(async (body) => {
        if ((await digest(body)) !== known.revision) return;
        const headers = new Headers(copy.headers);
        headers.set(REVISION, known.revision);
        await cache.put(url, new Response(body, { status: copy.status, statusText: copy.statusText, headers }));
      }).catch(() => {});
    }
    return response;
  } catch (err) {
    if (!navigate) throw err;
    const offlinePath = BUILD.offline[languageOf(path)];
    const offline = await checked(await cache.match(new URL(offlinePath, SCOPE).href), BUILD.shell[offlinePath]);
    if (!offline) throw err;
    return offline;
  }
}

// One of the engine's files, as this build made it: the engine's cache's copy
// if it matches (else it goes), else the network's if it matches (asked for
// once more past the HTTP cache if not; kept when `keep`), else a network error.
async function engineFile(request, keep) {
  const integrity = engineIntegrity(request.url);
  if (!integrity) return fetch(request); // not one of this build's files
  const cache = await caches.open(ENGINE_CACHE);
  const kept = await cache.match(request);
  if (kept) {
    const good = await checked(kept, integrity, integrityOf);
    if (good) return good;
    await cache.delete(request);
  }
  for (const mode of ["default", "reload"]) {
    const response = await fetch(request.url, { cache: mode, credentials: "same-origin" });
    if (!response.ok) return response;
    const good = await checked(response, integrity, integrityOf);
    if (good) {
      if (keep) await cache.put(request, good.clone()).catch(() => {});
      return good;
    }
  }
  return Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const path = pathOf(url);
  if (path === "sw.js") return;
  if (path.startsWith(BUILD.pyodide)) {
    // The worker imports Pyodide's module scripts (it has kept and checked their
    // bytes); Pyodide's whole standard library is asked for only when an import
    // misses the trimmed one: kept beside the engine, so that it works offline.
    if (request.destination === "script") event.respondWith(engineFile(request, false));
    else if (path === BUILD.pyodide + "python_stdlib.zip") event.respondWith(engineFile(request, true));
    return;
  }
  const known = KNOWN.get(path);
  const navigate = request.mode === "navigate";
  const page = navigate || (request.headers.get("accept") || "").includes("text/html");
  if (known || (page && !path.startsWith("assets/"))) {
    event.respondWith(fromSite(request, path, known, navigate));
  }
});
