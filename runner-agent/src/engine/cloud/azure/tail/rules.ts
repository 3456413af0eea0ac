// Severity rules of the tail/ types (engine rules.ts explains the conditions), spread into
// AZURE_RULES; tag-only edits fall through to the generic `tags-only` (low). azurerm_storage_share
// and azurerm_storage_blob have no attribute that makes them public (anonymous access is the
// container's container_access_type, already critical): no rule of their own.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { isObject } from '../../../values.ts';

const DEFAULT_ROUTE = ['0.0.0.0/0', '::/0'];
const OUT = ['internet', 'virtualappliance'];
/** Default routes to the Internet or an appliance in a route list (a `route` value). */
const defaultRoutes = (v: unknown): string[] => (Array.isArray(v) ? v : []).filter(isObject)
  .filter((r) => DEFAULT_ROUTE.includes(String(r.address_prefix)) && OUT.includes(String(r.next_hop_type).toLowerCase()))
  .map((r) => `${r.address_prefix}|${String(r.next_hop_type).toLowerCase()}|${r.next_hop_in_ip_address ?? ''}`);
function newDefaultRoute(d: DiffEntry): boolean {
  const before = new Set(defaultRoutes(d.before));
  return defaultRoutes(d.after).some((r) => !before.has(r));
}

/** ip_range_filter (a 3.x comma-separated string, a 4.x set) gained 0.0.0.0 (Azure's "accept from Azure datacenters", or every address as 0.0.0.0/0). */
const ranges = (v: unknown): string[] => (typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.map(String) : []).map((s) => s.trim());
const OPEN = ['0.0.0.0', '0.0.0.0/0'];
function cosmosOpened(d: DiffEntry): boolean {
  if (d.attribute === 'public_network_access_enabled') return d.after === true;
  const before = ranges(d.before);
  return ranges(d.after).some((r) => OPEN.includes(r) && !before.includes(r));
}

const ACCESS_HOSTS = ['azurerm_bastion_host', 'azurerm_virtual_network_gateway'];
const NOT_TAGS = ['location', 'sku', 'scale_units', '*_enabled', 'ip_configuration*', 'virtual_network_id', 'zones', 'type', 'vpn_type', 'generation', 'active_active', 'enable_bgp', 'vpn_client_configuration*', 'bgp_settings*'];

export const AZURE_TAIL_RULES: SeverityRule[] = [
  { id: 'azure-key-vault-secret-value-changed', severity: 'critical', description: 'Key vault secret given a new value or version outside Terraform',
    rationale: 'Whatever reads the secret now gets a value nobody reviewed (or the code\'s value no longer works).',
    types: ['azurerm_key_vault_secret'], changeTypes: ['changed'], attributes: ['value', 'version'] },
  { id: 'azure-key-vault-secret-disabled-or-expiry', severity: 'high', description: 'Key vault secret disabled, or its activation or expiry date changed',
    rationale: 'Readers of the secret start failing, or it stays valid longer than the code allows.',
    types: ['azurerm_key_vault_secret'], changeTypes: ['changed'], attributes: ['enabled', 'expiration_date', 'not_before_date'] },
  { id: 'azure-route-table-default-route', severity: 'high', description: 'Route table now sends 0.0.0.0/0 to the Internet or a virtual appliance',
    rationale: 'Every subnet using the table sends its outbound traffic past the reviewed path (around the firewall, or through a box someone added).',
    types: ['azurerm_route_table'], changeTypes: ['changed'], attributes: ['route'],
    test: { describe: 'a route for 0.0.0.0/0 (or ::/0) to Internet or VirtualAppliance appears', fn: newDefaultRoute } },
  { id: 'azure-cosmosdb-opened', severity: 'critical', description: 'Cosmos DB account opened to public networks or to 0.0.0.0',
    rationale: 'The database now accepts connections from public networks (or every Azure datacenter), limited only by its keys.',
    types: ['azurerm_cosmosdb_account'], changeTypes: ['changed'], attributes: ['public_network_access_enabled', 'ip_range_filter'],
    test: { describe: 'public network access becomes true, or the IP filter gains 0.0.0.0', fn: cosmosOpened } },
  { id: 'azure-remote-access-changed', severity: 'high', description: 'Bastion host or virtual network gateway changed',
    rationale: 'How people and networks reach the private network (remote sessions, VPN tunnels) changed outside review.',
    types: ACCESS_HOSTS, changeTypes: ['changed'], attributes: NOT_TAGS },
  { id: 'azure-vm-extension-changed', severity: 'high', description: 'VM extension changed (what it runs, its version or settings)',
    rationale: 'Extensions run code as root/SYSTEM on the machine: another script, handler or configuration now runs there.',
    types: ['azurerm_virtual_machine_extension'], changeTypes: ['changed'], attributes: ['publisher', 'type', 'type_handler_version', 'settings', 'auto_upgrade_minor_version', 'automatic_upgrade_enabled', 'provision_after_extensions'] },
];
