// How a REST cloud context gets its bearer tokens (cloud/azure/auth.ts, cloud/google/auth.ts),
// and the cache both share: the REST client asks for a token before every request, so the
// answer must be a memory read almost always, and one fetch must serve every concurrent caller.
import { ScanError, timeoutError } from '../errors.ts';

export interface TokenSource {
  token(signal?: AbortSignal): Promise<string>;
  /** Who the token is for, for messages ("service principal <id> in tenant <t>"); never a secret. */
  readonly describe: string;
}

export interface FetchedToken { token: string; /** epoch ms */ expiresAt: number }

/**
 * A token is renewed this long before it expires: the margin MSAL (tokenRenewalOffsetSeconds)
 * and google-auth-library (eagerRefreshThresholdMillis) use too, so a token never dies while a
 * paged listing is still using it.
 */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** One token fetch, retries included, may take this long before the scan fails `timeout`. */
export const FETCH_TIMEOUT_MS = 60_000;

/**
 * A TokenSource over `fetch`, cached until REFRESH_MARGIN_MS before expiry. Concurrent callers
 * share one fetch; the fetch runs under its own time limit rather than the first caller's
 * signal, so one caller giving up never fails the others. A failed fetch is not cached.
 */
export function cachedTokenSource(
  describe: string,
  fetch: (signal: AbortSignal) => Promise<FetchedToken>,
  opts: { now?: () => number; timeoutMs?: number } = {},
): TokenSource {
  const now = opts.now ?? Date.now;
  let current: FetchedToken | undefined;
  let pending: Promise<FetchedToken> | undefined;
  return {
    describe,
    async token(signal?: AbortSignal) {
      if (signal?.aborted) throw timeoutError(signal);
      if (current && now() < current.expiresAt - REFRESH_MARGIN_MS) return current.token;
      if (!pending) {
        pending = fetch(AbortSignal.timeout(opts.timeoutMs ?? FETCH_TIMEOUT_MS))
          .then((t) => (current = t))
          .finally(() => { pending = undefined; });
        // A caller that aborted has stopped listening; the rejection is still seen by the others.
        pending.catch(() => undefined);
      }
      return (await untilAborted(pending, signal)).token;
    },
  };
}

function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** `text` with every occurrence of each secret replaced, for messages quoting a server's words. */
export function scrub(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

const NETWORK = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_\w+|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_\w+|ERR_TLS_\w+)$/;

/** The first network or TLS error code along an error's cause chain, e.g. ECONNREFUSED. */
export function networkCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 6; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && NETWORK.test(e.code)) return e.code;
  }
  return undefined;
}

/** The ScanError for a token endpoint that did not answer (`host` is named, never a path). */
export function unreachable(cloud: string, host: string, detail: string, fetchSignal: AbortSignal): ScanError {
  const why = fetchSignal.aborted ? 'no answer in time' : detail;
  return new ScanError('timeout', `${cloud} could not reach its token endpoint ${host} (${why}); check the network, proxy and trusted certificates of this host, then scan again`);
}
