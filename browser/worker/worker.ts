/**
 * The Dhumbal engine in a module Web Worker (started by browser/runtime/client.ts).
 * The messages in and out are protocol/worker.ts; "init" boots the engine
 * (boot.ts), "request" passes the payload as JSON text to Python's
 * dhumbal.table.web.handle and returns the parsed answer. No rule is decided
 * here: this module only moves messages.
 *
 * Liveness: this worker holds a Web Lock named after it for as long as it
 * lives; the page asks for the same lock and so learns at once when the
 * worker is gone (terminated, crashed, closed), busy or not. Where Web Locks
 * are missing, the page's timeouts stand in (browser/runtime/watchdog.ts).
 */

import type { BootInfo, BootLimits, FromWorker, ToWorker } from "../protocol/worker";
import { boot, type Engine } from "./boot";
import { errorOf, messageOf, WorkerFailure } from "./errors";

declare const self: DedicatedWorkerGlobalScope;

let engine: Engine | null = null;
let booting: Promise<BootInfo> | null = null;

function post(message: FromWorker): void {
  self.postMessage(message);
}

function positive(value: unknown, fallback: number): number {
  return Number(value) > 0 ? Number(value) : fallback;
}

function init(base: string, message: Extract<ToWorker, { type: "init" }>): Promise<BootInfo> {
  if (!booting) {
    post({ type: "status", status: "loading" });
    const limits: BootLimits = {
      stall: positive(message.limits?.stall, 8000),
      window: positive(message.limits?.window, 20000),
      total: positive(message.limits?.total, 600000),
    };
    const options = { snapshot: message.options?.snapshot !== false };
    booting = boot(base, message.runtime || null, limits, options).then(
      ({ engine: booted, info }) => {
        engine = booted;
        post({ type: "status", status: "ready" });
        return info;
      },
      (err: unknown) => {
        booting = null; // a later init may try again
        post({ type: "status", status: "error" });
        throw err;
      },
    );
  }
  return booting;
}

function request(payload: unknown): unknown {
  if (!engine) throw new WorkerFailure("not-ready", "the engine is not loaded yet");
  if (!engine.handle) throw new WorkerFailure("failed", "this build of the engine has no dhumbal.table.web");
  return JSON.parse(engine.handle(JSON.stringify(payload))) as unknown;
}

async function onMessage(event: MessageEvent<ToWorker>): Promise<void> {
  const message = event.data || ({} as ToWorker);
  const { id } = message;
  try {
    let result: unknown;
    if (message.type === "init") result = await init(String(message.base || self.location.href), message);
    else if (message.type === "request") result = request(message.payload);
    else
      throw new WorkerFailure(
        "bad-message",
        `unknown message type ${JSON.stringify((message as { type?: unknown }).type)}`,
      );
    post({ id, ok: true, result });
  } catch (err) {
    post({ id, ok: false, error: errorOf(err) });
    // After a fatal error Pyodide cannot run anything more: say so, and the page
    // replaces this worker on retry().
    if (engine && /fatal error/i.test(messageOf(err))) {
      engine = null;
      post({ type: "status", status: "error" });
    }
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => void onMessage(event);

if (self.navigator?.locks && self.name) {
  navigator.locks
    .request(self.name, () => {
      post({ type: "alive", lock: self.name });
      return new Promise(() => {}); // held until the worker ends
    })
    .catch(() => {});
}
