// The tail/ azurerm readers of issue 33 (and the network children read beside their parents)
// through the fake ARM and Key Vault data plane: a state read back is no drift; each compared
// attribute changed live is a drift with its severity rule; a resource gone is deleted; a key
// vault secret's value is compared by hash and never shows, and is read on the management plane
// when the vault refuses its data plane.
import t from 'tap';
import { AZURE_TAIL_READERS } from '../../../runner-agent/src/engine/cloud/azure/tail/index.ts';
import { SENSITIVE_CHANGED } from '../../../runner-agent/src/engine/sensitive.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst, instance } from './harness.ts';
import * as f from './azure-tail-fixtures.ts';

const drifts = async (state: StateInstance[], live: StateInstance[]) => (await compareAgainst('azure', state, live)).drifts;
const NETWORK_CHILDREN = ['azurerm_lb_nat_rule', 'azurerm_lb_backend_address_pool_address', 'azurerm_network_interface_backend_address_pool_association', 'azurerm_subnet_route_table_association', 'azurerm_subnet_nat_gateway_association'];

t.test('every type: the state read back is no drift', async (t) => {
  const state = f.estate();
  t.same(new Set(state.map((i) => i.type)), new Set([...Object.keys(AZURE_TAIL_READERS), ...NETWORK_CHILDREN]), 'the estate holds every type');
  const got = await compareAgainst('azure', state);
  t.same(got.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), []);
  t.equal(got.compared, state.length);
  t.same(got.stats.unsupported, {});
  t.ok(got.fake.log.some((l) => l.startsWith('GET /tail-kv.vault.azure.net/secrets/db-password?api-version=7.4')), 'the secret on the data plane');
  t.equal(got.fake.log.filter((l) => l.includes('/virtualMachines/web1?')).length, 1, 'the VM read once for its disk attachment');
});

t.test('each compared attribute changed live: a drift on that attribute, with its rule', async (t) => {
  const route = (name: string, prefix: string, hop: string, ip = '') => ({ name, address_prefix: prefix, next_hop_type: hop, next_hop_in_ip_address: ip });
  const rt = f.routeTable();
  const routes = rt.attributes.route as unknown[];
  const cases: [StateInstance, Record<string, unknown>, string[], string, string][] = [
    [f.nat(), { idle_timeout_in_minutes: 4 }, ['idle_timeout_in_minutes'], 'changed', 'medium'],
    [f.nat(), { tags: { env: 'dev' } }, ['tags.env'], 'tags-only', 'low'],
    [rt, { route: [...routes, route('default', '0.0.0.0/0', 'Internet')] }, ['route'], 'azure-route-table-default-route', 'high'],
    [rt, { route: [...routes, route('default', '0.0.0.0/0', 'VirtualAppliance', '10.0.9.5')] }, ['route'], 'azure-route-table-default-route', 'high'],
    [rt, { route: [routes[0]] }, ['route'], 'changed', 'medium'],
    [rt, { bgp_route_propagation_enabled: false }, ['bgp_route_propagation_enabled'], 'changed', 'medium'],
    [f.bastion(), { shareable_link_enabled: true }, ['shareable_link_enabled'], 'azure-remote-access-changed', 'high'],
    [f.bastion(), { sku: 'Basic' }, ['sku'], 'azure-remote-access-changed', 'high'],
    [f.bastion(), { tags: {} }, ['tags.env'], 'tags-only', 'low'],
    [f.vpnGateway(), { sku: 'VpnGw2' }, ['sku'], 'azure-remote-access-changed', 'high'],
    [f.vpnGateway(), { enable_bgp: true }, ['enable_bgp'], 'azure-remote-access-changed', 'high'],
    [f.vpnGateway(), { ip_sec_replay_protection_enabled: false }, ['ip_sec_replay_protection_enabled'], 'azure-remote-access-changed', 'high'],
    [f.vpnGateway(), { remote_vnet_traffic_enabled: true }, ['remote_vnet_traffic_enabled'], 'azure-remote-access-changed', 'high'],
    [f.endpoint(), { subnet_id: f.ids.subnet('other') }, ['subnet_id'], 'changed', 'medium'],
    [f.natRule(), { frontend_port: 2222 }, ['frontend_port'], 'changed', 'medium'],
    [f.poolAddress(), { ip_address: '10.0.1.99' }, ['ip_address'], 'changed', 'medium'],
    [f.availabilitySet(), { platform_fault_domain_count: 3 }, ['platform_fault_domain_count'], 'changed', 'medium'],
    [f.diskAttachment(), { caching: 'None' }, ['caching'], 'changed', 'medium'],
    [f.extension(), { settings: '{"workspaceId":"99999999-2222-3333-4444-555555555555","stopOnMultipleConnections":false}' }, ['settings'], 'azure-vm-extension-changed', 'high'],
    [f.extension(), { type_handler_version: '1.9' }, ['type_handler_version'], 'azure-vm-extension-changed', 'high'],
    [f.shutdown(), { enabled: false }, ['enabled'], 'changed', 'medium'],
    [f.shutdown(), { daily_recurrence_time: '2300' }, ['daily_recurrence_time'], 'changed', 'medium'],
    [f.pgDatabase(), { collation: 'C' }, ['collation'], 'changed', 'medium'],
    [f.mysql(), { backup_retention_days: 1 }, ['backup_retention_days'], 'changed', 'medium'],
    [f.mysql(), { sku_name: 'GP_Standard_D2ds_v4' }, ['sku_name'], 'changed', 'medium'],
    [f.mysqlDatabase(), { charset: 'latin1' }, ['charset'], 'changed', 'medium'],
    [f.cosmos(), { public_network_access_enabled: true }, ['public_network_access_enabled'], 'azure-cosmosdb-opened', 'critical'],
    [f.cosmos(), { ip_range_filter: ['203.0.113.0/24', '0.0.0.0'] }, ['ip_range_filter'], 'azure-cosmosdb-opened', 'critical'],
    [f.cosmos(), { ip_range_filter: [] }, ['ip_range_filter'], 'changed', 'medium'],
    [f.cosmosV3(), { ip_range_filter: '104.42.195.92,40.76.54.131,0.0.0.0' }, ['ip_range_filter'], 'azure-cosmosdb-opened', 'critical'],
    [f.cosmosV3(), { enable_automatic_failover: false }, ['enable_automatic_failover'], 'changed', 'medium'],
    [f.cosmos(), { consistency_policy: [{ consistency_level: 'Eventual', max_interval_in_seconds: 5, max_staleness_prefix: 100 }] }, ['consistency_policy.0.consistency_level'], 'changed', 'medium'],
    [f.cosmosContainer(), { default_ttl: 3600 }, ['default_ttl'], 'changed', 'medium'],
    [f.appEnv(), { internal_load_balancer_enabled: true }, ['internal_load_balancer_enabled'], 'changed', 'medium'],
    [f.containerApp(), { ingress: [{ ...(f.containerApp().attributes.ingress as any[])[0], allow_insecure_connections: true }] }, ['ingress.0.allow_insecure_connections'], 'changed', 'medium'],
    [f.containerApp(), { template: [{ ...(f.containerApp().attributes.template as any[])[0], container: [{ name: 'api', image: 'evil/miner:latest', cpu: 0.5, memory: '1Gi' }] }] }, ['template.0.container.0.image'], 'changed', 'medium'],
    [f.plan(), { sku: [{ tier: 'Standard', size: 'S1', capacity: 1 }] }, ['sku.0.size', 'sku.0.tier'], 'changed', 'medium'],
    [f.appService(), { https_only: false }, ['https_only'], 'changed', 'medium'],
    [f.solution(), { workspace_resource_id: `${f.RG}/providers/Microsoft.OperationalInsights/workspaces/other` }, ['workspace_resource_id'], 'changed', 'medium'],
    [f.share(), { quota: 5120 }, ['quota'], 'changed', 'medium'],
    [f.share(), { acl: [] }, ['acl'], 'changed', 'medium'],
    [f.secret(), { content_type: 'text/plain' }, ['content_type'], 'changed', 'medium'],
    [f.secret(), { expiration_date: '2030-01-01T00:00:00Z' }, ['expiration_date'], 'azure-key-vault-secret-disabled-or-expiry', 'high'],
    [f.secret(), { enabled: false }, ['enabled'], 'azure-key-vault-secret-disabled-or-expiry', 'high'],
    [f.secret(), { tags: {} }, ['tags.rotation'], 'tags-only', 'low'],
    [f.blob(), { access_tier: 'Cool' }, ['access_tier'], 'changed', 'medium'],
    [f.blob(), { content_type: 'text/html' }, ['content_type'], 'changed', 'medium'],
    [f.blob(), { metadata: { injected: 'yes' } }, ['metadata.injected'], 'changed', 'medium'],
    [f.shareFile(), { content_md5: 'e4d909c290d0fb1ca068ffaddf22cbd0' }, ['content_md5'], 'changed', 'medium'],
    [f.shareFile(), { content_disposition: 'attachment' }, ['content_disposition'], 'changed', 'medium'],
  ];
  for (const [state, attrs, paths, rule, severity] of cases) {
    const [d, ...more] = await drifts([state], [changed(state, attrs)]);
    const what = `${state.address} ${JSON.stringify(attrs).slice(0, 80)}`;
    t.equal(more.length, 0, what);
    t.same(d?.diff.map((x) => x.attribute).sort(), paths, what);
    t.match(d, { changeType: 'changed', ruleId: rule, severity }, what);
  }
});

t.test('associations: gone when their parent no longer holds the reference', async (t) => {
  const state = [f.natPip(), f.subnetNat(), f.subnetRoute(), f.nicPool(), f.diskAttachment(), f.poolAddress()];
  // The parents answer, without the references (another NAT IP, another route table, no pool...).
  const live = [
    changed(f.natPip(), { id: `${f.ids.nat('egress')}|${f.ids.pip('other')}`, public_ip_address_id: f.ids.pip('other') }),
    changed(f.subnetNat(), { nat_gateway_id: f.ids.nat('other') }),
    instance('azurerm_subnet', 'app', { id: f.ids.subnet('app'), name: 'app', address_prefixes: ['10.0.1.0/24'] }),
    changed(f.diskAttachment(), { id: `${f.ids.vm('web1')}/dataDisks/other`, managed_disk_id: f.ids.disk('other') }),
  ];
  const got = await drifts(state, live);
  const by = Object.fromEntries(got.map((d) => [d.resourceAddress, d]));
  t.match(by['azurerm_nat_gateway_public_ip_association.egress'], { changeType: 'deleted' });
  t.match(by['azurerm_subnet_nat_gateway_association.app'], { changeType: 'changed', diff: [{ attribute: 'nat_gateway_id' }] });
  t.match(by['azurerm_subnet_route_table_association.app'], { changeType: 'deleted' });
  t.match(by['azurerm_network_interface_backend_address_pool_association.web1'], { changeType: 'deleted' });
  t.match(by['azurerm_virtual_machine_data_disk_attachment.data'], { changeType: 'deleted' });
  t.match(by['azurerm_lb_backend_address_pool_address.web1'], { changeType: 'deleted' });
});

t.test('gone: every type reads as deleted', async (t) => {
  const state = f.estate();
  const got = await drifts(state, []);
  t.same(new Set(got.map((d) => d.resourceAddress)), new Set(state.map((i) => i.address)));
  t.ok(got.every((d) => d.changeType === 'deleted'));
});

t.test('a key vault secret\'s value: compared by hash, critical when changed, never in the drift', async (t) => {
  const s = f.secret();
  const value = s.attributes.value as string;
  const [d, ...more] = await drifts([s], [changed(s, { value: 'Yyyyyyyyyy1111yyyy', version: 'ffff0000ffff0000ffff0000ffff0000' })]);
  t.equal(more.length, 0);
  t.match(d, { changeType: 'changed', ruleId: 'azure-key-vault-secret-value-changed', severity: 'critical' });
  t.same(d.diff.find((x) => x.attribute === 'value'), { attribute: 'value', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED });
  const text = JSON.stringify(d);
  t.notOk(text.includes(value) || text.includes('Yyyyyyyyyy1111yyyy'), 'neither value anywhere in the drift');
  // The same value: no drift, also when the state marks it sensitive itself.
  const marked = { ...s, sensitivePaths: [['value']] };
  t.same(await drifts([marked], [s]), []);
  const [m] = await drifts([marked], [changed(s, { value: 'other' })]);
  t.same(m.diff.map((x) => x.attribute), ['value']);
  // A 4.x state with a write-only value (value_wo): nothing to compare the value with.
  const wo = changed(s, { value: null, value_wo_version: 1 });
  t.same(await drifts([wo], [changed(s, { value: 'anything' })]), []);
});

t.test('a vault refusing its data plane: the secret read on the management plane, its value not compared', async (t) => {
  const s = f.secret();
  const got = await compareAgainst('azure', [s], [changed(s, { value: 'rotated', expiration_date: '2026-06-01T00:00:00Z' })], { tune: (fake) => fake.deny(/\.vault\.azure\.net\//) });
  t.equal(got.drifts.length, 1);
  t.same(got.drifts[0].diff.map((x) => x.attribute), ['expiration_date']);
  t.ok(got.fake.log.some((l) => l.includes('/Microsoft.KeyVault/vaults/tail-kv/secrets/db-password?api-version=2023-07-01')));
  const clean = await compareAgainst('azure', [s], [s], { tune: (fake) => fake.deny(/\.vault\.azure\.net\//) });
  t.same(clean.drifts, []);
});

t.test('an extension\'s settings are JSON: the same document spelled otherwise is no drift', async (t) => {
  const e = f.extension();
  t.same(await drifts([e], [changed(e, { settings: '{"stopOnMultipleConnections":false,"workspaceId":"11111111-2222-3333-4444-555555555555"}' })]), []);
});

t.test('a key vault secret (a data-plane URL as id) is scoped by its vault\'s ARM id', async (t) => {
  const { azureScope } = await import('../../../runner-agent/src/engine/cloud/azure/scope.ts');
  t.match(azureScope(f.secret()), { account: f.SUB, source: 'id' });
});

t.test('the documented ARM answers read as the provider writes them: no drift', async (t) => {
  const { compareWithArmExamples } = await import('./harness.ts');
  const { EXAMPLES, EXAMPLE_STATE } = await import('./azure-tail-examples.ts');
  const got = await compareWithArmExamples(EXAMPLES, EXAMPLE_STATE);
  t.same(got.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), []);
  t.equal(got.compared, EXAMPLE_STATE.length);
  t.equal(got.calls, EXAMPLE_STATE.length, 'one GET each');
});

t.test('blobs and share files: HEAD on the storage data plane; a refused principal leaves them uncompared, never deleted', async (t) => {
  const got = await compareAgainst('azure', [f.blob(), f.shareFile()]);
  t.same(got.drifts, []);
  t.ok(got.fake.log.includes('HEAD /tailstore.blob.core.windows.net/scripts/bootstrap.sh'), got.fake.log.join('\n'));
  t.ok(got.fake.log.includes('HEAD /tailstore.file.core.windows.net/data/docs/READ%20ME.txt'), 'the path encoded');
  const denied = await compareAgainst('azure', [f.blob(), f.shareFile()], [changed(f.blob(), { access_tier: 'Archive' })], { tune: (fake) => fake.deny(/core\.windows\.net/) });
  t.same(denied.drifts, []);
  const { azureScope } = await import('../../../runner-agent/src/engine/cloud/azure/scope.ts');
  t.match(azureScope(f.blob()), { account: '', source: 'url' }, 'a blob is read at its URL, in no subscription');
});

t.test('a secret\'s dates: the same instant written in another zone is no drift; an older state\'s null flags are the defaults', async (t) => {
  const s = f.secret({ expiration_date: '2027-01-01T01:00:00+01:00' });
  t.same(await drifts([s], [f.secret({ expiration_date: '2027-01-01T00:00:00Z' })]), []);
  const [d] = await drifts([s], [f.secret({ expiration_date: '2027-01-02T00:00:00Z' })]);
  t.match(d, { ruleId: 'azure-key-vault-secret-disabled-or-expiry', diff: [{ attribute: 'expiration_date' }] });
  const old = f.bastion({ tunneling_enabled: null, kerberos_enabled: null });
  t.same(await drifts([old], [f.bastion()]), []);
  t.equal((await drifts([old], [f.bastion({ tunneling_enabled: true })])).length, 1, 'a null flag turned on is a drift');
});

t.test('attachments, extensions and pool addresses beside their parents in the same state: one read each, no drift', async (t) => {
  const r = await import('./azure-resources-states.ts');
  const vm = r.linuxVm('app1');
  const vmId = vm.attributes.id as string;
  const attach = f.diskAttachment({ id: `${vmId}/dataDisks/app1-data`, virtual_machine_id: vmId, managed_disk_id: `${r.RG}/providers/Microsoft.Compute/disks/app1-data` });
  const ext = f.extension({ id: `${vmId}/extensions/AzureMonitorLinuxAgent`, virtual_machine_id: vmId });
  const got = await compareAgainst('azure', [vm, attach, ext]);
  t.same(got.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), []);
  t.equal(got.compared, 3);
  // The disk detached out of band: the attachment is gone, the VM itself unchanged.
  const gone = await compareAgainst('azure', [vm, attach], [vm]);
  t.same(gone.drifts.map((d) => [d.resourceAddress, d.changeType]), [[attach.address, 'deleted']]);
});
