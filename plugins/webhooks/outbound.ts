// Outbound HTTP to addresses users give us (webhooks, chat): the SSRF guard and the one undici
// Agent every such request goes through (docs/integrations.md "SSRF guard").
//
//  - The URL is parsed by WHATWG URL, which normalises every IPv4 notation (`2130706433`,
//    `0x7f.1`, `0177.0.0.1`) and brackets IPv6 (`[::1]`), so the check sees the real address.
//  - An IP literal must be public unicast; a name must resolve (dns.lookup, every address) to
//    public unicast addresses only. ipaddr.js classifies the ranges (loopback, unspecified,
//    private, link-local incl. 169.254.169.254, unique-local, CGNAT, multicast, reserved...)
//    and unwraps IPv4-mapped IPv6 (::ffff:127.0.0.1) before classifying.
//  - The same check runs again at connect time, inside the Agent's `lookup`: the address the
//    socket connects to is the one checked, so a name re-bound between the check and the
//    connection (DNS rebinding) is refused too.
//  - Redirects are never followed (undici's request does not follow them; a 3xx is a failure).
//  - WEBHOOK_ALLOWED_HOSTS names hosts exempt from the guard (tests' loopback receiver).
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import type { Config } from '../../core/config.ts';

export class OutboundRefused extends Error {}

/** True for an address a request may go to: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // ::ffff:a.b.c.d -> a.b.c.d
  return ip.range() === 'unicast';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

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
  const resolve = opts.resolve ?? ((host: string) => dns.promises.lookup(host, { all: true, verbatim: true }));
  const allowed = new Set(config.WEBHOOK_ALLOWED_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
  const ca = config.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(config.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;

  const refuse = (host: string, address: string) =>
    new OutboundRefused(`Refused: ${host} resolves to ${address}, a loopback, private, link-local or otherwise non-public address`);

  // The connect-time check: whatever the resolver answers now is what the socket uses.
  const lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (!allowed.has(hostname.toLowerCase())) {
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(refuse(hostname, bad.address) as NodeJS.ErrnoException, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  const agent = new Agent({ connect: { lookup, ...(ca ? { ca } : {}) }, connections: 20 });

  async function check(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused('Refused: not a valid URL');
    }
    if (url.protocol !== 'https:') throw new OutboundRefused('Refused: the URL must use https');
    if (url.username || url.password) throw new OutboundRefused('Refused: the URL must not carry credentials');
    const host = hostOf(url);
    if (allowed.has(host)) return;
    if (ipaddr.isValid(host)) {
      if (!isPublicAddress(host)) throw refuse(host, host);
      return;
    }
    let addresses: dns.LookupAddress[];
    try {
      addresses = await resolve(host);
    } catch {
      throw new OutboundRefused(`Refused: ${host} does not resolve`);
    }
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw refuse(host, bad.address);
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
  if (err instanceof OutboundRefused) return err.message;
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return `Timed out after ${timeoutMs / 1000} s`;
  const cause = e.cause ?? e;
  if (cause instanceof OutboundRefused) return cause.message;
  const code = cause.code ?? e.code;
  if (code === 'ECONNREFUSED') return 'Unreachable: connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Unreachable: the host does not resolve';
  if (code && /CERT|SSL|TLS/i.test(code)) return `TLS error: ${code}`;
  return `Unreachable: ${code ?? cause.message ?? 'network error'}`;
}
