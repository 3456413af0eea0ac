// VPC networking: VPCs, subnets, gateways, route tables and routes, addresses, interfaces and security
// groups (with the default-* resources that adopt them). Here: each type's reader, the attributes
// never reported as drift (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { eipReader, natGatewayReader, networkInterfaceReader } from './network.ts';
import { routeReader, routeTableAssociationReader, routeTableReader } from './route-tables.ts';
import { securityGroupReader, securityGroupRuleReader, vpcRuleReader } from './security-groups.ts';
import { internetGatewayReader, subnetReader, vpcReader } from './vpc.ts';

const WORLD = ['0.0.0.0/0', '::/0'];
const ROUTE_TO_IGW = { destinations: WORLD, targetPrefix: 'igw-' };

export const VPC_READERS: Record<string, TypeReader> = {
  aws_security_group: securityGroupReader,
  aws_security_group_rule: securityGroupRuleReader,
  aws_vpc_security_group_ingress_rule: vpcRuleReader(false),
  aws_vpc_security_group_egress_rule: vpcRuleReader(true),
  aws_vpc: vpcReader,
  aws_subnet: subnetReader,
  aws_internet_gateway: internetGatewayReader,
  aws_route_table: routeTableReader,
  aws_route_table_association: routeTableAssociationReader,
  aws_route: routeReader,
  aws_nat_gateway: natGatewayReader,
  aws_eip: eipReader,
  aws_network_interface: networkInterfaceReader,
  aws_default_vpc: vpcReader,
  aws_default_subnet: subnetReader,
  aws_default_security_group: securityGroupReader,
  aws_default_route_table: routeTableReader,
};

export const VPC_IGNORED: Record<string, string[]> = {
  aws_security_group: ['owner_id', 'name_prefix', 'revoke_rules_on_delete'],
  aws_default_security_group: ['owner_id', 'name_prefix', 'revoke_rules_on_delete'],
  aws_default_route_table: ['owner_id', 'default_route_table_id'],
  aws_security_group_rule: ['security_group_rule_id'],
  aws_vpc_security_group_ingress_rule: ['security_group_rule_id', 'tags_all'],
  aws_vpc_security_group_egress_rule: ['security_group_rule_id', 'tags_all'],
  // Computed identifiers and values the API fills in (duplicates of the id, owners, generated names).
  aws_vpc: ['owner_id', 'dhcp_options_id', 'main_route_table_id', 'default_network_acl_id', 'default_route_table_id', 'default_security_group_id', 'ipv6_association_id'],
  aws_subnet: ['owner_id', 'availability_zone_id', 'ipv6_cidr_block_association_id'],
  aws_default_vpc: ['owner_id', 'dhcp_options_id', 'main_route_table_id', 'default_network_acl_id', 'default_route_table_id', 'default_security_group_id', 'ipv6_association_id', 'force_destroy', 'existing_default_vpc'],
  aws_default_subnet: ['owner_id', 'availability_zone_id', 'ipv6_cidr_block_association_id', 'force_destroy', 'existing_default_subnet'],
  aws_internet_gateway: ['owner_id'],
  aws_route_table: ['owner_id'],
  aws_route: ['origin', 'state', 'instance_owner_id'],
  aws_eip: ['allocation_id', 'association_id', 'network_border_group', 'public_ipv4_pool', 'private_ip'],
  aws_network_interface: ['owner_id', 'mac_address', 'private_dns_name', 'interface_type', 'attachment.*.attachment_id', 'attachment.*.network_card_index'],
  aws_nat_gateway: ['network_interface_id'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const VPC_RULES: SeverityRule[] = [
  { id: 'sg-ingress-open-to-world', severity: 'critical', description: 'Security group ingress opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this group opens.',
    types: ['aws_security_group', 'aws_default_security_group'], changeTypes: ['changed'], attributes: ['ingress'], gains: WORLD },
  { id: 'sg-rule-ingress-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this rule opens.',
    types: ['aws_security_group_rule'], where: { type: 'ingress' }, attributes: ['cidr_blocks', 'ipv6_cidr_blocks'], gains: WORLD },
  { id: 'vpc-ingress-rule-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this rule opens.',
    types: ['aws_vpc_security_group_ingress_rule'], attributes: ['cidr_ipv4', 'cidr_ipv6'], gains: WORLD },
  { id: 'sg-ingress-changed', severity: 'high', description: 'Security group ingress rules changed',
    rationale: 'Which sources reach the resources of the group changed outside review.',
    types: ['aws_security_group', 'aws_default_security_group'], attributes: ['ingress'] },
  { id: 'route-world-via-igw', severity: 'critical', description: 'Route table routes 0.0.0.0/0 or ::/0 through an internet gateway',
    rationale: 'The subnets of this table now have a path to and from the internet.',
    types: ['aws_route_table', 'aws_default_route_table'], attributes: ['route'], gainsRoute: ROUTE_TO_IGW },
  { id: 'route-changed-to-igw', severity: 'critical', description: 'Route to 0.0.0.0/0 or ::/0 now goes through an internet gateway',
    rationale: 'The subnets of this route now have a path to and from the internet.',
    types: ['aws_route'], attributes: ['gateway_id'], gainsRoute: ROUTE_TO_IGW },
  { id: 'subnet-public-ip-on-launch', severity: 'high', description: 'Subnet now gives instances public IPs at launch',
    rationale: 'New instances in the subnet become reachable from the internet.',
    types: ['aws_subnet'], attributes: ['map_public_ip_on_launch'], becomes: [true] },
];
