// Severity rules of the Microsoft.Network types (engine rules.ts explains the conditions), spread
// into AZURE_RULES; tag-only edits fall through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';
import { openAdminPorts, opensAdminPorts } from './nsg.ts';

const PUBLIC_IP_ATTRIBUTES = [
  'allocation_method', 'ip_version', 'sku', 'sku_tier', 'idle_timeout_in_minutes', 'zones', 'availability_zone', 'domain_name_label*',
  'reverse_fqdn', 'ip_tags*', 'public_ip_prefix_id', 'ddos_protection_*', 'edge_zone', 'location',
];

export const AZURE_NETWORK_RULES: SeverityRule[] = [
  { id: 'azure-nsg-ssh-rdp-open-to-internet', severity: 'critical', description: 'NSG now lets SSH (22) or RDP (3389) in from anywhere (0.0.0.0/0, *, Internet, Any)',
    rationale: 'Anyone on the internet can now try to log in to the machines behind this NSG.',
    types: ['azurerm_network_security_group'], changeTypes: ['changed'], attributes: ['security_rule'],
    test: { describe: 'a rule allowing 22 or 3389 inbound from anywhere appears', fn: (d) => opensAdminPorts(d.before, d.after) } },
  { id: 'azure-nsg-rule-ssh-rdp-open-to-internet', severity: 'critical', description: 'NSG rule now lets SSH (22) or RDP (3389) in from anywhere (0.0.0.0/0, *, Internet, Any)',
    rationale: 'Anyone on the internet can now try to log in to the machines behind this rule\'s NSG.',
    types: ['azurerm_network_security_rule'], changeTypes: ['changed'],
    test: {
      describe: 'the rule with the drift\'s changes allows 22 or 3389 inbound from anywhere, and did not before',
      fn: (_d, state, diff) => {
        // Every changed attribute at once: a source opened to `*` and a port moved to 22 together.
        const live = { ...state, ...Object.fromEntries(diff.filter((e) => !e.attribute.includes('.')).map((e) => [e.attribute, e.after])) };
        const had = new Set(openAdminPorts(state));
        return openAdminPorts(live).some((x) => !had.has(x));
      },
    } },
  { id: 'azure-nsg-rules-changed', severity: 'high', description: 'NSG security rules changed',
    rationale: 'Which sources reach the resources behind the NSG changed outside review.',
    types: ['azurerm_network_security_group'], changeTypes: ['changed'], attributes: ['security_rule'] },
  { id: 'azure-nsg-rule-changed', severity: 'high', description: 'NSG rule changed',
    rationale: 'Which sources reach the resources behind the NSG changed outside review.',
    types: ['azurerm_network_security_rule'], changeTypes: ['changed'] },
  { id: 'azure-nsg-association-removed', severity: 'high', description: 'Subnet or network interface lost or changed its NSG',
    rationale: 'The traffic filtering the code puts on the subnet or interface no longer applies.',
    types: ['azurerm_subnet_network_security_group_association', 'azurerm_network_interface_security_group_association'] },
  { id: 'azure-subnet-nsg-changed', severity: 'high', description: 'Subnet lost or changed its NSG or route table',
    rationale: 'The traffic filtering or routing the code puts on the subnet no longer applies.',
    types: ['azurerm_subnet'], changeTypes: ['changed'], attributes: ['network_security_group_id', 'route_table_id'] },
  { id: 'azure-public-ip-changed', severity: 'medium', description: 'Public IP address settings changed',
    rationale: 'How the address is allocated, named or protected changed; what reaches it may differ.',
    types: ['azurerm_public_ip'], changeTypes: ['changed'], attributes: PUBLIC_IP_ATTRIBUTES },
];
