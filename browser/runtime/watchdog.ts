/**
 * The runtime's watchdog: every way the engine can stop becomes the error
 * state within seconds.
 *
 *   stall    a download that brings no data for this long: the worker reports it ("blocked")
 *   window, total  a download that trickles: once it has run for `window`, the rate over the
 *            last `window` must bring the bytes left within `total` of the start, and loading
 *            never takes longer than `total` (the worker reports it: "blocked")
 *   silence  while loading, no message at all from the worker for this long (it sends
 *            progress twice a second unless Python is busy): dead or hung ("failed")
 *   request  a request not answered in this long ("timeout"); the worker is dropped, and
 *            Retry starts a fresh one
 *
 * A worker that dies (terminated, crashed, closed) is known at once where the
 * browser has Web Locks: it holds the lock named after it while it lives, and
 * the page's request for that lock is granted when it ends.
 */

export interface Limits {
  stall: number;
  silence: number;
  request: number;
  window: number;
  total: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  stall: 8000,
  silence: 20000,
  request: 30000,
  window: 20000,
  total: 600000,
};

interface Guard {
  worker: Worker;
  timer: ReturnType<typeof setInterval> | null;
  lastSign: number;
  abort: AbortController | null;
}

/** The limits a page gave (window.DhumbalRuntimeLimits), each a positive number, else the default. */
export function limitsFrom(given: Partial<Limits> | undefined): Limits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = Number(given?.[key]);
    if (value > 0) out[key] = value;
  }
  return out;
}

export class Watchdog {
  readonly limits: Limits;
  private guard: Guard | null = null;

  constructor(
    given: Partial<Limits> | undefined,
    private readonly on: { silent: (quietMs: number) => void; gone: () => void },
  ) {
    this.limits = limitsFrom(given);
  }

  /** Watch `worker` while `loading()` holds: silence, and its end through its lock. */
  watch(worker: Worker, loading: () => boolean): void {
    this.unwatch();
    const mine: Guard = { worker, timer: null, lastSign: Date.now(), abort: null };
    this.guard = mine;
    mine.timer = setInterval(() => {
      if (this.guard !== mine || !loading()) return;
      const quiet = Date.now() - mine.lastSign;
      if (quiet > this.limits.silence) this.on.silent(quiet);
    }, 1000);
  }

  /** Loading is over: the silence check stops (a busy engine may be quiet); the lock still watches. */
  loaded(): void {
    if (this.guard?.timer) clearInterval(this.guard.timer);
    if (this.guard) this.guard.timer = null;
  }

  unwatch(): void {
    if (!this.guard) return;
    if (this.guard.timer) clearInterval(this.guard.timer);
    this.guard.abort?.abort();
    this.guard = null;
  }

  /** A message from the worker: a sign of life; `lock`, the Web Lock it holds while it lives. */
  sign(lock: string | null): void {
    const mine = this.guard;
    if (!mine) return;
    mine.lastSign = Date.now();
    if (lock && !mine.abort) this.holdLock(mine, lock);
  }

  private holdLock(mine: Guard, name: string): void {
    if (!navigator.locks?.request || typeof AbortController !== "function") return;
    mine.abort = new AbortController();
    navigator.locks
      .request(name, { signal: mine.abort.signal }, () => {
        // Granted: the worker that held it is gone.
        if (this.guard === mine) this.on.gone();
      })
      .catch(() => {
        /* aborted: this page dropped the worker itself */
      });
  }
}
