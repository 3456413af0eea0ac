// aws_nat_gateway, aws_eip, aws_network_interface: batched Describe calls (ec2-describe.ts).
import {
  DescribeAddresses$, DescribeAddressesCommand, DescribeNatGateways$, DescribeNatGatewaysCommand, DescribeNetworkInterfaces$,
  DescribeNetworkInterfacesCommand, type Address, type NatGateway, type NetworkInterface,
} from '@aws-sdk/client-ec2';
import { genericKey } from '../../../diff.ts';
import { tagMap } from '../../../values.ts';
import { ec2Reader } from '../ec2-describe.ts';
import { str } from '../reader.ts';
import { block, bool, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const NAT_GONE = new Set(['deleted', 'deleting', 'failed']);

export const natGatewayReader = ec2Reader<NatGateway>({
  command: DescribeNatGatewaysCommand, schema: DescribeNatGateways$, what: 'DescribeNatGateways', idsField: 'NatGatewayIds', filter: 'nat-gateway-id',
  listField: 'NatGateways', notFound: 'NatGatewayNotFound', idOf: (n) => n.NatGatewayId ?? '',
}, {
  type: 'aws_nat_gateway',
  live: (n) => {
    if (NAT_GONE.has(n.State ?? '')) return null;
    const primary = n.NatGatewayAddresses?.find((x) => x.IsPrimary !== false) ?? n.NatGatewayAddresses?.[0];
    const tags = tagMap(n.Tags);
    return {
      id: n.NatGatewayId, subnet_id: n.SubnetId, connectivity_type: n.ConnectivityType, allocation_id: primary?.AllocationId ?? '',
      network_interface_id: primary?.NetworkInterfaceId ?? '', private_ip: primary?.PrivateIp ?? '', public_ip: primary?.PublicIp ?? '', tags, tags_all: tags,
    };
  },
  record: (a) => ({
    NatGatewayId: str(a.id), SubnetId: opt(a.subnet_id), ConnectivityType: opt(a.connectivity_type) ?? 'public', State: 'available', Tags: tagList(stateTags(a)),
    NatGatewayAddresses: [{ AllocationId: opt(a.allocation_id), NetworkInterfaceId: opt(a.network_interface_id), PrivateIp: opt(a.private_ip), PublicIp: opt(a.public_ip), IsPrimary: true }],
  }),
});

export const eipReader = ec2Reader<Address>({
  command: DescribeAddressesCommand, schema: DescribeAddresses$, what: 'DescribeAddresses', idsField: 'AllocationIds', filter: 'allocation-id',
  listField: 'Addresses', notFound: 'InvalidAllocationID.NotFound', idOf: (a) => a.AllocationId ?? '',
}, {
  type: 'aws_eip',
  idOfState: (a) => str(a.allocation_id || a.id),
  live: (e) => {
    const tags = tagMap(e.Tags);
    return {
      id: e.AllocationId, allocation_id: e.AllocationId, public_ip: e.PublicIp, private_ip: e.PrivateIpAddress ?? '', domain: e.Domain,
      instance: e.InstanceId ?? '', network_interface: e.NetworkInterfaceId ?? '', association_id: e.AssociationId ?? '',
      public_ipv4_pool: e.PublicIpv4Pool, network_border_group: e.NetworkBorderGroup, tags, tags_all: tags,
    };
  },
  record: (a) => ({
    AllocationId: str(a.allocation_id || a.id), PublicIp: opt(a.public_ip), PrivateIpAddress: opt(a.private_ip), Domain: opt(a.domain) ?? 'vpc',
    InstanceId: opt(a.instance), NetworkInterfaceId: opt(a.network_interface), AssociationId: opt(a.association_id), PublicIpv4Pool: opt(a.public_ipv4_pool),
    NetworkBorderGroup: opt(a.network_border_group), Tags: tagList(stateTags(a)),
  }),
});

export const networkInterfaceReader = ec2Reader<NetworkInterface>({
  command: DescribeNetworkInterfacesCommand, schema: DescribeNetworkInterfaces$, what: 'DescribeNetworkInterfaces', idsField: 'NetworkInterfaceIds',
  filter: 'network-interface-id', listField: 'NetworkInterfaces', notFound: 'InvalidNetworkInterfaceID.NotFound', idOf: (n) => n.NetworkInterfaceId ?? '',
}, {
  type: 'aws_network_interface',
  spec: { sets: { attachment: genericKey } },
  live: (n) => {
    const tags = tagMap(n.TagSet);
    return {
      id: n.NetworkInterfaceId, subnet_id: n.SubnetId, description: n.Description ?? '', private_ip: n.PrivateIpAddress,
      private_ips: (n.PrivateIpAddresses ?? []).map((p) => p.PrivateIpAddress), security_groups: (n.Groups ?? []).map((g) => g.GroupId),
      source_dest_check: n.SourceDestCheck, mac_address: n.MacAddress, interface_type: n.InterfaceType, owner_id: n.OwnerId,
      private_dns_name: n.PrivateDnsName, ipv6_addresses: (n.Ipv6Addresses ?? []).map((x) => x.Ipv6Address),
      attachment: n.Attachment?.InstanceId ? [{ instance: n.Attachment.InstanceId, device_index: n.Attachment.DeviceIndex, attachment_id: n.Attachment.AttachmentId, network_card_index: n.Attachment.NetworkCardIndex }] : [],
      tags, tags_all: tags,
    };
  },
  record: (a) => {
    const att = block(a.attachment);
    return {
      NetworkInterfaceId: str(a.id), SubnetId: opt(a.subnet_id), Description: opt(a.description), PrivateIpAddress: opt(a.private_ip),
      PrivateIpAddresses: list(a.private_ips).map((PrivateIpAddress) => ({ PrivateIpAddress })), Groups: list(a.security_groups).map((GroupId) => ({ GroupId })),
      SourceDestCheck: bool(a.source_dest_check), MacAddress: opt(a.mac_address), InterfaceType: opt(a.interface_type), OwnerId: opt(a.owner_id),
      PrivateDnsName: opt(a.private_dns_name), Ipv6Addresses: list(a.ipv6_addresses).map((Ipv6Address) => ({ Ipv6Address })),
      Attachment: opt(att.instance) ? { InstanceId: str(att.instance), DeviceIndex: num(att.device_index), AttachmentId: opt(att.attachment_id), NetworkCardIndex: num(att.network_card_index) } : undefined,
      TagSet: tagList(stateTags(a)),
    };
  },
});
