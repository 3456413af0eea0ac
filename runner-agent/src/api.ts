// The agent's side of the protocol: its HTTP client for the service's runner routes
// (X-Runner-Token; every answer is the {success, data} envelope, a failure an ApiError saying
// whether a retry can help). Retries are in backoff.ts, what it reports of itself in system-info.ts.
import { readFileSync } from 'node:fs';
import { request } from 'undici';

/** Set by the one-file bundle's build (plugins/runners/agent-package.ts); absent when run from source. */
declare const DRIFT_RUNNER_BUNDLED_VERSION: string | undefined;
/** The package's version: what `drift-runner --version` prints and the heartbeat reports. */
export const VERSION: string = typeof DRIFT_RUNNER_BUNDLED_VERSION === 'string'
  ? DRIFT_RUNNER_BUNDLED_VERSION
  : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** `drift-runner --version`: the version and the runtime it runs on. */
export const versionLine = () => `drift-runner ${VERSION} (Node.js ${process.version}, ${process.platform}-${process.arch})`;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryAfterMs: number;
  constructor(message: string, status: number, code: string, retryAfterMs = 0) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
    this.name = 'ApiError';
  }
  /**
   * Worth retrying: the server is unreachable or overloaded (status 0, 5xx, 408, 429), or the
   * token was refused (401: an operator may fix the token or the server's clock; the agent
   * waits rather than exits, so a service manager does not restart it in a loop).
   */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 408 || this.status === 429 || this.status === 401;
  }
}

export interface Api {
  post<T>(path: string, body?: unknown, timeoutMs?: number): Promise<T>;
}

export function createApi(baseUrl: string, token: string, defaultTimeoutMs = 30_000): Api {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async post<T>(path: string, body: unknown = {}, timeoutMs = defaultTimeoutMs): Promise<T> {
      let res: Awaited<ReturnType<typeof request>>;
      let text: string;
      try {
        // undici, the HTTP client of the product's stack (Node's fetch is built on it too).
        res = await request(`${base}/api/runners${path}`, {
          method: 'POST',
          headers: { 'x-runner-token': token, 'content-type': 'application/json', 'user-agent': `drift-runner/${VERSION}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await res.body.text().catch(() => '');
      } catch (err) {
        // A socket error carries its code (an AggregateError's first one when IPv4 and IPv6 both failed).
        const e = err as Error & { code?: string; cause?: { code?: string }; errors?: { code?: string }[] };
        const code = e.code ?? e.cause?.code ?? e.errors?.[0]?.code ?? e.name;
        throw new ApiError(`${base} unreachable (${code})`, 0, 'unreachable');
      }
      let json: { success?: boolean; data?: T; error?: { code?: string; message?: string } } = {};
      try { json = text ? JSON.parse(text) : {}; } catch { /* a proxy's HTML error page: the status says enough */ }
      if (res.statusCode < 200 || res.statusCode > 299) {
        const header = res.headers['retry-after'];
        const retryAfter = Number(Array.isArray(header) ? header[0] : header);
        throw new ApiError(`POST ${path} -> ${res.statusCode}: ${json.error?.message ?? text.slice(0, 200)}`, res.statusCode, json.error?.code ?? 'http_error',
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 0);
      }
      return json.data as T;
    },
  };
}
