// One security group rule in the provider's shape, and as atoms (one per source): what the group
// reader, its replay answers and the standalone rule resources compare. Apart from the reader so
// the answers can use it without importing the reader that imports them.
import type { IpPermission } from '@aws-sdk/client-ec2';
import { isObject, scalarKey } from '../../../values.ts';

const PROTOCOLS: Record<string, string> = { '6': 'tcp', '17': 'udp', '1': 'icmp', '58': 'icmpv6', all: '-1', '-1': '-1' };
export const proto = (p: unknown) => { const s = scalarKey(p).toLowerCase(); return PROTOCOLS[s] ?? s; };
export const ports = (protocol: string, from: unknown, to: unknown) =>
  (protocol === '-1' ? ['0', '0'] : [scalarKey(from ?? 0) || '0', scalarKey(to ?? 0) || '0']);
/** Other-account references are stored as `123456789012/sg-1`; the group id identifies them. */
export const groupRef = (s: string) => s.split('/').pop() ?? s;

export interface RuleShape {
  protocol: string; from_port: number; to_port: number; description: string; self: boolean;
  cidr_blocks: string[]; ipv6_cidr_blocks: string[]; prefix_list_ids: string[]; security_groups: string[];
}

/** Live permissions in the provider's shape: one rule per (permission, description), as Terraform stores them. */
export function renderPermissions(perms: IpPermission[] | undefined, groupId: string): RuleShape[] {
  const rules: RuleShape[] = [];
  for (const p of perms ?? []) {
    const protocol = proto(p.IpProtocol);
    const [from, to] = ports(protocol, p.FromPort, p.ToPort);
    const byDesc = new Map<string, RuleShape>();
    const get = (d: string | undefined) => {
      const key = d ?? '';
      let r = byDesc.get(key);
      if (!r) {
        r = { protocol, from_port: Number(from), to_port: Number(to), description: key, self: false, cidr_blocks: [], ipv6_cidr_blocks: [], prefix_list_ids: [], security_groups: [] };
        byDesc.set(key, r);
      }
      return r;
    };
    for (const r of p.IpRanges ?? []) if (r.CidrIp) get(r.Description).cidr_blocks.push(r.CidrIp);
    for (const r of p.Ipv6Ranges ?? []) if (r.CidrIpv6) get(r.Description).ipv6_cidr_blocks.push(r.CidrIpv6);
    for (const r of p.PrefixListIds ?? []) if (r.PrefixListId) get(r.Description).prefix_list_ids.push(r.PrefixListId);
    for (const r of p.UserIdGroupPairs ?? []) {
      if (r.GroupId === groupId) get(r.Description).self = true;
      else if (r.GroupId) get(r.Description).security_groups.push(r.GroupId);
    }
    rules.push(...byDesc.values());
  }
  return rules;
}

/**
 * A rule element as atoms, one per source: `tcp|22|22|cidr:10.0.0.0/8|ssh`. Two rule lists are
 * the same when their atom sets are, however the sources are grouped into elements.
 */
export function ruleAtoms(e: unknown, owner: Record<string, unknown>): string[] {
  if (!isObject(e)) return [];
  const protocol = proto(e.protocol);
  const [from, to] = ports(protocol, e.from_port, e.to_port);
  const base = `${protocol}|${from}|${to}`;
  const desc = scalarKey(e.description);
  const list = (v: unknown) => (Array.isArray(v) ? v.map((x) => scalarKey(x)).filter(Boolean) : []);
  const atoms: string[] = [];
  for (const c of list(e.cidr_blocks)) atoms.push(`${base}|cidr:${c}|${desc}`);
  for (const c of list(e.ipv6_cidr_blocks)) atoms.push(`${base}|cidr:${c}|${desc}`);
  for (const c of list(e.prefix_list_ids)) atoms.push(`${base}|pl:${c}|${desc}`);
  for (const g of list(e.security_groups)) {
    const id = groupRef(g);
    atoms.push(id === owner.id ? `${base}|self|${desc}` : `${base}|sg:${id}|${desc}`);
  }
  if (e.self === true || e.self === 'true') atoms.push(`${base}|self|${desc}`);
  return atoms;
}

