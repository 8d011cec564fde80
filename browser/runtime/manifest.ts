/**
 * The engine's files, read from the build's `assets/engine/manifest.json`
 * when the reader shows intent to play (sitegen/dhumbal_site/runtime/assets.py
 * writes it). A page before Play carries no list of them: it was 0.6 KB
 * gzipped in every page's head, read only by a reader who plays. The page's
 * runtime (client.ts) fetches it beside the worker's script; the worker reads
 * it again only when the files it was given cannot be had (a newer build).
 * The service worker keeps it with the site's shell, so it is there offline.
 *
 * The file is parsed as untrusted text: at most `MAX_BYTES`, every field of
 * the type it must have, every path a plain relative path under `assets/`,
 * every hash a SHA-256 Subresource Integrity string. Anything else is a
 * `ManifestError`, which the page shows as its own localized error
 * ("manifest") before anything is downloaded or started.
 */

import type { RuntimeFiles } from "../protocol/worker";

/** Where the build writes it, from the site root. */
export const MANIFEST_PATH = "assets/engine/manifest.json";
/** The real file is about 2 KB; a larger answer is not one. */
export const MAX_BYTES = 64 * 1024;

/** The manifest is missing (404), not JSON, or not the build's shape. */
export class ManifestError extends Error {
  readonly code = "manifest";
}

const PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._+-]+)*$/;
const SRI = /^sha256-[A-Za-z0-9+/]{43}=$/;
const VERSION = /^[A-Za-z0-9._+-]{1,40}$/;

function fail(what: string): never {
  throw new ManifestError(`${MANIFEST_PATH}: ${what}`);
}

function text(value: unknown, field: string, pattern: RegExp): string {
  if (typeof value !== "string" || !pattern.test(value)) fail(`"${field}" is missing or malformed`);
  return value;
}

/** The engine's files from the manifest's text (see the module's docstring for the checks). */
export function parseManifest(body: string): RuntimeFiles {
  if (body.length > MAX_BYTES) fail(`larger than ${MAX_BYTES} bytes`);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    fail("not JSON");
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) fail("not an object");
  const m = data as Record<string, unknown>;
  const pyodide = text(m.pyodide, "pyodide", VERSION);
  const wheel = text(m.wheel, "wheel", PATH);
  const pyodideDir = `assets/pyodide/${pyodide}/`;
  const integrity: Record<string, string> = {};
  const known = m.pyodide_integrity;
  if (!known || typeof known !== "object" || Array.isArray(known)) fail('"pyodide_integrity" is missing');
  for (const name of ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]) {
    integrity[pyodideDir + name] = text((known as Record<string, unknown>)[name], `pyodide_integrity.${name}`, SRI);
  }
  integrity[`assets/engine/${wheel}`] = text(m.integrity, "integrity", SRI);
  let stdlib = `${pyodideDir}python_stdlib.zip`;
  if (m.stdlib !== null && m.stdlib !== undefined) {
    stdlib = `assets/engine/${text(m.stdlib, "stdlib", PATH)}`;
    integrity[stdlib] = text(m.stdlib_integrity, "stdlib_integrity", SRI);
  }
  const download = m.download as { fetched?: unknown } | undefined;
  const bytes = download && typeof download === "object" ? Number(download.fetched) : 0;
  const files: RuntimeFiles = {
    version: text(m.version, "version", VERSION),
    pyodide,
    pyodideDir,
    wheel: `assets/engine/${wheel}`,
    stdlib,
    fullStdlib: `${pyodideDir}python_stdlib.zip`,
    cache: text(m.cache, "cache", /^engine-[A-Za-z0-9._+-]{1,80}$/),
    integrity,
    bytes: Number.isFinite(bytes) && bytes > 0 ? bytes : 0,
  };
  if (m.lock !== undefined) {
    if (!m.lock || typeof m.lock !== "object" || Array.isArray(m.lock)) fail('"lock" is malformed');
    files.lock = m.lock as Record<string, unknown>;
  }
  return files;
}

/**
 * The engine's files as the site has them now. A network failure, or no whole
 * answer within `timeout` ms, rejects with the fetch's own error (the page
 * shows "blocked": check the connection); a missing or malformed manifest
 * with a ManifestError.
 */
export async function fetchManifest(base: string, timeout = 20000): Promise<RuntimeFiles> {
  const url = new URL(MANIFEST_PATH, base);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeout} ms`)), timeout);
  try {
    // "no-cache": revalidated, so a page loaded from the host gets the host's current build.
    const response = await fetch(url, { cache: "no-cache", credentials: "same-origin", signal: abort.signal });
    if (!response.ok) fail(`HTTP ${response.status}`);
    if (Number(response.headers.get("content-length")) > MAX_BYTES) fail(`larger than ${MAX_BYTES} bytes`);
    return parseManifest(await response.text());
  } finally {
    clearTimeout(timer);
  }
}
