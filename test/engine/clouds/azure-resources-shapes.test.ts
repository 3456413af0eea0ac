// The shapes the compute, storage, identity and platform azurerm readers meet: what other
// provider versions write (4.x names, 2.x names, ARM defaults spelt out or left out, nulls), every
// scalar, list and map attribute each type compares, list mode (Cloud Discovery), and ARM's
// documented answers read as they are.
import t from 'tap';
import { azureApi } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { AZURE_RESOURCE_READERS } from '../../../runner-agent/src/engine/cloud/azure/resources/index.ts';
import { startRestFake, stateWorld } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import {
  aks, dnsRecord, GUID, insights, keyVault, noSecrets, one, pgServer, RG, role, storageAccount, SUB, windowsVm, workspace,
} from './azure-resources-states.ts';
import { changed, compareAgainst, instance, staticTokens } from './harness.ts';

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


t.test('IPv6 records compare as addresses: ARM\'s compressed spelling is the state\'s expanded one', async (t) => {
  const r = dnsRecord('aaaa', 'v6', { records: ['fd5d:70bc:930e:d008:0000:0000:0000:7334'] });
  t.same((await compareAgainst('azure', [r], [changed(r, { records: ['FD5D:70bc:930e:d008::7334'] })])).drifts, []);
  const { drifts } = await compareAgainst('azure', [r], [changed(r, { records: ['fd5d:70bc:930e:d008::7335'] })]);
  t.equal(drifts[0]?.ruleId, 'azure-private-dns-record-changed');
});

t.test('an older provider\'s null is the default ARM answers, and nothing else', async (t) => {
  const st = storageAccount('stnull', { is_hns_enabled: null });
  t.same((await compareAgainst('azure', [st], [changed(st, { is_hns_enabled: false })])).drifts, []);
  const { drifts } = await compareAgainst('azure', [st], [changed(st, { is_hns_enabled: true })]);
  t.same(drifts[0]?.diff, [{ attribute: 'is_hns_enabled', before: null, after: true }]);
});


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


t.test('list mode (Cloud Discovery): a subscription\'s resources of each listable type, with the ids the state holds', async (t) => {
  const state = one();
  const listable = Object.entries(AZURE_RESOURCE_READERS).filter(([, r]) => r.list).map(([type]) => type).sort();
  // Containers and firewall rules are children (no subscription list): listed under their account or server only.
  // Containers, firewall rules and DNS records are children (no subscription list); a VM is listed under the current type for its OS, not the legacy one.
  const children = ['azurerm_storage_container', 'azurerm_postgresql_flexible_server_firewall_rule', 'azurerm_virtual_machine'];
  t.same(listable, Object.keys(AZURE_RESOURCE_READERS).filter((x) => !children.includes(x) && !x.startsWith('azurerm_private_dns_')).sort());
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
