// The compute, storage, identity and platform azurerm readers through the fake ARM: every type's
// state read back is no drift; a live change of each compared attribute is reported at its path
// with its severity rule (the must-have rules among them); a missing resource is
// deleted; several in one group, account, server or subscription are read with one paged list;
// sensitive values never reach a drift; the real corpus states holding these types compare clean.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { AZURE_RESOURCE_READERS } from '../../../runner-agent/src/engine/cloud/azure/resources/index.ts';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { DetectedDrift, StateInstance } from '../../../runner-agent/src/engine/types.ts';
import {
  aks, container, disk, identity, insights, keyVault, legacyVm, linuxVm, OWNER, pgRule, pgServer, plan, READER, RG, registry, role, storageAccount,
  SUB, webApp, windowsVm, workspace,
} from './azure-resources-states.ts';
import { azureApi } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { startRestFake, stateWorld } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import { changed, compareAgainst, instance, staticTokens } from './harness.ts';

const firstOf = (v: unknown) => (v as Record<string, unknown>[])[0];
const GUID = (n: number) => `0b6f3c2a-${String(n).padStart(4, '0')}-4e1d-9c8b-7a6f5e4d3c2b`;
const RG2 = `/subscriptions/${SUB}/resourceGroups/rg-data`;

/** One instance of each type, as a state holds them. */
const one = (): StateInstance[] => [
  linuxVm('vm-a'), windowsVm('vm-w'), legacyVm('vm-l'), disk('disk-a'), aks('aks-a'),
  role('ra', GUID(1), RG, READER, 'Reader'), storageAccount('sta'), container('sta', 'logs'), container('sta', 'v4', {}, true),
  registry('acra'), workspace('law-a'), pgServer('pg-a'), pgRule('pg-a', 'office', '198.51.100.1', '198.51.100.9'),
  keyVault('kv-a'), identity('id-a'), plan('plan-a'), webApp('app-a'), insights('ai-a'),
];

t.test('every type: the state read back through the fake is no drift', async (t) => {
  const state = one();
  t.same([...new Set(state.map((i) => i.type))].sort(), Object.keys(AZURE_RESOURCE_READERS).sort(), 'every type of the area');
  const { drifts, compared, api } = await compareAgainst('azure', state);
  t.same(drifts, []);
  t.equal(compared, state.length);
  t.equal(api.totalCalls, state.length, 'one GET each (fewer than three per group)');
});

t.test('what other provider versions write reads back clean too', async (t) => {
  const v2 = storageAccount('stv2', { allow_blob_public_access: false });
  delete v2.attributes.allow_nested_items_to_be_public;
  const win4 = windowsVm('vm-w4', { automatic_updates_enabled: true });
  delete win4.attributes.enable_automatic_updates;
  const state = [
    // Storage firewall at ARM's defaults: no block (4.x) or the defaults spelt out (3.x).
    storageAccount('stdef', { network_rules: [] }),
    storageAccount('stv3', { network_rules: [{ default_action: 'Allow', bypass: ['AzureServices'], ip_rules: [], virtual_network_subnet_ids: [], private_link_access: [] }] }),
    v2, win4,
    aks('aks-open', { api_server_access_profile: [], api_server_authorized_ip_ranges: [] }),
    keyVault('kv-noacl', { network_acls: [{ bypass: 'AzureServices', default_action: 'Allow', ip_rules: [], virtual_network_subnet_ids: [] }] }),
    workspace('law-v4', { internet_ingestion_access_type: 'Enabled', internet_query_access_type: 'Enabled', local_authentication_enabled: true }),
    insights('ai-v4', { ip_masking_enabled: true, local_authentication_enabled: true }),
    role('custom', GUID(31), RG, '0f0e0d0c-1111-4222-8333-944455556666', 'My Custom Role'),
  ].map((i) => ({ ...i, attributes: { ...i.attributes, id: String(i.attributes.id).replace('/rg-app/', '/rg-versions/') } }));
  const { drifts, compared } = await compareAgainst('azure', state);
  t.same(drifts, []);
  t.equal(compared, state.length);
});

t.test('an older provider\'s null is the default ARM answers, and nothing else', async (t) => {
  const st = storageAccount('stnull', { is_hns_enabled: null });
  t.same((await compareAgainst('azure', [st], [changed(st, { is_hns_enabled: false })])).drifts, []);
  const { drifts } = await compareAgainst('azure', [st], [changed(st, { is_hns_enabled: true })]);
  t.same(drifts[0]?.diff, [{ attribute: 'is_hns_enabled', before: null, after: true }]);
});

/**
 * One case per compared attribute: the instance, the live change, the diff path expected and the
 * rule that classifies it. Each case is its own resource (its name in its id), all compared in one scan.
 */
type Case = [make: (name: string) => StateInstance, change: Record<string, unknown>, attribute: string, rule: string];
const CASES: Case[] = [
  [linuxVm, { size: 'Standard_D4s_v5' }, 'size', 'azure-vm-size-changed'],
  [linuxVm, { admin_ssh_key: [{ username: 'azureuser', public_key: 'ssh-rsa AAAAother intruder' }] }, 'admin_ssh_key', 'azure-vm-access-changed'],
  [linuxVm, { disable_password_authentication: false }, 'disable_password_authentication', 'azure-vm-access-changed'],
  [linuxVm, { network_interface_ids: [`${RG}/providers/Microsoft.Network/networkInterfaces/other`] }, 'network_interface_ids', 'azure-vm-access-changed'],
  [linuxVm, { identity: [] }, 'identity', 'azure-vm-access-changed'],
  [linuxVm, { tags: { env: 'dev' } }, 'tags.env', 'tags-only'],
  [linuxVm, { os_disk: [{ caching: 'None', disk_size_gb: 30, name: 'd', storage_account_type: 'Premium_LRS', write_accelerator_enabled: false, disk_encryption_set_id: '' }] }, 'os_disk.0.caching', 'changed'],
  [linuxVm, { source_image_reference: [{ offer: 'o', publisher: 'Canonical', sku: '20_04-lts', version: 'latest' }] }, 'source_image_reference.0.offer', 'changed'],
  // (Managed boot diagnostics, [{storage_account_uri: ''}], reads as empty to the compare core: a storage account's URI is what shows.)
  [(n) => linuxVm(n, { boot_diagnostics: [{ storage_account_uri: 'https://diag.blob.core.windows.net/' }] }), { boot_diagnostics: [] }, 'boot_diagnostics', 'changed'],
  [linuxVm, { encryption_at_host_enabled: true }, 'encryption_at_host_enabled', 'changed'],
  [linuxVm, { allow_extension_operations: false }, 'allow_extension_operations', 'changed'],
  [linuxVm, { patch_mode: 'AutomaticByPlatform' }, 'patch_mode', 'changed'],
  [windowsVm, { size: 'Standard_D8s_v3' }, 'size', 'azure-vm-size-changed'],
  [windowsVm, { enable_automatic_updates: false }, 'enable_automatic_updates', 'changed'],
  [windowsVm, { timezone: 'UTC' }, 'timezone', 'changed'],
  [windowsVm, { zone: '2' }, 'zone', 'changed'],
  [legacyVm, { vm_size: 'Standard_DS2_v2' }, 'vm_size', 'azure-vm-size-changed'],
  [legacyVm, { os_profile_linux_config: [{ disable_password_authentication: true, ssh_keys: [{ path: '/home/testadmin/.ssh/authorized_keys', key_data: 'ssh-rsa AAAA' }] }] }, 'os_profile_linux_config', 'azure-vm-access-changed'],
  [legacyVm, { storage_data_disk: [(legacyVm('x').attributes.storage_data_disk as unknown[])[0]] }, 'storage_data_disk', 'changed'],
  [legacyVm, { boot_diagnostics: [{ enabled: false, storage_uri: '' }] }, 'boot_diagnostics.0.enabled', 'changed'],
  [disk, { disk_size_gb: 128 }, 'disk_size_gb', 'changed'],
  [disk, { storage_account_type: 'StandardSSD_LRS' }, 'storage_account_type', 'changed'],
  [disk, { network_access_policy: 'DenyAll' }, 'network_access_policy', 'changed'],
  [aks, { api_server_access_profile: [{ authorized_ip_ranges: [] }], api_server_authorized_ip_ranges: [] }, 'api_server_access_profile.0.authorized_ip_ranges', 'azure-aks-api-server-opened'],
  [aks, { api_server_access_profile: [{ authorized_ip_ranges: ['203.0.113.0/24', '0.0.0.0/0'] }], api_server_authorized_ip_ranges: ['203.0.113.0/24', '0.0.0.0/0'] }, 'api_server_authorized_ip_ranges', 'azure-aks-api-server-opened'],
  [(n) => aks(n, { private_cluster_enabled: true }), { private_cluster_enabled: false }, 'private_cluster_enabled', 'azure-aks-api-server-opened'],
  [aks, { local_account_disabled: true, role_based_access_control_enabled: false }, 'role_based_access_control_enabled', 'azure-aks-access-changed'],
  [aks, { kubernetes_version: '1.30' }, 'kubernetes_version', 'changed'],
  [aks, { default_node_pool: [{ ...firstOf(aks('x').attributes.default_node_pool), node_count: 5 }] }, 'default_node_pool.0.node_count', 'changed'],
  [aks, { network_profile: [{ ...firstOf(aks('x').attributes.network_profile), network_policy: 'calico' }] }, 'network_profile.0.network_policy', 'changed'],
  [aks, { sku_tier: 'Standard', azure_policy_enabled: true }, 'azure_policy_enabled', 'changed'],
  [(n) => role(n, GUID(n.length), RG, OWNER, 'Owner'), { principal_id: 'badbad00-0000-4000-8000-000000000009' }, 'principal_id', 'azure-role-assignment-privileged'],
  [(n) => role(n, GUID(n.length + 50), `/subscriptions/${SUB}`, READER, 'Reader'), { role_definition_id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/b24988ac-6180-42a0-ab88-20f7382dd24c`, role_definition_name: 'Contributor' }, 'role_definition_name', 'azure-role-assignment-privileged'],
  [(n) => role(n, GUID(n.length + 90), RG, READER, 'Reader'), { principal_id: 'badbad00-0000-4000-8000-000000000010' }, 'principal_id', 'azure-role-assignment-changed'],
  [storageAccount, { allow_nested_items_to_be_public: true }, 'allow_nested_items_to_be_public', 'azure-storage-public-blob-access'],
  [storageAccount, { network_rules: [{ default_action: 'Allow', bypass: ['AzureServices'], ip_rules: ['198.51.100.7'], virtual_network_subnet_ids: [] }] }, 'network_rules.0.default_action', 'azure-storage-network-opened'],
  [storageAccount, { shared_access_key_enabled: false, min_tls_version: 'TLS1_0' }, 'min_tls_version', 'changed'],
  [storageAccount, { enable_https_traffic_only: false }, 'enable_https_traffic_only', 'changed'],
  [storageAccount, { account_replication_type: 'LRS' }, 'account_replication_type', 'changed'],
  [(n) => storageAccount(n, { public_network_access_enabled: false }), { public_network_access_enabled: true }, 'public_network_access_enabled', 'azure-storage-network-opened'],
  [(n) => container(n, 'c'), { container_access_type: 'blob' }, 'container_access_type', 'azure-storage-container-public'],
  [(n) => container(n, 'c', {}, true), { container_access_type: 'container' }, 'container_access_type', 'azure-storage-container-public'],
  [(n) => container(n, 'c'), { metadata: { owner: 'x' } }, 'metadata.owner', 'changed'],
  [registry, { admin_enabled: true }, 'admin_enabled', 'azure-registry-exposed'],
  [registry, { anonymous_pull_enabled: true }, 'anonymous_pull_enabled', 'azure-registry-exposed'],
  [registry, { sku: 'Premium' }, 'sku', 'changed'],
  [workspace, { retention_in_days: 90 }, 'retention_in_days', 'changed'],
  [workspace, { internet_query_enabled: false }, 'internet_query_enabled', 'changed'],
  [workspace, { sku: 'CapacityReservation' }, 'sku', 'changed'],
  [pgServer, { public_network_access_enabled: true }, 'public_network_access_enabled', 'azure-postgres-public-access'],
  [pgServer, { sku_name: 'GP_Standard_D2s_v3' }, 'sku_name', 'changed'],
  [pgServer, { storage_mb: 65536, backup_retention_days: 14 }, 'storage_mb', 'changed'],
  [pgServer, { authentication: [{ active_directory_auth_enabled: true, password_auth_enabled: true, tenant_id: '' }] }, 'authentication.0.active_directory_auth_enabled', 'changed'],
  [(n) => pgRule(n, 'r', '10.0.0.1', '10.0.0.9'), { start_ip_address: '0.0.0.0', end_ip_address: '255.255.255.255' }, 'end_ip_address', 'azure-postgres-firewall-open-to-world'],
  [(n) => pgRule(n, 'r', '10.0.0.1', '10.0.0.9'), { end_ip_address: '10.0.0.20' }, 'end_ip_address', 'changed'],
  [keyVault, { access_policy: [] }, 'access_policy', 'azure-key-vault-exposed'],
  [keyVault, { network_acls: [{ bypass: 'AzureServices', default_action: 'Allow', ip_rules: ['198.51.100.0/24'], virtual_network_subnet_ids: [] }] }, 'network_acls.0.default_action', 'azure-key-vault-exposed'],
  [keyVault, { enabled_for_deployment: true }, 'enabled_for_deployment', 'changed'],
  [identity, { tags: { team: 'a' } }, 'tags.team', 'tags-only'],
  [identity, { client_id: 'ffffffff-0000-4000-8000-000000000001' }, 'client_id', 'changed'],
  [plan, { sku_name: 'P2v3', worker_count: 3 }, 'sku_name', 'changed'],
  [plan, { os_type: 'Windows' }, 'os_type', 'changed'],
  [webApp, { https_only: false }, 'https_only', 'azure-web-app-exposure-changed'],
  [webApp, { client_certificate_mode: 'Optional' }, 'client_certificate_mode', 'changed'],
  [insights, { retention_in_days: 30 }, 'retention_in_days', 'changed'],
  [insights, { workspace_id: `${RG}/providers/Microsoft.OperationalInsights/workspaces/other` }, 'workspace_id', 'changed'],
  [insights, { local_authentication_disabled: true }, 'local_authentication_disabled', 'changed'],
];

const SECRETS = ['P@ssw0rd1234!', 'H@Sh1CoR3!', 'k1==', 'psk==', 'InstrumentationKey=ik', 'apiVersion: v1'];
const noSecrets = (t: { notOk(v: unknown, m: string): unknown }, drifts: DetectedDrift[]) => {
  const text = JSON.stringify(drifts);
  for (const s of SECRETS) t.notOk(text.includes(s), `no ${s.slice(0, 4)}… in any drift`);
};

/** A different value of the same kind (scalars, string lists, maps); undefined for blocks (CASES covers them). */
function another(v: unknown): unknown {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string') return v ? `${v}-x` : 'x';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return [...v, 'extra'];
  if (v && typeof v === 'object' && !Array.isArray(v)) return { ...(v as Record<string, unknown>), extra: 'x' };
  return undefined;
}

/**
 * The scalar, list and map attributes each type compares (a change of each, alone, is a drift at
 * its path); the other state attributes are not compared (computed, secret, or never answered by ARM).
 */
const COMPARED: Record<string, string> = {
  azurerm_application_insights: 'application_type disable_ip_masking force_customer_storage_for_profiler internet_ingestion_enabled internet_query_enabled local_authentication_disabled location retention_in_days sampling_percentage tags workspace_id',
  azurerm_container_registry: 'admin_enabled anonymous_pull_enabled data_endpoint_enabled export_policy_enabled location network_rule_bypass_option public_network_access_enabled quarantine_policy_enabled sku tags zone_redundancy_enabled',
  azurerm_key_vault: 'enable_rbac_authorization enabled_for_deployment enabled_for_disk_encryption enabled_for_template_deployment location public_network_access_enabled purge_protection_enabled sku_name soft_delete_retention_days tags tenant_id',
  azurerm_kubernetes_cluster: 'azure_policy_enabled dns_prefix http_application_routing_enabled kubernetes_version local_account_disabled location node_resource_group oidc_issuer_enabled private_cluster_enabled role_based_access_control_enabled sku_tier tags workload_identity_enabled',
  azurerm_linux_virtual_machine: 'admin_username allow_extension_operations computer_name disable_password_authentication encryption_at_host_enabled eviction_policy extensions_time_budget license_type location network_interface_ids patch_mode priority provision_vm_agent secure_boot_enabled size tags vtpm_enabled zone',
  azurerm_linux_web_app: 'client_affinity_enabled client_certificate_enabled client_certificate_mode enabled https_only location public_network_access_enabled service_plan_id tags',
  azurerm_log_analytics_workspace: 'daily_quota_gb internet_ingestion_enabled internet_query_enabled local_authentication_disabled location retention_in_days sku tags',
  azurerm_managed_disk: 'create_option disk_encryption_set_id disk_iops_read_write disk_mbps_read_write disk_size_gb hyper_v_generation image_reference_id location max_shares network_access_policy on_demand_bursting_enabled os_type public_network_access_enabled source_resource_id storage_account_type tags tier zone',
  azurerm_postgresql_flexible_server: 'administrator_login auto_grow_enabled backup_retention_days geo_redundant_backup_enabled location public_network_access_enabled sku_name storage_mb storage_tier tags version zone',
  azurerm_postgresql_flexible_server_firewall_rule: 'end_ip_address start_ip_address',
  azurerm_role_assignment: 'condition condition_version delegated_managed_identity_resource_id description principal_id role_definition_id scope',
  azurerm_service_plan: 'location maximum_elastic_worker_count os_type per_site_scaling_enabled sku_name tags worker_count zone_balancing_enabled',
  azurerm_storage_account: 'access_tier account_kind account_replication_type account_tier allow_nested_items_to_be_public cross_tenant_replication_enabled default_to_oauth_authentication enable_https_traffic_only infrastructure_encryption_enabled is_hns_enabled large_file_share_enabled local_user_enabled location min_tls_version nfsv3_enabled public_network_access_enabled sftp_enabled shared_access_key_enabled tags',
  azurerm_storage_container: 'container_access_type default_encryption_scope encryption_scope_override_enabled metadata',
  azurerm_user_assigned_identity: 'client_id location principal_id tags tenant_id',
  azurerm_virtual_machine: 'license_type location network_interface_ids tags vm_size zones',
  azurerm_windows_virtual_machine: 'admin_username allow_extension_operations computer_name enable_automatic_updates encryption_at_host_enabled hotpatching_enabled license_type location network_interface_ids patch_mode priority provision_vm_agent size tags timezone zone',
};

t.test('each scalar, list and map attribute a type compares: a change alone is a drift at its path', async (t) => {
  // Identity attributes (which resource is read) and values whose generic change is not a valid one.
  const SKIP = new Set(['id', 'name', 'resource_group_name', 'timeouts', 'resource_manager_id']);
  const VALID: Record<string, unknown> = { container_access_type: 'blob' };
  const cases: { i: StateInstance; attr: string }[] = [];
  for (const base of one()) {
    for (const [attr, v] of Object.entries(base.attributes)) {
      if (SKIP.has(attr) || another(v) === undefined) continue;
      const n = cases.length;
      // Each case its own resource; a container in its own account, read with a GET (an account's list answers no metadata).
      const own = (v: unknown) => String(v).replace(/\/([^/]+)$/, `/$1m${n}`).replace('/storageAccounts/sta/', `/storageAccounts/sta${n}/`).replace('https://sta.', `https://sta${n}.`);
      const id = own(base.attributes.id);
      const attributes: Record<string, unknown> = { ...base.attributes, id, name: id.split('/').pop() };
      if (typeof attributes.resource_manager_id === 'string') attributes.resource_manager_id = own(attributes.resource_manager_id);
      const i = { ...base, address: `${base.type}.m${n}`, attributes };
      cases.push({ i, attr });
    }
  }
  const { drifts } = await compareAgainst('azure', cases.map((c) => c.i), cases.map((c) => changed(c.i, { [c.attr]: VALID[c.attr] ?? another(c.i.attributes[c.attr]) })));
  const byAddress = new Map(drifts.map((d) => [d.resourceAddress, d]));
  const compared: Record<string, string[]> = {};
  for (const { i, attr } of cases) {
    const d = byAddress.get(i.address);
    if (!d) continue;
    t.ok(d.diff.some((e) => e.attribute === attr || e.attribute.startsWith(`${attr}.`)), `${i.type} ${attr}: ${d.diff.map((e) => e.attribute).join(', ')}`);
    (compared[i.type] ??= []).push(attr);
  }
  t.same(Object.fromEntries(Object.entries(compared).map(([k, v]) => [k, [...new Set(v)].sort().join(' ')]).sort()), COMPARED);
  noSecrets(t, drifts);
});

t.test('a live change of each compared attribute is reported at its path, with its rule', async (t) => {
  const state = CASES.map(([make], i) => make(`c${i}x`));
  const live = state.map((s, i) => changed(s, CASES[i][1]));
  const { drifts } = await compareAgainst('azure', state, live);
  const byAddress = new Map(drifts.map((d) => [d.resourceAddress, d]));
  CASES.forEach(([, change, attribute, rule], i) => {
    const d = byAddress.get(state[i].address);
    t.ok(d, `${state[i].type} ${Object.keys(change).join(',')} changed`);
    if (!d) return;
    t.ok(d.diff.some((e) => e.attribute === attribute), `${state[i].type}: ${attribute} in ${d.diff.map((e) => e.attribute).join(', ')}`);
    t.equal(d.ruleId, rule, `${state[i].type} ${attribute}: ${rule}`);
    t.equal(d.account, SUB);
  });
  t.equal(drifts.length, CASES.length, 'no other drift');
  noSecrets(t, drifts);
});

t.test('must-have severities', async (t) => {
  const sev = async (s: StateInstance, change: Record<string, unknown>) => (await compareAgainst('azure', [s], [changed(s, change)])).drifts[0];
  t.match(await sev(storageAccount('stp'), { allow_nested_items_to_be_public: true }), { severity: 'critical' });
  // azurerm 2.x wrote allow_blob_public_access.
  const v2 = storageAccount('stq', { allow_blob_public_access: false });
  delete v2.attributes.allow_nested_items_to_be_public;
  t.match(await sev(v2, { allow_blob_public_access: true }), { severity: 'critical', ruleId: 'azure-storage-public-blob-access' });
  t.match(await sev(container('stp', 'c'), { container_access_type: 'container' }), { severity: 'critical' });
  t.match(await sev(role('o', GUID(7), `/subscriptions/${SUB}`, OWNER, 'Owner'), { principal_id: 'x' }), { severity: 'high', ruleId: 'azure-role-assignment-privileged' });
  t.match(await sev(pgRule('pg', 'w', '0.0.0.0', '0.0.0.0'), { end_ip_address: '255.255.255.255' }), { severity: 'critical', ruleId: 'azure-postgres-firewall-open-to-world' });
  t.match(await sev(aks('k'), { api_server_access_profile: [{ authorized_ip_ranges: [] }], api_server_authorized_ip_ranges: [] }), { severity: 'high' });
  t.match(await sev(linuxVm('v'), { size: 'Standard_B4ms' }), { severity: 'medium', ruleId: 'azure-vm-size-changed' });
  t.match(await sev(linuxVm('v'), { tags: { env: 'x' } }), { severity: 'low', ruleId: 'tags-only' });
  // A private server made public while a rule lets every address in: critical, read with one list of its rules.
  const server = pgServer('pg-open');
  const open = pgRule('pg-open', 'all', '0.0.0.0', '255.255.255.255');
  const { drifts, fake } = await compareAgainst('azure', [server], [changed(server, { public_network_access_enabled: true }), open]);
  t.match(drifts[0], { severity: 'critical', ruleId: 'azure-postgres-open-to-internet' });
  t.same(drifts[0].diff.map((e) => e.attribute).sort(), ['open_to_internet', 'public_network_access_enabled']);
  t.ok(fake.log.some((l) => /pg-open\/firewallRules\?/.test(l)), 'the server\'s rules listed');
  const closed = await compareAgainst('azure', [server], [changed(server, { public_network_access_enabled: true })]);
  t.match(closed.drifts[0], { severity: 'high', ruleId: 'azure-postgres-public-access' }, 'public without an open rule: high');
});

t.test('a resource no longer there is deleted, whatever its type', async (t) => {
  const state = one();
  const { drifts } = await compareAgainst('azure', state, []);
  t.equal(drifts.length, state.length);
  t.ok(drifts.every((d) => d.changeType === 'deleted' && d.severity === 'high'), 'deleted, high');
  noSecrets(t, drifts);
});

t.test('batching: three or more in a group, account, server or subscription are read with one paged list', async (t) => {
  const vms = ['b1', 'b2', 'b3', 'b4', 'b5'].map((n) => linuxVm(n));
  // ARM's container list answers no metadata: a state's metadata is then not compared, never a false drift.
  const containers = ['c1', 'c2', 'c3'].map((n) => container('stb', n, { metadata: { team: n } }));
  const rules = ['r1', 'r2', 'r3'].map((n, i) => pgRule('pg-b', n, `10.0.0.${i}`, `10.0.0.${i}`));
  const roles = [role('s', GUID(21), `/subscriptions/${SUB}`, READER, 'Reader'), role('g', GUID(22), RG, READER, 'Reader'), role('r', GUID(23), `${RG}/providers/Microsoft.Storage/storageAccounts/stb`, READER, 'Reader')];
  const other = linuxVm('solo', { id: `${RG2}/providers/Microsoft.Compute/virtualMachines/solo` });
  const state = [...vms, ...containers, ...rules, ...roles, other];
  const { drifts, fake, api } = await compareAgainst('azure', state, state.filter((i) => i !== vms[4]), { pageSize: 2 });
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]), [['azurerm_linux_virtual_machine.b5', 'deleted']]);
  const calls = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(calls(/rg-app\/providers\/Microsoft\.Compute\/virtualMachines\?/), 2, 'one list of the group, two pages (4 VMs, pages of 2)');
  t.equal(calls(/\/containers\?/), 2, 'one list of the account, two pages');
  t.equal(calls(/\/firewallRules\?/), 2, 'one list of the server, two pages');
  t.equal(calls(new RegExp(`^GET /management/subscriptions/${SUB}/providers/Microsoft\\.Authorization/roleAssignments\\?`)), 2, 'one list of the subscription');
  t.equal(calls(/virtualMachines\/solo\?/), 1, 'alone in its group: one GET');
  t.equal(api.totalCalls, 9);
});

t.test('a sensitive block the mapping only partly knows stays out of the comparison', async (t) => {
  const vm = legacyVm('vm-s');
  const { drifts } = await compareAgainst('azure', [vm], [changed(vm, { os_profile: [{ admin_username: 'intruder', computer_name: 'hostname', admin_password: '' }] })]);
  t.same(drifts, [], 'os_profile is sensitive whole in this state: not compared, never shown');
  const clear = { ...vm, sensitivePaths: [] };
  const seen = await compareAgainst('azure', [clear], [changed(clear, { os_profile: [{ admin_username: 'intruder', computer_name: 'hostname' }] })]);
  t.same(seen.drifts[0]?.diff, [{ attribute: 'os_profile.0.admin_username', before: 'testadmin', after: 'intruder' }]);
  t.equal(seen.drifts[0]?.ruleId, 'azure-vm-access-changed');
});

t.test('list mode (Cloud Discovery): a subscription\'s resources of each listable type, with the ids the state holds', async (t) => {
  const state = one();
  const listable = Object.entries(AZURE_RESOURCE_READERS).filter(([, r]) => r.list).map(([type]) => type).sort();
  // Containers and firewall rules are children (no subscription list): listed under their account or server only.
  // Containers and firewall rules are children (no subscription list); a VM is listed under the current type for its OS, not the legacy one.
  t.same(listable, Object.keys(AZURE_RESOURCE_READERS).filter((x) => !['azurerm_storage_container', 'azurerm_postgresql_flexible_server_firewall_rule', 'azurerm_virtual_machine'].includes(x)).sort());
  const found: Record<string, { id: string; location: string | null; attributes: Record<string, unknown> }[]> = {};
  await compareAgainst('azure', [], state, { keep: async ({ api }) => {
    for (const type of listable) found[type] = await AZURE_RESOURCE_READERS[type].list!(api, SUB);
  } });
  for (const type of listable) {
    const want = state.filter((i) => i.type === type).map((i) => String(i.attributes.id));
    t.same(found[type].map((l) => l.id).filter((id) => want.includes(id)), want, `${type}: ${want.join(', ')} listed`);
  }
  // The legacy VM (its OS disk says Linux) is listed once, as a linux VM; the windows VM as a windows one.
  t.same(found.azurerm_linux_virtual_machine.map((l) => l.id.split('/').pop()).sort(), ['vm-a', 'vm-l']);
  t.same(found.azurerm_windows_virtual_machine.map((l) => l.id.split('/').pop()), ['vm-w']);
  t.match(found.azurerm_storage_account.find((l) => l.id.endsWith('/sta')), { location: 'westeurope', attributes: { name: 'sta', allow_nested_items_to_be_public: false, account_replication_type: 'GRS' } });
  t.match(found.azurerm_role_assignment[0], { id: String(state.find((i) => i.type === 'azurerm_role_assignment')!.attributes.id), location: null, attributes: { role_definition_name: 'Reader' } });
});

// ARM's documented answers (azure-rest-api-specs examples, trimmed to what the mapping reads),
// served as they are: the reader gives the provider's attributes.
t.test('documented ARM answers map to the provider\'s attributes', async (t) => {
  const server = `/subscriptions/${SUB}/resourceGroups/exampleresourcegroup/providers/Microsoft.DBforPostgreSQL/flexibleServers/exampleserver`;
  const account = `/subscriptions/${SUB}/resourceGroups/res9290/providers/Microsoft.Storage/storageAccounts/sto1590`;
  const pgGet = { // Microsoft.DBforPostgreSQL 2024-08-01 examples/ServerGet.json
    sku: { name: 'Standard_D4ds_v5', tier: 'GeneralPurpose' },
    properties: {
      storage: { type: '', iops: 500, tier: 'P10', storageSizeGB: 128, autoGrow: 'Disabled' }, network: { publicNetworkAccess: 'Enabled' },
      authConfig: { activeDirectoryAuth: 'Disabled', passwordAuth: 'Enabled' }, fullyQualifiedDomainName: 'exampleserver.postgres.database.azure.com',
      version: '16', minorVersion: '8', administratorLogin: 'administratorlogin', state: 'Ready', availabilityZone: '1',
      backup: { backupRetentionDays: 7, geoRedundantBackup: 'Enabled' }, highAvailability: { mode: 'Disabled', state: 'NotEnabled' },
    },
    location: 'westus', id: server, name: 'exampleserver', type: 'Microsoft.DBforPostgreSQL/flexibleServers',
  };
  const containerList = { value: ['container1644', 'container4052', 'container5103'].map((c, k) => ({ // Microsoft.Storage 2023-05-01 examples/BlobContainersList.json
    id: `${account}/blobServices/default/containers/${c}`, name: c, type: 'Microsoft.Storage/storageAccounts/blobServices/containers', etag: '"0x8D589847D51C7DE"',
    properties: { publicAccess: k === 0 ? 'Container' : 'None', leaseStatus: 'Unlocked', leaseState: 'Available', lastModifiedTime: '2018-03-14T08:20:47Z', hasImmutabilityPolicy: false, hasLegalHold: false },
  })) };
  const fake = await startRestFake({ style: 'arm', world: stateWorld([]), routes: [
    { method: 'GET', service: 'management', path: server, answer: () => pgGet },
    { method: 'GET', service: 'management', path: `${account}/blobServices/default/containers`, answer: () => containerList },
    // The server's rules (examples/FirewallRuleListByServer.json's shape): one lets every address in.
    { method: 'GET', service: 'management', path: `${server}/firewallRules`, answer: () => ({ value: [
      { id: `${server}/firewallRules/rule1`, name: 'rule1', type: 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules', properties: { startIpAddress: '0.0.0.0', endIpAddress: '255.255.255.255' } },
      { id: `${server}/firewallRules/rule2`, name: 'rule2', type: 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules', properties: { startIpAddress: '1.0.0.0', endIpAddress: '255.0.0.0' } },
    ] }) },
  ] });
  const api = azureApi(staticTokens, { endpoint: fake.endpoint, backoffMs: 5 });
  try {
    const scope = { account: SUB, location: null, source: 'test' };
    const [pg] = await AZURE_RESOURCE_READERS.azurerm_postgresql_flexible_server.read([{ instance: pgServer('exampleserver', { id: server }), scope }], api);
    t.match(pg, {
      name: 'exampleserver', location: 'westus', version: '16', sku_name: 'GP_Standard_D4ds_v5', storage_mb: 131072, storage_tier: 'P10',
      auto_grow_enabled: false, backup_retention_days: 7, geo_redundant_backup_enabled: true, zone: '1', high_availability: [],
      public_network_access_enabled: true, administrator_login: 'administratorlogin', tags: {},
      authentication: [{ active_directory_auth_enabled: false, password_auth_enabled: true }],
      // The state holds the server private: its rules were read, one covers every address.
      open_to_internet: true,
    });
    const containers = ['container1644', 'container4052', 'container5103'].map((c) => instance('azurerm_storage_container', c, {
      id: `https://sto1590.blob.core.windows.net/${c}`, name: c, resource_manager_id: `${account}/blobServices/default/containers/${c}`,
    }));
    const live = await AZURE_RESOURCE_READERS.azurerm_storage_container.read(containers.map((c) => ({ instance: c, scope })), api);
    t.same(live.map((l) => l && [l.name, l.container_access_type, l.metadata]), [['container1644', 'container', undefined], ['container4052', 'private', undefined], ['container5103', 'private', undefined]]);
    t.equal(fake.log.length, 3, 'the server, its rules, the account\'s containers');
  } finally {
    await api.destroy();
    await fake.close();
  }
});

// Real states that public users committed (corpus branch; the driftctl acceptance states):
// every instance of this area's types compares clean against a fake answering from the state.
const CORPORA = ['corpus', 'corpus-azurerm'].map((d) => path.join(import.meta.dirname, '..', d)).filter((d) => existsSync(d));
const corpusInstances = CORPORA.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.tfstate') && /azurerm/.test(readFileSync(path.join(dir, f), 'utf8')))
  .flatMap((f) => readStateDocument(readFileSync(path.join(dir, f), 'utf8'), f).instances.map((i) => ({ file: f, i }))))
  .filter(({ i }) => AZURE_RESOURCE_READERS[i.type]);

t.test('real corpus states of these types compare clean', { skip: corpusInstances.length === 0 && 'no corpus state holds these types yet' }, async (t) => {
  // One scan per file: ids repeat across states.
  const files = [...new Set(corpusInstances.map((x) => x.file))];
  let compared = 0;
  for (const f of files) {
    const inst = corpusInstances.filter((x) => x.file === f).map((x) => x.i);
    const r = await compareAgainst('azure', inst);
    t.same(r.drifts.map((d) => [d.resourceAddress, d.diff]), [], f);
    compared += r.compared;
  }
  t.ok(compared > 0, `${compared} instances in ${files.length} states`);
});
