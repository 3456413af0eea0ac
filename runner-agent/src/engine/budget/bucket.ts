// The token bucket every cloud call draws from, one per (cloud account, service): its math, and
// the in-process store (a runner, the standalone CLI, a service without Redis). redis.ts runs
// the same math as one Lua script so every process of the service shares each bucket.
//
// A call reserves a token at once and is told how long to wait for it (the bucket may go below
// zero: callers queue by reservation, no polling). A throttled answer halves the bucket's rate
// (at most once a second: the answers of calls already in flight are one signal, not several)
// and empties it; the rate then recovers by RECOVERY per quiet minute back to the configured one.

/** A bucket's configured refill rate (tokens per second) and capacity (its burst). */
export interface Rate { perSecond: number; burst: number }

/** What every store offers: the in-process one below and the Redis one (redis.ts). */
export interface BucketStore {
  /** Reserves one token of bucket `key`; resolves with the milliseconds to wait before using it. */
  take(key: string, rate: Rate): Promise<number>;
  /** The provider throttled a call of bucket `key`: halve its rate and empty it. */
  throttled(key: string, rate: Rate): Promise<void>;
}

export interface BucketState {
  tokens: number;
  /** When tokens were last refilled (epoch ms). */
  at: number;
  /** The rate's share of the configured one at the last halving (1: never halved). */
  factor: number;
  /** When the rate was last halved (epoch ms; 0: never). */
  halvedAt: number;
}

/** Rate regained per quiet minute after a halving (+10%, multiplied: 0.5 back to 1 in about 7 min). */
export const RECOVERY = 1.1;
export const RECOVERY_STEP_MS = 60_000;
/** A halving never takes a bucket below this share of its configured rate. */
export const MIN_FACTOR = 1 / 64;
/** Throttled answers within this long of a halving do not halve again. */
export const HALVING_GAP_MS = 1000;
/** A bucket nobody drew from for this long is forgotten (its rate back to the configured one). */
export const IDLE_MS = 3_600_000;

/** The share of the configured rate in force at `now`: the last halving, recovered per quiet minute. */
export function factorAt(s: Pick<BucketState, 'factor' | 'halvedAt'>, now: number): number {
  if (s.factor >= 1) return 1;
  const quiet = Math.floor(Math.max(0, now - s.halvedAt) / RECOVERY_STEP_MS);
  return Math.min(1, s.factor * RECOVERY ** quiet);
}

/** The bucket at `now`: refilled at the rate in force, up to its capacity (the burst, scaled alike). */
function refilled(s: BucketState | undefined, rate: Rate, now: number): BucketState & { perSecond: number } {
  const base = s ?? { tokens: Math.max(1, rate.burst), at: now, factor: 1, halvedAt: 0 };
  const f = factorAt(base, now);
  const perSecond = rate.perSecond * f;
  const cap = Math.max(1, rate.burst * f);
  const tokens = Math.min(cap, base.tokens + (Math.max(0, now - base.at) * perSecond) / 1000);
  return { ...base, tokens, at: now, perSecond };
}

/** One reservation: the new state and how long (ms) the caller waits for its token. */
export function takeStep(s: BucketState | undefined, rate: Rate, now: number): { state: BucketState; waitMs: number } {
  const r = refilled(s, rate, now);
  const tokens = r.tokens - 1;
  const waitMs = tokens < 0 ? Math.ceil((-tokens * 1000) / r.perSecond) : 0;
  return { state: { tokens, at: now, factor: r.factor, halvedAt: r.halvedAt }, waitMs };
}

/** A throttled answer: the rate in force halved (unless halved under HALVING_GAP_MS ago), the bucket emptied. */
export function throttleStep(s: BucketState | undefined, rate: Rate, now: number): BucketState {
  const r = refilled(s, rate, now);
  const tokens = Math.min(r.tokens, 0);
  if (r.halvedAt && now - r.halvedAt < HALVING_GAP_MS) return { tokens, at: now, factor: r.factor, halvedAt: r.halvedAt };
  return { tokens, at: now, factor: Math.max(MIN_FACTOR, factorAt(r, now) / 2), halvedAt: now };
}

/** The in-process store: the same buckets for every scan of this process. */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, BucketState>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) { this.now = now; }

  async take(key: string, rate: Rate): Promise<number> {
    const now = this.now();
    this.forgetIdle(now);
    const { state, waitMs } = takeStep(this.buckets.get(key), rate, now);
    this.buckets.set(key, state);
    return waitMs;
  }

  async throttled(key: string, rate: Rate): Promise<void> {
    this.buckets.set(key, throttleStep(this.buckets.get(key), rate, this.now()));
  }

  /** The share of the configured rate bucket `key` runs at now (tests, diagnostics). */
  factor(key: string): number {
    const s = this.buckets.get(key);
    return s ? factorAt(s, this.now()) : 1;
  }

  private forgetIdle(now: number): void {
    if (this.buckets.size < 1000) return;
    for (const [k, s] of this.buckets) if (now - s.at > IDLE_MS) this.buckets.delete(k);
  }
}
