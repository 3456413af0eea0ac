// The API budget of one scan (or discovery run, or targeted re-check): every cloud call of the
// engine waits here for a token of its bucket, one bucket per (cloud account, service); a
// throttled answer halves the bucket and the call is retried after a backoff. The buckets live
// in the store the caller hands in (the service: Redis, shared by every process; a runner or
// the CLI: this process's), so scans of one account draw from one budget however many run.
// `throttledCalls` and `waitedMs` become the scan's stats.
import { timeoutError } from '../errors.ts';
import { MemoryBucketStore, type BucketStore } from './bucket.ts';
import { rateFor, type ApiRates, type BudgetCloud, type BudgetOptions } from './rates.ts';

export { MemoryBucketStore, type BucketStore, type Rate } from './bucket.ts';
export { RedisBucketStore, type EvalClient } from './redis.ts';
export { apiRatesProblem, rateFor, type ApiRates, type BudgetCloud, type BudgetOptions } from './rates.ts';



/** This process's buckets, for every scan not handed a store: a runner's scans share them. */
const processStore = new MemoryBucketStore();

/** Backoff after a throttled answer, before the call draws its next token (doubling, jittered). */
const BACKOFF_UNIT_MS = 250;
const BACKOFF_MAX_MS = 8_000;

export class ScanBudget {
  /** Calls the provider answered as throttled. */
  throttledCalls = 0;
  /** Milliseconds calls spent waiting for a token or backing off after a throttle (summed over concurrent calls). */
  waitedMs = 0;
  private readonly store: BucketStore;
  private readonly rates?: ApiRates;
  private readonly defaults: boolean;
  private readonly signal?: AbortSignal;

  constructor(opts: BudgetOptions = {}, signal?: AbortSignal) {
    this.store = opts.store ?? processStore;
    this.rates = opts.rates && Object.keys(opts.rates).length ? opts.rates : undefined;
    this.defaults = opts.defaults ?? true;
    this.signal = signal;
  }

  /** Whether any call is limited (else the account need not even be looked up). */
  get active(): boolean { return this.defaults || !!this.rates; }

  private rate(cloud: BudgetCloud, service: string) {
    return rateFor(cloud, service, this.rates, this.defaults);
  }

  /** Waits for one token of the bucket of (cloud, account, location, service). */
  async acquire(cloud: BudgetCloud, account: string, location: string, service: string): Promise<void> {
    const rate = this.rate(cloud, service);
    if (!rate) return;
    const ms = await this.store.take(bucketKey(cloud, account, location, service), rate);
    if (ms > 0) await this.sleep(ms);
  }

  /** The provider throttled a call of that bucket: counted, the bucket halved for every process. */
  async throttled(cloud: BudgetCloud, account: string, location: string, service: string): Promise<void> {
    this.throttledCalls++;
    const rate = this.rate(cloud, service);
    if (rate) await this.store.throttled(bucketKey(cloud, account, location, service), rate);
  }

  /** The backoff before retry number `attempt` (1-based) of a throttled call. */
  backoff(attempt: number): Promise<void> {
    const ms = Math.min(BACKOFF_UNIT_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS) * (0.75 + Math.random() / 2);
    return this.sleep(Math.round(ms));
  }

  private sleep(ms: number): Promise<void> {
    this.waitedMs += ms;
    const { signal } = this;
    if (signal?.aborted) return Promise.reject(timeoutError(signal));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
      const onAbort = () => { clearTimeout(timer); reject(timeoutError(signal)); };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** One bucket's key: account ids and service names are not secrets; none holds a `:` we split on. */
export function bucketKey(cloud: BudgetCloud, account: string, location: string, service: string): string {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9._*-]/g, '_').slice(0, 120);
  return [cloud, clean(account || 'unknown'), clean(location || 'global'), clean(service)].join(':');
}

/** AWS error names of a throttled call (the SDKs' throttling list), HTTP 429 too. */
const AWS_THROTTLES = new Set([
  'Throttling', 'ThrottlingException', 'ThrottledException', 'RequestThrottledException', 'RequestThrottled', 'RequestLimitExceeded',
  'TooManyRequestsException', 'ProvisionedThroughputExceededException', 'SlowDown', 'PriorRequestNotComplete',
  'BandwidthLimitExceeded', 'EC2ThrottledException',
]);

export function isAwsThrottle(e: unknown): boolean {
  const err = e as { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } } | undefined;
  const name = typeof err?.name === 'string' ? err.name : typeof err?.Code === 'string' ? err.Code : '';
  return AWS_THROTTLES.has(name) || err?.$metadata?.httpStatusCode === 429;
}
