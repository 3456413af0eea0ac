// Storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry readers against the fake Google
// cloud: each state read back is no drift; each compared attribute changed live is reported at its
// path with its severity; a missing resource is deleted; parents' lists batch the reads and page;
// a sensitive value never shows in clear; the real corpus states replay without drift.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import { GCP_DATA_READERS } from '../../../runner-agent/src/engine/cloud/google/data/index.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst, corpusStates } from './harness.ts';
import { bucket, dataset, object, P, repository, SCHEMA, sqlDatabase, sqlInstance, sqlSettings, sqlUser, subscription, table, topic } from './google-data-fixtures.ts';

// The issue-33 data types (dataset IAM, Firestore index, storage notification): from the written state
// their own test (google-security.test.ts) changes attribute by attribute.
const WRITTEN = path.join(import.meta.dirname, '..', 'corpus-google', 'written-google-security.tfstate');
const LATER = ['google_bigquery_dataset_iam_member', 'google_bigquery_dataset_iam_binding', 'google_bigquery_dataset_iam_policy', 'google_firestore_index', 'google_storage_notification'];
const written = readStateDocument(readFileSync(WRITTEN, 'utf8'), WRITTEN).instances.filter((i) => LATER.includes(i.type));
const all = () => [
  bucket('b-raw'), object('b-raw', 'conf/app.json'), dataset('events'), table('events', 'clicks'), topic('events'), subscription('events-sub'),
  sqlInstance('main-db'), sqlDatabase('main-db', 'app'), sqlUser('main-db', 'app'), repository('images'), ...written,
];

t.test('every type: the state read back is no drift', async (t) => {
  const state = all();
  t.same(new Set(state.map((i) => i.type)), new Set(Object.keys(GCP_DATA_READERS)), 'every type has a fixture');
  const { drifts, compared, stats } = await compareAgainst('google', state);
  t.equal(compared, state.length);
  t.same(drifts, []);
  t.same(stats.unsupported, {});
});

type Case = [string, StateInstance, Record<string, unknown>, string, string];
const b = bucket('b-raw');
const ds = dataset('events');
const tb = table('events', 'clicks');
const sq = sqlInstance('main-db');
const withAccess = (extra: Record<string, unknown>) => [...(ds.attributes.access as unknown[]), { dataset: [], domain: '', group_by_email: '', iam_member: '', role: 'READER', routine: [], special_group: '', user_by_email: '', view: [], ...extra }];
const cases: Case[] = [
  ['bucket labels', b, { effective_labels: { team: 'ml', 'goog-terraform-provisioned': 'true' } }, 'labels.team', 'labels-only'],
  ['bucket storage class', b, { storage_class: 'NEARLINE' }, 'storage_class', 'changed'],
  ['bucket location', b, { location: 'US' }, 'location', 'changed'],
  ['bucket public access prevention', b, { public_access_prevention: 'inherited' }, 'public_access_prevention', 'gcp-bucket-public-access-prevention-off'],
  ['bucket uniform access', b, { uniform_bucket_level_access: false }, 'uniform_bucket_level_access', 'gcp-bucket-uniform-access-off'],
  ['bucket versioning', b, { versioning: [{ enabled: false }] }, 'versioning', 'gcp-bucket-retention-changed'],
  ['bucket retention', b, { retention_policy: [{ is_locked: false, retention_period: 86400 }] }, 'retention_policy', 'gcp-bucket-retention-changed'],
  ['bucket soft delete', b, { soft_delete_policy: [{ effective_time: '2024-03-01T08:00:00.000Z', retention_duration_seconds: 0 }] }, 'soft_delete_policy', 'gcp-bucket-retention-changed'],
  ['bucket requester pays', b, { requester_pays: true }, 'requester_pays', 'changed'],
  ['bucket event hold', b, { default_event_based_hold: true }, 'default_event_based_hold', 'changed'],
  ['bucket logging', b, { logging: [] }, 'logging', 'changed'],
  ['bucket website', b, { website: [{ main_page_suffix: 'index.html', not_found_page: '404.html' }] }, 'website', 'changed'],
  ['bucket encryption', b, { encryption: [{ default_kms_key_name: 'projects/p/locations/eu/keyRings/r/cryptoKeys/k' }] }, 'encryption', 'changed'],
  ['bucket autoclass', b, { autoclass: [{ enabled: true, terminal_storage_class: 'NEARLINE' }] }, 'autoclass', 'changed'],
  ['bucket cors', b, { cors: [] }, 'cors', 'changed'],
  ['bucket lifecycle', b, { lifecycle_rule: [{ action: [{ storage_class: '', type: 'Delete' }], condition: [{ age: 90, with_state: 'ANY' }] }] }, 'lifecycle_rule', 'changed'],
  ['object content type', object('b-raw', 'conf/app.json'), { content_type: 'text/plain' }, 'content_type', 'changed'],
  ['object md5', object('b-raw', 'conf/app.json'), { md5hash: 'AAAAAAAAAAAAAAAAAAAAAA==' }, 'md5hash', 'changed'],
  ['object crc32c', object('b-raw', 'conf/app.json'), { crc32c: 'AAAAAA==' }, 'crc32c', 'changed'],
  ['object metadata', object('b-raw', 'conf/app.json'), { metadata: { owner: 'ops' } }, 'metadata.owner', 'changed'],
  ['object storage class', object('b-raw', 'conf/app.json'), { storage_class: 'COLDLINE' }, 'storage_class', 'changed'],
  ['object cache control', object('b-raw', 'conf/app.json'), { cache_control: 'no-store' }, 'cache_control', 'changed'],
  ['object hold', object('b-raw', 'conf/app.json'), { temporary_hold: true }, 'temporary_hold', 'changed'],
  ['dataset public (iam_member allUsers)', ds, { access: withAccess({ iam_member: 'allUsers' }) }, 'access', 'gcp-bigquery-dataset-public'],
  ['dataset public (allAuthenticatedUsers)', ds, { access: withAccess({ special_group: 'allAuthenticatedUsers' }) }, 'access', 'gcp-bigquery-dataset-public'],
  ['dataset new reader', ds, { access: withAccess({ user_by_email: 'eve@example.com' }) }, 'access', 'gcp-bigquery-dataset-access-changed'],
  ['dataset description', ds, { description: 'x' }, 'description', 'changed'],
  ['dataset friendly name', ds, { friendly_name: 'x' }, 'friendly_name', 'changed'],
  ['dataset table expiration', ds, { default_table_expiration_ms: 3600000 }, 'default_table_expiration_ms', 'changed'],
  ['dataset partition expiration', ds, { default_partition_expiration_ms: 3600000 }, 'default_partition_expiration_ms', 'changed'],
  ['dataset kms', ds, { default_encryption_configuration: [{ kms_key_name: 'k' }] }, 'default_encryption_configuration', 'changed'],
  ['dataset labels', ds, { effective_labels: { env: 'dev', 'goog-terraform-provisioned': 'true' } }, 'labels.env', 'labels-only'],
  ['table schema', tb, { schema: '[{"mode":"REQUIRED","name":"id","type":"STRING"}]' }, 'schema', 'changed'],
  ['table clustering', tb, { clustering: ['id', 'at'] }, 'clustering', 'changed'],
  ['table partitioning', tb, { time_partitioning: [{ expiration_ms: 0, field: 'at', require_partition_filter: false, type: 'HOUR' }] }, 'time_partitioning.0.type', 'changed'],
  ['table expiration', tb, { expiration_time: 1900000000000 }, 'expiration_time', 'changed'],
  ['table description', tb, { description: 'x' }, 'description', 'changed'],
  ['table kms', tb, { encryption_configuration: [{ kms_key_name: 'projects/p/locations/eu/keyRings/r/cryptoKeys/k2', kms_key_version: '' }] }, 'encryption_configuration', 'changed'],
  ['topic retention', topic('events'), { message_retention_duration: '600s' }, 'message_retention_duration', 'changed'],
  ['topic kms', topic('events'), { kms_key_name: 'k' }, 'kms_key_name', 'changed'],
  ['topic storage policy', topic('events'), { message_storage_policy: [{ allowed_persistence_regions: ['us-east1'], enforce_in_transit: false }] }, 'message_storage_policy', 'changed'],
  ['topic labels', topic('events'), { effective_labels: { app: 'x', 'goog-terraform-provisioned': 'true' } }, 'labels.app', 'labels-only'],
  ['subscription topic', subscription('events-sub'), { topic: `projects/${P}/topics/other` }, 'topic', 'changed'],
  ['subscription ack deadline', subscription('events-sub'), { ack_deadline_seconds: 60 }, 'ack_deadline_seconds', 'changed'],
  ['subscription retention', subscription('events-sub'), { message_retention_duration: '3600s' }, 'message_retention_duration', 'changed'],
  ['subscription retain acked', subscription('events-sub'), { retain_acked_messages: true }, 'retain_acked_messages', 'changed'],
  ['subscription ordering', subscription('events-sub'), { enable_message_ordering: true }, 'enable_message_ordering', 'changed'],
  ['subscription exactly once', subscription('events-sub'), { enable_exactly_once_delivery: true }, 'enable_exactly_once_delivery', 'changed'],
  ['subscription filter', subscription('events-sub'), { filter: 'attributes.x = "1"' }, 'filter', 'changed'],
  ['subscription expiration', subscription('events-sub'), { expiration_policy: [{ ttl: '86400s' }] }, 'expiration_policy.0.ttl', 'changed'],
  ['subscription retry', subscription('events-sub'), { retry_policy: [{ maximum_backoff: '60s', minimum_backoff: '10s' }] }, 'retry_policy', 'changed'],
  ['subscription dead letter', subscription('events-sub'), { dead_letter_policy: [{ dead_letter_topic: `projects/${P}/topics/dlq`, max_delivery_attempts: 5 }] }, 'dead_letter_policy', 'changed'],
  ['subscription push', subscription('events-sub'), { push_config: [{ push_endpoint: 'https://evil.example.com/push', attributes: {}, oidc_token: [], no_wrapper: [] }] }, 'push_config', 'changed'],
  ['sql open to the world', sq, { settings: sqlSettings({}, { authorized_networks: [{ expiration_time: '', name: 'office', value: '203.0.113.0/24' }, { expiration_time: '', name: 'all', value: '0.0.0.0/0' }] }) }, 'settings.0.ip_configuration.0.authorized_networks', 'gcp-sql-open-to-world'],
  ['sql new office network', sq, { settings: sqlSettings({}, { authorized_networks: [{ expiration_time: '', name: 'office', value: '198.51.100.0/24' }] }) }, 'settings.0.ip_configuration.0.authorized_networks', 'changed'],
  ['sql public ip', sq, { settings: sqlSettings({}, { ipv4_enabled: true }) }, 'settings.0.ip_configuration.0.ipv4_enabled', 'changed'],
  ['sql ssl mode', sq, { settings: sqlSettings({}, { ssl_mode: 'ALLOW_UNENCRYPTED_AND_ENCRYPTED' }) }, 'settings.0.ip_configuration.0.ssl_mode', 'changed'],
  ['sql deletion protection', sq, { settings: sqlSettings({ deletion_protection_enabled: false }) }, 'settings.0.deletion_protection_enabled', 'gcp-sql-deletion-protection-off'],
  ['sql backups', sq, { settings: sqlSettings({ backup_configuration: [{ backup_retention_settings: [{ retained_backups: 7, retention_unit: 'COUNT' }], binary_log_enabled: false, enabled: false, location: '', point_in_time_recovery_enabled: true, start_time: '02:00', transaction_log_retention_days: 7 }] }) }, 'settings.0.backup_configuration.0.enabled', 'gcp-sql-backups-disabled'],
  ['sql flags', sq, { settings: sqlSettings({ database_flags: [{ name: 'max_connections', value: '500' }, { name: 'log_min_duration_statement', value: '500' }] }) }, 'settings.0.database_flags', 'changed'],
  ['sql tier', sq, { settings: sqlSettings({ tier: 'db-custom-4-15360' }) }, 'settings.0.tier', 'changed'],
  ['sql disk', sq, { settings: sqlSettings({ disk_size: 100 }) }, 'settings.0.disk_size', 'changed'],
  ['sql availability', sq, { settings: sqlSettings({ availability_type: 'REGIONAL' }) }, 'settings.0.availability_type', 'changed'],
  ['sql maintenance', sq, { settings: sqlSettings({ maintenance_window: [{ day: 1, hour: 3, update_track: 'stable' }] }) }, 'settings.0.maintenance_window', 'changed'],
  ['sql zone', sq, { settings: sqlSettings({ location_preference: [{ follow_gae_application: '', secondary_zone: '', zone: 'europe-west1-c' }] }) }, 'settings.0.location_preference.0.zone', 'changed'],
  ['sql user labels', sq, { settings: sqlSettings({ user_labels: { team: 'x' } }) }, 'settings.0.user_labels.team', 'gcp-sql-user-labels-only'],
  ['sql version', sq, { database_version: 'POSTGRES_16' }, 'database_version', 'changed'],
  ['sql database charset', sqlDatabase('main-db', 'app'), { charset: 'LATIN1' }, 'charset', 'changed'],
  ['sql database collation', sqlDatabase('main-db', 'app'), { collation: 'C' }, 'collation', 'changed'],
  ['sql user type', sqlUser('main-db', 'app'), { type: 'CLOUD_IAM_USER' }, 'type', 'changed'],
  ['repository description', repository('images'), { description: 'x' }, 'description', 'changed'],
  ['repository immutable tags', repository('images'), { docker_config: [{ immutable_tags: true }] }, 'docker_config', 'changed'],
  ['repository kms', repository('images'), { kms_key_name: 'k' }, 'kms_key_name', 'changed'],
  ['repository labels', repository('images'), { effective_labels: { team: 'x', 'goog-terraform-provisioned': 'true' } }, 'labels.team', 'labels-only'],
];

t.test('every compared attribute: a live change is reported at its path with its severity', async (t) => {
  for (const [what, state, change, attribute, ruleId] of cases) {
    const { drifts } = await compareAgainst('google', [state], [changed(state, change)]);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.same(drifts[0]?.diff.map((d) => d.attribute), [attribute], `${what}: at ${attribute}`);
    t.equal(drifts[0]?.ruleId, ruleId, `${what}: rule ${ruleId}`);
    if (state.attributes.project) t.equal(drifts[0]?.account, P, `${what}: in the project`);
  }
});

t.test('severities of the must-have rules', async (t) => {
  const sev = async (state: StateInstance, change: Record<string, unknown>) => (await compareAgainst('google', [state], [changed(state, change)])).drifts[0]?.severity;
  t.equal(await sev(sq, { settings: sqlSettings({}, { authorized_networks: [{ expiration_time: '', name: 'all', value: '0.0.0.0/0' }] }) }), 'critical');
  t.equal(await sev(ds, { access: withAccess({ iam_member: 'allUsers' }) }), 'critical');
  t.equal(await sev(b, { public_access_prevention: 'inherited' }), 'high');
  t.equal(await sev(b, { uniform_bucket_level_access: false }), 'high');
  t.equal(await sev(sq, { settings: sqlSettings({ deletion_protection_enabled: false }) }), 'high');
  t.equal(await sev(b, { effective_labels: { team: 'x' } }), 'low');
  // Public IP turned on for an instance whose state already lets 0.0.0.0/0 in: reachable from anywhere.
  const open = sqlInstance('open-db', { settings: sqlSettings({}, { authorized_networks: [{ expiration_time: '', name: 'all', value: '0.0.0.0/0' }] }) });
  const { drifts } = await compareAgainst('google', [open], [changed(open, { settings: sqlSettings({}, { ipv4_enabled: true, authorized_networks: [{ expiration_time: '', name: 'all', value: '0.0.0.0/0' }] }) })]);
  t.match(drifts[0], { severity: 'critical', ruleId: 'gcp-sql-public-ip-open-to-world' });
});

t.test('the same meaning written differently is no drift', async (t) => {
  // Schema: another key order, an INT64 alias, mode left out; access: reordered, an IAM role name; a short topic name, a duration
  // with fractional zeros.
  const schema = '[{"name":"id","type":"INT64","mode":"REQUIRED"},{"name":"at","type":"TIMESTAMP","description":"when"},{"name":"attrs","type":"STRUCT","mode":"REPEATED","fields":[{"name":"k","type":"STRING"}]}]';
  const access = [...(ds.attributes.access as Record<string, unknown>[])].reverse().map((e) => (e.role === 'READER' ? { ...e, role: 'roles/bigquery.dataViewer' } : e));
  const sub = subscription('s', { topic: 'events' });
  // An older state's `unspecified` public access prevention is today's `inherited`.
  const old = bucket('old', { public_access_prevention: 'unspecified' });
  // A table key the API names with its version.
  const KEY = 'projects/p/locations/eu/keyRings/r/cryptoKeys/k';
  const enc = table('events', 'enc', { encryption_configuration: [{ kms_key_name: KEY, kms_key_version: `${KEY}/cryptoKeyVersions/3` }] });
  const { drifts } = await compareAgainst('google', [tb, ds, sub, old, enc],
    [changed(tb, { schema }), changed(ds, { access }), changed(enc, { encryption_configuration: [{ kms_key_name: `${KEY}/cryptoKeyVersions/3` }] }), changed(sub, { topic: `projects/${P}/topics/events`, message_retention_duration: '604800.000s' }), changed(old, { public_access_prevention: 'inherited' })]);
  t.same(drifts, []);
  t.not(schema, SCHEMA);
});

t.test('SQL users are found as the provider finds them', async (t) => {
  // A MySQL IAM user is `name@domain` in state, `name` to the API; a PostgreSQL user has no host.
  const iam = sqlUser('main-db', 'ann@example.com', { host: '%', type: 'CLOUD_IAM_USER' });
  const pg = sqlUser('main-db', 'bob');
  const { drifts } = await compareAgainst('google', [iam, pg], [changed(iam, { name: 'ann' }), changed(pg, { host: '' })]);
  t.same(drifts, []);
});

t.test('a resource the API no longer has is deleted', async (t) => {
  const state = all();
  const { drifts } = await compareAgainst('google', state, []);
  t.equal(drifts.length, state.length);
  t.ok(drifts.every((d) => d.changeType === 'deleted'));
});

t.test('parents list their children in one paged call from three up; fewer are read one by one', async (t) => {
  const three = [bucket('b1'), bucket('b2'), bucket('b3'), topic('t1'), topic('t2'), topic('t3'), subscription('s1'), subscription('s2'), subscription('s3'),
    sqlInstance('i1'), sqlInstance('i2'), sqlInstance('i3'), sqlDatabase('i1', 'd1'), sqlDatabase('i1', 'd2'), sqlDatabase('i1', 'd3'),
    sqlUser('i1', 'u1'), sqlUser('i1', 'u2'), repository('r1'), repository('r2'), repository('r3')];
  const gone = bucket('b4');
  const { drifts, fake } = await compareAgainst('google', [...three, gone], three, { pageSize: 2 });
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]), [['google_storage_bucket.b4', 'deleted']]);
  const lists = fake.log.filter((l) => !/\/(b|topics|subscriptions|instances|databases|users|repositories)\/[^/?]+$/.test(l.split('?')[0]));
  t.same(lists.map((l) => l.split('?')[0].replace(/^GET /, '')).sort(), [
    '/artifactregistry/v1/projects/data-proj/locations/europe-west1/repositories', '/artifactregistry/v1/projects/data-proj/locations/europe-west1/repositories',
    '/pubsub/v1/projects/data-proj/subscriptions', '/pubsub/v1/projects/data-proj/subscriptions',
    '/pubsub/v1/projects/data-proj/topics', '/pubsub/v1/projects/data-proj/topics',
    '/sqladmin/v1/projects/data-proj/instances', '/sqladmin/v1/projects/data-proj/instances',
    '/sqladmin/v1/projects/data-proj/instances/i1/databases', '/sqladmin/v1/projects/data-proj/instances/i1/databases',
    '/sqladmin/v1/projects/data-proj/instances/i1/users',
    '/storage/storage/v1/b', '/storage/storage/v1/b',
  ], 'two pages of each list of three (page size 2), one of two users');
  t.same(fake.log.filter((l) => !lists.includes(l)), ['GET /storage/storage/v1/b/b4'], 'no single GETs but the one confirming a bucket its list lacks');
  t.ok(fake.log.includes('GET /storage/storage/v1/b?project=data-proj&pageToken=2'));

  // A throttled list is waited out (Retry-After) and read whole.
  const slow = await compareAgainst('google', three, three, { pageSize: 2, tune: (f) => f.throttle(2, 0, { pathPrefix: '/pubsub/v1/projects/data-proj/topics' }) });
  t.same(slow.drifts, []);
  t.equal(slow.fake.log.filter((l) => l.startsWith('GET /pubsub/v1/projects/data-proj/topics')).length, 4, 'two throttled, two pages');

  const two = [bucket('b1'), bucket('b2'), object('b1', 'a/b c.json'), dataset('d1'), table('d1', 't1')];
  const one = await compareAgainst('google', two);
  t.same(one.drifts, []);
  t.same(one.fake.log.sort(), [
    'GET /bigquery/bigquery/v2/projects/data-proj/datasets/d1', 'GET /bigquery/bigquery/v2/projects/data-proj/datasets/d1/tables/t1',
    'GET /storage/storage/v1/b/b1', 'GET /storage/storage/v1/b/b1/o/a%2Fb%20c.json', 'GET /storage/storage/v1/b/b2',
  ], 'one GET each; the object name is one escaped segment');
});

t.test('a bucket missing from its project list is read by its name before it counts as deleted', async (t) => {
  // The state names the wrong project for three buckets (buckets are global): they are found by name.
  const state = ['w1', 'w2', 'w3'].map((n) => bucket(n, { project: 'wrong-proj' }));
  const { drifts, fake } = await compareAgainst('google', state, state.map((b) => changed(b, { project: P })));
  t.same(drifts, []);
  t.same(fake.log.map((l) => l.split('?')[0]).sort(), ['GET /storage/storage/v1/b', 'GET /storage/storage/v1/b/w1', 'GET /storage/storage/v1/b/w2', 'GET /storage/storage/v1/b/w3']);
});

t.test('list mode (Cloud Discovery): buckets, topics, subscriptions and SQL instances of a project, with the ids the state holds', async (t) => {
  const state = [bucket('b1'), bucket('b2', { location: 'US-CENTRAL1' }), topic('t1'), subscription('s1'), sqlInstance('i1'), dataset('d1')];
  const listable = Object.entries(GCP_DATA_READERS).filter(([, r]) => r.list).map(([type]) => type).sort();
  t.same(listable, ['google_pubsub_subscription', 'google_pubsub_topic', 'google_sql_database_instance', 'google_storage_bucket']);
  const found: Record<string, { id: string; location: string | null; attributes: Record<string, unknown> }[]> = {};
  await compareAgainst('google', [], state, { keep: async ({ api }) => {
    for (const type of listable) found[type] = await GCP_DATA_READERS[type].list!(api, P);
  } });
  const ids = (type: string) => found[type].map((l) => [l.id, l.location]);
  t.same(ids('google_storage_bucket'), [['b1', null], ['b2', 'us-central1']], 'a multi-region bucket is in no region');
  t.same(ids('google_pubsub_topic'), [[`projects/${P}/topics/t1`, null]]);
  t.same(ids('google_pubsub_subscription'), [[`projects/${P}/subscriptions/s1`, null]]);
  t.same(ids('google_sql_database_instance'), [['i1', 'europe-west1']]);
  t.same(state.filter((i) => i.type in found).map((i) => i.attributes.id).sort(), Object.values(found).flat().map((l) => l.id).sort(), 'the ids the state holds');
  t.match(found.google_storage_bucket[0].attributes, { name: 'b1', public_access_prevention: 'enforced', labels: { team: 'data' } });
});

t.test('sensitive values never show in clear', async (t) => {
  const o = object('b-raw', 'conf/app.json', { metadata: { owner: 'data', token: 'tok-1234-secret' } });
  o.sensitivePaths = [['metadata', 'token'], ['content']];
  const { drifts } = await compareAgainst('google', [o], [changed(o, { metadata: { owner: 'data', token: 'tok-9999-secret' } })]);
  t.equal(drifts.length, 1);
  t.equal(drifts[0].diff[0].attribute, 'metadata.token');
  t.notMatch(JSON.stringify(drifts), /tok-\d+-secret/);
  const u = sqlUser('main-db', 'app', { host: '%' });
  const gone = await compareAgainst('google', [u], [changed(u, { host: '10.0.0.1' })]);
  t.equal(gone.drifts[0]?.changeType, 'deleted', 'another host is another user');
  t.notMatch(JSON.stringify(gone.drifts), /Sup3r-Secret-Pw/);
  const same = await compareAgainst('google', [u], [changed(u, { password: 'Other-Pw' })]);
  t.same(same.drifts, [], 'the password is never read back');
});

t.test('the real corpus states holding these types replay without drift', async (t) => {
  let seen = 0;
  for (const { file, doc } of corpusStates('google')) {
    const mine = doc.instances.filter((i) => i.type in GCP_DATA_READERS);
    if (mine.length === 0) continue;
    seen += mine.length;
    const { drifts } = await compareAgainst('google', mine);
    t.same(drifts.map((d) => [d.resourceAddress, d.diff]), [], `${file}: ${mine.length} instances, no drift`);
  }
  t.ok(seen >= 3, `${seen} corpus instances replayed`);
});
