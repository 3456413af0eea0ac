// EC2 networking beyond VPCs and route tables: network ACLs (and their rules and associations),
// VPC endpoints, EIP and main route table associations. Spread into AWS_READERS, ignore.ts and rules.ts.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { eipAssociationReader, mainRouteTableAssociationReader } from './associations.ts';
import { vpcEndpointReader, vpcEndpointRouteTableAssociationReader } from './endpoints.ts';
import { defaultNetworkAclReader, networkAclAssociationReader, networkAclReader, networkAclRuleReader } from './nacl.ts';
import { EC2NET_RULES as RULES } from './rules.ts';

export const EC2NET_READERS: Record<string, TypeReader> = {
  aws_network_acl: networkAclReader,
  aws_default_network_acl: defaultNetworkAclReader,
  aws_network_acl_rule: networkAclRuleReader,
  aws_network_acl_association: networkAclAssociationReader,
  aws_vpc_endpoint: vpcEndpointReader,
  aws_vpc_endpoint_route_table_association: vpcEndpointRouteTableAssociationReader,
  aws_eip_association: eipAssociationReader,
  aws_main_route_table_association: mainRouteTableAssociationReader,
};

/** Computed attributes (and ones only the configuration holds) never reported. */
export const EC2NET_IGNORED: Record<string, string[]> = {
  aws_network_acl: ['owner_id'],
  // Every subnet not associated elsewhere joins the default ACL, new ones included: the moves that
  // matter show on the other ACL or its association.
  aws_default_network_acl: ['owner_id', 'default_network_acl_id', 'subnet_ids'],
  aws_network_acl_rule: [],
  aws_vpc_endpoint: ['owner_id', 'dns_entry', 'network_interface_ids', 'prefix_list_id', 'cidr_blocks', 'requester_managed', 'auto_accept', 'dns_options', 'subnet_configuration', 'state'],
  aws_eip_association: ['allow_reassociation', 'public_ip'],
  aws_main_route_table_association: ['original_route_table_id'],
};

export const EC2NET_RULES: SeverityRule[] = RULES;
