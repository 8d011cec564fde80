/**
 * The engine wheel unpacked by the worker itself, beside Pyodide's boot.
 *
 * Pyodide's `unpackArchive` extracts a wheel in Python (zipfile and shutil,
 * running in WebAssembly), after Pyodide has booted: 100 to 150 ms on a
 * second visit, on the start's critical path (DECISIONS.md, "The second
 * visit"). Here the wheel, once its bytes match the build's hash, is read
 * with the browser's own inflater (`DecompressionStream`, off the worker's
 * thread) while Pyodide boots, and its files are written into site-packages
 * in a few milliseconds once the file system is there.
 *
 * The archive is read as untrusted (the hash says it is the build's, not that
 * the build is sound): a zip of at most `MAX_ENTRIES` files and
 * `MAX_BYTES` inflated, stored or deflated, no encryption, no zip64, every
 * name a plain relative path (no `..`, no absolute path, no backslash),
 * every file inflating to the size the archive gives. Anything else is a
 * `WheelError`, and the caller falls back to Pyodide's own unpacking, which
 * reports it as before.
 */

export const MAX_ENTRIES = 10_000;
export const MAX_BYTES = 64 * 1024 * 1024;

/** A wheel this module will not read (the caller lets Pyodide try). */
export class WheelError extends Error {}

export interface WheelFile {
  /** The path inside the wheel, "/"-separated ("dhumbal/__init__.py"). */
  path: string;
  data: Uint8Array;
}

/** The part of Emscripten's file system the files are written with (Pyodide's `FS`). */
export interface WheelFS {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}

const NAME = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._+-]+(?:\/[A-Za-z0-9._+-]+)*\/?$/;
const END = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function fail(what: string): never {
  throw new WheelError(`the engine wheel: ${what}`);
}

async function inflate(data: Uint8Array, size: number): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const out = new Uint8Array(await new Response(stream).arrayBuffer());
  if (out.byteLength !== size) fail(`a file inflates to ${out.byteLength} bytes, not ${size}`);
  return out;
}

/** Every file of the wheel, inflated (directories left out: writing a file makes its folders). */
export async function readWheel(bytes: Uint8Array): Promise<WheelFile[]> {
  if (typeof DecompressionStream !== "function") fail("this browser has no DecompressionStream");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  let end = -1;
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 0xffff); at--) {
    if (u32(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) fail("no end of central directory");
  const count = u16(end + 10);
  const size = u32(end + 12);
  const start = u32(end + 16);
  if (count === 0xffff || start === 0xffffffff) fail("zip64 is not read here");
  if (count > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} files`);
  if (start + size > end) fail("the central directory lies outside the archive");
  const names = new TextDecoder("utf-8", { fatal: true });
  const pending: Promise<WheelFile>[] = [];
  let total = 0;
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(at) !== CENTRAL) fail(`entry ${i} of the central directory is malformed`);
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const packed = u32(at + 20);
    const inflated = u32(at + 24);
    const nameLength = u16(at + 28);
    const skip = nameLength + u16(at + 30) + u16(at + 32);
    const local = u32(at + 42);
    if (at + 46 + skip > end) fail(`entry ${i} of the central directory is malformed`);
    let path: string;
    try {
      path = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    } catch {
      fail(`entry ${i} has a name that is not UTF-8`);
    }
    at += 46 + skip;
    if (!NAME.test(path)) fail(`${JSON.stringify(path)} is not a plain relative path`);
    if (flags & 1) fail(`${path} is encrypted`);
    if (packed === 0xffffffff || inflated === 0xffffffff || local === 0xffffffff) fail("zip64 is not read here");
    if (path.endsWith("/")) continue;
    total += inflated;
    if (total > MAX_BYTES) fail(`more than ${MAX_BYTES} bytes inflated`);
    if (local + 30 > start || u32(local) !== LOCAL) fail(`${path}: no local header where the directory says`);
    const from = local + 30 + u16(local + 26) + u16(local + 28);
    if (from + packed > start) fail(`${path} runs past its place in the archive`);
    const data = bytes.subarray(from, from + packed);
    if (method === 0) {
      if (packed !== inflated) fail(`${path} is stored with two sizes`);
      pending.push(Promise.resolve({ path, data }));
    } else if (method === 8) {
      pending.push(inflate(data, inflated).then((out) => ({ path, data: out })));
    } else {
      fail(`${path} is compressed with method ${method}`);
    }
  }
  return Promise.all(pending);
}

/** Write the wheel's files under `dir` (site-packages). */
export function writeWheel(fs: WheelFS, dir: string, files: WheelFile[]): void {
  const made = new Set<string>();
  for (const { path, data } of files) {
    const cut = path.lastIndexOf("/");
    const folder = cut < 0 ? dir : `${dir}/${path.slice(0, cut)}`;
    if (!made.has(folder)) {
      fs.mkdirTree(folder);
      made.add(folder);
    }
    fs.writeFile(`${dir}/${path}`, data);
  }
}
