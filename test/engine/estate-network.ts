// A small AWS estate in moto, network half: VPC, subnets, internet and NAT gateways, route
// tables, associations, routes, an EIP, a network interface, an EBS volume, a key pair and a
// launch template, each created through the SDK, with its state attributes written in the shape
// the AWS provider stores (`terraform show -json` / state v4), values read back from the cloud.
import {
  AllocateAddressCommand, AssociateRouteTableCommand, AttachInternetGatewayCommand, CreateInternetGatewayCommand, CreateKeyPairCommand,
  CreateLaunchTemplateCommand, CreateNatGatewayCommand, CreateNetworkInterfaceCommand, CreateRouteCommand, CreateRouteTableCommand,
  CreateSubnetCommand, CreateVolumeCommand, CreateVpcCommand, DescribeAddressesCommand, DescribeImagesCommand, DescribeKeyPairsCommand, DescribeSecurityGroupsCommand,
  EC2Client, ModifyVpcAttributeCommand,
} from '@aws-sdk/client-ec2';
import { CREDENTIALS, REGION } from './world.ts';

export type Res = { type: string; name: string; attributes: Record<string, unknown> };
export const ACCOUNT = '123456789012';
const tagSpec = (ResourceType: string, tags: Record<string, string>) =>
  [{ ResourceType, Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) }] as never;
const withTags = (tags: Record<string, string>) => ({ tags, tags_all: tags });

export interface NetworkIds { vpcId: string; subnetIds: string[]; igwId: string; routeTableId: string; defaultSgId: string; ami: string; azs: string[] }

export async function buildNetwork(endpoint: string, suffix: string): Promise<{ resources: Res[]; ids: NetworkIds; ec2: EC2Client }> {
  const ec2 = new EC2Client({ endpoint, region: REGION, credentials: CREDENTIALS });
  const out: Res[] = [];
  const tags = { Name: `estate-${suffix}` };
  const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16', TagSpecifications: tagSpec('vpc', tags) }))).Vpc!;
  await ec2.send(new ModifyVpcAttributeCommand({ VpcId: vpc.VpcId, EnableDnsHostnames: { Value: true } }));
  out.push({ type: 'aws_vpc', name: 'main', attributes: {
    id: vpc.VpcId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:vpc/${vpc.VpcId}`, cidr_block: '10.20.0.0/16', instance_tenancy: 'default',
    enable_dns_support: true, enable_dns_hostnames: true, enable_network_address_usage_metrics: false, assign_generated_ipv6_cidr_block: false,
    dhcp_options_id: vpc.DhcpOptionsId, owner_id: vpc.OwnerId, ipv6_cidr_block: '', ipv6_association_id: '', ipv4_ipam_pool_id: null,
    main_route_table_id: 'rtb-main', default_security_group_id: 'sg-default', ...withTags(tags),
  } });

  const azs = ['us-east-1a', 'us-east-1b'];
  const subnetIds: string[] = [];
  for (const [i, az] of azs.entries()) {
    const s = (await ec2.send(new CreateSubnetCommand({ VpcId: vpc.VpcId, CidrBlock: `10.20.${i}.0/24`, AvailabilityZone: az, TagSpecifications: tagSpec('subnet', tags) }))).Subnet!;
    subnetIds.push(s.SubnetId!);
    out.push({ type: 'aws_subnet', name: `s${i}`, attributes: {
      id: s.SubnetId, arn: s.SubnetArn, vpc_id: vpc.VpcId, cidr_block: s.CidrBlock, availability_zone: az, availability_zone_id: s.AvailabilityZoneId,
      map_public_ip_on_launch: false, assign_ipv6_address_on_creation: false, ipv6_cidr_block: '', ipv6_cidr_block_association_id: '',
      enable_dns64: false, ipv6_native: false, map_customer_owned_ip_on_launch: false, owner_id: s.OwnerId, outpost_arn: '', ...withTags(tags),
    } });
  }

  const igw = (await ec2.send(new CreateInternetGatewayCommand({ TagSpecifications: tagSpec('internet-gateway', tags) }))).InternetGateway!;
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw.InternetGatewayId, VpcId: vpc.VpcId }));
  out.push({ type: 'aws_internet_gateway', name: 'gw', attributes: {
    id: igw.InternetGatewayId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:internet-gateway/${igw.InternetGatewayId}`, vpc_id: vpc.VpcId, owner_id: igw.OwnerId, ...withTags(tags),
  } });

  const rt = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpc.VpcId, TagSpecifications: tagSpec('route-table', tags) }))).RouteTable!;
  const routeTableId = rt.RouteTableId!;
  await ec2.send(new CreateRouteCommand({ RouteTableId: routeTableId, DestinationCidrBlock: '10.99.0.0/16', GatewayId: igw.InternetGatewayId }));
  const route = (cidr: string) => ({
    cidr_block: cidr, ipv6_cidr_block: '', destination_prefix_list_id: '', gateway_id: igw.InternetGatewayId, nat_gateway_id: '', network_interface_id: '',
    transit_gateway_id: '', vpc_peering_connection_id: '', vpc_endpoint_id: '', egress_only_gateway_id: '', carrier_gateway_id: '', local_gateway_id: '',
    core_network_arn: '', instance_id: '',
  });
  out.push({ type: 'aws_route_table', name: 'public', attributes: {
    id: routeTableId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:route-table/${routeTableId}`, vpc_id: vpc.VpcId, owner_id: rt.OwnerId,
    route: [route('10.99.0.0/16')], propagating_vgws: [], ...withTags(tags),
  } });
  out.push({ type: 'aws_route', name: 'peer', attributes: {
    id: `r-${routeTableId}1080289494`, route_table_id: routeTableId, destination_cidr_block: '10.99.0.0/16', destination_ipv6_cidr_block: '',
    destination_prefix_list_id: '', gateway_id: igw.InternetGatewayId, nat_gateway_id: '', network_interface_id: '', transit_gateway_id: '',
    vpc_peering_connection_id: '', vpc_endpoint_id: '', egress_only_gateway_id: '', carrier_gateway_id: '', local_gateway_id: '', core_network_arn: '',
    instance_id: '', instance_owner_id: '', origin: 'CreateRoute', state: 'active',
  } });
  const assoc = await ec2.send(new AssociateRouteTableCommand({ RouteTableId: routeTableId, SubnetId: subnetIds[0] }));
  out.push({ type: 'aws_route_table_association', name: 'public', attributes: {
    id: assoc.AssociationId, route_table_id: routeTableId, subnet_id: subnetIds[0], gateway_id: '',
  } });

  const eip = await ec2.send(new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: tagSpec('elastic-ip', tags) }));
  const nat = (await ec2.send(new CreateNatGatewayCommand({ SubnetId: subnetIds[0], AllocationId: eip.AllocationId, TagSpecifications: tagSpec('natgateway', tags) }))).NatGateway!;
  // The NAT gateway takes the address: the EIP's state after the apply's refresh names its interface.
  const addr = (await ec2.send(new DescribeAddressesCommand({ AllocationIds: [eip.AllocationId!] }))).Addresses![0];
  out.push({ type: 'aws_eip', name: 'nat', attributes: {
    id: eip.AllocationId, allocation_id: eip.AllocationId, public_ip: eip.PublicIp, domain: 'vpc', vpc: true, instance: addr.InstanceId ?? '',
    network_interface: addr.NetworkInterfaceId ?? '', association_id: addr.AssociationId ?? '', private_ip: addr.PrivateIpAddress ?? '',
    public_dns: 'ec2-x.compute-1.amazonaws.com', public_ipv4_pool: eip.PublicIpv4Pool ?? 'amazon',
    network_border_group: eip.NetworkBorderGroup ?? REGION, carrier_ip: '', customer_owned_ip: '', ...withTags(tags),
  } });

  const natAddr = nat.NatGatewayAddresses?.[0];
  out.push({ type: 'aws_nat_gateway', name: 'main', attributes: {
    id: nat.NatGatewayId, allocation_id: eip.AllocationId, subnet_id: subnetIds[0], connectivity_type: 'public', private_ip: natAddr?.PrivateIp ?? '',
    public_ip: natAddr?.PublicIp ?? '', network_interface_id: natAddr?.NetworkInterfaceId ?? '', ...withTags(tags),
  } });

  const defaultSg = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc.VpcId!] }, { Name: 'group-name', Values: ['default'] }] }))).SecurityGroups![0];
  const eni = (await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnetIds[1], Groups: [defaultSg.GroupId!], Description: 'estate eni', TagSpecifications: tagSpec('network-interface', tags) }))).NetworkInterface!;
  out.push({ type: 'aws_network_interface', name: 'extra', attributes: {
    id: eni.NetworkInterfaceId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:network-interface/${eni.NetworkInterfaceId}`, subnet_id: subnetIds[1], description: 'estate eni',
    private_ip: eni.PrivateIpAddress, private_ips: [eni.PrivateIpAddress], private_ips_count: 0, security_groups: [defaultSg.GroupId], source_dest_check: true,
    mac_address: eni.MacAddress, interface_type: eni.InterfaceType ?? 'interface', owner_id: eni.OwnerId, attachment: [], ipv6_addresses: [], ...withTags(tags),
  } });

  const vol = await ec2.send(new CreateVolumeCommand({ AvailabilityZone: azs[0], Size: 8, VolumeType: 'gp3', TagSpecifications: tagSpec('volume', tags) }));
  out.push({ type: 'aws_ebs_volume', name: 'data', attributes: {
    id: vol.VolumeId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:volume/${vol.VolumeId}`, availability_zone: azs[0], size: 8, type: 'gp3', iops: vol.Iops ?? 3000,
    throughput: vol.Throughput ?? 125, encrypted: false, kms_key_id: '', snapshot_id: '', multi_attach_enabled: false, outpost_arn: '', final_snapshot: false, ...withTags(tags),
  } });

  const keyName = `estate-${suffix}`;
  await ec2.send(new CreateKeyPairCommand({ KeyName: keyName, TagSpecifications: tagSpec('key-pair', tags) }));
  const key = (await ec2.send(new DescribeKeyPairsCommand({ KeyNames: [keyName] }))).KeyPairs![0];
  out.push({ type: 'aws_key_pair', name: 'deployer', attributes: {
    id: keyName, key_name: keyName, key_name_prefix: '', key_pair_id: key.KeyPairId, fingerprint: key.KeyFingerprint, key_type: key.KeyType ?? 'rsa',
    public_key: 'ssh-rsa AAAAB3Nza estate@example', arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:key-pair/${keyName}`, ...withTags(tags),
  } });

  const ami = (await ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
  const lt = (await ec2.send(new CreateLaunchTemplateCommand({
    LaunchTemplateName: `estate-${suffix}`, VersionDescription: 'web', LaunchTemplateData: { ImageId: ami, InstanceType: 't3.micro', SecurityGroupIds: [defaultSg.GroupId!] },
    TagSpecifications: tagSpec('launch-template', tags),
  }))).LaunchTemplate!;
  out.push({ type: 'aws_launch_template', name: 'web', attributes: {
    id: lt.LaunchTemplateId, arn: `arn:aws:ec2:${REGION}:${ACCOUNT}:launch-template/${lt.LaunchTemplateId}`, name: `estate-${suffix}`, name_prefix: '',
    default_version: 1, latest_version: 1, description: 'web', image_id: ami, instance_type: 't3.micro', key_name: '', user_data: '',
    vpc_security_group_ids: [defaultSg.GroupId], security_group_names: [], update_default_version: null, ebs_optimized: '', block_device_mappings: [], ...withTags(tags),
  } });

  return { resources: out, ec2, ids: { vpcId: vpc.VpcId!, subnetIds, igwId: igw.InternetGatewayId!, routeTableId, defaultSgId: defaultSg.GroupId!, ami, azs } };
}
