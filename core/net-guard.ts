// The address rules of every connection the service opens to an address a user gave it (webhooks
// and chat: plugins/webhooks/outbound.ts; git clones of the built-in executor:
// plugins/executor/clone-guard.ts). One owner, so a notation refused for one is refused for all.
//
//  - Hosts come from WHATWG URL, which normalises every IPv4 notation (`2130706433`, `0x7f.1`,
//    `0177.0.0.1`) and brackets IPv6 (`[::1]`): the check sees the real address. Callers pass
//    the normalised URL on (a git child process given the raw text would read `0x7f.1` itself).
//  - Only public unicast addresses pass (ipaddr.js classifies the ranges: loopback,
//    unspecified, private, link-local incl. 169.254.169.254, unique-local, CGNAT, multicast,
//    reserved, Teredo, SIIT...). IPv6 forms that carry an IPv4 address are judged by that
//    address: IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` (an IPv6-only host behind
//    DNS64 reaches public IPv4 hosts through it), 6to4 `2002:AABB:CCDD::`; the deprecated
//    IPv4-compatible `::a.b.c.d` and the local-use NAT64 prefix 64:ff9b:1::/48 are refused.
//  - A name must resolve (every address) to allowed addresses only, and the connection goes to
//    an address that was checked: undici connects through `guardedLookup`, git through
//    curl's pinned resolve of the checked address. A name re-bound between the check and the
//    connection (DNS rebinding) cannot move it.
//  - An operator's allow-list (WEBHOOK_ALLOWED_HOSTS, EXECUTOR_ALLOWED_HOSTS: host names and
//    CIDRs) opens internal hosts on purpose: a listed name may resolve to anything, an address
//    inside a listed CIDR passes.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class AddressRefused extends Error {}

export type Resolver = (host: string) => Promise<dns.LookupAddress[]>;
export const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

function isPublicV4(ip: ipaddr.IPv4): boolean {
  return ip.range() === 'unicast';
}

/** True for an address a connection may go to unasked: public unicast, IPv4 carried in IPv6 judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return false;
  const ip = ipaddr.process(text); // ::ffff:a.b.c.d -> a.b.c.d
  if (ip.kind() === 'ipv4') return isPublicV4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  const p = v6.parts;
  if (p.slice(0, 6).every((x) => x === 0)) return false; // ::, ::1 and IPv4-compatible ::a.b.c.d
  if (v6.match(LOCAL_NAT64)) return false;
  const range = v6.range();
  if (range === 'rfc6052') return isPublicV4(new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]));
  if (range === '6to4') return isPublicV4(new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255]));
  return range === 'unicast';
}

export interface AllowList { names: Set<string>; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][]; empty: boolean }

const NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;
const bare = (host: string) => host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

/**
 * A comma-separated list of host names (exact) and addresses or CIDRs (`10.0.0.0/8`,
 * `fd00::/8`, `192.168.1.7`). Throws naming the entry that is neither.
 */
export function parseAllowList(spec: string): AllowList {
  const list: AllowList = { names: new Set(), ranges: [], empty: true };
  for (const raw of spec.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    list.empty = false;
    if (raw.includes('/')) {
      try {
        list.ranges.push(ipaddr.parseCIDR(raw));
        continue;
      } catch { throw new Error(`"${raw}" is not a valid CIDR`); }
    }
    const host = bare(raw);
    if (ipaddr.isValid(host)) {
      const ip = ipaddr.parse(host);
      list.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      list.names.add(host); // also matched as the URL's host, as before CIDRs were accepted
    } else if (NAME.test(host)) list.names.add(host);
    else throw new Error(`"${raw}" is neither a host name nor an address or CIDR`);
  }
  return list;
}

/** Whether the allow-list opens this address (inside a listed CIDR; IPv4-mapped IPv6 as IPv4). */
export function inRanges(list: AllowList, address: string): boolean {
  const text = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return false;
  const ip = ipaddr.process(text);
  return list.ranges.some(([net, bits]) => ip.kind() === net.kind() && ip.match(net, bits));
}

const addressOk = (list: AllowList, address: string) => isPublicAddress(address) || inRanges(list, address);

/** The URL's host as a resolver and the allow-list take it: no brackets, lower case, no trailing dot. */
export const hostOf = (url: URL) => bare(url.hostname);

/** Whether a connection to `host` (from hostOf) may go to `address`. */
export function allowed(list: AllowList, host: string, address: string): boolean {
  return list.names.has(bare(host)) || addressOk(list, address);
}

/**
 * The addresses `host` (from hostOf) may be connected at, every one checked; throws
 * AddressRefused naming the address refused, or saying the name does not resolve.
 */
export async function checkedAddresses(host: string, list: AllowList, resolve: Resolver = systemResolver): Promise<dns.LookupAddress[]> {
  const h = bare(host);
  if (ipaddr.isValid(h)) {
    if (!allowed(list, h, h)) throw refused(h, h);
    return [{ address: h, family: h.includes(':') ? 6 : 4 }];
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await resolve(h);
  } catch {
    throw new AddressRefused(`Refused: ${h} does not resolve`);
  }
  if (!addresses.length) throw new AddressRefused(`Refused: ${h} does not resolve`);
  const bad = addresses.find((a) => !allowed(list, h, a.address));
  if (bad) throw refused(h, bad.address);
  return addresses;
}

const refused = (host: string, address: string) =>
  new AddressRefused(`Refused: ${host} resolves to ${address}, a loopback, private, link-local or otherwise non-public address`);

/**
 * A `lookup` for net/tls/undici connections: resolves as dns.lookup does and refuses the
 * connection when an address is not allowed, so the socket connects to a checked address.
 */
export function guardedLookup(list: AllowList): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const all = addresses as dns.LookupAddress[];
      const bad = all.find((a) => !allowed(list, hostname, a.address));
      if (bad) return callback(refused(bare(hostname), bad.address) as NodeJS.ErrnoException, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, all);
      callback(null, all[0].address, all[0].family);
    });
  };
}
