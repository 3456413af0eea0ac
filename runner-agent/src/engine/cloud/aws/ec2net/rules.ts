// Severity rules of the EC2 network types (engine rules.ts explains the conditions); tag-only
// edits fall through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';
import { adminOpenings, newlyOpensAdmin } from './nacl-shape.ts';

const ACLS = ['aws_network_acl', 'aws_default_network_acl'];

export const EC2NET_RULES: SeverityRule[] = [
  { id: 'nacl-ssh-rdp-open-to-world', severity: 'critical', description: 'Network ACL now lets SSH (22) or RDP (3389) in from 0.0.0.0/0 or ::/0',
    rationale: 'Nothing at the subnet edge stops anyone on the internet from trying to log in to its machines any more.',
    types: ACLS, changeTypes: ['changed'], attributes: ['ingress'],
    test: { describe: 'an ingress entry allowing 22 or 3389 (a port range covering them, or all protocols) from anywhere appears', fn: (d) => newlyOpensAdmin(d.before, d.after) } },
  { id: 'nacl-rule-ssh-rdp-open-to-world', severity: 'critical', description: 'Network ACL rule now lets SSH (22) or RDP (3389) in from 0.0.0.0/0 or ::/0',
    rationale: 'Nothing at the subnet edge stops anyone on the internet from trying to log in to its machines any more.',
    types: ['aws_network_acl_rule'], changeTypes: ['changed'], where: { egress: false },
    test: {
      describe: 'the ingress rule with the drift\'s changes allows 22 or 3389 from anywhere, and did not before',
      fn: (_d, state, diff) => {
        // Every changed attribute at once: a CIDR opened and a port range moved together.
        const live = { ...state, ...Object.fromEntries(diff.map((e) => [e.attribute, e.after])) };
        const had = new Set(adminOpenings(state));
        return adminOpenings(live).some((x) => !had.has(x));
      },
    } },
  { id: 'nacl-rules-changed', severity: 'high', description: 'Network ACL entries or subnets changed',
    rationale: 'Which traffic reaches or leaves the subnets behind the ACL changed outside review.',
    types: ACLS, changeTypes: ['changed'], attributes: ['ingress', 'egress', 'subnet_ids'] },
  { id: 'nacl-rule-changed', severity: 'high', description: 'Network ACL rule or association changed',
    rationale: 'Which traffic reaches or leaves the subnets behind the ACL changed outside review.',
    types: ['aws_network_acl_rule', 'aws_network_acl_association'], changeTypes: ['changed'] },
  { id: 'vpc-endpoint-policy-changed', severity: 'high', description: 'VPC endpoint policy, route tables or security groups changed',
    rationale: 'What the endpoint lets the VPC reach, or who reaches it, changed outside review.',
    types: ['aws_vpc_endpoint'], changeTypes: ['changed'], attributes: ['policy', 'route_table_ids', 'security_group_ids', 'subnet_ids', 'private_dns_enabled'] },
  { id: 'network-association-changed', severity: 'high', description: 'Main route table, EIP or endpoint route association changed',
    rationale: 'Where traffic of the VPC or the address goes changed outside review.',
    types: ['aws_main_route_table_association', 'aws_eip_association', 'aws_vpc_endpoint_route_table_association'], changeTypes: ['changed'] },
];
