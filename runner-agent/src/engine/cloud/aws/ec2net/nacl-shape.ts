// Network ACL entries between the API's shape and the provider's: protocols as numbers or names,
// ports and ICMP fields that only mean something for some protocols, and the check the severity
// rules share (an allow entry letting the world in on SSH or RDP).
import type { NetworkAclEntry } from '@aws-sdk/client-ec2';
import { isObject, scalarKey } from '../../../values.ts';

const NUMBERS: Record<string, string> = { all: '-1', '-1': '-1', tcp: '6', udp: '17', icmp: '1', icmpv6: '58' };
const NAMES: Record<string, string> = { '6': 'tcp', '17': 'udp', '1': 'icmp', '58': 'icmpv6', '-1': '-1' };
const WORLD = ['0.0.0.0/0', '::/0'];
const ADMIN_PORTS = [22, 3389];

/** A protocol as the API's number ("tcp" and "6" are the same protocol). */
export const protocolNumber = (p: unknown): string => { const s = scalarKey(p).toLowerCase(); return NUMBERS[s] ?? s; };
export const isIcmp = (p: string) => p === '1' || p === '58';
export const hasPorts = (p: string) => p === '6' || p === '17';
const int = (v: unknown) => (v === null || v === undefined || v === '' ? 0 : Number(v));

/** The live protocol in the state's spelling when both name the same protocol, else the provider's name. */
export const protocolLike = (live: string | undefined, state: unknown): string =>
  (protocolNumber(state) === protocolNumber(live) && !/^\s*$/.test(scalarKey(state)) ? scalarKey(state) : NAMES[live ?? ''] ?? live ?? '');

/**
 * One entry's identity as the provider reads it: ports only when the protocol has ports (the API
 * leaves PortRange out for "all"), ICMP type and code only for ICMP (the state holds null or 0).
 */
export function entryKey(e: unknown): string[] {
  if (!isObject(e)) return [];
  const p = protocolNumber(e.protocol);
  const ports = p === '-1' || isIcmp(p) ? '' : `${int(e.from_port)}-${int(e.to_port)}`;
  const icmp = isIcmp(p) ? `${int(e.icmp_type)}/${int(e.icmp_code)}` : '';
  return [[int(e.rule_no ?? e.rule_number), scalarKey(e.action ?? e.rule_action), p, scalarKey(e.cidr_block), scalarKey(e.ipv6_cidr_block), ports, icmp].join('|')];
}

/** An API entry as an element of the provider's ingress/egress. */
export const entryElement = (x: NetworkAclEntry, stateProtocol?: unknown) => ({
  rule_no: x.RuleNumber, action: x.RuleAction, protocol: protocolLike(x.Protocol, stateProtocol),
  cidr_block: x.CidrBlock ?? '', ipv6_cidr_block: x.Ipv6CidrBlock ?? '',
  from_port: x.PortRange?.From ?? 0, to_port: x.PortRange?.To ?? 0, icmp_type: x.IcmpTypeCode?.Type ?? 0, icmp_code: x.IcmpTypeCode?.Code ?? 0,
});

/** The default deny-all entries (32767 IPv4, 32768 IPv6) the provider never lists. */
export const isDefaultEntry = (x: NetworkAclEntry) => x.RuleNumber === 32767 || x.RuleNumber === 32768;

/** Keys of the entries that allow 22 or 3389 in from anywhere (an `ingress` element or an aws_network_acl_rule). */
export function adminOpenings(entries: unknown): string[] {
  const list = (Array.isArray(entries) ? entries : [entries]).filter(isObject);
  return list.flatMap((e) => {
    if (scalarKey(e.action ?? e.rule_action) !== 'allow') return [];
    if (!WORLD.includes(scalarKey(e.cidr_block)) && !WORLD.includes(scalarKey(e.ipv6_cidr_block))) return [];
    const p = protocolNumber(e.protocol);
    const from = int(e.from_port);
    const to = int(e.to_port);
    const open = p === '-1' ? ADMIN_PORTS : p === '6' || p === '17' ? ADMIN_PORTS.filter((port) => from <= port && port <= to) : [];
    return open.map((port) => `${port}<${scalarKey(e.cidr_block) || scalarKey(e.ipv6_cidr_block)}`);
  });
}

/** Whether `after` lets the world in on 22/3389 in a way `before` did not. */
export function newlyOpensAdmin(before: unknown, after: unknown): boolean {
  const had = new Set(adminOpenings(before));
  return adminOpenings(after).some((k) => !had.has(k));
}
