// Security groups, read in batches (one DescribeSecurityGroups per 500 ids) and shared by the rule
// resource types: aws_security_group (ingress/egress compared as sets of rule atoms),
// aws_security_group_rule, aws_vpc_security_group_ingress_rule / _egress_rule.
import {
  DescribeSecurityGroupRulesCommand, DescribeSecurityGroupsCommand,
  type DescribeSecurityGroupRulesCommandOutput, type DescribeSecurityGroupsCommandInput, type DescribeSecurityGroupsCommandOutput, type IpPermission,
  type SecurityGroup, type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { MANAGED_ATOMS, type LiveAttributes, type ManagedAtoms } from '../../types.ts';
import { isObject, scalarKey, tagMap } from '../../values.ts';
import type { AwsContext } from './context.ts';
import { describeByFilter, describeByIds } from './ec2.ts';
import { byRegion, str, type ReadItem, type TypeReader } from './reader.ts';
import { groupRulesAnswer, securityGroupsAnswer } from './security-groups.answers.ts';

const GROUP_BATCH = 500;

// ---- groups ----------------------------------------------------------------------

/** Security groups by id for the whole scan (rule resources look up their group here too). */
async function securityGroups(ctx: AwsContext, region: string, ids: string[]): Promise<Map<string, SecurityGroup | null>> {
  const cacheKey = `ec2:sg:${region}`;
  const cache = (ctx.cache.get(cacheKey) as Map<string, SecurityGroup | null> | undefined) ?? new Map<string, SecurityGroup | null>();
  ctx.cache.set(cacheKey, cache);
  const missing = [...new Set(ids)].filter((id) => id && !cache.has(id));
  const send = (input: DescribeSecurityGroupsCommandInput) =>
    ctx.send<DescribeSecurityGroupsCommandOutput>(ctx.ec2(region), new DescribeSecurityGroupsCommand(input), 'ec2:DescribeSecurityGroups');
  await describeByIds(missing, GROUP_BATCH, /^InvalidGroup(Id)?\.(NotFound|Malformed)$/, {
    byIds: (part) => send({ GroupIds: part }),
    byFilter: (values, token) => send({ Filters: [{ Name: 'group-id', Values: values }], MaxResults: 1000, NextToken: token }),
  }, (out) => {
    for (const g of out.SecurityGroups ?? []) if (g.GroupId) cache.set(g.GroupId, g);
  });
  // Asked for and not found: gone from the cloud.
  for (const id of missing) if (!cache.has(id)) cache.set(id, null);
  return cache;
}

const PROTOCOLS: Record<string, string> = { '6': 'tcp', '17': 'udp', '1': 'icmp', '58': 'icmpv6', all: '-1', '-1': '-1' };
const proto = (p: unknown) => { const s = scalarKey(p).toLowerCase(); return PROTOCOLS[s] ?? s; };
const ports = (protocol: string, from: unknown, to: unknown) =>
  (protocol === '-1' ? ['0', '0'] : [scalarKey(from ?? 0) || '0', scalarKey(to ?? 0) || '0']);
/** Other-account references are stored as `123456789012/sg-1`; the group id identifies them. */
const groupRef = (s: string) => s.split('/').pop() ?? s;

interface RuleShape {
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

/** A group's rule atoms less those that standalone rule resources manage (standalone.ts). */
function groupRuleAtoms(e: unknown, owner: Record<string, unknown>, attribute: string): string[] {
  const managed = (owner as { [MANAGED_ATOMS]?: ManagedAtoms })[MANAGED_ATOMS]?.[attribute === 'egress' ? 'egress' : 'ingress'];
  const atoms = ruleAtoms(e, owner);
  return managed ? atoms.filter((a) => !managed.has(a)) : atoms;
}

export const securityGroupReader: TypeReader = {
  spec: { sets: { ingress: groupRuleAtoms, egress: groupRuleAtoms } },
  answers: [securityGroupsAnswer],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const live = await securityGroups(ctx, region, group.map((g) => str(g.item.instance.attributes.id)));
      for (const { item, index } of group) {
        const g = live.get(str(item.instance.attributes.id));
        if (!g) continue;
        const tags = tagMap(g.Tags);
        out[index] = {
          id: g.GroupId, arn: g.SecurityGroupArn, name: g.GroupName, description: g.Description, vpc_id: g.VpcId,
          owner_id: g.OwnerId, tags, tags_all: tags,
          ingress: renderPermissions(g.IpPermissions, g.GroupId ?? ''),
          egress: renderPermissions(g.IpPermissionsEgress, g.GroupId ?? ''),
        };
      }
    }
    return out;
  },
};

// ---- aws_security_group_rule (one rule, possibly several sources, inside a group) ----------

/** Live view of a legacy rule resource: the sources of the state's rule that the group still has. */
function legacyRule(state: Record<string, unknown>, g: SecurityGroup): LiveAttributes | null {
  const groupId = g.GroupId ?? '';
  const egress = state.type === 'egress';
  const liveAtoms = renderPermissions(egress ? g.IpPermissionsEgress : g.IpPermissions, groupId).flatMap((r) => ruleAtoms(r, { id: groupId }));
  // Index live atoms by everything but the description, to tell "source gone" from "description changed".
  const liveBySource = new Map<string, string>();
  for (const a of liveAtoms) {
    const cut = a.lastIndexOf('|');
    liveBySource.set(a.slice(0, cut), a.slice(cut + 1));
  }
  const src = str(state.source_security_group_id);
  const element = { ...state, security_groups: src ? [src] : [] };
  const keep = (kind: 'cidr' | 'pl', values: unknown) =>
    (Array.isArray(values) ? values : []).filter((v) => liveBySource.has(atomSource(element, `${kind}:${scalarKey(v)}`)));
  const present = {
    cidr_blocks: keep('cidr', state.cidr_blocks),
    ipv6_cidr_blocks: keep('cidr', state.ipv6_cidr_blocks),
    prefix_list_ids: keep('pl', state.prefix_list_ids),
    source_security_group_id: src && liveBySource.has(atomSource(element, groupRef(src) === groupId ? 'self' : `sg:${groupRef(src)}`)) ? src : '',
    self: state.self === true && liveBySource.has(atomSource(element, 'self')),
  };
  const stateAtoms = ruleAtoms(element, { id: groupId });
  const firstLive = stateAtoms.map((a) => liveBySource.get(a.slice(0, a.lastIndexOf('|')))).find((d) => d !== undefined);
  if (firstLive === undefined) return null;
  return { ...present, description: firstLive, type: state.type, protocol: state.protocol, from_port: state.from_port, to_port: state.to_port, security_group_id: groupId };
}

function atomSource(e: Record<string, unknown>, source: string): string {
  const protocol = proto(e.protocol);
  const [from, to] = ports(protocol, e.from_port, e.to_port);
  return `${protocol}|${from}|${to}|${source}`;
}

export const securityGroupRuleReader: TypeReader = {
  spec: {},
  answers: [securityGroupsAnswer],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const live = await securityGroups(ctx, region, group.map((g) => str(g.item.instance.attributes.security_group_id)));
      for (const { item, index } of group) {
        const g = live.get(str(item.instance.attributes.security_group_id));
        out[index] = g ? legacyRule(item.instance.attributes, g) : null;
      }
    }
    return out;
  },
};

// ---- aws_vpc_security_group_ingress_rule / egress_rule (rules with their own ids) ----------

async function groupRules(ctx: AwsContext, region: string, groupIds: string[]): Promise<Map<string, SecurityGroupRule>> {
  const found = new Map<string, SecurityGroupRule>();
  await describeByFilter([...new Set(groupIds)].filter(Boolean), (values, token) => ctx.send<DescribeSecurityGroupRulesCommandOutput>(ctx.ec2(region), new DescribeSecurityGroupRulesCommand({
    Filters: [{ Name: 'group-id', Values: values }], MaxResults: 1000, NextToken: token,
  }), 'ec2:DescribeSecurityGroupRules'), (out) => {
    for (const r of out.SecurityGroupRules ?? []) if (r.SecurityGroupRuleId) found.set(r.SecurityGroupRuleId, r);
  });
  return found;
}

function vpcRuleAttributes(r: SecurityGroupRule): LiveAttributes {
  const protocol = proto(r.IpProtocol);
  const all = protocol === '-1';
  return {
    id: r.SecurityGroupRuleId, security_group_rule_id: r.SecurityGroupRuleId, security_group_id: r.GroupId,
    ip_protocol: protocol, from_port: all ? null : r.FromPort, to_port: all ? null : r.ToPort,
    cidr_ipv4: r.CidrIpv4 ?? '', cidr_ipv6: r.CidrIpv6 ?? '', prefix_list_id: r.PrefixListId ?? '',
    referenced_security_group_id: r.ReferencedGroupInfo?.GroupId ?? '', description: r.Description ?? '',
    tags: tagMap(r.Tags),
  };
}

export function vpcRuleReader(egress: boolean): TypeReader {
  return {
    spec: {},
    answers: [groupRulesAnswer],
    async read(items: ReadItem[], ctx: AwsContext) {
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      for (const [region, group] of byRegion(items)) {
        const rules = await groupRules(ctx, region, group.map((g) => str(g.item.instance.attributes.security_group_id)));
        for (const { item, index } of group) {
          const r = rules.get(str(item.instance.attributes.security_group_rule_id || item.instance.attributes.id));
          if (r && Boolean(r.IsEgress) === egress) out[index] = vpcRuleAttributes(r);
        }
      }
      return out;
    },
  };
}
