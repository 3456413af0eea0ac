// Replay answer for the network ACL readers: the fake's ACLs are the union of what the state
// records about them across aws_network_acl, aws_default_network_acl, aws_network_acl_rule and
// aws_network_acl_association (a subnet listed by an ACL gets an association id of its own).
import { DescribeNetworkAcls$ } from '@aws-sdk/client-ec2';
import { isObject } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { attrsOf, bool, num, opt, stateTags, tagList } from '../replay/kit.ts';
import { hasPorts, isIcmp, protocolNumber } from './nacl-shape.ts';


const apiEntry = (e: Record<string, unknown>, egress: boolean) => {
  const p = protocolNumber(e.protocol);
  return {
    RuleNumber: num(e.rule_no ?? e.rule_number), RuleAction: opt(e.action ?? e.rule_action), Protocol: p, Egress: egress,
    CidrBlock: opt(e.cidr_block), Ipv6CidrBlock: opt(e.ipv6_cidr_block),
    PortRange: hasPorts(p) ? { From: num(e.from_port) ?? 0, To: num(e.to_port) ?? 0 } : undefined,
    IcmpTypeCode: isIcmp(p) ? { Type: num(e.icmp_type) ?? 0, Code: num(e.icmp_code) ?? 0 } : undefined,
  };
};

export function fakeAcls(world: FakeWorld): Record<string, unknown>[] {
  const acls = new Map<string, { a: Record<string, unknown>; isDefault: boolean; entries: Map<string, unknown>; assoc: Map<string, string> }>();
  const acl = (id: string) => {
    let x = acls.get(id);
    if (!x) acls.set(id, x = { a: { id }, isDefault: false, entries: new Map(), assoc: new Map() });
    return x;
  };
  const own = [...attrsOf(world, 'aws_network_acl').map((a) => ({ a, id: str(a.id), isDefault: false })),
    ...attrsOf(world, 'aws_default_network_acl').map((a) => ({ a, id: str(a.default_network_acl_id || a.id), isDefault: true }))];
  for (const { a, id, isDefault } of own) {
    const x = acl(id);
    Object.assign(x, { a, isDefault });
    for (const egress of [false, true]) {
      for (const e of (Array.isArray(a[egress ? 'egress' : 'ingress']) ? a[egress ? 'egress' : 'ingress'] as unknown[] : []).filter(isObject)) x.entries.set(`${egress}:${e.rule_no}`, apiEntry(e, egress));
    }
    for (const subnet of Array.isArray(a.subnet_ids) ? a.subnet_ids : []) x.assoc.set(str(subnet), `aclassoc-${id.slice(4)}${str(subnet).slice(7)}`);
  }
  for (const r of attrsOf(world, 'aws_network_acl_rule')) acl(str(r.network_acl_id)).entries.set(`${bool(r.egress) === true}:${r.rule_number}`, apiEntry(r, bool(r.egress) === true));
  for (const s of attrsOf(world, 'aws_network_acl_association')) acl(str(s.network_acl_id)).assoc.set(str(s.subnet_id), str(s.id));
  return [...acls.entries()].map(([id, x]) => ({
    NetworkAclId: id, VpcId: opt(x.a.vpc_id), OwnerId: opt(x.a.owner_id), IsDefault: x.isDefault, Tags: tagList(stateTags(x.a)),
    // Every ACL ends with the deny-all entries the provider leaves out.
    Entries: [...x.entries.values(), ...[false, true].map((Egress) => ({ RuleNumber: 32767, RuleAction: 'deny', Protocol: '-1', Egress, CidrBlock: '0.0.0.0/0' }))],
    Associations: [...x.assoc.entries()].map(([SubnetId, NetworkAclAssociationId]) => ({ NetworkAclAssociationId, NetworkAclId: id, SubnetId })),
  }));
}

export const aclAnswer = answer('ec2', DescribeNetworkAcls$, (_input, world) => ({ NetworkAcls: fakeAcls(world) }));
