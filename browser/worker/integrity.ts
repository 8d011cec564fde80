/**
 * The engine's files on this device: checked against the build before they
 * are kept and each time a kept copy is used.
 *
 * The build gives every file of the engine with its SHA-256 (a Subresource
 * Integrity string, "sha256-<base64>", by path from the site root). A
 * download cut short yet looking complete, or a page put in a file's place
 * (a filtering proxy's "blocked" page, answered 200), must never be kept:
 * kept, it would break the table on this device for good. So a file is read
 * whole and its hash compared before it is kept, and a kept copy is compared
 * again each time it is used. A kept copy that fails is deleted and
 * downloaded again; a download that fails is asked for once more past the
 * HTTP cache; a second failure is the "blocked" error, and nothing was kept.
 *
 * The engine's cache (Cache Storage, shared with the service worker) is named
 * by the site's path and a hash of the engine's files, so a new build never
 * reads an old build's files.
 */

import type { RuntimeFiles } from "../protocol/worker";
import { WorkerFailure } from "./errors";
import type { BootWatch } from "./watch";

declare const self: DedicatedWorkerGlobalScope;

export function cacheName(base: string, runtime: RuntimeFiles): string {
  return `dhumbal:${new URL(base).pathname}:${runtime.cache}`;
}

export async function openCache(name: string): Promise<Cache | null> {
  try {
    return self.caches ? await self.caches.open(name) : null;
  } catch {
    return null; // no Cache Storage here (private mode, storage refused): the network only
  }
}

export async function sriOf(bytes: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let text = "";
  for (const byte of digest) text += String.fromCharCode(byte);
  return "sha256-" + btoa(text);
}

/** The hex SHA-256 in an SRI string. */
export function hexOf(integrity: string): string {
  return [...atob(String(integrity).slice("sha256-".length))]
    .map((c) => c.charCodeAt(0).toString(16).padStart(2, "0"))
    .join("");
}

/**
 * A file of the boot as a Response whose bytes match `integrity`: from `cache`
 * when it holds a copy that matches (counted as it is read, like a download),
 * else fetched and, once whole and matching, kept there.
 */
export async function obtain(
  cache: Cache | null,
  watch: BootWatch,
  url: string,
  integrity: string | undefined,
  sources: Record<string, string>,
): Promise<Response> {
  const name = watch.nameOf(url);
  if (!integrity) throw new WorkerFailure("failed", `the build gives no hash for ${name}`);
  const matches = async (response: Response) => {
    const bytes = await watch.count(name, response, true);
    if (bytes && (await sriOf(bytes)) === integrity) return true;
    if (bytes) watch.discount(bytes.byteLength);
    return false;
  };
  if (cache) {
    const hit = await cache.match(url).catch(() => undefined);
    if (hit) {
      watch.inflight.add(name);
      if (await matches(hit)) {
        sources[name] = "cache";
        return hit;
      }
      await cache.delete(url).catch(() => false);
    }
  }
  for (const mode of ["default", "reload"] as const) {
    const response = await watch.fetch(url, { cache: mode }, false);
    if (!response.ok) throw new WorkerFailure("blocked", `cannot fetch ${url}: HTTP ${response.status}`);
    if (await matches(response)) {
      sources[name] = "network";
      if (cache) cache.put(url, response.clone()).catch(() => {});
      return response;
    }
  }
  throw new WorkerFailure("blocked", `${name} does not match this build: the download was cut short or replaced`);
}

/**
 * After a failed start: the engine's cache keeps only the files that still match
 * the build, and no memory snapshot (made on this device, the start may have
 * failed on it), so that Retry starts from files known good or from the site.
 */
export async function sweep(base: string, runtime: RuntimeFiles): Promise<void> {
  const name = cacheName(base, runtime);
  if (!self.caches || !(await self.caches.has(name))) return;
  const cache = await self.caches.open(name);
  const root = new URL(base).href;
  for (const request of await cache.keys()) {
    const path = request.url.startsWith(root) ? request.url.slice(root.length) : null;
    const integrity = path !== null ? runtime.integrity[path] : undefined;
    const kept = integrity ? await cache.match(request) : undefined;
    if (!kept || (await sriOf(await kept.arrayBuffer())) !== integrity) await cache.delete(request);
  }
}

/** Forget `url` in every cache (a snapshot that would not restore). */
export async function forget(url: string): Promise<void> {
  try {
    for (const name of await self.caches.keys()) await (await self.caches.open(name)).delete(url);
  } catch {
    /* nothing kept: nothing to forget */
  }
}
