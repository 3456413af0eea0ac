// google_bigquery_dataset and google_bigquery_table: bigquery/v2. Both are read one GET each:
// the API's lists answer summaries only (no access list, no schema), so a list cannot replace them.
import { googleReader, ownProject, type GJson } from '../kit.ts';
import { canonical, canonicalText, isEmpty } from '../../../values.ts';
import { int, opt, setOfNonEmpty } from './kit.ts';

const datasetPath = (a: Record<string, any>, project: string) => (a.dataset_id && project ? `/bigquery/v2/projects/${project}/datasets/${a.dataset_id}` : undefined);

/** Legacy and IAM role names of a dataset's access entries mean the same grant. */
const ROLE: Record<string, string> = { 'roles/bigquery.dataOwner': 'OWNER', 'roles/bigquery.dataEditor': 'WRITER', 'roles/bigquery.dataViewer': 'READER' };
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
const accessKey = setOfNonEmpty((e) => ({
  role: ROLE[e.role] ?? e.role, user: lower(e.user_by_email), group: lower(e.group_by_email), domain: e.domain, special: e.special_group, member: e.iam_member,
  view: e.view?.[0] && canonicalText(e.view[0]), routine: e.routine?.[0] && canonicalText(e.routine[0]),
  dataset: e.dataset?.[0]?.dataset?.[0] && canonicalText(e.dataset[0].dataset[0]),
}));

const ref = (r: GJson | undefined, names: [string, string][]) => (r ? [Object.fromEntries(names.map(([tf, api]) => [tf, r[api] ?? '']))] : []);
const VIEW: [string, string][] = [['project_id', 'projectId'], ['dataset_id', 'datasetId'], ['table_id', 'tableId']];
const ROUTINE: [string, string][] = [['project_id', 'projectId'], ['dataset_id', 'datasetId'], ['routine_id', 'routineId']];
const unref = (r: GJson | undefined, names: [string, string][]) => (r ? Object.fromEntries(names.map(([tf, api]) => [api, r[tf]])) : undefined);

export const bigqueryDatasetReader = googleReader({
  type: 'google_bigquery_dataset',
  service: 'bigquery',
  route: '/bigquery/v2/projects/:project/datasets/:dataset',
  pathOf: (a, scope) => datasetPath(a, scope.account),
  toState: (j) => ({
    dataset_id: j.datasetReference?.datasetId, friendly_name: j.friendlyName ?? '', description: j.description ?? '',
    // Datasets older than BigQuery's regions answer no location: the provider writes US.
    location: j.location ?? 'US',
    labels: j.labels ?? {}, default_table_expiration_ms: int(j.defaultTableExpirationMs), default_partition_expiration_ms: int(j.defaultPartitionExpirationMs),
    default_encryption_configuration: opt(j.defaultEncryptionConfiguration?.kmsKeyName, () => ({ kms_key_name: j.defaultEncryptionConfiguration.kmsKeyName })),
    is_case_insensitive: j.isCaseInsensitive ?? false, default_collation: j.defaultCollation ?? '',
    access: (j.access ?? []).map((x: GJson) => ({
      role: x.role ?? '', user_by_email: x.userByEmail ?? '', group_by_email: x.groupByEmail ?? '', domain: x.domain ?? '',
      special_group: x.specialGroup ?? '', iam_member: x.iamMember ?? '', view: ref(x.view, VIEW), routine: ref(x.routine, ROUTINE),
      dataset: x.dataset ? [{ dataset: ref(x.dataset.dataset, [['project_id', 'projectId'], ['dataset_id', 'datasetId']]), target_types: x.dataset.targetTypes ?? [] }] : [],
    })),
  }),
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    return {
      kind: 'bigquery#dataset', id: `${project}:${a.dataset_id}`, etag: a.etag, selfLink: a.self_link,
      datasetReference: { projectId: project, datasetId: a.dataset_id },
      friendlyName: a.friendly_name || undefined, description: a.description || undefined, location: a.location,
      labels: a.effective_labels ?? a.labels ?? undefined,
      defaultTableExpirationMs: a.default_table_expiration_ms ? String(a.default_table_expiration_ms) : undefined,
      defaultPartitionExpirationMs: a.default_partition_expiration_ms ? String(a.default_partition_expiration_ms) : undefined,
      defaultEncryptionConfiguration: a.default_encryption_configuration?.[0]?.kms_key_name ? { kmsKeyName: a.default_encryption_configuration[0].kms_key_name } : undefined,
      isCaseInsensitive: a.is_case_insensitive || undefined, defaultCollation: a.default_collation || undefined,
      creationTime: String(a.creation_time ?? ''), lastModifiedTime: String(a.last_modified_time ?? ''),
      access: (a.access ?? []).map((x: GJson) => ({
        role: x.role || undefined, userByEmail: x.user_by_email || undefined, groupByEmail: x.group_by_email || undefined, domain: x.domain || undefined,
        specialGroup: x.special_group || undefined, iamMember: x.iam_member || undefined, view: unref(x.view?.[0], VIEW), routine: unref(x.routine?.[0], ROUTINE),
        dataset: x.dataset?.[0] ? { dataset: unref(x.dataset[0].dataset?.[0], [['project_id', 'projectId'], ['dataset_id', 'datasetId']]), targetTypes: x.dataset[0].target_types } : undefined,
      })),
    };
  },
  spec: { sets: { access: accessKey } },
});

/** Type names the API accepts in two spellings (standard SQL and legacy). */
const TYPE: Record<string, string> = { INT64: 'INTEGER', FLOAT64: 'FLOAT', BOOL: 'BOOLEAN', STRUCT: 'RECORD' };
/** A schema's meaning: fields by position, mode NULLABLE when unset, empty keys dropped, nested fields alike. */
export function normalizeSchema(v: unknown): unknown {
  const fields = typeof v === 'string' ? (() => { try { return JSON.parse(v) as unknown; } catch { return v; } })() : v;
  if (!Array.isArray(fields)) return fields;
  return fields.map((f: GJson) => {
    const out: GJson = {};
    for (const k of Object.keys(f ?? {}).sort()) {
      const x = f[k];
      if (isEmpty(x)) continue;
      // int64 fields (maxLength, precision, scale) the API answers as strings, configurations write as numbers.
      out[k] = k === 'fields' ? normalizeSchema(x) : k === 'type' && typeof x === 'string' ? TYPE[x.toUpperCase()] ?? x.toUpperCase()
        : typeof x === 'number' ? String(x) : canonical(x);
    }
    out.mode ??= 'NULLABLE';
    return out;
  });
}
/** A schema's meaning as text: no schema (null, "", "[]") is no fields. */
const schemaMeaning = (v: unknown) => canonicalText(normalizeSchema(typeof v === 'string' && v.trim() ? v : '[]'));
/**
 * The state's schema text when it means the live schema (the provider rewrites the text freely,
 * and writes null or "" for a table whose schema the API leaves out), else the live schema.
 */
function schemaOf(j: GJson, state: unknown): unknown {
  const live = JSON.stringify(j.schema?.fields ?? []);
  return schemaMeaning(live) === schemaMeaning(state) ? state : live;
}

/** The fake's schema from the state's text: absent when the state holds none (or text that is not JSON). */
const parsedSchema = (v: unknown) => { try { return typeof v === 'string' && v.trim() ? { fields: JSON.parse(v) } : undefined; } catch { return undefined; } };

const tablePath = (a: Record<string, any>, project: string) => (a.dataset_id && a.table_id && project ? `/bigquery/v2/projects/${project}/datasets/${a.dataset_id}/tables/${a.table_id}` : undefined);

export const bigqueryTableReader = googleReader({
  type: 'google_bigquery_table',
  service: 'bigquery',
  route: '/bigquery/v2/projects/:project/datasets/:dataset/tables/:table',
  pathOf: (a, scope) => tablePath(a, scope.account),
  toState: (j, instance) => ({
    dataset_id: j.tableReference?.datasetId, table_id: j.tableReference?.tableId, friendly_name: j.friendlyName ?? '', description: j.description ?? '',
    labels: j.labels ?? {}, type: j.type, location: j.location, expiration_time: int(j.expirationTime),
    schema: j.type === 'VIEW' || j.type === 'MATERIALIZED_VIEW' ? undefined : schemaOf(j, instance.attributes.schema),
    clustering: j.clustering?.fields ?? [],
    time_partitioning: opt(j.timePartitioning, () => ({
      type: j.timePartitioning.type ?? '', field: j.timePartitioning.field ?? '', expiration_ms: int(j.timePartitioning.expirationMs),
      require_partition_filter: j.timePartitioning.requirePartitionFilter ?? false,
    })),
    range_partitioning: opt(j.rangePartitioning, () => ({
      field: j.rangePartitioning.field, range: [{ start: int(j.rangePartitioning.range?.start), end: int(j.rangePartitioning.range?.end), interval: int(j.rangePartitioning.range?.interval) }],
    })),
    view: opt(j.view, () => ({ query: j.view.query ?? '', use_legacy_sql: j.view.useLegacySql ?? false })),
    materialized_view: opt(j.materializedView, () => ({ query: j.materializedView.query ?? '' })),
    // The API may name the key version; the provider keeps the key.
    encryption_configuration: opt(j.encryptionConfiguration?.kmsKeyName, () => ({ kms_key_name: String(j.encryptionConfiguration.kmsKeyName).replace(/\/cryptoKeyVersions\/.*$/, '') })),
  }),
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    const tp = a.time_partitioning?.[0];
    const rp = a.range_partitioning?.[0];
    const view = a.view?.[0];
    const mv = a.materialized_view?.[0];
    return {
      kind: 'bigquery#table', id: `${project}:${a.dataset_id}.${a.table_id}`, etag: a.etag, selfLink: a.self_link,
      tableReference: { projectId: project, datasetId: a.dataset_id, tableId: a.table_id },
      friendlyName: a.friendly_name || undefined, description: a.description || undefined, labels: a.effective_labels ?? a.labels ?? undefined,
      type: a.type || 'TABLE', location: a.location, expirationTime: a.expiration_time ? String(a.expiration_time) : undefined,
      schema: parsedSchema(a.schema),
      clustering: a.clustering?.length ? { fields: a.clustering } : undefined,
      timePartitioning: tp && { type: tp.type, field: tp.field || undefined, expirationMs: tp.expiration_ms ? String(tp.expiration_ms) : undefined, requirePartitionFilter: tp.require_partition_filter || undefined },
      rangePartitioning: rp && { field: rp.field, range: { start: String(rp.range?.[0]?.start ?? 0), end: String(rp.range?.[0]?.end ?? 0), interval: String(rp.range?.[0]?.interval ?? 0) } },
      view: view && { query: view.query, useLegacySql: view.use_legacy_sql },
      materializedView: mv && { query: mv.query },
      encryptionConfiguration: a.encryption_configuration?.[0]?.kms_key_name ? { kmsKeyName: a.encryption_configuration[0].kms_key_name } : undefined,
      numBytes: String(a.num_bytes ?? 0), numRows: String(a.num_rows ?? 0), creationTime: String(a.creation_time ?? ''),
    };
  },
});
