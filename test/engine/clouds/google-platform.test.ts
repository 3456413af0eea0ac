// The Google platform readers (project services, IAM, service accounts, GKE, Cloud Run) against
// the fake Google APIs: a state read back is no drift; each compared attribute changed live is a
// drift at its path with its rule; gone is deleted; batching, paging and the corpus states.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { clusterToState } from '../../../runner-agent/src/engine/cloud/google/platform/container-map.ts';
import { bindingView, memberView } from '../../../runner-agent/src/engine/cloud/google/platform/iam.ts';
import { PLATFORM_READERS } from '../../../runner-agent/src/engine/cloud/google/platform/index.ts';
import { RUN_PAGING } from '../../../runner-agent/src/engine/cloud/google/platform/run.ts';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst, corpusStates, instance } from './harness.ts';
import { cluster, P, POLICY, pool, STATE } from './google-platform-fixtures.ts';

const byName = (type: string, name: string) => STATE.find((i) => i.type === type && i.name === name)!;
const swap = (i: StateInstance, attrs: Record<string, unknown>) => STATE.map((x) => (x === i ? changed(i, attrs) : x));
const deepSwap = (i: StateInstance, block: string, attrs: Record<string, unknown>) => swap(i, { [block]: [{ ...(i.attributes[block] as Record<string, unknown>[])[0], ...attrs }] });

t.test('every platform type read back from the fake is no drift', async (t) => {
  const { drifts, compared, stats } = await compareAgainst('google', STATE);
  t.equal(compared, STATE.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
});

t.test('a live change of each compared attribute is a drift at its path, with its rule', async (t) => {
  const c = byName('google_container_cluster', 'main');
  const g = byName('google_container_node_pool', 'general');
  const rows: [string, StateInstance[], string, string, string][] = [
    ['service account display name', swap(byName('google_service_account', 'ci'), { display_name: 'CI' }), 'display_name', 'changed', 'medium'],
    ['service account description', swap(byName('google_service_account', 'ci'), { description: 'x' }), 'description', 'changed', 'medium'],
    ['service account disabled', swap(byName('google_service_account', 'ci'), { disabled: true }), 'disabled', 'gcp-service-account-disabled', 'high'],
    ['service account recreated', swap(byName('google_service_account', 'ci'), { unique_id: '999' }), 'unique_id', 'gcp-service-account-recreated', 'high'],
    ['editor binding gains a principal', swap(byName('google_project_iam_binding', 'editors'), { members: ['group:admins@acme.example', 'serviceAccount:deployer@acme-prod.iam.gserviceaccount.com', 'user:mallory@evil.example'] }), 'members', 'gcp-iam-owner-editor-granted', 'high'],
    ['viewer binding gains a principal', swap(byName('google_project_iam_binding', 'logs'), { members: ['group:eng@acme.example', 'user:x@acme.example'] }), 'members', 'gcp-iam-changed', 'high'],
    ['member condition removed', swap(byName('google_project_iam_member', 'temp'), { condition: [] }), 'condition', 'gcp-iam-changed', 'high'],
    ['bucket binding gains allUsers', swap(byName('google_storage_bucket_iam_binding', 'writers'), { members: ['serviceAccount:ci@acme-prod.iam.gserviceaccount.com', 'allUsers'] }), 'members', 'gcp-bucket-iam-public', 'critical'],
    ['bucket policy gains allAuthenticatedUsers', swap(byName('google_storage_bucket_iam_policy', 'site'), { policy_data: JSON.stringify({ bindings: [...JSON.parse(POLICY).bindings, { members: ['allAuthenticatedUsers'], role: 'roles/storage.objectViewer' }] }) }), 'policy_data', 'gcp-bucket-iam-public', 'critical'],
    ['bucket policy loses a member', swap(byName('google_storage_bucket_iam_policy', 'site'), { policy_data: JSON.stringify({ bindings: [JSON.parse(POLICY).bindings[0]] }) }), 'policy_data', 'gcp-iam-changed', 'high'],
    ['public bucket member loses its condition', swap(byName('google_storage_bucket_iam_member', 'public'), { condition: [] }), 'condition', 'gcp-bucket-iam-public', 'critical'],
    ['GKE authorized networks removed', swap(c, { master_authorized_networks_config: [] }), 'master_authorized_networks_config', 'gcp-gke-api-server-opened', 'critical'],
    ['GKE authorized networks gain 0.0.0.0/0', deepSwap(c, 'master_authorized_networks_config', { cidr_blocks: [{ cidr_block: '0.0.0.0/0', display_name: 'all' }] }), 'master_authorized_networks_config.0.cidr_blocks', 'gcp-gke-api-server-opened', 'critical'],
    ['GKE Google Cloud IPs let in', deepSwap(c, 'master_authorized_networks_config', { gcp_public_cidrs_access_enabled: true }), 'master_authorized_networks_config.0.gcp_public_cidrs_access_enabled', 'gcp-gke-api-server-opened', 'critical'],
    ['GKE private endpoint off', deepSwap(c, 'private_cluster_config', { enable_private_endpoint: false }), 'private_cluster_config.0.enable_private_endpoint', 'gcp-gke-api-server-opened', 'critical'],
    ['GKE private nodes off', deepSwap(c, 'private_cluster_config', { enable_private_nodes: false }), 'private_cluster_config.0.enable_private_nodes', 'changed', 'medium'],
    ['GKE legacy ABAC on', swap(c, { enable_legacy_abac: true }), 'enable_legacy_abac', 'gcp-gke-legacy-access', 'high'],
    ['GKE alpha on', swap(c, { enable_kubernetes_alpha: true }), 'enable_kubernetes_alpha', 'gcp-gke-legacy-access', 'high'],
    ['GKE workload identity off', swap(c, { workload_identity_config: [] }), 'workload_identity_config', 'gcp-gke-node-identity-changed', 'high'],
    ['GKE labels', swap(c, { effective_labels: { team: 'data', 'goog-terraform-provisioned': 'true' } }), 'labels.team', 'labels-only', 'low'],
    ...([
      ['logging_service', 'none'], ['monitoring_service', 'none'], ['description', 'x'], ['enable_shielded_nodes', false], ['enable_intranode_visibility', true],
      ['default_max_pods_per_node', 64], ['node_locations', ['europe-west1-b']], ['network', `projects/${P}/global/networks/other`], ['subnetwork', `projects/${P}/regions/europe-west1/subnetworks/other`],
      ['cluster_ipv4_cidr', '10.20.0.0/14'], ['enable_autopilot', true],
    ] as [string, unknown][]).map(([k, v]): [string, StateInstance[], string, string, string] => [`GKE ${k}`, swap(c, { [k]: v }), k, 'changed', 'medium']),
    ['GKE network policy', swap(c, { network_policy: [{ enabled: false, provider: 'CALICO' }] }), 'network_policy.0.enabled', 'changed', 'medium'],
    ['GKE release channel', swap(c, { release_channel: [{ channel: 'RAPID' }] }), 'release_channel.0.channel', 'changed', 'medium'],
    ['GKE database encryption', swap(c, { database_encryption: [{ key_name: '', state: 'ENCRYPTED' }] }), 'database_encryption.0.state', 'changed', 'medium'],
    ['GKE pods range', deepSwap(c, 'ip_allocation_policy', { cluster_secondary_range_name: 'pods2' }), 'ip_allocation_policy.0.cluster_secondary_range_name', 'changed', 'medium'],
    ['GKE HTTP LB addon', deepSwap(c, 'addons_config', { http_load_balancing: [{ disabled: true }] }), 'addons_config.0.http_load_balancing.0.disabled', 'changed', 'medium'],
    ['pool service account', deepSwap(g, 'node_config', { service_account: 'default' }), 'node_config.0.service_account', 'gcp-gke-node-identity-changed', 'high'],
    ['pool scopes', deepSwap(g, 'node_config', { oauth_scopes: ['https://www.googleapis.com/auth/devstorage.read_only'] }), 'node_config.0.oauth_scopes', 'gcp-gke-node-identity-changed', 'high'],
    ['pool metadata server', deepSwap(g, 'node_config', { workload_metadata_config: [{ mode: 'GCE_METADATA' }] }), 'node_config.0.workload_metadata_config.0.mode', 'gcp-gke-node-identity-changed', 'high'],
    ...([['machine_type', 'e2-standard-8'], ['disk_size_gb', 200], ['disk_type', 'pd-ssd'], ['image_type', 'UBUNTU_CONTAINERD'], ['preemptible', true], ['spot', true],
      ['tags', ['other']], ['labels', { pool: 'x' }], ['metadata', { 'disable-legacy-endpoints': 'false' }]] as [string, unknown][])
      .map(([k, v]): [string, StateInstance[], string, string, string] => [`pool ${k}`, deepSwap(g, 'node_config', { [k]: v }), `node_config.0.${k}${k === 'labels' ? '.pool' : k === 'metadata' ? '.disable-legacy-endpoints' : ''}`, 'changed', 'medium']),
    ['pool autoscaling', deepSwap(g, 'autoscaling', { max_node_count: 9 }), 'autoscaling.0.max_node_count', 'changed', 'medium'],
    ['pool auto repair', deepSwap(g, 'management', { auto_repair: false }), 'management.0.auto_repair', 'changed', 'medium'],
    ['pool surge', deepSwap(g, 'upgrade_settings', { max_surge: 3 }), 'upgrade_settings.0.max_surge', 'changed', 'medium'],
    ['pool zones', swap(g, { node_locations: ['europe-west1-b'] }), 'node_locations', 'changed', 'medium'],
    ['pool max pods', swap(g, { max_pods_per_node: 32 }), 'max_pods_per_node', 'changed', 'medium'],
  ];
  for (const [what, live, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', STATE, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), [attribute], `${what}: at ${attribute}`);
  }
});

t.test('gone is deleted: a disabled service is medium, a removed grant or account high', async (t) => {
  const gone = ['compute', 'ci', 'viewer', 'editors', 'reader', 'writers', 'batch'];
  const live = STATE.filter((i) => !gone.includes(i.name))
    .map((i) => (i.name === 'container' ? changed(i, { service: 'container.googleapis.com' }) : i));
  const { drifts } = await compareAgainst('google', STATE, live);
  const by = Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));
  t.same(Object.keys(by).sort(), ['google_container_node_pool.batch', 'google_project_iam_binding.editors', 'google_project_iam_member.viewer', 'google_project_service.compute',
    'google_service_account.ci', 'google_storage_bucket_iam_binding.writers', 'google_storage_bucket_iam_member.reader']);
  t.match(by['google_project_service.compute'], { changeType: 'deleted', ruleId: 'gcp-project-service-disabled', severity: 'medium', account: P });
  t.match(by['google_project_iam_member.viewer'], { changeType: 'deleted', ruleId: 'deleted', severity: 'high' });
  // A whole cluster gone: the cluster and its pools are deleted.
  const noGke = await compareAgainst('google', STATE, STATE.filter((i) => !i.type.startsWith('google_container')));
  t.equal(noGke.drifts.filter((d) => d.changeType === 'deleted').length, 3);
});

t.test('batching: one list per project, one policy per project or bucket, one cluster read for its pools; lists page', async (t) => {
  const { fake, api } = await compareAgainst('google', STATE, STATE, { pageSize: 1 });
  const count = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(count(/^GET \/serviceusage\/v1\/projects\/acme-prod\/services\?/), 3, 'three enabled services listed one per page (pageSize 1)');
  t.equal(count(/^GET \/serviceusage\/v1\/projects\/acme-prod\/services\//), 0, 'no single GET where a list served');
  t.equal(count(/^GET \/serviceusage\/v1\/projects\/acme-dev\/services\/run\.googleapis\.com$/), 1, 'a lone service is one GET');
  t.equal(count(/^GET \/iam\/v1\/projects\/acme-prod\/serviceAccounts\?/), 3, 'service accounts listed (3 pages)');
  t.equal(count(/^POST \/cloudresourcemanager\/v1\/projects\/acme-prod:getIamPolicy$/), 1, 'four project grants, one getIamPolicy');
  t.equal(count(/^GET \/storage\/storage\/v1\/b\/[^/]+\/iam/), 3, 'one policy read per bucket');
  t.equal(count(/^GET \/container\//), 1, 'the cluster and both pools: one cluster read');
  t.equal(api.totalCalls, fake.log.length);
  const three = ['a', 'b', 'c'].map((n) => changed(cluster({ name: n, id: `projects/${P}/locations/europe-west1/clusters/${n}` }), {}));
  const listed = await compareAgainst('google', three.map((c, k) => ({ ...c, address: `google_container_cluster.${['a', 'b', 'c'][k]}`, name: ['a', 'b', 'c'][k] })));
  t.same(listed.drifts, []);
  t.same(listed.fake.log, [`GET /container/v1/projects/${P}/locations/-/clusters`], 'three clusters of a project: one list');
});

t.test('every real corpus state holding platform types compares clean', async (t) => {
  let compared = 0;
  for (const { file, doc } of corpusStates('google')) {
    const mine = doc.instances.filter((i) => PLATFORM_READERS[i.type]);
    if (mine.length === 0) continue;
    const result = await compareAgainst('google', mine);
    t.equal(result.compared, mine.length, `${file}: all ${mine.length} compared`);
    t.same(result.drifts, [], `${file}: no drift`);
    compared += result.compared;
  }
  t.ok(compared >= 35, `${compared} platform instances replayed`);
});

t.test('Cloud Run (v1): the corpus service reads back clean from one project list; changes and deletion are drifts', async (t) => {
  const file = 'driftctl-google_cloudrun_service.tfstate';
  const [svcI] = readStateDocument(readFileSync(path.join(import.meta.dirname, '..', 'corpus-google', file), 'utf8'), file).instances;
  const other = { ...changed(svcI, { name: 'api', location: 'europe-west1' }), address: 'google_cloud_run_service.api', name: 'api' };
  const clean = await compareAgainst('google', [svcI, other]);
  t.same(clean.drifts, []);
  t.same(clean.fake.log, ['GET /run/apis/serving.knative.dev/v1/namespaces/cloudskiff-dev-elie/services?limit=500'], 'two regions, one list');
  const spec = (s: Record<string, unknown>) => [{ ...(svcI.attributes.template as any)[0], spec: [{ ...(svcI.attributes.template as any)[0].spec[0], ...s }] }];
  const container = (c: Record<string, unknown>) => spec({ containers: [{ ...(svcI.attributes.template as any)[0].spec[0].containers[0], ...c }] });
  const rows: [string, Record<string, unknown>, string, string][] = [
    ['image', { template: container({ image: 'gcr.io/x/evil:latest' }) }, 'template.0.spec.0.containers.0.image', 'changed'],
    ['env', { template: container({ env: [{ name: 'DEBUG', value: '1', value_from: [] }] }) }, 'template.0.spec.0.containers.0.env', 'changed'],
    ['memory', { template: container({ resources: [{ limits: { cpu: '1000m', memory: '2Gi' }, requests: {} }] }) }, 'template.0.spec.0.containers.0.resources.0.limits.memory', 'changed'],
    ['concurrency', { template: spec({ container_concurrency: 10 }) }, 'template.0.spec.0.container_concurrency', 'changed'],
    ['traffic', { traffic: [{ latest_revision: false, percent: 100, revision_name: 'cloudrun-srv-old' }] }, 'traffic.0.latest_revision', 'changed'],
    ['ingress', { metadata: [{ ...(svcI.attributes.metadata as any)[0], annotations: { ...(svcI.attributes.metadata as any)[0].annotations, 'run.googleapis.com/ingress': 'internal' } }] }, 'metadata.0.annotations.run.googleapis.com/ingress', 'changed'],
  ];
  for (const [what, attrs, attribute, ruleId] of rows) {
    const { drifts } = await compareAgainst('google', [svcI], [changed(svcI, attrs)]);
    t.match(drifts[0], { ruleId }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute).filter((a) => a !== 'traffic.0.revision_name'), [attribute], `${what}: at ${attribute}`);
  }
  const internal = changed(svcI, { metadata: [{ ...(svcI.attributes.metadata as any)[0], annotations: { 'run.googleapis.com/ingress': 'internal' } }] });
  const opened = await compareAgainst('google', [internal], [svcI]);
  t.match(opened.drifts[0], { ruleId: 'gcp-cloud-run-ingress-opened', severity: 'high' }, 'internal -> all is high');
  RUN_PAGING.limit = 1;
  const paged = await compareAgainst('google', [svcI, other]).finally(() => { RUN_PAGING.limit = 500; });
  t.same(paged.drifts, []);
  t.equal(paged.fake.log.length, 2, 'Knative continue paging: two pages of one');
  const gone = await compareAgainst('google', [svcI, other], [other]);
  t.match(gone.drifts, [{ resourceAddress: 'google_cloud_run_service.default', changeType: 'deleted' }]);
});

t.test('Cloud Run (v2): read back clean; each compared attribute changed is a drift; ingress to all is high; gone is deleted', async (t) => {
  const v2 = instance('google_cloud_run_v2_service', 'api', {
    annotations: {}, binary_authorization: [], client: '', client_version: '', conditions: [], create_time: '2025-03-02T10:00:00Z', creator: 'ops@acme.example',
    custom_audiences: [], deletion_protection: true, description: '', effective_annotations: {}, effective_labels: { team: 'api', 'goog-terraform-provisioned': 'true' },
    etag: '"CKjd"', generation: '3', id: `projects/${P}/locations/europe-west1/services/api`, ingress: 'INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER', labels: { team: 'api' },
    launch_stage: 'GA', location: 'europe-west1', name: 'api', project: P, reconciling: false, terraform_labels: { team: 'api', 'goog-terraform-provisioned': 'true' },
    template: [{ annotations: {}, containers: [{ args: [], command: [], env: [{ name: 'MODE', value: 'prod', value_source: [] }, { name: 'DB_PASSWORD', value: '', value_source: [{ secret_key_ref: [{ secret: 'db-password', version: 'latest' }] }] }],
      image: 'europe-docker.pkg.dev/acme-prod/api/api:1.4.2', liveness_probe: [], name: '', ports: [{ container_port: 8080, name: 'http1' }],
      resources: [{ cpu_idle: true, limits: { cpu: '1', memory: '512Mi' }, startup_cpu_boost: false }], startup_probe: [], volume_mounts: [], working_dir: '' }],
      encryption_key: '', execution_environment: '', labels: {}, max_instance_request_concurrency: 80, revision: '', scaling: [{ max_instance_count: 10, min_instance_count: 1 }],
      service_account: `api@${P}.iam.gserviceaccount.com`, session_affinity: false, timeout: '300s', volumes: [], vpc_access: [] }],
    traffic: [{ percent: 100, revision: '', tag: '', type: 'TRAFFIC_TARGET_ALLOCATION_TYPE_LATEST' }], uid: 'a1b2', uri: 'https://api-xyz-ew.a.run.app',
  });
  t.same((await compareAgainst('google', [v2])).drifts, []);
  const tpl = (x: Record<string, unknown>) => ({ template: [{ ...(v2.attributes.template as any)[0], ...x }] });
  const ctr = (x: Record<string, unknown>) => tpl({ containers: [{ ...(v2.attributes.template as any)[0].containers[0], ...x }] });
  const rows: [string, Record<string, unknown>, string, string][] = [
    ['ingress opened', { ingress: 'INGRESS_TRAFFIC_ALL' }, 'ingress', 'gcp-cloud-run-ingress-opened'],
    ['description', { description: 'x' }, 'description', 'changed'],
    ['labels', { effective_labels: { team: 'web', 'goog-terraform-provisioned': 'true' } }, 'labels.team', 'labels-only'],
    ['image', ctr({ image: 'docker.io/evil/api:latest' }), 'template.0.containers.0.image', 'changed'],
    ['env', ctr({ env: [{ name: 'MODE', value: 'debug', value_source: [] }] }), 'template.0.containers.0.env', 'changed'],
    ['memory', ctr({ resources: [{ cpu_idle: true, limits: { cpu: '1', memory: '4Gi' }, startup_cpu_boost: false }] }), 'template.0.containers.0.resources.0.limits.memory', 'changed'],
    ['port', ctr({ ports: [{ container_port: 9090, name: 'http1' }] }), 'template.0.containers.0.ports.0.container_port', 'changed'],
    ['service account', tpl({ service_account: 'default@x.iam.gserviceaccount.com' }), 'template.0.service_account', 'changed'],
    ['timeout', tpl({ timeout: '60s' }), 'template.0.timeout', 'changed'],
    ['scaling', tpl({ scaling: [{ max_instance_count: 100, min_instance_count: 1 }] }), 'template.0.scaling.0.max_instance_count', 'changed'],
    ['concurrency', tpl({ max_instance_request_concurrency: 1 }), 'template.0.max_instance_request_concurrency', 'changed'],
    ['traffic', { traffic: [{ percent: 100, revision: 'api-00002', tag: '', type: 'TRAFFIC_TARGET_ALLOCATION_TYPE_REVISION' }] }, 'traffic.0.revision', 'changed'],
  ];
  for (const [what, attrs, attribute, ruleId] of rows) {
    const { drifts } = await compareAgainst('google', [v2], [changed(v2, attrs)]);
    t.match(drifts[0], { ruleId }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute).filter((a) => a !== 'traffic.0.type'), [attribute], `${what}: at ${attribute}`);
  }
  t.match((await compareAgainst('google', [v2], [])).drifts, [{ changeType: 'deleted', ruleId: 'deleted' }]);
  const named = (n: string, location = 'europe-west1') => ({ ...changed(v2, { name: n, location, id: `projects/${P}/locations/${location}/services/${n}` }), address: `google_cloud_run_v2_service.${n}`, name: n });
  const many = [named('a'), named('b'), named('c'), named('d', 'us-central1')];
  const batched = await compareAgainst('google', many, many, { pageSize: 1 });
  t.same(batched.drifts, []);
  t.same(batched.fake.log.filter((l) => l.includes('europe-west1')).length, 3, 'three services of a region: one list, paged by one');
  t.ok(batched.fake.log.every((l) => !/europe-west1\/services\//.test(l)), 'no single GET in that region');
  t.ok(batched.fake.log.includes(`GET /run/v2/projects/${P}/locations/us-central1/services/d`), 'a lone service: one GET');
  t.match((await compareAgainst('google', many, many.slice(1))).drifts, [{ resourceAddress: 'google_cloud_run_v2_service.a', changeType: 'deleted' }], 'missing from the list: deleted');
});

t.test('project IAM policy: read back clean; an owner gained is high; the same policy reordered is no drift', async (t) => {
  const data = { bindings: [{ members: ['group:admins@acme.example'], role: 'roles/owner' }, { members: ['user:b@acme.example', 'user:a@acme.example'], role: 'roles/viewer' }] };
  const policy = instance('google_project_iam_policy', 'sandbox', { etag: 'BwX=', id: 'acme-sandbox', policy_data: JSON.stringify(data), project: 'acme-sandbox' });
  t.same((await compareAgainst('google', [policy])).drifts, []);
  const reordered = { bindings: [{ role: 'roles/viewer', members: ['user:a@acme.example', 'user:B@acme.example'] }, data.bindings[0]] };
  t.same((await compareAgainst('google', [policy], [changed(policy, { policy_data: JSON.stringify(reordered) })])).drifts, []);
  const owner = { bindings: [{ members: ['group:admins@acme.example', 'user:mallory@evil.example'], role: 'roles/owner' }, data.bindings[1]] };
  const { drifts } = await compareAgainst('google', [policy], [changed(policy, { policy_data: JSON.stringify(owner) })]);
  t.match(drifts, [{ ruleId: 'gcp-iam-owner-editor-granted', severity: 'high', diff: [{ attribute: 'policy_data' }] }]);
  t.match(JSON.parse(String(drifts[0].diff[0].after)).bindings[0].members, ['group:admins@acme.example', 'user:mallory@evil.example'], 'the live policy, readable');
});

t.test('a sensitive Cloud Run env value is compared by hash and never shown', async (t) => {
  const secret = 'hunter2-prod-password';
  const svcI = instance('google_cloud_run_v2_service', 'worker', {
    description: '', ingress: 'INGRESS_TRAFFIC_INTERNAL_ONLY', labels: {}, launch_stage: 'GA', location: 'europe-west1', name: 'worker', project: P,
    template: [{ containers: [{ args: [], command: [], env: [{ name: 'DB_PASSWORD', value: secret, value_source: [] }], image: 'gcr.io/acme/worker:1', name: '', ports: [], resources: [], working_dir: '' }],
      max_instance_request_concurrency: 80, scaling: [], service_account: `worker@${P}.iam.gserviceaccount.com`, timeout: '300s', vpc_access: [] }],
    traffic: [{ percent: 100, revision: '', tag: '', type: 'TRAFFIC_TARGET_ALLOCATION_TYPE_LATEST' }],
  }, [['template', '0', 'containers', '0', 'env', '0', 'value']]);
  t.same((await compareAgainst('google', [svcI])).drifts, [], 'equal values hash equal');
  const live = changed(svcI, { template: [{ ...(svcI.attributes.template as any)[0], containers: [{ ...(svcI.attributes.template as any)[0].containers[0], env: [{ name: 'DB_PASSWORD', value: 'rotated-by-hand', value_source: [] }] }] }] });
  const { drifts } = await compareAgainst('google', [svcI], [live]);
  t.equal(drifts.length, 1);
  t.same(drifts[0].diff, [{ attribute: 'template.0.containers.0.env', before: '(sensitive value changed)', after: '(sensitive value changed)' }]);
  t.notMatch(JSON.stringify(drifts), /hunter2|rotated-by-hand/);
});

t.test('older provider shapes (google-beta 3.x GKE, no effective labels) compare clean', async (t) => {
  const old = cluster({ effective_labels: undefined, terraform_labels: undefined, resource_labels: null, workload_identity_config: [{ identity_namespace: `${P}.svc.id.goog` }],
    master_authorized_networks_config: [{ cidr_blocks: [{ cidr_block: '35.231.111.81/32', display_name: 'Bastion Host' }] }], release_channel: [], network_policy: [],
    private_cluster_config: [], addons_config: [{ http_load_balancing: [{ disabled: false }], network_policy_config: [] }] });
  const oldPool = pool('legacy', {}, { workload_metadata_config: [{ node_metadata: 'GKE_METADATA_SERVER' }], image_type: 'cos' });
  delete (oldPool.attributes.node_config as Record<string, unknown>[])[0].spot;
  const state = [old, oldPool].map((i) => ({ ...i, attributes: Object.fromEntries(Object.entries(i.attributes).filter(([, v]) => v !== undefined)) }));
  t.same((await compareAgainst('google', state)).drifts, []);
  const byId = { ...state[1], attributes: { ...state[1].attributes, cluster: `projects/${P}/locations/europe-west1/clusters/main` } };
  t.same((await compareAgainst('google', [state[0], byId])).drifts, [], 'a pool naming its cluster by id');
  const open = await compareAgainst('google', state, [changed(state[0], { master_authorized_networks_config: [] }), state[1]]);
  t.match(open.drifts, [{ ruleId: 'gcp-gke-api-server-opened', severity: 'critical' }]);
});

t.test('documented API answers map to the provider attributes', async (t) => {
  // Resource Manager's documented Policy example (a conditional binding, version 3).
  const policy = {
    bindings: [
      { role: 'roles/resourcemanager.organizationAdmin', members: ['user:mike@example.com', 'group:admins@example.com', 'domain:google.com', 'serviceAccount:my-project-id@appspot.gserviceaccount.com'] },
      { role: 'roles/resourcemanager.organizationViewer', members: ['user:eve@example.com'], condition: { title: 'expirable access', description: 'Does not grant access after Sep 2020', expression: "request.time < timestamp('2020-10-01T00:00:00.000Z')" } },
    ],
    etag: 'BwWWja0YfJA=', version: 3,
  };
  const condition = [{ title: 'expirable access', description: 'Does not grant access after Sep 2020', expression: "request.time < timestamp('2020-10-01T00:00:00.000Z')" }];
  t.same(memberView(policy, { role: 'roles/resourcemanager.organizationViewer', member: 'user:Eve@example.com', condition }), { role: 'roles/resourcemanager.organizationViewer', member: 'user:Eve@example.com', condition });
  t.same(memberView(policy, { role: 'roles/resourcemanager.organizationViewer', member: 'user:eve@example.com', condition: [] })?.condition, condition, 'the grant now has a condition the state lacks');
  t.equal(memberView(policy, { role: 'roles/resourcemanager.organizationViewer', member: 'user:mike@example.com', condition: [] }), null);
  t.same(bindingView(policy, { role: 'roles/resourcemanager.organizationAdmin', members: ['domain:google.com'], condition: [] })?.members, policy.bindings[0].members);
  t.equal(bindingView(policy, { role: 'roles/resourcemanager.organizationViewer', members: ['user:eve@example.com'], condition: [] }), null, 'no unconditional binding of that role');
  // GKE: a cluster as the v1 API answers one made with authorized networks off and no private endpoint.
  const json = {
    name: 'cluster-1', location: 'us-west1-a', locations: ['us-west1-a'], network: 'default', subnetwork: 'default',
    networkConfig: { network: 'projects/docker-js-stack/global/networks/default', subnetwork: 'projects/docker-js-stack/regions/us-west1/subnetworks/default' },
    addonsConfig: { httpLoadBalancing: {}, horizontalPodAutoscaling: {}, networkPolicyConfig: { disabled: true } },
    networkPolicy: {}, ipAllocationPolicy: { useIpAliases: true, clusterIpv4CidrBlock: '10.4.0.0/14', servicesIpv4CidrBlock: '10.70.0.0/20', clusterSecondaryRangeName: 'gke-pods' },
    masterAuthorizedNetworksConfig: {}, defaultMaxPodsConstraint: { maxPodsPerNode: '110' }, privateClusterConfig: { publicEndpoint: '34.82.1.2', privateEndpoint: '10.138.0.2' },
    databaseEncryption: { state: 'DECRYPTED' }, releaseChannel: { channel: 'REGULAR' }, legacyAbac: {}, shieldedNodes: { enabled: true },
    loggingService: 'logging.googleapis.com/kubernetes', monitoringService: 'monitoring.googleapis.com/kubernetes', clusterIpv4Cidr: '10.4.0.0/14',
  };
  const state = { network: 'projects/docker-js-stack/global/networks/default', subnetwork: 'projects/docker-js-stack/regions/us-west1/subnetworks/default', private_cluster_config: [], master_authorized_networks_config: [] };
  t.match(clusterToState(json, state), {
    name: 'cluster-1', location: 'us-west1-a', node_locations: [], network: state.network, subnetwork: state.subnetwork, enable_legacy_abac: false, enable_shielded_nodes: true,
    master_authorized_networks_config: [], private_cluster_config: [], network_policy: [{ enabled: false, provider: 'PROVIDER_UNSPECIFIED' }], release_channel: [{ channel: 'REGULAR' }],
    addons_config: [{ http_load_balancing: [{ disabled: false }], horizontal_pod_autoscaling: [{ disabled: false }], network_policy_config: [{ disabled: true }] }],
    ip_allocation_policy: [{ cluster_ipv4_cidr_block: '10.4.0.0/14', cluster_secondary_range_name: 'gke-pods', services_ipv4_cidr_block: '10.70.0.0/20', services_secondary_range_name: '' }],
    database_encryption: [{ state: 'DECRYPTED', key_name: '' }], default_max_pods_per_node: 110, workload_identity_config: [], resource_labels: {},
  });
});
