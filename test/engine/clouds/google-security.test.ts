// The issue-33 Google readers (KMS rings and keys, service-account keys and IAM, workload identity
// pools and providers, Data Catalog policy tags and their IAM, BigQuery dataset IAM, Firestore
// indexes, storage notifications) against the fake Google APIs, on the written state that holds
// each (corpus-google/written-google-security.tfstate): read back is no drift; each compared
// attribute changed live is a drift at its path with its rule and severity; gone is deleted; one
// list per key ring, one getIamPolicy per resource.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { SECURITY_READERS } from '../../../runner-agent/src/engine/cloud/google/security/index.ts';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst } from './harness.ts';

const FILE = path.join(import.meta.dirname, '..', 'corpus-google', 'written-google-security.tfstate');
const STATE: StateInstance[] = readStateDocument(readFileSync(FILE, 'utf8'), FILE).instances;
const at = (address: string) => STATE.find((i) => i.address === address)!;
const swap = (address: string, attrs: Record<string, unknown>) => STATE.map((i) => (i.address === address ? changed(i, attrs) : i));
const without = (address: string) => STATE.filter((i) => i.address !== address);
const KEY = 'google_service_account_key.ci';
const TOKEN = 'google_service_account_iam_binding.token_creators';
const OIDC = 'google_iam_workload_identity_pool_provider.github';
const AWS = 'google_iam_workload_identity_pool_provider.aws';
const DATA_KEY = 'google_kms_crypto_key.keys["data"]';
const oidc = (attrs: Record<string, unknown>) => swap(OIDC, { oidc: [{ ...(at(OIDC).attributes.oidc as any[])[0], ...attrs }] });

t.test('every type of the written state read back from the fake is no drift, in few calls', async (t) => {
  const { drifts, compared, stats, fake } = await compareAgainst('google', STATE, STATE, { keep: () => undefined });
  t.equal(compared, STATE.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
  for (const type of Object.keys(SECURITY_READERS).filter((x) => !x.endsWith('_iam_member') && !x.endsWith('_iam_policy'))) {
    t.ok(STATE.some((i) => i.type === type) || type.endsWith('_iam_binding'), `${type} is in the written state`);
  }
  t.ok(fake.log.some((l) => l.startsWith('GET /cloudkms/v1/projects/acme-sec-prod/locations/europe-west1/keyRings/app/cryptoKeys?')), 'the ring\'s three keys: one list');
  t.equal(fake.log.filter((l) => l.includes('/cryptoKeys/')).length, 0, 'no GET per key');
  t.equal(fake.log.filter((l) => l.includes('serviceAccounts/') && l.endsWith(':getIamPolicy')).length, 1, 'one getIamPolicy for the account\'s member and binding');
});

t.test('a live change of each compared attribute is a drift at its path, with its rule', async (t) => {
  const rows: [string, StateInstance[], string, string, string, string][] = [
    ['key disabled', swap(KEY, { disabled: true }), KEY, 'disabled', 'changed', 'medium'],
    ['account binding gains allUsers', swap(TOKEN, { members: [...(at(TOKEN).attributes.members as string[]), 'allUsers'] }), TOKEN, 'members', 'gcp-identity-iam-public', 'critical'],
    ['account binding gains a user', swap(TOKEN, { members: [...(at(TOKEN).attributes.members as string[]), 'user:eve@evil.example'] }), TOKEN, 'members', 'gcp-identity-iam-changed', 'high'],
    ['policy tag binding gains allAuthenticatedUsers', swap('google_data_catalog_policy_tag_iam_binding.pii_readers', { members: ['group:analysts@acme.example', 'allAuthenticatedUsers'] }),
      'google_data_catalog_policy_tag_iam_binding.pii_readers', 'members', 'gcp-identity-iam-public', 'critical'],
    ['dataset policy gains allAuthenticatedUsers', swap('google_bigquery_dataset_iam_policy.scratch', { policy_data: JSON.stringify({ bindings: [{ members: ['group:analysts@acme.example', 'allAuthenticatedUsers'], role: 'roles/bigquery.dataEditor' }, { members: ['projectOwners'], role: 'roles/bigquery.dataOwner' }] }) }),
      'google_bigquery_dataset_iam_policy.scratch', 'policy_data', 'gcp-identity-iam-public', 'critical'],
    ['dataset binding gains allUsers', swap('google_bigquery_dataset_iam_binding.viewers', { members: ['group:analysts@acme.example', 'allUsers'] }),
      'google_bigquery_dataset_iam_binding.viewers', 'members', 'gcp-identity-iam-public', 'critical'],
    ['dataset policy loses a grant', swap('google_bigquery_dataset_iam_policy.scratch', { policy_data: JSON.stringify({ bindings: [{ members: ['projectOwners'], role: 'roles/bigquery.dataOwner' }] }) }),
      'google_bigquery_dataset_iam_policy.scratch', 'policy_data', 'gcp-identity-iam-changed', 'high'],
    ['provider condition removed', swap(OIDC, { attribute_condition: '' }), OIDC, 'attribute_condition', 'gcp-wif-trust-widened', 'critical'],
    ['provider condition rewritten', swap(OIDC, { attribute_condition: "assertion.repository_owner != ''" }), OIDC, 'attribute_condition', 'gcp-wif-trust-widened', 'critical'],
    ['provider issuer changed', oidc({ issuer_uri: 'https://gitlab.com' }), OIDC, 'oidc.0.issuer_uri', 'gcp-wif-trust-widened', 'critical'],
    ['provider audiences changed', oidc({ allowed_audiences: ['sts.amazonaws.com'] }), OIDC, 'oidc.0.allowed_audiences', 'gcp-wif-trust-widened', 'critical'],
    ['provider AWS account changed', swap(AWS, { aws: [{ account_id: '111111111111' }] }), AWS, 'aws.0.account_id', 'gcp-wif-trust-widened', 'critical'],
    ['provider condition newly set (narrowed)', swap(AWS, { attribute_condition: "attribute.aws_role == 'deploy'" }), AWS, 'attribute_condition', 'gcp-wif-mapping-changed', 'high'],
    ['provider mapping changed', swap(OIDC, { attribute_mapping: { 'google.subject': 'assertion.repository' } }), OIDC, 'attribute_mapping.attribute.actor,attribute_mapping.attribute.repository,attribute_mapping.google.subject', 'gcp-wif-mapping-changed', 'high'],
    ['pool disabled', swap('google_iam_workload_identity_pool.github', { disabled: true }), 'google_iam_workload_identity_pool.github', 'disabled', 'changed', 'medium'],
    ['key rotation removed', swap(DATA_KEY, { rotation_period: '' }), DATA_KEY, 'rotation_period', 'gcp-kms-rotation-removed', 'high'],
    ['key rotation lengthened', swap(DATA_KEY, { rotation_period: '31536000s' }), DATA_KEY, 'rotation_period', 'changed', 'medium'],
    ['key labels edited', swap(DATA_KEY, { effective_labels: { team: 'ops', 'goog-terraform-provisioned': 'true' } }), DATA_KEY, 'labels.team', 'labels-only', 'low'],
    ['key protection level', swap(DATA_KEY, { version_template: [{ algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION', protection_level: 'HSM' }] }), DATA_KEY, 'version_template.0.protection_level', 'changed', 'medium'],
    ['policy tag renamed', swap('google_data_catalog_policy_tag.email', { display_name: 'E-mail' }), 'google_data_catalog_policy_tag.email', 'display_name', 'changed', 'medium'],
    ['index field order', swap('google_firestore_index.tags', { fields: [{ array_config: 'CONTAINS', field_path: 'tags', order: '' }, { array_config: '', field_path: 'price', order: 'DESCENDING' }] }),
      'google_firestore_index.tags', 'fields.1.order', 'changed', 'medium'],
    ['notification events', swap('google_storage_notification.uploads', { event_types: ['OBJECT_FINALIZE', 'OBJECT_DELETE'] }), 'google_storage_notification.uploads', 'event_types', 'changed', 'medium'],
    ['notification topic', swap('google_storage_notification.uploads', { topic: '//pubsub.googleapis.com/projects/elsewhere/topics/exfil' }), 'google_storage_notification.uploads', 'topic', 'changed', 'medium'],
  ];
  for (const [what, live, address, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', STATE, live);
    t.same(drifts.map((d) => d.resourceAddress), [address], `${what}: one drift, on ${address}`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), attribute.split(','), `${what}: at ${attribute}`);
  }
  // A key created out of band on the account (no key resource of the scan holds it): on the account, critical;
  // a disabled one is no access.
  const created = (attrs: Record<string, unknown>) => [...STATE, changed(at(KEY), { name: `${at(KEY).attributes.id}`.replace(/keys\/.*$/, 'keys/ffff0000'), id: 'x', ...attrs })];
  const made = await compareAgainst('google', STATE, created({}));
  t.match(made.drifts, [{ resourceAddress: 'google_service_account.ci_deployer', ruleId: 'gcp-sa-key-created', severity: 'critical', diff: [{ attribute: 'unmanaged_keys', before: [] }] }]);
  t.same((await compareAgainst('google', STATE, created({ disabled: true }))).drifts, [], 'a disabled extra key is not reported');
  // A key the state records disabled, live enabled again: re-enabled.
  const reenabled = await compareAgainst('google', swap(KEY, { disabled: true }), STATE);
  t.match(reenabled.drifts, [{ resourceAddress: KEY, ruleId: 'gcp-sa-key-enabled', severity: 'critical' }]);
});

t.test('each type gone is deleted; the private key is never compared', async (t) => {
  for (const i of STATE) {
    // A dataset's access list is its IAM: the dataset and its IAM instances go together (the
    // dataset's own access entries still grant what the binding holds).
    const dataset = (x: StateInstance) => x.type.startsWith('google_bigquery_dataset');
    const gone = (x: StateInstance) => x.type === i.type || (dataset(i) && dataset(x));
    const { drifts } = await compareAgainst('google', [i], STATE.filter((x) => x !== i && !gone(x)));
    t.match(drifts, [{ resourceAddress: i.address, changeType: 'deleted' }], `${i.address} gone`);
  }
  const { drifts } = await compareAgainst('google', STATE, swap(KEY, { private_key: 'yyyy', private_key_type: 'TYPE_PKCS12_FILE' }));
  t.same(drifts, [], 'the write-only private key is not read');
  // A dataset grant its IAM member makes is no drift of the dataset's access list (first test); the
  // same grant with no member instance in the scan is one.
  const ds = await compareAgainst('google', without('google_bigquery_dataset_iam_member.loader'), STATE);
  t.match(ds.drifts, [{ resourceAddress: 'google_bigquery_dataset.analytics', changeType: 'changed', diff: [{ attribute: 'access' }] }]);
});
