// Replay answers for the security-group readers: a group's live rules are the union of what the
// state says about them (the group's own ingress/egress and every rule resource of the group),
// and a group a rule resource names exists even when the state does not hold the group.
import { isObject, scalarKey } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { ec2Select, filterValues, list, opt, stateTags, tagList } from '../replay/kit.ts';
import { DescribeSecurityGroupRules$, DescribeSecurityGroups$ } from '@aws-sdk/client-ec2';
import { ruleAtoms } from './security-group-rules.ts';

interface Rule { egress: boolean; element: Record<string, unknown>; id?: string; tags?: unknown }

/** Every rule the state records, per group id, as rule elements of the group's shape. */
function rulesByGroup(world: FakeWorld): Map<string, Rule[]> {
  const out = new Map<string, Rule[]>();
  const add = (group: string, r: Rule) => { if (group) out.set(group, [...(out.get(group) ?? []), r]); };
  for (const g of [...world.of('aws_security_group'), ...world.of('aws_default_security_group')]) {
    const a = g.attributes;
    for (const dir of ['ingress', 'egress'] as const) {
      for (const e of Array.isArray(a[dir]) ? a[dir] : []) if (isObject(e)) add(str(a.id), { egress: dir === 'egress', element: e });
    }
  }
  for (const r of world.of('aws_security_group_rule')) {
    const a = r.attributes;
    const src = str(a.source_security_group_id);
    add(str(a.security_group_id), { egress: a.type === 'egress', element: { ...a, security_groups: src ? [src] : [] } });
  }
  for (const type of ['aws_vpc_security_group_ingress_rule', 'aws_vpc_security_group_egress_rule']) {
    for (const r of world.of(type)) {
      const a = r.attributes;
      add(str(a.security_group_id), { egress: type.includes('egress'), id: str(a.security_group_rule_id || a.id), tags: stateTags(a), element: {
        protocol: a.ip_protocol, from_port: a.from_port, to_port: a.to_port, description: a.description,
        cidr_blocks: list([a.cidr_ipv4]), ipv6_cidr_blocks: list([a.cidr_ipv6]), prefix_list_ids: list([a.prefix_list_id]),
        security_groups: list([a.referenced_security_group_id]),
      } });
    }
  }
  return out;
}

/** One IpPermission per rule atom (`tcp|22|22|cidr:10.0.0.0/8|desc`). */
function permissions(atoms: string[], groupId: string) {
  return atoms.map((atom) => {
    const [protocol, from, to, source, ...rest] = atom.split('|');
    const Description = rest.join('|') || undefined;
    const [kind, value] = source === 'self' ? ['sg', groupId] : [source.slice(0, source.indexOf(':')), source.slice(source.indexOf(':') + 1)];
    const all = protocol === '-1';
    return {
      IpProtocol: protocol, FromPort: all ? undefined : Number(from), ToPort: all ? undefined : Number(to),
      IpRanges: kind === 'cidr' && !value.includes(':') ? [{ CidrIp: value, Description }] : undefined,
      Ipv6Ranges: kind === 'cidr' && value.includes(':') ? [{ CidrIpv6: value, Description }] : undefined,
      PrefixListIds: kind === 'pl' ? [{ PrefixListId: value, Description }] : undefined,
      UserIdGroupPairs: kind === 'sg' ? [{ GroupId: value, Description }] : undefined,
    };
  });
}

export const securityGroupsAnswer = answer<{ GroupIds?: string[]; Filters?: { Name?: string; Values?: string[] }[] }>('ec2', DescribeSecurityGroups$, (input, world) => {
  const rules = rulesByGroup(world);
  const groups = new Map([...world.of('aws_security_group'), ...world.of('aws_default_security_group')].map((g) => [str(g.attributes.id), g.attributes]));
  for (const id of rules.keys()) if (!groups.has(id)) groups.set(id, { id });
  const picked = ec2Select([...groups.values()], (a) => str(a.id), input.GroupIds, filterValues(input, 'group-id'), 'InvalidGroup.NotFound');
  return { SecurityGroups: picked.map((a) => {
    const id = str(a.id);
    const atoms = (egress: boolean) => [...new Set((rules.get(id) ?? []).filter((r) => r.egress === egress).flatMap((r) => ruleAtoms(r.element, { id })))];
    return {
      GroupId: id, SecurityGroupArn: opt(a.arn), GroupName: opt(a.name), Description: opt(a.description), VpcId: opt(a.vpc_id), OwnerId: opt(a.owner_id),
      Tags: tagList(stateTags(a)), IpPermissions: permissions(atoms(false), id), IpPermissionsEgress: permissions(atoms(true), id),
    };
  }) };
});

export const groupRulesAnswer = answer<{ Filters?: { Name?: string; Values?: string[] }[] }>('ec2', DescribeSecurityGroupRules$, (input, world) => {
  const groups = new Set(filterValues(input, 'group-id') ?? []);
  const out: Record<string, unknown>[] = [];
  for (const [groupId, rules] of rulesByGroup(world)) {
    if (!groups.has(groupId)) continue;
    for (const r of rules) {
      if (!r.id) continue;
      const e = r.element;
      const protocol = scalarKey(e.protocol);
      out.push({
        SecurityGroupRuleId: r.id, GroupId: groupId, IsEgress: r.egress, IpProtocol: protocol,
        FromPort: protocol === '-1' ? -1 : Number(e.from_port), ToPort: protocol === '-1' ? -1 : Number(e.to_port),
        CidrIpv4: list(e.cidr_blocks)[0], CidrIpv6: list(e.ipv6_cidr_blocks)[0], PrefixListId: list(e.prefix_list_ids)[0],
        ReferencedGroupInfo: list(e.security_groups)[0] ? { GroupId: list(e.security_groups)[0] } : undefined,
        Description: opt(e.description), Tags: tagList(r.tags),
      });
    }
  }
  return { SecurityGroupRules: out };
});
