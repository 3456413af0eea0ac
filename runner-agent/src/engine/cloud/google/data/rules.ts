// Severity rules of the storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry types (issue 25
// point 2), spread into GOOGLE_RULES; rules.ts explains the conditions. A bucket readable by anyone
// through IAM is the IAM readers' rule (google_storage_bucket_iam_*), not these.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { isObject } from '../../../values.ts';

const WORLD = ['0.0.0.0/0', '::/0'];
const PUBLIC = new Set(['allusers', 'allauthenticatedusers']);

/** Access entries of a dataset that grant the public (allUsers, allAuthenticatedUsers) something. */
const publicGrants = (v: unknown): Set<string> => new Set((Array.isArray(v) ? v : []).filter(isObject)
  .filter((e) => [e.special_group, e.iam_member].some((p) => typeof p === 'string' && PUBLIC.has(p.toLowerCase())))
  .map((e) => `${String(e.role)}:${String(e.special_group || e.iam_member)}`));

const gainsPublic = (d: DiffEntry) => { const before = publicGrants(d.before); return [...publicGrants(d.after)].some((g) => !before.has(g)); };

/** Whether the instance's authorized networks (state side) let the whole internet in. */
const stateOpenNetworks = (state: Record<string, unknown>): boolean => {
  const s = Array.isArray(state.settings) ? state.settings[0] : undefined;
  const ip = isObject(s) && Array.isArray(s.ip_configuration) ? s.ip_configuration[0] : undefined;
  const nets = isObject(ip) && Array.isArray(ip.authorized_networks) ? ip.authorized_networks : [];
  return nets.some((n) => isObject(n) && WORLD.includes(String(n.value)));
};

export const GCP_DATA_RULES: SeverityRule[] = [
  { id: 'gcp-sql-open-to-world', severity: 'critical', description: 'Cloud SQL instance authorized network opened to 0.0.0.0/0',
    rationale: 'Anyone on the internet can now reach the database port; only its password stands in the way.',
    types: ['google_sql_database_instance'], changeTypes: ['changed'], attributes: ['settings', 'settings.*.ip_configuration', 'settings.*.ip_configuration.*.authorized_networks'], gains: WORLD },
  { id: 'gcp-sql-public-ip-open-to-world', severity: 'critical', description: 'Cloud SQL public IP turned on with an authorized network of 0.0.0.0/0',
    rationale: 'The instance now has a public address that the whole internet is allowed to reach.',
    types: ['google_sql_database_instance'], changeTypes: ['changed'], attributes: ['settings.*.ip_configuration.*.ipv4_enabled'],
    test: { describe: 'ipv4_enabled becomes true while the authorized networks hold 0.0.0.0/0', fn: (d, state) => d.after === true && d.before !== true && stateOpenNetworks(state) } },
  { id: 'gcp-sql-deletion-protection-off', severity: 'high', description: 'Cloud SQL deletion protection turned off',
    rationale: 'The instance and its data can now be deleted by one API call or console click.',
    types: ['google_sql_database_instance'], changeTypes: ['changed'], attributes: ['settings.*.deletion_protection_enabled', 'deletion_protection'], becomes: [false] },
  { id: 'gcp-sql-backups-disabled', severity: 'high', description: 'Cloud SQL automated backups turned off',
    rationale: 'Lost or corrupted data can no longer be restored from a recent backup.',
    types: ['google_sql_database_instance'], changeTypes: ['changed'], attributes: ['settings.*.backup_configuration.*.enabled'], becomes: [false] },
  { id: 'gcp-bigquery-dataset-public', severity: 'critical', description: 'BigQuery dataset access granted to allUsers or allAuthenticatedUsers',
    rationale: 'Anyone (or anyone with a Google account) can now read or change the tables of the dataset.',
    types: ['google_bigquery_dataset'], changeTypes: ['changed'], attributes: ['access'],
    test: { describe: 'an access entry for allUsers or allAuthenticatedUsers appears', fn: (d) => gainsPublic(d) } },
  { id: 'gcp-bigquery-dataset-access-changed', severity: 'high', description: 'BigQuery dataset access list changed',
    rationale: 'Who may read or write the tables of the dataset changed outside review.',
    types: ['google_bigquery_dataset'], changeTypes: ['changed'], attributes: ['access'] },
  { id: 'gcp-bucket-public-access-prevention-off', severity: 'high', description: 'Bucket public access prevention no longer enforced',
    rationale: 'Nothing stops an IAM grant or ACL from making the objects public any more.',
    types: ['google_storage_bucket'], changeTypes: ['changed'], attributes: ['public_access_prevention'],
    test: { describe: 'public_access_prevention leaves "enforced"', fn: (d) => d.before === 'enforced' && d.after !== 'enforced' } },
  { id: 'gcp-bucket-uniform-access-off', severity: 'high', description: 'Bucket uniform bucket-level access turned off',
    rationale: 'Object ACLs apply again: single objects can be made public outside the bucket IAM policy.',
    types: ['google_storage_bucket'], changeTypes: ['changed'], attributes: ['uniform_bucket_level_access'], becomes: [false] },
  { id: 'gcp-bucket-retention-changed', severity: 'medium', description: 'Bucket retention policy or versioning changed',
    rationale: 'Objects may now be deleted or overwritten earlier than the code meant.',
    types: ['google_storage_bucket'], changeTypes: ['changed'], attributes: ['retention_policy', 'versioning', 'soft_delete_policy'] },
  { id: 'gcp-sql-user-labels-only', severity: 'low', description: 'Only Cloud SQL user labels changed',
    rationale: 'Labels change cost reports and automation, not access.',
    types: ['google_sql_database_instance'], changeTypes: ['changed'], onlyAttributes: ['settings.*.user_labels', 'settings.*.user_labels.*'] },
];
