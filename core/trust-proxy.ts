// TRUST_PROXY as Fastify's trustProxy takes it (@fastify/proxy-addr): a hop count, or the
// addresses/CIDRs of the proxies in front. `true` is refused: it makes the left-most
// X-Forwarded-For entry the client's address, and the client writes that entry itself, so it
// would choose its own rate-limit bucket and the address the audit trail records.
import ipaddr from 'ipaddr.js';
import { ConfigError } from './config-error.ts';

const HINT = 'TRUST_PROXY=true trusts any X-Forwarded-For; set the number of proxies in front (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,192.168.1.7)';
/** proxy-addr's names for ranges. */
const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(v: string): boolean {
  if (NAMED.has(v)) return true;
  if (!v.includes('/')) return ipaddr.isValid(v) && (v.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(v));
  try {
    ipaddr.parseCIDR(v);
    return ipaddr.isValid(v.split('/')[0]);
  } catch {
    return false;
  }
}

/** The environment's text as trustProxy's value; throws ConfigError naming what to set. */
export function parseTrustProxy(text: string): false | number | string[] {
  const v = text.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === 'yes' || v === 'on') throw new ConfigError(`Configuration error: ${HINT}`);
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 64) throw new ConfigError('Configuration error: TRUST_PROXY is invalid (a hop count is at most 64)');
    return hops;
  }
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((s) => !isAddressOrCidr(s));
  if (bad !== undefined || !list.length) {
    throw new ConfigError(`Configuration error: TRUST_PROXY is invalid ("${bad ?? text}" is neither a hop count nor an address or CIDR); ${HINT}`);
  }
  return list;
}
