/**
 * The worker's errors: a code the page shows (see protocol/worker.ts) and a
 * message for the console. A failed fetch or dynamic import is a TypeError;
 * a Content-Security-Policy that forbids WebAssembly is a CompileError naming it.
 */

export class WorkerFailure extends Error {
  /** A memory snapshot that would not restore: forgotten, and the engine loaded afresh. */
  snapshot?: string;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function messageOf(err: unknown): string {
  return String((err as { message?: unknown } | null)?.message ?? err);
}

export function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof WorkerFailure) return { code: err.code, message: err.message };
  const message = messageOf(err);
  const blocked =
    (err instanceof TypeError && /fetch|import|network|load/i.test(message)) ||
    /Content Security Policy|CSP|unsafe-eval/i.test(message);
  return { code: blocked ? "blocked" : "failed", message };
}

/** `err` marked as coming from a snapshot restore (it is then forgotten). */
export function fromSnapshot(err: unknown, url: string): Error {
  const out = err instanceof Error ? err : new Error(messageOf(err));
  (out as WorkerFailure).snapshot = url;
  return out;
}
