// Severity rules of the more/ types (engine rules.ts explains the conditions), spread into
// AZURE_RULES; tag-only edits fall through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';
import { PRIVATE_DNS_RECORD_TYPES, PUBLIC_DNS_RECORD_TYPES } from './dns-records.ts';

const PEERING = ['azurerm_virtual_network_peering'];
const FUNCTION_APPS = ['azurerm_linux_function_app', 'azurerm_windows_function_app'];

export const AZURE_MORE_RULES: SeverityRule[] = [
  { id: 'azure-vnet-peering-transit-opened', severity: 'high', description: 'Virtual network peering now forwards traffic or offers or uses gateway transit',
    rationale: 'Traffic from beyond the peered network, or through its gateway, can now cross into this network.',
    types: PEERING, changeTypes: ['changed'], attributes: ['allow_forwarded_traffic', 'allow_gateway_transit', 'use_remote_gateways'], becomes: [true] },
  { id: 'azure-vnet-peering-changed', severity: 'medium', description: 'Virtual network peering changed',
    rationale: 'Which network is peered, or which of its addresses and subnets reach this one, changed outside review.',
    types: PEERING, changeTypes: ['changed'], attributes: ['remote_virtual_network_id', 'allow_virtual_network_access', 'allow_forwarded_traffic', 'allow_gateway_transit', 'use_remote_gateways', '*subnet_names*', 'peer_complete_virtual_networks_enabled', 'only_ipv6_peering_enabled'] },
  { id: 'azure-private-dns-record-changed', severity: 'medium', description: 'Private DNS record points somewhere new',
    rationale: 'Names resolved inside the linked networks now lead to other addresses or hosts than the code says.',
    types: PRIVATE_DNS_RECORD_TYPES, changeTypes: ['changed'], attributes: ['records', 'records.*', 'record', 'record.*'] },
  { id: 'azure-dns-record-changed', severity: 'medium', description: 'Public DNS record points somewhere new',
    rationale: 'The name now leads the internet to other addresses, hosts or Azure resources than the code says (a takeover or a redirect).',
    types: PUBLIC_DNS_RECORD_TYPES, changeTypes: ['changed'], attributes: ['records', 'records.*', 'record', 'record.*', 'target_resource_id'] },
  { id: 'azure-container-group-image-changed', severity: 'medium', description: 'Container group runs another image, command or environment',
    rationale: 'What runs in the group changed outside review.',
    types: ['azurerm_container_group'], changeTypes: ['changed'], attributes: ['container', 'container.*'] },
  { id: 'azure-container-group-exposure-changed', severity: 'high', description: 'Container group\'s public address, ports or subnet changed',
    rationale: 'Who can reach the containers changed outside review.',
    types: ['azurerm_container_group'], changeTypes: ['changed'], attributes: ['ip_address_type', 'exposed_port*', 'dns_name_label', 'subnet_ids*'] },
  { id: 'azure-function-app-https-only-disabled', severity: 'high', description: 'Function app now answers plain HTTP',
    rationale: 'Requests and their keys can now travel unencrypted.',
    types: FUNCTION_APPS, changeTypes: ['changed'], attributes: ['https_only'], becomes: [false] },
  { id: 'azure-function-app-public-access-enabled', severity: 'high', description: 'Function app now reachable from the internet',
    rationale: 'The code kept the app off the public network; anyone can now call its functions.',
    types: FUNCTION_APPS, changeTypes: ['changed'], attributes: ['public_network_access_enabled'], becomes: [true] },
  { id: 'azure-ssh-public-key-changed', severity: 'high', description: 'SSH public key replaced',
    rationale: 'Machines created from this key now let another private key log in.',
    types: ['azurerm_ssh_public_key'], changeTypes: ['changed'], attributes: ['public_key'] },
];
