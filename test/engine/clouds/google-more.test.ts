// The Secret Manager readers and the Cloud Run / Pub/Sub / Secret Manager / Artifact Registry IAM
// families against the fake Google APIs: a state read back is no drift; each compared attribute
// changed live is a drift at its path with its rule; gone is deleted; one list per project of
// secrets and one getIamPolicy per resource; the payload never compared nor shown; the corpus.
import t from 'tap';
import { MORE_READERS } from '../../../runner-agent/src/engine/cloud/google/more/index.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst, corpusStates } from './harness.ts';
import { cloudFunction, KEYED, N, NET_STATE, P, STATE, version } from './google-more-fixtures.ts';

const byName = (name: string) => STATE.find((i) => i.name === name)!;
const swap = (name: string, attrs: Record<string, unknown>) => STATE.map((x) => (x.name === name ? changed(x, attrs) : x));
const SA = `serviceAccount:api@${P}.iam.gserviceaccount.com`;
const policyOf = (name: string) => JSON.parse(byName(name).attributes.policy_data as string);

t.test('every secret and resource IAM type read back from the fake is no drift', async (t) => {
  const { drifts, compared, stats } = await compareAgainst('google', STATE);
  t.equal(compared, STATE.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
});

t.test('a live change of each compared attribute is a drift at its path, with its rule', async (t) => {
  const replicas = (KEYED.attributes.replication as any)[0].user_managed[0].replicas;
  const rows: [string, StateInstance[], string, string, string][] = [
    ['secret label', swap('api-key', { effective_labels: { env: 'dev', 'goog-terraform-provisioned': 'true' } }), 'labels.env', 'labels-only', 'low'],
    ['secret annotation', swap('db-password', { effective_annotations: { owner: 'mallory' } }), 'effective_annotations.owner', 'changed', 'medium'],
    ['secret expiry set', swap('api-key', { expire_time: '2026-12-01T00:00:00Z' }), 'expire_time', 'gcp-secret-expiry-set', 'high'],
    ['secret key changed', swap('db-password', { replication: [{ auto: [], user_managed: [{ replicas: [{ ...replicas[0], customer_managed_encryption: [] }, replicas[1]] }] }] }),
      'replication.0.user_managed.0.replicas', 'gcp-secret-storage-changed', 'high'],
    ['secret moved to user-managed replicas', swap('api-key', { replication: [{ auto: [], user_managed: [{ replicas: [{ location: 'us-east1', customer_managed_encryption: [] }] }] }] }),
      'replication.0.user_managed', 'gcp-secret-storage-changed', 'high'],
    ['secret rotation period', swap('db-password', { rotation: [{ next_rotation_time: '2026-01-01T00:00:00Z', rotation_period: '86400s' }] }), 'rotation.0.rotation_period', 'changed', 'medium'],
    ['secret topics', swap('db-password', { topics: [{ name: `projects/${P}/topics/audit` }] }), 'topics', 'changed', 'medium'],
    ['secret aliases', swap('db-password', { version_aliases: { current: '2' } }), 'version_aliases.current', 'changed', 'medium'],
    ['secret destroy ttl', swap('db-password', { version_destroy_ttl: '0s' }), 'version_destroy_ttl', 'changed', 'medium'],
    ['version disabled', swap('api-key-v1', { enabled: false }), 'enabled', 'gcp-secret-version-disabled', 'medium'],
    ['version destroyed', swap('api-key-v1', { enabled: false, destroy_time: '2026-11-24T00:00:00Z' }), 'destroy_time,enabled', 'gcp-secret-version-disabled', 'medium'],
    ['Cloud Run v2 binding gains allUsers', swap('invokers', { members: [SA, 'allUsers'] }), 'members', 'gcp-resource-iam-public', 'critical'],
    ['Cloud Run v2 empty binding gains a member', swap('empty', { members: ['user:x@acme.example'] }), 'members', 'gcp-resource-iam-changed', 'high'],
    ['Cloud Run v2 member loses its condition', swap('dev', { condition: [] }), 'condition', 'gcp-resource-iam-changed', 'high'],
    ['topic binding gains allAuthenticatedUsers', swap('publishers', { members: [SA, 'allAuthenticatedUsers'] }), 'members', 'gcp-resource-iam-public', 'critical'],
    ['topic binding loses a member', swap('publishers', { members: [SA] }), 'members', 'gcp-resource-iam-changed', 'high'],
    ['secret binding gains a member', swap('api_key_viewers', { members: ['group:ops@acme.example', 'user:eve@evil.example'] }), 'members', 'gcp-resource-iam-changed', 'high'],
    ['secret policy gains allUsers', swap('db', { policy_data: JSON.stringify({ bindings: [...policyOf('db').bindings, { members: ['allUsers'], role: 'roles/secretmanager.secretAccessor' }] }) }),
      'policy_data', 'gcp-resource-iam-public', 'critical'],
    ['repository policy gains a reader', swap('app', { policy_data: JSON.stringify({ bindings: [{ members: ['user:x@acme.example'], role: 'roles/artifactregistry.reader' }] }) }),
      'policy_data', 'gcp-resource-iam-changed', 'high'],
  ];
  for (const [what, live, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', STATE, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), attribute.split(','), `${what}: at ${attribute}`);
  }
  // The state's public member with an IAM condition, the live one without: anyone, unconditionally.
  const conditioned = STATE.map((x) => (x.name === 'public' ? changed(x, { condition: [{ title: 't', description: '', expression: 'request.time < timestamp("2020-01-01T00:00:00Z")' }] }) : x));
  const opened = await compareAgainst('google', conditioned, STATE);
  t.match(opened.drifts, [{ resourceAddress: 'google_cloud_run_service_iam_member.public', ruleId: 'gcp-resource-iam-public', severity: 'critical' }]);
});

t.test('gone is deleted: a secret, a version, a grant, a whole service policy', async (t) => {
  const gone = ['smtp-password', 'db-password-v1', 'api_key_reader', 'publisher', 'public'];
  const { drifts } = await compareAgainst('google', STATE, STATE.filter((i) => !gone.includes(i.name)));
  const by = Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));
  t.same(Object.keys(by).sort(), ['google_cloud_run_service_iam_member.public', 'google_pubsub_topic_iam_member.publisher',
    'google_secret_manager_secret.smtp-password', 'google_secret_manager_secret_iam_member.api_key_reader', 'google_secret_manager_secret_version.db-password-v1']);
  for (const d of drifts) t.equal(d.changeType, 'deleted', d.resourceAddress);
  t.match(by['google_secret_manager_secret_iam_member.api_key_reader'], { severity: 'high' });
  // A binding whose role lost every member is read as the provider reads it: no members, not gone.
  const noInvokers = await compareAgainst('google', STATE, STATE.map((x) => (x.name === 'invokers' ? changed(x, { role: 'roles/run.viewer' }) : x)));
  t.match(noInvokers.drifts, [{ resourceAddress: 'google_cloud_run_v2_service_iam_binding.invokers', changeType: 'changed', diff: [{ attribute: 'members', after: [] }] }]);
});

t.test('batching: one secrets list per project (paged), a lone secret one GET, one getIamPolicy per resource', async (t) => {
  let listed: { id: string }[] = [];
  const { fake, api, drifts } = await compareAgainst('google', STATE, STATE, {
    pageSize: 1, keep: async (c) => { listed = await MORE_READERS.google_secret_manager_secret.list!(c.api, P); },
  });
  t.same(drifts, []);
  const count = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(count(new RegExp(`^GET /secretmanager/v1/projects/${P}/secrets\\?`)), 3, 'three secrets listed, one per page');
  t.equal(count(new RegExp(`^GET /secretmanager/v1/projects/${P}/secrets/[^/?:]+$`)), 0, 'no single GET where the list served');
  t.equal(count(/^GET \/secretmanager\/v1\/projects\/acme-dev\/secrets\/lone$/), 1, 'a lone secret is one GET');
  t.equal(count(new RegExp(`^GET /secretmanager/v1/projects/${N}/secrets/api-key:getIamPolicy`)), 1, 'member and binding of one secret: one getIamPolicy');
  t.equal(count(/^GET \/run\/v2\/projects\/acme-prod\/locations\/us-central1\/services\/api:getIamPolicy\?options\.requestedPolicyVersion=3$/), 1, 'binding and member of one service: one policy');
  t.equal(count(/:getIamPolicy/), 10, 'ten resources with grants in the state, ten policies');
  t.equal(api.totalCalls, fake.log.length, 'list mode after the scan reused its list: no more calls');
  t.same(listed.map((l) => l.id).sort(), ['api-key', 'db-password', 'smtp-password'].map((n) => `projects/${P}/secrets/${n}`), 'list mode: the provider\'s ids');
});

t.test('a version\'s payload is never read, compared or shown', async (t) => {
  const state = [version('v', 'api-key', { secret_data: 'hunter2-s3cret' }, [['secret_data']])];
  const live = [version('v', 'api-key', { secret_data: 'other-value', enabled: false }, [['secret_data']])];
  const { drifts, fake } = await compareAgainst('google', state, live);
  t.equal(drifts.length, 1);
  t.same(drifts[0].diff.map((d) => d.attribute), ['enabled'], 'only the state changed; the payload is not compared');
  t.notOk(JSON.stringify(drifts).includes('hunter2'), 'the state\'s payload is not in the drift');
  t.notOk(fake.log.some((l) => l.includes(':access')), 'no versions:access call');
});

t.test('every real corpus state holding these types compares clean', async (t) => {
  let compared = 0;
  for (const { file, doc } of corpusStates('google')) {
    const mine = doc.instances.filter((i) => MORE_READERS[i.type]);
    if (mine.length === 0) continue;
    const result = await compareAgainst('google', mine);
    t.equal(result.compared, mine.length, `${file}: all ${mine.length} compared`);
    t.same(result.drifts, [], `${file}: no drift`);
    compared += result.compared;
  }
  t.ok(compared >= 93, `${compared} secret and resource IAM instances replayed`);
});

t.test('forwarding rules, health check, DNS zones, functions: clean, each change, deletion, one list', async (t) => {
  const clean = await compareAgainst('google', NET_STATE, NET_STATE, { pageSize: 2 });
  t.equal(clean.compared, NET_STATE.length);
  t.same(clean.drifts, []);
  const count = (re: RegExp) => clean.fake.log.filter((l) => re.test(l)).length;
  t.equal(count(/aggregated\/forwardingRules/), 1, 'three regional rules: one aggregated list');
  t.equal(count(/\/regions\/us-east1\/forwardingRules\//), 0, 'no single GET where the list served');
  t.same(clean.fake.log.filter((l) => l.includes('/cloudfunctions/')), ['GET /cloudfunctions/v1/projects/acme-prod/locations/us-central1/functions/hello',
    'GET /cloudfunctions/v1/projects/acme-prod/locations/us-central1/functions/on-upload'], 'two functions: one GET each');

  const at = (name: string) => NET_STATE.find((i) => i.name === name)!;
  const hc = (attrs: Record<string, unknown>) => ({ https_health_check: [{ ...(at('https').attributes.https_health_check as any)[0], ...attrs }] });
  const rows: [string, string, Record<string, unknown>, string, string, string][] = [
    ['rule target', 'web', { target: `projects/${P}/regions/us-east1/targetPools/evil` }, 'target', 'gcp-forwarding-rule-retargeted', 'high'],
    ['rule port range', 'web', { port_range: '8080' }, 'port_range', 'changed', 'medium'],
    ['rule address', 'api', { ip_address: '35.1.1.1' }, 'ip_address', 'changed', 'medium'],
    ['rule labels (none in state)', 'ssh', { labels: { team: 'x' } }, 'labels', 'labels-only', 'low'],
    ['global rule target', 'global', { target: `projects/${P}/global/targetHttpsProxies/other` }, 'target', 'gcp-forwarding-rule-retargeted', 'high'],
    ['health check path', 'https', hc({ request_path: '/healthz' }), 'https_health_check.0.request_path', 'changed', 'medium'],
    ['health check interval', 'https', { check_interval_sec: 30 }, 'check_interval_sec', 'changed', 'medium'],
    ['health check logging', 'https', { log_config: [{ enable: true }] }, 'log_config', 'changed', 'medium'],
    ['zone description', 'public', { description: 'x' }, 'description', 'changed', 'medium'],
    ['zone networks', 'private', { private_visibility_config: [{ networks: [{ network_url: `projects/${P}/global/networks/other` }] }] }, 'private_visibility_config', 'changed', 'medium'],
    ['function ingress opened', 'hello', { ingress_settings: 'ALLOW_ALL' }, 'ingress_settings', 'gcp-function-ingress-opened', 'high'],
    ['function runtime', 'hello', { runtime: 'nodejs20' }, 'runtime', 'changed', 'medium'],
    ['function environment', 'hello', { environment_variables: { MODE: 'debug' } }, 'environment_variables.MODE', 'changed', 'medium'],
    ['function memory', 'hello', { available_memory_mb: 1024 }, 'available_memory_mb', 'changed', 'medium'],
    ['function trigger retry', 'on-upload', { event_trigger: [{ event_type: 'google.storage.object.finalize', failure_policy: [{ retry: false }], resource: 'uploads-bucket' }] },
      'event_trigger.0.failure_policy.0.retry', 'changed', 'medium'],
  ];
  for (const [what, name, attrs, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', NET_STATE, NET_STATE.map((x) => (x.name === name ? changed(x, attrs) : x)));
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), [attribute], `${what}: at ${attribute}`);
  }
  const gone = await compareAgainst('google', NET_STATE, NET_STATE.filter((i) => !['web', 'global', 'https', 'private', 'on-upload'].includes(i.name)));
  t.same(gone.drifts.map((d) => `${d.resourceAddress} ${d.changeType}`).sort(), ['google_cloudfunctions_function.on-upload deleted', 'google_compute_forwarding_rule.web deleted',
    'google_compute_global_forwarding_rule.global deleted', 'google_compute_health_check.https deleted', 'google_dns_managed_zone.private deleted']);
  // Three functions of a project: one list of every region.
  const fns = [cloudFunction('a'), cloudFunction('b'), cloudFunction('c', { region: 'europe-west1', id: `projects/${P}/locations/europe-west1/functions/c` })];
  const listed = await compareAgainst('google', fns, fns, { pageSize: 2 });
  t.same(listed.drifts, []);
  t.same(listed.fake.log, [`GET /cloudfunctions/v1/projects/${P}/locations/-/functions`, `GET /cloudfunctions/v1/projects/${P}/locations/-/functions?pageToken=2`].map((l) => l), 'one list, two pages');
});
