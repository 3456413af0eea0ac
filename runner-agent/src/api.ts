// The agent's side of the protocol: its HTTP client for the service's runner routes
// (X-Runner-Token; every answer is the {success, data} envelope, a failure an ApiError saying
// whether a retry can help), how it retries, and what it reports about itself.
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';

/** The package's version: what `drift-runner --version` prints and the heartbeat reports. */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly code: string, readonly retryAfterMs = 0) {
    super(message);
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
      let res: Response;
      try {
        res = await fetch(`${base}/api/runners${path}`, {
          method: 'POST',
          headers: { 'x-runner-token': token, 'content-type': 'application/json', 'user-agent': `drift-runner/${VERSION}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        // undici puts the socket error in cause (an AggregateError when IPv4 and IPv6 both failed).
        const e = err as Error & { cause?: { code?: string; errors?: { code?: string }[] } };
        const code = e.cause?.code ?? e.cause?.errors?.[0]?.code ?? e.name;
        throw new ApiError(`${base} unreachable (${code})`, 0, 'unreachable');
      }
      const text = await res.text().catch(() => '');
      let json: { success?: boolean; data?: T; error?: { code?: string; message?: string } } = {};
      try { json = text ? JSON.parse(text) : {}; } catch { /* a proxy's HTML error page: the status says enough */ }
      if (!res.ok) {
        const retryAfter = Number(res.headers.get('retry-after'));
        throw new ApiError(`POST ${path} -> ${res.status}: ${json.error?.message ?? text.slice(0, 200)}`, res.status, json.error?.code ?? 'http_error',
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 0);
      }
      return json.data as T;
    },
  };
}

// ---- retries --------------------------------------------------------------------------------
// Exponential backoff with jitter: after each failure the ceiling doubles up to `maxMs`, and the
// wait is drawn from its upper half, so a fleet of runners that lost the server at the same
// moment does not come back in one wave.

export interface Backoff {
  /** The wait before the next try; at least `atLeastMs` (a server's Retry-After). */
  next(atLeastMs?: number): number;
  reset(): void;
  readonly failures: number;
}

export function createBackoff(baseMs = 1000, maxMs = 60_000, random = Math.random): Backoff {
  let failures = 0;
  return {
    next(atLeastMs = 0) {
      const ceiling = Math.min(maxMs, baseMs * 2 ** failures);
      failures++;
      return Math.max(atLeastMs, Math.round(ceiling / 2 + random() * (ceiling / 2)));
    },
    reset() { failures = 0; },
    get failures() { return failures; },
  };
}

/** Resolves after `ms`, or at once when the signal aborts (shutdown must not wait out a long backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

// ---- system info ----------------------------------------------------------------------------
// SPEC Runner `systemInfo` (CPU, memory, disk) in the shape the service's Heartbeat schema
// accepts. Disk is the file system of the state folder, where clones and the outbox live.

export interface SystemInfo {
  cpu: { cores: number; model?: string; loadAverage: number[] };
  memory: { totalBytes: number; freeBytes: number };
  disk?: { totalBytes: number; freeBytes: number };
  os: string;
  hostname: string;
}

export async function systemInfo(stateDir: string): Promise<SystemInfo> {
  const cpus = os.cpus();
  const info: SystemInfo = {
    cpu: { cores: cpus.length, ...(cpus[0]?.model ? { model: cpus[0].model.trim().slice(0, 200) } : {}), loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
    memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
    os: `${os.type()} ${os.release()} ${os.arch()}`.slice(0, 200),
    hostname: os.hostname().slice(0, 255),
  };
  try {
    const fs = await statfs(stateDir);
    info.disk = { totalBytes: fs.blocks * fs.bsize, freeBytes: fs.bavail * fs.bsize };
  } catch {
    // A state folder on a file system without statfs: the rest still tells the operator something.
  }
  return info;
}
