// The more/ azurerm readers (Private DNS record sets, vnet peerings, SSH keys, images, container
// groups) through the fake ARM: a state read back is no drift; each compared attribute changed
// live is a drift with its severity; a resource gone is deleted; a zone's record sets are one ALL
// list, a peering shares its vnet's read, top-level types list a group at once and a subscription
// for Cloud Discovery; sensitive values never show; every real corpus state replays clean.
import t from 'tap';
import { azureApi, AZURE_READERS } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { AZURE_MORE_READERS } from '../../../runner-agent/src/engine/cloud/azure/more/index.ts';
import { startRestFake, stateWorld } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { EXAMPLE_STATE, EXAMPLES } from './azure-more-examples.ts';
import { changed, compareAgainst, compareWithArmExamples, corpusStates, staticTokens } from './harness.ts';
import * as f from './azure-more-fixtures.ts';

const drifts = async (state: StateInstance[], live: StateInstance[]) => (await compareAgainst('azure', state, live)).drifts;

t.test('every type: the state read back is no drift', async (t) => {
  const state = f.estate();
  const mine = new Set(state.map((i) => i.type));
  mine.delete('azurerm_virtual_network');
  t.same(mine, new Set(Object.keys(AZURE_MORE_READERS)), 'the estate holds every type');
  const got = await compareAgainst('azure', state);
  t.same(got.drifts, []);
  t.equal(got.compared, state.length);
  t.same(got.stats.unsupported, {});
  t.ok(got.fake.log.some((l) => l.includes('/privateDnsZones/corp.internal/ALL?')), 'the zone\'s seven record sets: one list');
});

t.test('the documented ARM answers read as the provider writes them: no drift', async (t) => {
  const { drifts, compared, calls } = await compareWithArmExamples(EXAMPLES, EXAMPLE_STATE);
  t.same(drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), []);
  t.equal(compared, EXAMPLE_STATE.length);
  t.equal(calls, 5, 'the zone\'s ALL list, the public record, the vnet, the container group, the image');
});

t.test('each compared attribute changed live: a drift on that attribute, with its rule', async (t) => {
  // A v4 peering: the settings provider 4 added.
  const v4 = { peer_complete_virtual_networks_enabled: true, only_ipv6_peering_enabled: false, local_subnet_names: [], remote_subnet_names: [] };
  const cases: [StateInstance, Record<string, unknown>, string[], string, string][] = [
    [f.a('web'), { records: ['10.0.180.17', '10.9.9.9'] }, ['records'], 'azure-private-dns-record-changed', 'medium'],
    [f.aaaa('web'), { records: ['fd5d:70bc:930e:d008::1'] }, ['records'], 'azure-private-dns-record-changed', 'medium'],
    [f.cname('app'), { record: 'evil.example.net' }, ['record'], 'azure-private-dns-record-changed', 'medium'],
    [f.mx('mail'), { record: [{ exchange: 'mx9.example.net', preference: 10 }] }, ['record'], 'azure-private-dns-record-changed', 'medium'],
    [f.ptr('rev'), { records: ['other.corp.internal'] }, ['records'], 'azure-private-dns-record-changed', 'medium'],
    [f.srv('sip'), { record: [{ port: 5060, priority: 1, target: 'srv1.corp.internal', weight: 5 }] }, ['record'], 'azure-private-dns-record-changed', 'medium'],
    [f.txt('spf'), { record: [{ value: 'v=spf1 include:evil.example.net -all' }] }, ['record'], 'azure-private-dns-record-changed', 'medium'],
    [f.a('web'), { ttl: 60 }, ['ttl'], 'changed', 'medium'],
    [f.dnsA('www'), { records: ['203.0.113.9'] }, ['records'], 'azure-dns-record-changed', 'medium'],
    [f.dnsCname('app'), { target_resource_id: `${f.RG}/providers/Microsoft.Network/publicIPAddresses/other` }, ['target_resource_id'], 'azure-dns-record-changed', 'medium'],
    [f.dnsCname('app'), { record: 'elsewhere.example.net', target_resource_id: '' }, ['record', 'target_resource_id'], 'azure-dns-record-changed', 'medium'],
    [f.dnsTxt('verify'), { record: [{ value: 'v=spf1 include:evil.example.net -all' }] }, ['record'], 'azure-dns-record-changed', 'medium'],
    [f.dnsTxt('verify'), { ttl: 300 }, ['ttl'], 'changed', 'medium'],
    [f.zone(), { tags: { env: 'dev' } }, ['tags.env'], 'tags-only', 'low'],
    [f.mx('mail'), { tags: { owner: 'x' } }, ['tags.owner'], 'tags-only', 'low'],
    [f.peering('spoke', 'to-hub'), { allow_forwarded_traffic: true }, ['allow_forwarded_traffic'], 'azure-vnet-peering-transit-opened', 'high'],
    [f.peering('spoke', 'to-hub'), { allow_gateway_transit: true }, ['allow_gateway_transit'], 'azure-vnet-peering-transit-opened', 'high'],
    [f.peering('spoke', 'to-hub'), { use_remote_gateways: true }, ['use_remote_gateways'], 'azure-vnet-peering-transit-opened', 'high'],
    [f.peering('spoke', 'to-hub'), { remote_virtual_network_id: f.ids.vnet('other') }, ['remote_virtual_network_id'], 'azure-vnet-peering-changed', 'medium'],
    [f.peering('spoke', 'to-hub'), { allow_virtual_network_access: false }, ['allow_virtual_network_access'], 'azure-vnet-peering-changed', 'medium'],
    [f.key('ops'), { public_key: 'ssh-rsa AAAAother intruder@example' }, ['public_key'], 'azure-ssh-public-key-changed', 'high'],
    [f.image('golden'), { hyper_v_generation: 'V2' }, ['hyper_v_generation'], 'changed', 'medium'],
    [f.image('golden'), { zone_resilient: true }, ['zone_resilient'], 'changed', 'medium'],
    [f.image('golden'), { source_virtual_machine_id: `${f.RG}/providers/Microsoft.Compute/virtualMachines/vm1` }, ['source_virtual_machine_id'], 'changed', 'medium'],
    [f.image('golden'), { os_disk: [{ ...(f.image('golden').attributes.os_disk as any[])[0], caching: 'ReadWrite' }] }, ['os_disk.0.caching'], 'changed', 'medium'],
    [f.image('golden'), { data_disk: [(f.image('golden').attributes.data_disk as any[])[1]] }, ['data_disk'], 'changed', 'medium'],
    [f.image('golden'), { data_disk: [{ ...(f.image('golden').attributes.data_disk as any[])[0], caching: 'None' }, (f.image('golden').attributes.data_disk as any[])[1]] }, ['data_disk'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { https_only: true }, ['https_only'], 'changed', 'medium'],
    [f.linuxFunction('fn-l', { https_only: true }), { https_only: false }, ['https_only'], 'azure-function-app-https-only-disabled', 'high'],
    [f.windowsFunction('fn-w', { public_network_access_enabled: false }), { public_network_access_enabled: true }, ['public_network_access_enabled'], 'azure-function-app-public-access-enabled', 'high'],
    [f.windowsFunction('fn-w'), { enabled: false }, ['enabled'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { service_plan_id: `${f.RG}/providers/Microsoft.Web/serverFarms/other` }, ['service_plan_id'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { client_certificate_enabled: true, client_certificate_mode: 'Required' }, ['client_certificate_enabled', 'client_certificate_mode'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { virtual_network_subnet_id: `${f.RG}/providers/Microsoft.Network/virtualNetworks/v/subnets/s` }, ['virtual_network_subnet_id'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { daily_memory_time_quota: 100 }, ['daily_memory_time_quota'], 'changed', 'medium'],
    [f.group('game'), { ip_address_type: 'Private' }, ['ip_address_type'], 'azure-container-group-exposure-changed', 'high'],
    [f.group('game'), { dns_name_label: 'other-dns' }, ['dns_name_label'], 'azure-container-group-exposure-changed', 'high'],
    [f.group('game'), { restart_policy: 'Never' }, ['restart_policy'], 'changed', 'medium'],
    [f.group('game'), { os_type: 'Windows' }, ['os_type'], 'changed', 'medium'],
    [f.group('game'), { sku: 'Confidential' }, ['sku'], 'changed', 'medium'],
    [f.group('game'), { priority: 'Spot' }, ['priority'], 'changed', 'medium'],
    [f.group('game'), { zones: ['1'] }, ['zones'], 'changed', 'medium'],
    [f.group('game'), { dns_name_label_reuse_policy: 'TenantReuse' }, ['dns_name_label_reuse_policy'], 'changed', 'medium'],
    [f.group('game'), { exposed_port: [{ port: 22, protocol: 'TCP' }] }, ['exposed_port'], 'azure-container-group-exposure-changed', 'high'],
    [f.group('game'), { subnet_ids: [`${f.RG}/providers/Microsoft.Network/virtualNetworks/v/subnets/aci`] }, ['subnet_ids'], 'azure-container-group-exposure-changed', 'high'],
    [f.group('game'), { dns_config: [{ nameservers: ['10.0.0.4'], search_domains: ['corp.internal'], options: ['ndots:2'] }] }, ['dns_config'], 'changed', 'medium'],
    [f.group('game'), { tags: { environment: 'test' } }, ['tags.environment'], 'tags-only', 'low'],
    [f.key('ops'), { location: 'northeurope' }, ['location'], 'changed', 'medium'],
    [f.image('golden'), { tags: { team: 'x' } }, ['tags.team'], 'tags-only', 'low'],
    [f.linuxFunction('fn-l'), { kind: 'functionapp,linux,container' }, ['kind'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { public_network_access_enabled: false }, ['public_network_access_enabled'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { client_certificate_exclusion_paths: '/health' }, ['client_certificate_exclusion_paths'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { key_vault_reference_identity_id: `${f.RG}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/kv` }, ['key_vault_reference_identity_id'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { hosting_environment_id: `${f.RG}/providers/Microsoft.Web/hostingEnvironments/ase` }, ['hosting_environment_id'], 'changed', 'medium'],
    [f.linuxFunction('fn-l'), { location: 'eastus' }, ['location'], 'changed', 'medium'],
    [f.peering('spoke', 'v4', v4), { peer_complete_virtual_networks_enabled: false, local_subnet_names: ['app'], remote_subnet_names: ['db'] }, ['local_subnet_names', 'peer_complete_virtual_networks_enabled', 'remote_subnet_names'], 'azure-vnet-peering-changed', 'medium'],
    [f.peering('spoke', 'v4', v4), { only_ipv6_peering_enabled: true }, ['only_ipv6_peering_enabled'], 'azure-vnet-peering-changed', 'medium'],
    [f.a('web'), { tags: { owner: 'y' } }, ['tags'], 'tags-only', 'low'],
    [f.group('game'), { location: 'westus' }, ['location'], 'changed', 'medium'],
  ];
  for (const [state, attrs, paths, rule, severity] of cases) {
    const [d, ...more] = await drifts([state], [changed(state, attrs)]);
    const what = `${state.address} ${JSON.stringify(attrs).slice(0, 60)}`;
    t.equal(more.length, 0, what);
    t.same(d?.diff.map((x) => x.attribute).sort(), paths, what);
    t.match(d, { changeType: 'changed', ruleId: rule, severity }, what);
  }
  // Each container setting the reader maps: image, sizing, ports, command, plain variables.
  const g = f.group('game');
  for (const c of [{ image: 'evil/miner:latest' }, { cpu: 4 }, { memory: 8 }, { cpu_limit: 3 }, { commands: ['sh', '-c', 'id'] }, { ports: [{ port: 22, protocol: 'TCP' }] }, { environment_variables: { MODE: 'debug' } }, { gpu: [{ count: 1, sku: 'V100' }] }]) {
    const [d, ...more] = await drifts([g], [f.group('game', {}, c)]);
    t.equal(more.length, 0, JSON.stringify(c));
    t.match(d, { ruleId: 'azure-container-group-image-changed', severity: 'medium' }, JSON.stringify(c));
    t.ok(d.diff.every((x) => x.attribute.startsWith('container')), JSON.stringify(d.diff.map((x) => x.attribute)));
  }
});

t.test('record values compare as sets; an AAAA address spelled otherwise is the same address; a key\'s line ending is not the key', async (t) => {
  const m = f.mx('mail');
  const reversed = changed(m, { record: [...(m.attributes.record as unknown[])].reverse() });
  t.same(await drifts([m], [reversed]), []);
  const key = f.key('ops', { public_key: 'ssh-rsa AAAAB3NzaC1yc2E ops@example\n' });
  t.same(await drifts([key], [changed(key, { public_key: 'ssh-rsa AAAAB3NzaC1yc2E ops@example\r\n' })]), [], 'a key file\'s line ending is not the key');
  const six = f.aaaa('web');
  t.same(await drifts([six], [changed(six, { records: ['fd5d:70bc:930e:d008::7334', 'FD5D:70BC:930E:D008:0:0:0:7335'] })]), []);
});

t.test('gone: every type reads as deleted', async (t) => {
  const state = f.estate();
  const gone = state.filter((i) => i.type !== 'azurerm_virtual_network');
  const got = await drifts(state, state.filter((i) => i.type === 'azurerm_virtual_network'));
  t.same(new Set(got.map((d) => d.resourceAddress)), new Set(gone.map((i) => i.address)));
  t.ok(got.every((d) => d.changeType === 'deleted' && d.severity === 'high' && d.ruleId === 'deleted'));
  // A peering whose vnet is gone too is deleted; so is a record set whose zone lists without it.
  const zone = [f.a('x'), f.a('y'), f.cname('z')];
  const left = await drifts(zone, [zone[0], zone[2]]);
  t.same(left.map((d) => d.resourceAddress), ['azurerm_private_dns_a_record.y']);
});

t.test('a zone\'s record sets of every type are one paged list of all; fewer are one GET each', async (t) => {
  const state = [f.a('web'), f.aaaa('web'), f.cname('app'), f.mx('mail'), f.ptr('rev'), f.srv('sip'), f.txt('spf')];
  const got = await compareAgainst('azure', state, state, { pageSize: 3 });
  t.same(got.drifts, []);
  t.equal(got.api.totalCalls, 3, 'seven record sets: one list of three pages');
  t.ok(got.fake.log.every((l) => l.includes('/privateDnsZones/corp.internal/ALL?')), got.fake.log.join('\n'));
  const few = await compareAgainst('azure', [f.a('web'), f.txt('spf')]);
  t.same(few.drifts, []);
  t.equal(few.api.totalCalls, 2);
  // A public zone's: its `recordsets` list.
  const pub = [f.dnsA('www'), f.dnsA('api'), f.dnsCname('app'), f.dnsTxt('verify')];
  const listed = await compareAgainst('azure', pub, pub, { pageSize: 3 });
  t.same(listed.drifts, []);
  t.equal(listed.api.totalCalls, 2, 'four record sets: one list of two pages');
  t.ok(listed.fake.log.every((l) => l.includes('/dnsZones/example.com/recordsets?')), listed.fake.log.join('\n'));
});

t.test('a peering shares its vnet\'s read; vnets listed by group take their peerings along', async (t) => {
  const one = [f.vnet('spoke'), f.peering('spoke', 'to-hub'), f.peering('spoke', 'to-dmz')];
  const got = await compareAgainst('azure', one);
  t.same(got.drifts, []);
  t.equal(got.api.totalCalls, 1, 'one GET of the vnet for the vnet and both peerings');
  const three = ['s1', 's2', 's3'].flatMap((v) => [f.vnet(v), f.peering(v, 'to-hub')]);
  const listed = await compareAgainst('azure', three, three, { pageSize: 2 });
  t.same(listed.drifts, []);
  t.equal(listed.api.totalCalls, 2, 'one list of two pages');
  // Only the peering in the state (as inframap's): its vnet is still read, its block not compared.
  t.same((await compareAgainst('azure', [f.peering('spoke', 'to-hub')])).drifts, []);
});

t.test('top-level types: a group\'s three are one list; each has a subscription list for Cloud Discovery', async (t) => {
  const zones = ['a.example', 'b.example', 'c.example'].map((n) => f.zone({ id: `${f.RG}/providers/Microsoft.Network/dnsZones/${n}`, name: n }));
  const state = [f.group('g1'), f.group('g2'), f.group('g3'), f.key('k1'), f.key('k2'), f.key('k3'), f.image('i1'), f.image('i2'), f.image('i3'), ...zones];
  const got = await compareAgainst('azure', state, state, { pageSize: 2 });
  t.same(got.drifts, []);
  t.equal(got.api.totalCalls, 8, 'four lists of two pages');
  const fake = await startRestFake({ style: 'arm', routes: Object.values(AZURE_READERS).flatMap((r) => r.fake), world: stateWorld(state), pageSize: 2 });
  const api = azureApi(staticTokens, { endpoint: fake.endpoint, backoffMs: 5 });
  try {
    for (const type of ['azurerm_container_group', 'azurerm_ssh_public_key', 'azurerm_image', 'azurerm_dns_zone']) {
      const listed = await AZURE_MORE_READERS[type].list!(api, f.SUB);
      t.same(listed.map((l) => l.id).sort(), state.filter((i) => i.type === type).map((i) => i.attributes.id).sort(), type);
      t.ok(listed.every((l) => l.location), `${type} located`);
    }
    t.ok(fake.log.some((l) => l.startsWith(`GET /management/subscriptions/${f.SUB}/providers/Microsoft.ContainerInstance/containerGroups?`)), fake.log.join('\n'));
    // Listed resources carry the reader's mapping (what Cloud Discovery shows and imports).
    const [g] = (await AZURE_MORE_READERS.azurerm_container_group.list!(api, f.SUB)).filter((l) => l.id === f.ids.group('g1'));
    t.match(g.attributes, { os_type: 'Linux', container: [{ name: 'server', image: 'cs16ds/server:latest' }] });
  } finally {
    await api.destroy();
    await fake.close();
  }
});

t.test('sensitive: a container\'s variables and a TXT value marked sensitive compare by hash, never in clear', async (t) => {
  const g = f.group('game', {}, { environment_variables: { TOKEN: 'secret-1' } });
  // The state marks the one variable from a sensitive Terraform variable (its path, as the provider writes it).
  const marked = { ...g, sensitivePaths: [['container', '0', 'environment_variables', 'TOKEN']] };
  t.same(await drifts([marked], [g]), [], 'equal values compare equal by hash');
  const got = await drifts([marked], [f.group('game', {}, { environment_variables: { TOKEN: 'secret-2' } })]);
  t.equal(got.length, 1);
  t.ok(got[0].diff.every((d) => d.before === '(sensitive value changed)' && d.after === '(sensitive value changed)'));
  const txt = f.txt('key', { record: [{ value: 'dkim-secret-a' }] });
  const txtGot = await drifts([{ ...txt, sensitivePaths: [['record']] }], [changed(txt, { record: [{ value: 'dkim-secret-b' }] })]);
  t.equal(txtGot.length, 1);
  const text = JSON.stringify([got, txtGot]);
  for (const secret of ['secret-1', 'secret-2', 'dkim-secret-a', 'dkim-secret-b']) t.notOk(text.includes(secret), `${secret} not in the drift`);
  // A function app's storage key and app settings are never read: their values in the state stay out of every drift.
  const fn = { ...f.linuxFunction('fn-l'), sensitivePaths: [['storage_account_access_key'], ['app_settings', 'FUNCTIONS_WORKER_RUNTIME']] };
  const fnGot = await drifts([fn], [changed(fn, { storage_account_access_key: 'other', https_only: true })]);
  t.same(fnGot.map((d) => d.diff.map((x) => x.attribute)), [['https_only']]);
  t.notOk(JSON.stringify(fnGot).includes('c2VjcmV0LWtleQ=='));
  // A secure variable: ARM answers it without a value, so it is never mapped or compared.
  const secure = f.group('game', {}, { secure_environment_variables: { PASSWORD: 'hunter2' } });
  const live = await compareAgainst('azure', [secure]);
  t.same(live.drifts, []);
});

t.test('every real azurerm corpus state holding one of these types replays with no drift', async (t) => {
  let states = 0;
  let compared = 0;
  for (const { file, doc } of corpusStates('azurerm')) {
    const mine = doc.instances.filter((i) => AZURE_MORE_READERS[i.type]);
    if (mine.length === 0) continue;
    states++;
    compared += mine.length;
    const got = await compareAgainst('azure', doc.instances);
    const addresses = new Set(mine.map((i) => i.address));
    t.same(got.drifts.filter((d) => addresses.has(d.resourceAddress)).map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), [], file);
  }
  t.ok(states >= 10, `${states} corpus states, ${compared} instances`);
});
