// Security groups, read in batches (one DescribeSecurityGroups per 500 ids) and shared by the rule
// resource types: aws_security_group (ingress/egress compared as sets of rule atoms),
// aws_security_group_rule, aws_vpc_security_group_ingress_rule / _egress_rule.
import {
  DescribeSecurityGroupRulesCommand, DescribeSecurityGroupsCommand,
  type DescribeSecurityGroupRulesCommandOutput, type DescribeSecurityGroupsCommandInput, type DescribeSecurityGroupsCommandOutput, type IpPermission,
  type SecurityGroup, type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { MANAGED_ATOMS, type LiveAttributes, type ManagedAtoms } from '../../../types.ts';
import { isObject, scalarKey, tagMap } from '../../../values.ts';
import type { AwsContext } from '../context.ts';
import { describeByFilter, describeByIds } from '../ec2-describe.ts';
import { groupRef, ports, proto, renderPermissions, ruleAtoms } from './security-group-rules.ts';
import { byRegion, str, type ReadItem, type TypeReader } from '../reader.ts';
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
