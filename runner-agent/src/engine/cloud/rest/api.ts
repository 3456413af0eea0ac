// One scan's client for a JSON-over-HTTPS cloud API (Azure Resource Manager, Google Cloud's REST
// APIs), through undici: a bearer token per request, paging (`nextLink` or `pageToken`), 429 and
// 503 answered by waiting what Retry-After says (else exponential backoff), a count of every
// request (stats.sdkCalls, retries included, as a rate limit sees them), the scan's abort signal,
// and errors a user can act on as ScanErrors. 404 is "not found" (null), not an error. Every
// request first waits for a token of the API budget (budget/: Azure per subscription and resource
// provider, Google per project and API); a throttled answer (429, Google's 403 rateLimitExceeded)
// halves that bucket before the retry.
import { rootCertificates } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { isAbort, ScanError, timeoutError } from '../../errors.ts';
import type { TokenSource } from '../token.ts';
import { ScanBudget } from '../../budget/index.ts';
import type { BudgetCloud } from '../../budget/rates.ts';
import { restBucket } from './bucket-of.ts';

const REQUEST_TIMEOUT_MS = 30_000;
const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_SOCKET']);
const RETRIED = new Set([429, 500, 502, 503, 504]);

export interface RestApiOptions {
  /** `cloud_b` or `cloud_c`: how messages name the cloud. */
  cloud: string;
  /** Base URL of a service (`management` for ARM; `compute`, `storage`... for Google). */
  baseUrl(service: string): string;
  tokens: TokenSource;
  /** Another audience's tokens for some services (Key Vault's data plane), else `tokens`. */
  tokensFor?(service: string): TokenSource | undefined;
  /** What to grant when a read is refused, e.g. "the Reader role on the subscription". */
  grantHint: string;
  /**
   * Whether a 404 means "this resource does not exist" (null) rather than "the scope is not
   * visible" (an error): ARM answers 404 SubscriptionNotFound for a subscription the principal
   * cannot see, which must never read as every resource deleted.
   */
  scopeMissing?(status: number, body: ErrorBody): string | undefined;
  signal?: AbortSignal;
  /** Extra CA certificates (PEM) to trust: a TLS-inspecting proxy, or the tests' fake. */
  ca?: string;
  maxAttempts?: number;
  /** Longest single wait a Retry-After may ask for before the scan gives up on the call. */
  maxRetryWaitMs?: number;
  /** Backoff unit without Retry-After (tests shorten it). */
  backoffMs?: number;
  /** Headers every request carries (Azure Blob Storage's x-ms-version). */
  headers?: Record<string, string>;
  /**
   * The scan's API budget, and the account a URL naming none belongs to (the credentials'
   * subscription or project). Absent: this process's buckets, no default rates (tests' servers).
   */
  budget?: { budget: ScanBudget; account: string };
}

/** The error shapes of both clouds: ARM `{error:{code,message}}`, Google `{error:{code,status,message,errors:[{reason}]}}`. */
export interface ErrorBody { error?: { code?: string | number; status?: string; message?: string; errors?: { reason?: string }[] } }

/** Google's quota refusals: 403 with one of these reasons, or 429 RESOURCE_EXHAUSTED. */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);
const rateLimited = (status: number, err: ErrorBody) =>
  status === 429 || (status === 403 && (err.error?.errors ?? []).some((e) => RATE_REASONS.has(e?.reason ?? '')));

export type Paging = { style: 'nextLink'; items?: string } | { style: 'pageToken'; items?: string };

export class RestApi {
  readonly calls: Record<string, number> = {};
  /** One promise per key for the whole scan (several resource types share a list). */
  readonly cache = new Map<string, Promise<unknown>>();
  private readonly opts: RestApiOptions;
  private readonly dispatcher?: Dispatcher;
  readonly budget: ScanBudget;
  private readonly budgetCloud: BudgetCloud;

  constructor(opts: RestApiOptions) {
    this.opts = opts;
    this.budget = opts.budget?.budget ?? new ScanBudget({ defaults: false }, opts.signal);
    this.budgetCloud = opts.cloud === 'cloud_c' ? 'google' : 'azure';
    // `ca` alone would replace the usual roots: the extra certificates go beside them.
    if (opts.ca) this.dispatcher = new Agent({ connect: { ca: [...rootCertificates, opts.ca] } });
  }

  get totalCalls(): number { return Object.values(this.calls).reduce((a, b) => a + b, 0); }
  get signal(): AbortSignal | undefined { return this.opts.signal; }

  url(service: string, pathOrUrl: string): string {
    return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.opts.baseUrl(service)}${pathOrUrl}`;
  }

  once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) this.cache.set(key, (p = fn()));
    return p;
  }

  /** GET one resource; null when it does not exist. */
  get<T = Record<string, unknown>>(service: string, pathOrUrl: string, what: string): Promise<T | null> {
    return this.send<T>('GET', service, this.url(service, pathOrUrl), undefined, what);
  }

  /** GET a body as text (a state file); null when it does not exist. */
  getText(service: string, pathOrUrl: string, what: string): Promise<string | null> {
    return this.send<string>('GET', service, this.url(service, pathOrUrl), undefined, what, 'text');
  }

  /**
   * HEAD: the response headers (lowercased names), null when the target does not exist. For
   * Azure Storage's data plane, whose blob and file properties are headers only; `headers` are
   * this call's own (x-ms-version...).
   */
  async head(service: string, pathOrUrl: string, what: string, headers: Record<string, string> = {}): Promise<Record<string, string> | null> {
    return this.send<Record<string, string>>('HEAD', service, this.url(service, pathOrUrl), undefined, what, 'headers', headers);
  }

  /** POST that reads (Google's getIamPolicy); null when the target does not exist. */
  post<T = Record<string, unknown>>(service: string, pathOrUrl: string, body: unknown, what: string): Promise<T | null> {
    return this.send<T>('POST', service, this.url(service, pathOrUrl), body, what);
  }

  /** Every item of a list, following the pages; [] when the parent does not exist. */
  async list<T = Record<string, unknown>>(service: string, pathOrUrl: string, what: string, paging: Paging): Promise<T[]> {
    const key = paging.items ?? (paging.style === 'nextLink' ? 'value' : 'items');
    const out: T[] = [];
    let url: string | undefined = this.url(service, pathOrUrl);
    const first = new URL(url);
    while (url) {
      const page: Record<string, unknown> | null = await this.send<Record<string, unknown>>('GET', service, url, undefined, what);
      if (!page) break;
      const items = page[key];
      // Compute's aggregatedList answers a map of scope -> {<kind>: [...]}: flattened here.
      if (Array.isArray(items)) out.push(...(items as T[]));
      else if (items && typeof items === 'object') {
        for (const scoped of Object.values(items as Record<string, Record<string, unknown>>)) {
          for (const v of Object.values(scoped ?? {})) if (Array.isArray(v)) out.push(...(v as T[]));
        }
      }
      if (paging.style === 'nextLink') url = typeof page.nextLink === 'string' && page.nextLink ? page.nextLink : undefined;
      else {
        const token = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
        if (token) { const next = new URL(first); next.searchParams.set('pageToken', token); url = next.toString(); } else url = undefined;
      }
    }
    return out;
  }

  private async send<T>(method: 'GET' | 'POST' | 'HEAD', service: string, url: string, body: unknown, what: string, want: 'json' | 'text' | 'headers' = 'json', extra: Record<string, string> = {}): Promise<T | null> {
    const { signal } = this.opts;
    const maxAttempts = this.opts.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw timeoutError(signal);
      const token = await (this.opts.tokensFor?.(service) ?? this.opts.tokens).token(signal);
      const bucket = restBucket(this.budgetCloud, service, url, this.opts.budget?.account ?? '');
      await this.budget.acquire(this.budgetCloud, bucket.account, '', bucket.service);
      this.calls[service] = (this.calls[service] ?? 0) + 1;
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method, signal, dispatcher: this.dispatcher, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...this.opts.headers, ...extra, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (e) {
        if (isAbort(e, signal)) throw timeoutError(signal);
        const code = (e as { code?: string }).code ?? '';
        if (NETWORK.has(code) && attempt < maxAttempts && code !== 'ENOTFOUND') { await this.wait(this.backoff(attempt)); continue; }
        throw new ScanError('timeout', `${this.opts.cloud} API at ${new URL(url).host} could not be reached (${code || 'network error'}) during ${what}; check the endpoint and network`, { cause: e });
      }
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) {
        if (want === 'text') return text as T;
        if (want === 'headers') return Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : String(v ?? '')])) as T;
        try {
          return (text ? JSON.parse(text) : {}) as T;
        } catch {
          throw new Error(`${this.opts.cloud} answered ${what} with a body that is not JSON (HTTP ${res.statusCode})`);
        }
      }
      const err = parseError(text);
      const throttled = rateLimited(res.statusCode, err);
      if (throttled) await this.budget.throttled(this.budgetCloud, bucket.account, '', bucket.service);
      if ((RETRIED.has(res.statusCode) || throttled) && attempt < maxAttempts) {
        const asked = retryAfterMs(res.headers);
        const ms = asked ?? this.backoff(attempt);
        if (ms <= (this.opts.maxRetryWaitMs ?? 60_000)) {
          if (throttled) this.budget.waitedMs += ms;
          await this.wait(ms);
          continue;
        }
      }
      if (res.statusCode === 404) {
        const missing = this.opts.scopeMissing?.(404, err);
        if (missing) throw new ScanError('access_denied', `${this.opts.cloud}: ${missing} (during ${what}); grant ${this.opts.tokens.describe} ${this.opts.grantHint}`);
        return null;
      }
      const code = String(err.error?.code ?? err.error?.status ?? res.statusCode);
      if (RETRIED.has(res.statusCode) || throttled) {
        throw new ScanError('timeout', `${this.opts.cloud} kept answering HTTP ${res.statusCode} (${code}) to ${what} after ${attempt} attempts; retry the scan later`);
      }
      if (res.statusCode === 401) {
        throw new ScanError('access_denied', `${this.opts.cloud} refused the token of ${this.opts.tokens.describe} for ${what} (HTTP 401 ${code}); check the credentials`);
      }
      if (res.statusCode === 403) {
        throw new ScanError('access_denied', `${this.opts.cloud} denied ${what} to ${this.opts.tokens.describe} (HTTP 403 ${code}): grant it ${this.opts.grantHint}`);
      }
      throw new Error(`${this.opts.cloud} answered HTTP ${res.statusCode} (${code}) to ${what}`);
    }
  }

  private backoff(attempt: number): number {
    const unit = this.opts.backoffMs ?? 500;
    return Math.min(unit * 2 ** (attempt - 1), 20_000) * (0.75 + Math.random() / 2);
  }

  private wait(ms: number): Promise<void> {
    const { signal } = this.opts;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
      const onAbort = () => { clearTimeout(timer); reject(timeoutError(signal)); };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async destroy(): Promise<void> {
    await (this.dispatcher as Agent | undefined)?.close();
  }
}

/** JSON error bodies, and Azure Storage's XML one (`<Error><Code>...</Code>`). */
function parseError(text: string): ErrorBody {
  try {
    const v = JSON.parse(text) as ErrorBody;
    return v && typeof v === 'object' ? v : {};
  } catch {
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
    return code ? { error: { code } } : {};
  }
}

/** Retry-After in seconds or as an HTTP date; ARM's `retry-after-ms` / `x-ms-retry-after-ms` too. */
export function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const one = (k: string) => { const v = headers[k]; return Array.isArray(v) ? v[0] : v; };
  for (const k of ['retry-after-ms', 'x-ms-retry-after-ms']) {
    const v = Number(one(k));
    if (one(k) !== undefined && Number.isFinite(v) && v >= 0) return v;
  }
  const ra = one('retry-after');
  if (ra === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
