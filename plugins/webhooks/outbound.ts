// Outbound HTTP to addresses users give us (webhooks, chat): the one undici Agent every such
// request goes through, under the SSRF guard of core/net-guard.ts (docs/integrations.md "SSRF guard").
//
//  - The URL must be https without credentials; its host (WHATWG-normalised: every IPv4 and
//    IPv6 notation) must be a public address or resolve only to public addresses.
//  - The same check runs again at connect time, inside the Agent's `lookup`: the address the
//    socket connects to is the one checked, so a name re-bound between the check and the
//    connection (DNS rebinding) is refused too.
//  - Redirects are never followed (undici's request does not follow them; a 3xx is a failure).
//  - WEBHOOK_ALLOWED_HOSTS (host names, addresses, CIDRs) opens hosts on purpose (tests' loopback receiver).
import type dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Config } from '../../core/config.ts';
import { AddressRefused, checkedAddresses, guardedLookup, hostOf, isPublicAddress, parseAllowList, systemResolver } from '../../core/net-guard.ts';

/** A refused target: its message says why (scheme, credentials, address). */
export { AddressRefused as OutboundRefused, isPublicAddress };

/** The response body kept on a delivery (SPEC: not stored beyond 1 KB). */
export const BODY_KEPT = 1024;

export interface PostResult { statusCode: number; body: string; responseTime: number }

export interface Outbound {
  /** Throws OutboundRefused naming why when the URL may not be called (scheme, address). */
  check(url: string): Promise<void>;
  /** POSTs a JSON body; never follows redirects; throws OutboundRefused, or a timeout / network error. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostResult>;
  close(): Promise<void>;
}

/**
 * `resolve` is the resolver of the check before the request (default dns.lookup, all
 * addresses); the connect-time check always asks dns.lookup. A test passes a resolver that
 * answers a public address to stand for a name re-bound between the two.
 */
export function createOutbound(
  config: Pick<Config, 'WEBHOOK_ALLOWED_HOSTS' | 'OUTBOUND_EXTRA_CA_FILE' | 'WEBHOOK_TIMEOUT_MS'>,
  opts: { resolve?: (host: string) => Promise<dns.LookupAddress[]> } = {},
): Outbound {
  const resolve = opts.resolve ?? systemResolver;
  const allow = parseAllowList(config.WEBHOOK_ALLOWED_HOSTS);
  // One TLS context for every connection: a `ca` list in the connect options would parse the
  // ~150 root certificates again for each new connection (a fifth of a worker's CPU in the bench).
  const secureContext = config.OUTBOUND_EXTRA_CA_FILE
    ? createSecureContext({ ca: [...rootCertificates, readFileSync(config.OUTBOUND_EXTRA_CA_FILE, 'utf8')] }) : undefined;
  // The connect-time check: whatever the resolver answers now is what the socket uses.
  const agent = new Agent({ connect: { lookup: guardedLookup(allow), ...(secureContext ? { secureContext } : {}) }, connections: 20 });

  async function check(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AddressRefused('Refused: not a valid URL');
    }
    if (url.protocol !== 'https:') throw new AddressRefused('Refused: the URL must use https');
    if (url.username || url.password) throw new AddressRefused('Refused: the URL must not carry credentials');
    await checkedAddresses(hostOf(url), allow, resolve);
  }

  return {
    check,
    async post(url, body, headers) {
      await check(url);
      const started = performance.now();
      const res = await request(url, {
        method: 'POST', body, dispatcher: agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'drift-webhooks/1', ...headers },
        signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS),
        headersTimeout: config.WEBHOOK_TIMEOUT_MS, bodyTimeout: config.WEBHOOK_TIMEOUT_MS,
      });
      // Only the first kilobyte is read and kept; the rest is discarded unread.
      let kept = Buffer.alloc(0);
      for await (const chunk of res.body) {
        kept = Buffer.concat([kept, chunk as Buffer]);
        if (kept.length >= BODY_KEPT) { res.body.destroy(); break; }
      }
      return { statusCode: res.statusCode, body: kept.subarray(0, BODY_KEPT).toString('utf8'), responseTime: Math.round(performance.now() - started) };
    },
    close: () => agent.close(),
  };
}

/** A short reason for a failed send, for the delivery record and the test route. */
export function failureReason(err: unknown, timeoutMs: number): string {
  if (err instanceof AddressRefused) return err.message;
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return `Timed out after ${timeoutMs / 1000} s`;
  const cause = e.cause ?? e;
  if (cause instanceof AddressRefused) return cause.message;
  const code = cause.code ?? e.code;
  if (code === 'ECONNREFUSED') return 'Unreachable: connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Unreachable: the host does not resolve';
  if (code && /CERT|SSL|TLS/i.test(code)) return `TLS error: ${code}`;
  return `Unreachable: ${code ?? cause.message ?? 'network error'}`;
}
