// The compute, storage, identity and platform azurerm readers through the fake ARM: every type's
// state read back is no drift; a live change of each compared attribute is reported at its path
// with its severity rule (the must-have rules among them); a missing resource is
// deleted; several in one group, account, server or subscription are read with one paged list;
// sensitive values never reach a drift; the real corpus states holding these types compare clean.
// (azure-resources-shapes.test.ts: other provider versions' shapes, every compared attribute,
// list mode, ARM's documented answers.)
import t from 'tap';
import { AZURE_RESOURCE_READERS } from '../../../runner-agent/src/engine/cloud/azure/resources/index.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import {
  aks, container, disk, dnsRecord, DNS_VALUES, GUID, identity, insights, keyVault, legacyVm, linuxVm, noSecrets, one, OWNER, pgRule, pgServer, plan, READER, RG, registry, role,
  storageAccount, SUB, webApp, windowsVm, workspace,
} from './azure-resources-states.ts';
import { changed, compareAgainst, corpusStates } from './harness.ts';

const firstOf = (v: unknown) => (v as Record<string, unknown>[])[0];
const RG2 = `/subscriptions/${SUB}/resourceGroups/rg-data`;

t.test('every type: the state read back through the fake is no drift', async (t) => {
  const state = one();
  t.same([...new Set(state.map((i) => i.type))].sort(), Object.keys(AZURE_RESOURCE_READERS).sort(), 'every type of the area');
  const { drifts, compared, api } = await compareAgainst('azure', state);
  t.same(drifts, []);
  t.equal(compared, state.length);
  t.equal(api.totalCalls, state.length, 'one GET each (fewer than three per group)');
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
  [keyVault, { network_acls: [{ bypass: 'AzureServices', default_action: 'Deny', ip_rules: ['198.51.100.0/24'], virtual_network_subnet_ids: [`${RG}/providers/Microsoft.Network/virtualNetworks/v/subnets/s`] }] }, 'network_acls.0.virtual_network_subnet_ids', 'azure-key-vault-exposed'],
  [storageAccount, { network_rules: [{ default_action: 'Deny', bypass: ['AzureServices'], ip_rules: ['198.51.100.7'], virtual_network_subnet_ids: [`${RG}/providers/Microsoft.Network/virtualNetworks/v/subnets/s`] }] }, 'network_rules.0.virtual_network_subnet_ids', 'changed'],
  [identity, { tags: { team: 'a' } }, 'tags.team', 'tags-only'],
  [identity, { client_id: 'ffffffff-0000-4000-8000-000000000001' }, 'client_id', 'changed'],
  [plan, { sku_name: 'P2v3', worker_count: 3 }, 'sku_name', 'changed'],
  [plan, { os_type: 'Windows' }, 'os_type', 'changed'],
  [webApp, { https_only: false }, 'https_only', 'azure-web-app-exposure-changed'],
  [webApp, { client_certificate_mode: 'Optional' }, 'client_certificate_mode', 'changed'],
  [insights, { retention_in_days: 30 }, 'retention_in_days', 'changed'],
  [insights, { workspace_id: `${RG}/providers/Microsoft.OperationalInsights/workspaces/other` }, 'workspace_id', 'changed'],
  [insights, { local_authentication_disabled: true }, 'local_authentication_disabled', 'changed'],
  [(n) => dnsRecord('a', n, DNS_VALUES.a), { records: ['10.0.180.99'] }, 'records', 'azure-private-dns-record-changed'],
  [(n) => dnsRecord('cname', n, DNS_VALUES.cname), { record: 'evil.example' }, 'record', 'azure-private-dns-record-changed'],
  [(n) => dnsRecord('mx', n, DNS_VALUES.mx), { record: [{ exchange: 'mx.corp.internal', preference: 10 }] }, 'record', 'azure-private-dns-record-changed'],
  [(n) => dnsRecord('srv', n, DNS_VALUES.srv), { record: [{ port: 8443, priority: 10, target: 'srv2.corp.internal', weight: 10 }] }, 'record', 'azure-private-dns-record-changed'],
  [(n) => dnsRecord('txt', n, DNS_VALUES.txt), { record: [{ value: 'v=spf1 +all' }] }, 'record', 'azure-private-dns-record-changed'],
  [(n) => dnsRecord('aaaa', n, DNS_VALUES.aaaa), { ttl: 60 }, 'ttl', 'changed'],
  [(n) => dnsRecord('ptr', n, DNS_VALUES.ptr), { tags: { team: 'x' } }, 'tags', 'tags-only'],
];


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

// Real states that public users committed (corpus branch; the driftctl acceptance states):
// every instance of this area's types compares clean against a fake answering from the state.
const corpusInstances = corpusStates('azurerm').flatMap(({ file, doc }) => doc.instances.map((i) => ({ file, i })))
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
