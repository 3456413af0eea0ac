// aws_network_acl, aws_default_network_acl, aws_network_acl_rule, aws_network_acl_association:
// one DescribeNetworkAcls per region (every page, no ids: accounts hold few ACLs), memoised for
// the scan and shared by the four types. The fake's ACLs are the union of what the state records
// about them across the four types (rules and associations may live in their own resources).
import { DescribeNetworkAclsCommand, type DescribeNetworkAclsCommandOutput, type NetworkAcl } from '@aws-sdk/client-ec2';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { once, str, type ReadItem, type TypeReader } from '../reader.ts';
import { bool } from '../replay/kit.ts';
import { isManagedEntry, managedOf } from './managed.ts';
import { aclAnswer } from './nacl.answers.ts';
import { entryElement, entryKey, hasPorts, isDefaultEntry, isIcmp, protocolLike, protocolNumber } from './nacl-shape.ts';

/** Every network ACL of the region, by id (one call per page for the whole scan). */
export function networkAcls(ctx: AwsContext, region: string): Promise<Map<string, NetworkAcl>> {
  return once(ctx, `ec2:DescribeNetworkAcls:${region}`, async () => {
    const out = new Map<string, NetworkAcl>();
    let token: string | undefined;
    do {
      const page = await ctx.send<DescribeNetworkAclsCommandOutput>(ctx.ec2(region), new DescribeNetworkAclsCommand({ NextToken: token }), 'ec2:DescribeNetworkAcls');
      for (const acl of page.NetworkAcls ?? []) if (acl.NetworkAclId) out.set(acl.NetworkAclId, acl);
      token = page.NextToken;
    } while (token);
    return out;
  });
}

/** Reads each item from its region's ACLs; `build` gives null when the item's resource is gone. */
const fromAcls = (build: (acls: Map<string, NetworkAcl>, state: Record<string, unknown>) => LiveAttributes | null) =>
  (items: ReadItem[], ctx: AwsContext) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => build(await networkAcls(ctx, region), instance.attributes));

const entriesOf = (acl: NetworkAcl, egress: boolean, state: unknown) => {
  // Each live element in the spelling of the state element with the same rule number.
  const stateList = (Array.isArray(state) ? state : []).filter(isObject);
  return (acl.Entries ?? []).filter((x) => Boolean(x.Egress) === egress && !isDefaultEntry(x))
    .map((x) => entryElement(x, stateList.find((s) => Number(s.rule_no) === x.RuleNumber)?.protocol));
};

/** Entries and subnets the state's aws_network_acl_rule / _association resources manage are theirs to compare (managed.ts). */
const ownEntryKey = (e: unknown, owner: Record<string, unknown>, attribute: string) => (isManagedEntry(e, owner, attribute) ? [] : entryKey(e));
const ownSubnetKey = (e: unknown, owner: Record<string, unknown>) => (managedOf(owner)?.subnets.has(str(e)) ? [] : [str(e)]);
const aclSpec: TypeReader['spec'] = { sets: { ingress: ownEntryKey, egress: ownEntryKey, subnet_ids: ownSubnetKey } };

function aclReader(isDefault: boolean): TypeReader {
  return {
    spec: aclSpec,
    answers: [aclAnswer],
    read: fromAcls((acls, state) => {
      const id = str(isDefault ? state.default_network_acl_id || state.id : state.id);
      const acl = acls.get(id);
      if (!acl) return null;
      const tags = tagMap(acl.Tags);
      return {
        id, vpc_id: acl.VpcId, owner_id: acl.OwnerId, ingress: entriesOf(acl, false, state.ingress), egress: entriesOf(acl, true, state.egress),
        subnet_ids: (acl.Associations ?? []).map((a) => a.SubnetId).filter(Boolean), tags, tags_all: tags,
        ...(isDefault ? { default_network_acl_id: id } : {}),
      };
    }),
  };
}

export const networkAclReader = aclReader(false);
export const defaultNetworkAclReader = aclReader(true);

export const networkAclRuleReader: TypeReader = {
  spec: {},
  answers: [aclAnswer],
  read: fromAcls((acls, state) => {
    const acl = acls.get(str(state.network_acl_id));
    const egress = bool(state.egress) === true;
    const x = acl?.Entries?.find((e) => Boolean(e.Egress) === egress && e.RuleNumber === Number(state.rule_number));
    if (!x) return null;
    const p = protocolNumber(x.Protocol);
    return {
      network_acl_id: acl!.NetworkAclId, rule_number: x.RuleNumber, egress, rule_action: x.RuleAction, protocol: protocolLike(x.Protocol, state.protocol),
      cidr_block: x.CidrBlock ?? '', ipv6_cidr_block: x.Ipv6CidrBlock ?? '',
      // Ports and ICMP fields only where the protocol has them (the state holds 0 or null otherwise).
      ...(hasPorts(p) ? { from_port: x.PortRange?.From, to_port: x.PortRange?.To } : {}),
      ...(isIcmp(p) ? { icmp_type: x.IcmpTypeCode?.Type, icmp_code: x.IcmpTypeCode?.Code } : {}),
    };
  }),
};

export const networkAclAssociationReader: TypeReader = {
  spec: {},
  answers: [aclAnswer],
  read: fromAcls((acls, state) => {
    // By id; a subnet moved to another ACL gets a new association id, so by subnet after that
    // (the drift then names the ACL it moved to).
    const all = [...acls.values()].flatMap((acl) => acl.Associations ?? []);
    const a = all.find((x) => x.NetworkAclAssociationId === str(state.id)) ?? all.find((x) => x.SubnetId === str(state.subnet_id));
    return a ? { network_acl_id: a.NetworkAclId, subnet_id: a.SubnetId } : null;
  }),
};
