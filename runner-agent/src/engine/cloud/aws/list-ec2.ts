// List modes of the EC2 readers (paged Describe* calls, 1000 a page where the API pages).
import {
  DescribeAddressesCommand, DescribeInstancesCommand, DescribeInternetGatewaysCommand, DescribeKeyPairsCommand, DescribeLaunchTemplatesCommand,
  DescribeNatGatewaysCommand, DescribeNetworkInterfacesCommand, DescribeRouteTablesCommand, DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVolumesCommand, DescribeVpcsCommand,
  type DescribeAddressesCommandOutput, type DescribeInstancesCommandOutput, type DescribeInternetGatewaysCommandOutput, type DescribeKeyPairsCommandOutput,
  type DescribeLaunchTemplatesCommandOutput, type DescribeNatGatewaysCommandOutput, type DescribeNetworkInterfacesCommandOutput,
  type DescribeRouteTablesCommandOutput, type DescribeSecurityGroupRulesCommandOutput, type DescribeSecurityGroupsCommandOutput,
  type DescribeSubnetsCommandOutput, type DescribeVolumesCommandOutput, type DescribeVpcsCommandOutput, type RouteTable, type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import type { AwsContext } from './context.ts';
import { pages, type Listed, type Lister } from './list-kit.ts';
import { once } from './reader.ts';

/** A lister paging one EC2 Describe* call. */
function ec2<O extends { NextToken?: string }>(make: (token?: string) => unknown, what: string, ids: (o: O) => (string | undefined)[]): Lister {
  return {
    service: 'ec2',
    async list(ctx, region) {
      const out: Listed[] = [];
      await pages((t) => ctx.send<O>(ctx.ec2(region), make(t), what), (o) => o.NextToken, (o) => { for (const id of ids(o)) if (id) out.push({ id, region }); });
      return out;
    },
  };
}

/** Every route table of a region, once per scan (tables, their routes and associations share it). */
function routeTables(ctx: AwsContext, region: string): Promise<RouteTable[]> {
  return once(ctx, `list:ec2:route-tables:${region}`, async () => {
    const all: RouteTable[] = [];
    await pages((NextToken) => ctx.send<DescribeRouteTablesCommandOutput>(ctx.ec2(region), new DescribeRouteTablesCommand({ NextToken, MaxResults: 100 }), 'ec2:DescribeRouteTables'),
      (o) => o.NextToken, (o) => all.push(...(o.RouteTables ?? [])));
    return all;
  });
}

/** Every security group rule of a region, once per scan (ingress and egress listers share it). */
function groupRules(ctx: AwsContext, region: string): Promise<SecurityGroupRule[]> {
  return once(ctx, `list:ec2:sg-rules:${region}`, async () => {
    const all: SecurityGroupRule[] = [];
    await pages((NextToken) => ctx.send<DescribeSecurityGroupRulesCommandOutput>(ctx.ec2(region), new DescribeSecurityGroupRulesCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeSecurityGroupRules'),
      (o) => o.NextToken, (o) => all.push(...(o.SecurityGroupRules ?? [])));
    return all;
  });
}

const rules = (egress: boolean): Lister => ({
  service: 'ec2',
  list: async (ctx, region) => (await groupRules(ctx, region)).filter((r) => Boolean(r.IsEgress) === egress && r.SecurityGroupRuleId && r.GroupId)
    .map((r) => ({ id: r.SecurityGroupRuleId!, region, attributes: { security_group_id: r.GroupId, security_group_rule_id: r.SecurityGroupRuleId } })),
});

export const EC2_LISTERS: Record<string, Lister> = {
  aws_instance: ec2<DescribeInstancesCommandOutput>(
    (NextToken) => new DescribeInstancesCommand({ NextToken, MaxResults: 1000, Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }] }),
    'ec2:DescribeInstances', (o) => (o.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map((i) => i.InstanceId))),
  aws_security_group: ec2<DescribeSecurityGroupsCommandOutput>((NextToken) => new DescribeSecurityGroupsCommand({ NextToken, MaxResults: 1000 }),
    'ec2:DescribeSecurityGroups', (o) => (o.SecurityGroups ?? []).map((g) => g.GroupId)),
  aws_vpc_security_group_ingress_rule: rules(false),
  aws_vpc_security_group_egress_rule: rules(true),
  aws_vpc: ec2<DescribeVpcsCommandOutput>((NextToken) => new DescribeVpcsCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeVpcs', (o) => (o.Vpcs ?? []).map((v) => v.VpcId)),
  aws_subnet: ec2<DescribeSubnetsCommandOutput>((NextToken) => new DescribeSubnetsCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeSubnets', (o) => (o.Subnets ?? []).map((s) => s.SubnetId)),
  aws_internet_gateway: ec2<DescribeInternetGatewaysCommandOutput>((NextToken) => new DescribeInternetGatewaysCommand({ NextToken, MaxResults: 1000 }),
    'ec2:DescribeInternetGateways', (o) => (o.InternetGateways ?? []).map((g) => g.InternetGatewayId)),
  aws_route_table: { service: 'ec2', list: async (ctx, region) => (await routeTables(ctx, region)).filter((t) => t.RouteTableId).map((t) => ({ id: t.RouteTableId!, region })) },
  // Explicit associations only (the main one is the VPC's, not a resource); the reader finds one by its id in its table.
  aws_route_table_association: { service: 'ec2', list: async (ctx, region) => (await routeTables(ctx, region)).flatMap((t) => (t.Associations ?? [])
    .filter((a) => !a.Main && a.RouteTableAssociationId && a.AssociationState?.State !== 'disassociated')
    .map((a) => ({ id: a.RouteTableAssociationId!, region, attributes: { route_table_id: t.RouteTableId } }))) },
  // Routes someone created (not the VPC's local route, not propagated ones); id `rtb_destination` as the import takes.
  aws_route: { service: 'ec2', list: async (ctx, region) => (await routeTables(ctx, region)).flatMap((t) => (t.Routes ?? [])
    .filter((r) => r.Origin === 'CreateRoute' && (r.DestinationCidrBlock || r.DestinationIpv6CidrBlock || r.DestinationPrefixListId))
    .map((r) => {
      const attributes = { route_table_id: t.RouteTableId, destination_cidr_block: r.DestinationCidrBlock ?? '', destination_ipv6_cidr_block: r.DestinationIpv6CidrBlock ?? '', destination_prefix_list_id: r.DestinationPrefixListId ?? '' };
      return { id: `${t.RouteTableId}_${r.DestinationCidrBlock || r.DestinationIpv6CidrBlock || r.DestinationPrefixListId}`, region, attributes };
    })) },
  aws_nat_gateway: ec2<DescribeNatGatewaysCommandOutput>((NextToken) => new DescribeNatGatewaysCommand({ NextToken, MaxResults: 1000 }),
    'ec2:DescribeNatGateways', (o) => (o.NatGateways ?? []).filter((n) => n.State !== 'deleted' && n.State !== 'deleting').map((n) => n.NatGatewayId)),
  // Standalone interfaces: an instance's primary interface (device 0) belongs to the instance, a NAT gateway's or a
  // requester-managed one (load balancers, Lambda, ...) to its service.
  aws_network_interface: { service: 'ec2', async list(ctx, region) {
    const nat = new Set<string>();
    await pages((NextToken) => ctx.send<DescribeNatGatewaysCommandOutput>(ctx.ec2(region), new DescribeNatGatewaysCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeNatGateways'),
      (o) => o.NextToken, (o) => { for (const n of o.NatGateways ?? []) for (const a of n.NatGatewayAddresses ?? []) if (a.NetworkInterfaceId) nat.add(a.NetworkInterfaceId); });
    const out: Listed[] = [];
    await pages((NextToken) => ctx.send<DescribeNetworkInterfacesCommandOutput>(ctx.ec2(region), new DescribeNetworkInterfacesCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeNetworkInterfaces'),
      (o) => o.NextToken, (o) => {
        for (const n of o.NetworkInterfaces ?? []) {
          const own = !n.RequesterManaged && n.Attachment?.DeviceIndex !== 0 && (n.InterfaceType ?? 'interface') === 'interface' && !nat.has(n.NetworkInterfaceId ?? '');
          if (own && n.NetworkInterfaceId) out.push({ id: n.NetworkInterfaceId, region });
        }
      });
    return out;
  } },
  aws_ebs_volume: ec2<DescribeVolumesCommandOutput>((NextToken) => new DescribeVolumesCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeVolumes', (o) => (o.Volumes ?? []).map((v) => v.VolumeId)),
  aws_eip: ec2<DescribeAddressesCommandOutput & { NextToken?: string }>(() => new DescribeAddressesCommand({}), 'ec2:DescribeAddresses', (o) => (o.Addresses ?? []).map((a) => a.AllocationId)),
  // DescribeKeyPairs has no pages: one answer holds every key pair of the region.
  aws_key_pair: ec2<DescribeKeyPairsCommandOutput & { NextToken?: string }>(() => new DescribeKeyPairsCommand({}), 'ec2:DescribeKeyPairs', (o) => (o.KeyPairs ?? []).map((k) => k.KeyName)),
  aws_launch_template: ec2<DescribeLaunchTemplatesCommandOutput>((NextToken) => new DescribeLaunchTemplatesCommand({ NextToken, MaxResults: 200 }),
    'ec2:DescribeLaunchTemplates', (o) => (o.LaunchTemplates ?? []).map((t) => t.LaunchTemplateId)),
};
