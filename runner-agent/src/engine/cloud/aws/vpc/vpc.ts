// aws_vpc, aws_subnet (and their aws_default_ twins), aws_internet_gateway: batched Describe
// calls (ec2-describe.ts). A VPC's DNS settings need one DescribeVpcAttribute each, read only
// when the state records them.
import {
  DescribeInternetGateways$, DescribeInternetGatewaysCommand, DescribeSubnets$, DescribeSubnetsCommand, DescribeVpcAttribute$,
  DescribeVpcAttributeCommand, DescribeVpcs$, DescribeVpcsCommand, type DescribeVpcAttributeCommandOutput, type InternetGateway,
  type Subnet, type Vpc,
} from '@aws-sdk/client-ec2';
import { tagMap } from '../../../values.ts';
import { ec2Reader } from '../ec2-describe.ts';
import { answer, str } from '../reader.ts';
import { attrsOf, bool, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';

const arnAccount = (a: Record<string, unknown>) => str(a.owner_id) || str(a.arn).split(':')[4] || undefined;

async function vpcAttribute(ctx: Parameters<Parameters<typeof ec2Reader>[1]['live']>[2], region: string, vpcId: string, attr: 'enableDnsSupport' | 'enableDnsHostnames') {
  const out = await ctx.send<DescribeVpcAttributeCommandOutput>(ctx.ec2(region), new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: attr }), 'ec2:DescribeVpcAttribute');
  return (attr === 'enableDnsSupport' ? out.EnableDnsSupport : out.EnableDnsHostnames)?.Value;
}

export const vpcReader = ec2Reader<Vpc>({
  command: DescribeVpcsCommand, schema: DescribeVpcs$, what: 'DescribeVpcs', idsField: 'VpcIds', filter: 'vpc-id', listField: 'Vpcs',
  notFound: 'InvalidVpcID.NotFound', idOf: (v) => v.VpcId ?? '',
}, {
  type: 'aws_vpc',
  aliases: ['aws_default_vpc'],
  async live(v, state, ctx, region) {
    const tags = tagMap(v.Tags);
    const live: Record<string, unknown> = {
      id: v.VpcId, cidr_block: v.CidrBlock, instance_tenancy: v.InstanceTenancy, dhcp_options_id: v.DhcpOptionsId, owner_id: v.OwnerId,
      ipv6_cidr_block: v.Ipv6CidrBlockAssociationSet?.find((x) => x.Ipv6CidrBlockState?.State === 'associated')?.Ipv6CidrBlock ?? '', tags, tags_all: tags,
    };
    if ('enable_dns_support' in state) live.enable_dns_support = await vpcAttribute(ctx, region, v.VpcId ?? '', 'enableDnsSupport');
    if ('enable_dns_hostnames' in state) live.enable_dns_hostnames = await vpcAttribute(ctx, region, v.VpcId ?? '', 'enableDnsHostnames');
    return live;
  },
  record: (a) => ({
    VpcId: str(a.id), CidrBlock: opt(a.cidr_block), InstanceTenancy: opt(a.instance_tenancy), DhcpOptionsId: opt(a.dhcp_options_id), OwnerId: arnAccount(a),
    Ipv6CidrBlockAssociationSet: opt(a.ipv6_cidr_block) ? [{ Ipv6CidrBlock: str(a.ipv6_cidr_block), Ipv6CidrBlockState: { State: 'associated' } }] : undefined,
    Tags: tagList(stateTags(a)),
  }),
  extraAnswers: [answer<{ VpcId: string; Attribute: string }>('ec2', DescribeVpcAttribute$, (input, world) => {
    const a = [...attrsOf(world, 'aws_vpc'), ...attrsOf(world, 'aws_default_vpc')].find((x) => str(x.id) === input.VpcId);
    if (!a) throw new FakeError('InvalidVpcID.NotFound', `The vpc ID '${input.VpcId}' does not exist`);
    const value = { Value: bool(input.Attribute === 'enableDnsSupport' ? a.enable_dns_support : a.enable_dns_hostnames) };
    return { VpcId: input.VpcId, ...(input.Attribute === 'enableDnsSupport' ? { EnableDnsSupport: value } : { EnableDnsHostnames: value }) };
  })],
});

export const subnetReader = ec2Reader<Subnet>({
  command: DescribeSubnetsCommand, schema: DescribeSubnets$, what: 'DescribeSubnets', idsField: 'SubnetIds', filter: 'subnet-id', listField: 'Subnets',
  notFound: 'InvalidSubnetID.NotFound', idOf: (s) => s.SubnetId ?? '',
}, {
  type: 'aws_subnet',
  aliases: ['aws_default_subnet'],
  live: (s) => {
    const tags = tagMap(s.Tags);
    return {
      id: s.SubnetId, arn: s.SubnetArn, vpc_id: s.VpcId, cidr_block: s.CidrBlock, availability_zone: s.AvailabilityZone,
      availability_zone_id: s.AvailabilityZoneId, map_public_ip_on_launch: s.MapPublicIpOnLaunch ?? false,
      assign_ipv6_address_on_creation: s.AssignIpv6AddressOnCreation ?? false, owner_id: s.OwnerId,
      ipv6_cidr_block: s.Ipv6CidrBlockAssociationSet?.find((x) => x.Ipv6CidrBlockState?.State === 'associated')?.Ipv6CidrBlock ?? '',
      enable_dns64: s.EnableDns64, ipv6_native: s.Ipv6Native, tags, tags_all: tags,
    };
  },
  record: (a) => ({
    SubnetId: str(a.id), SubnetArn: opt(a.arn), VpcId: opt(a.vpc_id), CidrBlock: opt(a.cidr_block), AvailabilityZone: opt(a.availability_zone),
    AvailabilityZoneId: opt(a.availability_zone_id), MapPublicIpOnLaunch: bool(a.map_public_ip_on_launch),
    AssignIpv6AddressOnCreation: bool(a.assign_ipv6_address_on_creation), OwnerId: arnAccount(a), EnableDns64: bool(a.enable_dns64), Ipv6Native: bool(a.ipv6_native),
    Ipv6CidrBlockAssociationSet: opt(a.ipv6_cidr_block) ? [{ Ipv6CidrBlock: str(a.ipv6_cidr_block), Ipv6CidrBlockState: { State: 'associated' } }] : undefined,
    Tags: tagList(stateTags(a)),
  }),
});

export const internetGatewayReader = ec2Reader<InternetGateway>({
  command: DescribeInternetGatewaysCommand, schema: DescribeInternetGateways$, what: 'DescribeInternetGateways', idsField: 'InternetGatewayIds',
  filter: 'internet-gateway-id', listField: 'InternetGateways', notFound: 'InvalidInternetGatewayID.NotFound', idOf: (g) => g.InternetGatewayId ?? '',
}, {
  type: 'aws_internet_gateway',
  live: (g) => {
    const tags = tagMap(g.Tags);
    return { id: g.InternetGatewayId, owner_id: g.OwnerId, vpc_id: g.Attachments?.[0]?.VpcId ?? '', tags, tags_all: tags };
  },
  record: (a) => ({
    InternetGatewayId: str(a.id), OwnerId: arnAccount(a), Attachments: opt(a.vpc_id) ? [{ VpcId: str(a.vpc_id), State: 'available' }] : [], Tags: tagList(stateTags(a)),
  }),
});
