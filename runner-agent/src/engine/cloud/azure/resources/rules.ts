// Severity rules of the compute, storage, identity and platform azurerm types (issue 25 point 2),
// spread into cloud/azure/rules.ts. Tag-only edits fall through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { isObject } from '../../../values.ts';
import { BUILT_IN_ROLES, PRIVILEGED_ROLES, roleGuid } from './authorization.ts';
import { ALL_IPV4 } from './postgres.ts';

/** The rule's range after the change (both ends may change in one drift) covers every IPv4 address, and did not before. */
function opensAllIpv4(_d: DiffEntry, state: Record<string, unknown>, diff: DiffEntry[]): boolean {
  const after = (k: string) => (diff.find((e) => e.attribute === k) ?? { after: state[k] }).after;
  const all = (s: unknown, e: unknown) => s === ALL_IPV4[0] && e === ALL_IPV4[1];
  return all(after('start_ip_address'), after('end_ip_address')) && !all(state.start_ip_address, state.end_ip_address);
}

const PRIVILEGED_NAMES = PRIVILEGED_ROLES.map((g) => BUILT_IN_ROLES[g]);
const privileged = (id: unknown, name: unknown) => PRIVILEGED_ROLES.includes(roleGuid(id)) || PRIVILEGED_NAMES.includes(String(name ?? ''));

/** The role the assignment grants after the change: the changed role, else the state's. */
function grantsPrivileged(d: DiffEntry, state: Record<string, unknown>): boolean {
  if (d.attribute === 'role_definition_id') return privileged(d.after, undefined);
  if (d.attribute === 'role_definition_name') return privileged(undefined, d.after);
  return d.attribute === 'principal_id' && privileged(state.role_definition_id, state.role_definition_name);
}

const WORLD = ['0.0.0.0/0', '0.0.0.0', '*', 'Internet'];
/** Authorized IP ranges in a value (a list of CIDRs, or api_server_access_profile blocks). */
function ranges(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  if (v.every((x) => typeof x === 'string')) return v as string[];
  const blocks = v.filter(isObject);
  return blocks.length ? blocks.flatMap((b) => (Array.isArray(b.authorized_ip_ranges) ? b.authorized_ip_ranges as string[] : [])) : [];
}
/** The API server opened: its authorized ranges removed (anyone may call it) or a world range added, or made public. */
function apiServerOpened(d: DiffEntry): boolean {
  if (d.attribute === 'private_cluster_enabled') return d.after === false || d.after === 'false';
  const before = ranges(d.before) ?? [];
  const after = ranges(d.after) ?? [];
  if (before.length > 0 && after.length === 0) return true;
  return after.some((r) => WORLD.includes(r) && !before.includes(r));
}

const STORAGE_PUBLIC = ['allow_nested_items_to_be_public', 'allow_blob_public_access'];

export const AZURE_RESOURCE_RULES: SeverityRule[] = [
  { id: 'azure-storage-public-blob-access', severity: 'critical', description: 'Storage account allows public (anonymous) blob access',
    rationale: 'Any container set to blob or container access can now be read by anyone on the internet.',
    types: ['azurerm_storage_account'], attributes: STORAGE_PUBLIC, becomes: [true] },
  { id: 'azure-storage-container-public', severity: 'critical', description: 'Storage container made readable by anyone (blob or container access)',
    rationale: 'Anyone on the internet can now read (and with container access, list) the blobs.',
    types: ['azurerm_storage_container'], attributes: ['container_access_type'], becomes: ['blob', 'container'] },
  { id: 'azure-storage-network-opened', severity: 'high', description: 'Storage account opened to public networks (firewall default Allow, public access on, or shared keys on)',
    rationale: 'Every network, or every holder of an account key, can now reach the data, not only the ones reviewed.',
    types: ['azurerm_storage_account'], attributes: ['network_rules*', 'public_network_access_enabled', 'shared_access_key_enabled'],
    test: { describe: 'the firewall default action becomes Allow, or public network access or shared keys turn on',
      fn: (d) => d.after === true || d.after === 'Allow' || (Array.isArray(d.after) && JSON.stringify(d.after).includes('"default_action":"Allow"')) } },
  { id: 'azure-role-assignment-privileged', severity: 'high', description: 'Owner or Contributor granted to a principal the state does not have',
    rationale: 'A principal outside review can now manage (and with Owner, grant access to) everything in the scope.',
    types: ['azurerm_role_assignment'], attributes: ['principal_id', 'role_definition_id', 'role_definition_name'],
    test: { describe: 'the assignment grants Owner or Contributor after the change', fn: grantsPrivileged } },
  { id: 'azure-role-assignment-changed', severity: 'high', description: 'Role assignment changed (principal, role or scope)',
    rationale: 'Who holds which permissions changed outside review.',
    types: ['azurerm_role_assignment'], attributes: ['principal_id', 'role_definition_id', 'role_definition_name', 'scope', 'condition'] },
  { id: 'azure-postgres-firewall-open-to-world', severity: 'critical', description: 'PostgreSQL firewall rule opened to every address (0.0.0.0-255.255.255.255)',
    rationale: 'Anyone on the internet can now reach the database server and try its logins.',
    types: ['azurerm_postgresql_flexible_server_firewall_rule'], attributes: ['start_ip_address', 'end_ip_address'],
    test: { describe: 'start and end after the change are 0.0.0.0 and 255.255.255.255', fn: opensAllIpv4 } },
  { id: 'azure-postgres-open-to-internet', severity: 'critical', description: 'PostgreSQL server made public with a firewall rule covering every address',
    rationale: 'The server now accepts connections from anyone on the internet.',
    types: ['azurerm_postgresql_flexible_server'], attributes: ['open_to_internet'], becomes: [true] },
  { id: 'azure-postgres-public-access', severity: 'high', description: 'PostgreSQL server public network access turned on',
    rationale: 'The server is reachable from public networks, limited only by its firewall rules.',
    types: ['azurerm_postgresql_flexible_server'], attributes: ['public_network_access_enabled'], becomes: [true] },
  { id: 'azure-aks-api-server-opened', severity: 'high', description: 'AKS API server opened to the internet (authorized IP ranges removed or opened, or private cluster off)',
    rationale: 'Anyone on the internet can now reach the cluster API and try its credentials.',
    types: ['azurerm_kubernetes_cluster'], attributes: ['api_server_access_profile*', 'api_server_authorized_ip_ranges', 'private_cluster_enabled'],
    test: { describe: 'authorized ranges removed, a world range added, or private cluster turned off', fn: apiServerOpened } },
  { id: 'azure-aks-access-changed', severity: 'high', description: 'AKS cluster access settings changed (RBAC, local accounts, identity)',
    rationale: 'Who can authenticate to the cluster, or what the cluster may do in Azure, changed outside review.',
    types: ['azurerm_kubernetes_cluster'], attributes: ['role_based_access_control_enabled', 'local_account_disabled', 'identity*', 'api_server_access_profile*', 'api_server_authorized_ip_ranges'] },
  { id: 'azure-registry-exposed', severity: 'high', description: 'Container registry admin user, anonymous pull or public network access turned on',
    rationale: 'Images can now be pulled (or pushed with the admin password) by principals outside review.',
    types: ['azurerm_container_registry'], attributes: ['admin_enabled', 'anonymous_pull_enabled', 'public_network_access_enabled'], becomes: [true] },
  { id: 'azure-key-vault-exposed', severity: 'high', description: 'Key vault access policies, RBAC mode or network exposure changed',
    rationale: 'Who can read the secrets, keys and certificates changed outside review.',
    types: ['azurerm_key_vault'], attributes: ['access_policy', 'enable_rbac_authorization', 'rbac_authorization_enabled', 'network_acls*', 'public_network_access_enabled'] },
  { id: 'azure-web-app-exposure-changed', severity: 'high', description: 'Web app HTTPS-only turned off, or public network access turned on',
    rationale: 'The app now answers plain HTTP, or public networks reach it.',
    types: ['azurerm_linux_web_app'], attributes: ['https_only', 'public_network_access_enabled'],
    test: { describe: 'https_only becomes false or public access becomes true', fn: (d) => (d.attribute === 'https_only' ? d.after === false : d.after === true) } },
  { id: 'azure-vm-access-changed', severity: 'high', description: 'VM SSH keys, password login, network interfaces or identity changed',
    rationale: 'Who can log in to the machine, or what it may do in Azure, changed outside review.',
    types: ['azurerm_linux_virtual_machine', 'azurerm_windows_virtual_machine', 'azurerm_virtual_machine'],
    attributes: ['admin_ssh_key', 'disable_password_authentication', 'admin_username', 'network_interface_ids', 'identity*', 'os_profile*'] },
  { id: 'azure-vm-size-changed', severity: 'medium', description: 'VM size changed',
    rationale: 'Cost and capacity changed; no access is affected.',
    types: ['azurerm_linux_virtual_machine', 'azurerm_windows_virtual_machine', 'azurerm_virtual_machine'], attributes: ['size', 'vm_size'] },
];
