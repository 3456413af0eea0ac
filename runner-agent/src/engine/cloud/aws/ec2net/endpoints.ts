// aws_vpc_endpoint and aws_vpc_endpoint_route_table_association: DescribeVpcEndpoints batched
// by id (200 per call, ec2-describe.ts), cached per region and shared by both types. The fake's
// endpoints carry the route tables the state associates through either type.
import { DescribeVpcEndpoints$, DescribeVpcEndpointsCommand, type VpcEndpoint } from '@aws-sdk/client-ec2';
import { tagMap } from '../../../values.ts';
import { ec2Answer, ec2Records, type Ec2Describe } from '../ec2-describe.ts';
import { byRegion, str, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, bool, list, opt, stateTags, tagList } from '../replay/kit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { managedRouteTables } from './managed.ts';

const ENDPOINTS: Ec2Describe<VpcEndpoint> = {
  command: DescribeVpcEndpointsCommand, schema: DescribeVpcEndpoints$, what: 'DescribeVpcEndpoints', idsField: 'VpcEndpointIds',
  filter: 'vpc-endpoint-id', listField: 'VpcEndpoints', notFound: 'InvalidVpcEndpointId.NotFound', idOf: (e) => e.VpcEndpointId ?? '',
};

function fakeEndpoints(world: FakeWorld): Record<string, unknown>[] {
  const extra = attrsOf(world, 'aws_vpc_endpoint_route_table_association');
  return attrsOf(world, 'aws_vpc_endpoint').map((a) => ({
    VpcEndpointId: str(a.id), VpcEndpointType: opt(a.vpc_endpoint_type) ?? 'Gateway', VpcId: opt(a.vpc_id), ServiceName: opt(a.service_name),
    State: opt(a.state) ?? 'available', PolicyDocument: opt(a.policy), PrivateDnsEnabled: bool(a.private_dns_enabled) ?? false,
    RouteTableIds: [...new Set([...list(a.route_table_ids), ...extra.filter((x) => str(x.vpc_endpoint_id) === str(a.id)).map((x) => str(x.route_table_id))])],
    SubnetIds: list(a.subnet_ids), Groups: list(a.security_group_ids).map((GroupId) => ({ GroupId })), RequesterManaged: bool(a.requester_managed),
    OwnerId: opt(a.owner_id), IpAddressType: opt(a.ip_address_type), Tags: tagList(stateTags(a)),
  }));
}

const answers = [ec2Answer(ENDPOINTS, fakeEndpoints)];
const gone = (e: VpcEndpoint | null | undefined) => !e || ['deleted', 'deleting', 'Deleted', 'Deleting'].includes(String(e.State));

/** Reads each item's endpoint; `build` maps it to the type's attributes. */
const endpointsOf = (idOf: (a: Record<string, unknown>) => string, build: (e: VpcEndpoint, a: Record<string, unknown>) => LiveAttributes | null): TypeReader['read'] =>
  async (items, ctx) => {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const records = await ec2Records(ctx, region, ENDPOINTS, group.map((g) => idOf(g.item.instance.attributes)));
      for (const { item, index } of group) {
        const e = records.get(idOf(item.instance.attributes));
        if (!gone(e)) out[index] = build(e!, item.instance.attributes);
      }
    }
    return out;
  };

/** Route tables an aws_vpc_endpoint_route_table_association of the state manages are compared there (managed.ts). */
const ownTableKey = (e: unknown, owner: Record<string, unknown>) => (managedRouteTables(owner)?.has(str(e)) ? [] : [str(e)]);

export const vpcEndpointReader: TypeReader = {
  spec: { policies: ['policy'], sets: { route_table_ids: ownTableKey } },
  answers,
  read: endpointsOf((a) => str(a.id), (e) => {
    const tags = tagMap(e.Tags);
    return {
      id: e.VpcEndpointId, vpc_id: e.VpcId, service_name: e.ServiceName, vpc_endpoint_type: e.VpcEndpointType, state: e.State,
      policy: e.PolicyDocument ?? '', private_dns_enabled: e.PrivateDnsEnabled ?? false, route_table_ids: e.RouteTableIds ?? [],
      subnet_ids: e.SubnetIds ?? [], security_group_ids: (e.Groups ?? []).map((g) => g.GroupId), requester_managed: e.RequesterManaged ?? false,
      owner_id: e.OwnerId, ip_address_type: e.IpAddressType, tags, tags_all: tags,
    };
  }),
};

export const vpcEndpointRouteTableAssociationReader: TypeReader = {
  spec: {},
  answers,
  read: endpointsOf((a) => str(a.vpc_endpoint_id), (e, a) =>
    ((e.RouteTableIds ?? []).includes(str(a.route_table_id)) ? { vpc_endpoint_id: e.VpcEndpointId, route_table_id: str(a.route_table_id) } : null)),
};
