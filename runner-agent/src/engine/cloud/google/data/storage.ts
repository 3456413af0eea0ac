// google_storage_bucket and google_storage_bucket_object: storage/v1 (`b/{bucket}`, and
// `b/{bucket}/o/{object}` for an object's metadata — never its content). Buckets of one project
// are read with one paged `b?project=P` list when the state holds several; objects one GET each
// (a bucket may hold millions of objects the state never names).
import { googleReader, type GJson } from '../kit.ts';
import { int, listedReader, opt, sameAs, setOfNonEmpty } from './kit.ts';

const bucketPath = (a: Record<string, any>) => (a.name ? `/storage/v1/b/${a.name}` : undefined);

/** The lifecycle conditions mapped both ways (newer providers add more: those are left out of the comparison). */
const CONDITIONS = ['age', 'created_before', 'with_state', 'matches_storage_class', 'matches_prefix', 'matches_suffix', 'num_newer_versions',
  'custom_time_before', 'days_since_custom_time', 'days_since_noncurrent_time', 'noncurrent_time_before'];
/** A lifecycle rule's meaning: its action and the conditions set (the provider writes unset ones as zero values, `with_state` ANY). */
const ruleKey = (e: Record<string, any>): string[] => {
  const action = e.action?.[0] ?? {};
  const c = e.condition?.[0] ?? {};
  const kept = Object.fromEntries(CONDITIONS.map((k) => [k, k === 'with_state' && c[k] === 'ANY' ? '' : Array.isArray(c[k]) ? [...c[k]].sort() : c[k]]));
  return setOfNonEmpty(() => ({ type: action.type, storage_class: action.storage_class, ...kept }))(e);
};

export const storageBucketReader = listedReader({
  type: 'google_storage_bucket',
  service: 'storage',
  route: '/storage/v1/b/:bucket',
  pathOf: (a) => bucketPath(a),
  toState: (j, instance) => ({
    name: j.name,
    // The provider keeps the location upper-cased, as the API answers it.
    location: typeof j.location === 'string' ? j.location.toUpperCase() : j.location,
    storage_class: j.storageClass,
    labels: j.labels ?? {},
    uniform_bucket_level_access: j.iamConfiguration?.uniformBucketLevelAccess?.enabled ?? false,
    // The API said `unspecified` before it said `inherited`: older states keep the former.
    public_access_prevention: sameAs(instance.attributes.public_access_prevention, j.iamConfiguration?.publicAccessPrevention ?? 'inherited', (x, y) => [x, y].every((v) => v === 'inherited' || v === 'unspecified')),
    requester_pays: j.billing?.requesterPays ?? false,
    default_event_based_hold: j.defaultEventBasedHold ?? false,
    enable_object_retention: j.objectRetention?.mode === 'Enabled',
    versioning: opt(j.versioning, () => ({ enabled: j.versioning.enabled ?? false })),
    retention_policy: opt(j.retentionPolicy, () => ({ is_locked: j.retentionPolicy.isLocked ?? false, retention_period: int(j.retentionPolicy.retentionPeriod) })),
    logging: opt(j.logging, () => ({ log_bucket: j.logging.logBucket ?? '', log_object_prefix: j.logging.logObjectPrefix ?? '' })),
    website: opt(j.website, () => ({ main_page_suffix: j.website.mainPageSuffix ?? '', not_found_page: j.website.notFoundPage ?? '' })),
    encryption: opt(j.encryption?.defaultKmsKeyName, () => ({ default_kms_key_name: j.encryption.defaultKmsKeyName })),
    autoclass: opt(j.autoclass, () => ({ enabled: j.autoclass.enabled ?? false, terminal_storage_class: j.autoclass.terminalStorageClass ?? '' })),
    soft_delete_policy: opt(j.softDeletePolicy, () => ({ retention_duration_seconds: int(j.softDeletePolicy.retentionDurationSeconds), effective_time: j.softDeletePolicy.effectiveTime ?? '' })),
    custom_placement_config: opt(j.customPlacementConfig?.dataLocations, () => ({ data_locations: j.customPlacementConfig.dataLocations })),
    cors: (j.cors ?? []).map((c: GJson) => ({ origin: c.origin ?? [], method: c.method ?? [], response_header: c.responseHeader ?? [], max_age_seconds: c.maxAgeSeconds ?? 0 })),
    lifecycle_rule: (j.lifecycle?.rule ?? []).map((r: GJson) => {
      const c = r.condition ?? {};
      return {
        action: [{ type: r.action?.type ?? '', storage_class: r.action?.storageClass ?? '' }],
        condition: [{
          age: c.age ?? 0, created_before: c.createdBefore ?? '', with_state: c.isLive === undefined ? 'ANY' : c.isLive ? 'LIVE' : 'ARCHIVED',
          matches_storage_class: c.matchesStorageClass ?? [], matches_prefix: c.matchesPrefix ?? [], matches_suffix: c.matchesSuffix ?? [],
          num_newer_versions: c.numNewerVersions ?? 0, custom_time_before: c.customTimeBefore ?? '', days_since_custom_time: c.daysSinceCustomTime ?? 0,
          days_since_noncurrent_time: c.daysSinceNoncurrentTime ?? 0, noncurrent_time_before: c.noncurrentTimeBefore ?? '',
        }],
      };
    }),
  }),
  fromState: (a) => {
    const one = (k: string) => (Array.isArray(a[k]) && a[k][0]) || undefined;
    const [ver, ret, log, web, enc, auto, soft, place] = ['versioning', 'retention_policy', 'logging', 'website', 'encryption', 'autoclass', 'soft_delete_policy', 'custom_placement_config'].map(one);
    return {
      kind: 'storage#bucket', id: a.name, name: a.name, selfLink: `https://www.googleapis.com/storage/v1/b/${a.name}`, projectNumber: '123456789012',
      location: a.location, storageClass: a.storage_class, labels: a.effective_labels ?? a.labels ?? undefined,
      iamConfiguration: { uniformBucketLevelAccess: { enabled: a.uniform_bucket_level_access ?? false }, publicAccessPrevention: a.public_access_prevention || 'inherited' },
      billing: a.requester_pays ? { requesterPays: true } : undefined,
      defaultEventBasedHold: a.default_event_based_hold || undefined,
      objectRetention: a.enable_object_retention ? { mode: 'Enabled' } : undefined,
      versioning: ver && { enabled: ver.enabled },
      retentionPolicy: ret && { isLocked: ret.is_locked, retentionPeriod: String(ret.retention_period) },
      logging: log && { logBucket: log.log_bucket, logObjectPrefix: log.log_object_prefix },
      website: web && { mainPageSuffix: web.main_page_suffix, notFoundPage: web.not_found_page },
      encryption: enc?.default_kms_key_name ? { defaultKmsKeyName: enc.default_kms_key_name } : undefined,
      autoclass: auto && { enabled: auto.enabled, terminalStorageClass: auto.terminal_storage_class || undefined },
      softDeletePolicy: soft && { retentionDurationSeconds: String(soft.retention_duration_seconds), effectiveTime: soft.effective_time || undefined },
      customPlacementConfig: place && { dataLocations: place.data_locations },
      cors: (a.cors ?? []).map((c: GJson) => ({ origin: c.origin, method: c.method, responseHeader: c.response_header, maxAgeSeconds: c.max_age_seconds || undefined })),
      lifecycle: {
        rule: (a.lifecycle_rule ?? []).map((r: GJson) => {
          const c = r.condition?.[0] ?? {};
          const act = r.action?.[0] ?? {};
          const nz = (v: unknown) => (v === 0 || v === '' || v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);
          return {
            action: { type: act.type, storageClass: nz(act.storage_class) },
            condition: {
              age: nz(c.age), createdBefore: nz(c.created_before), isLive: c.with_state === 'LIVE' ? true : c.with_state === 'ARCHIVED' ? false : undefined,
              matchesStorageClass: nz(c.matches_storage_class), matchesPrefix: nz(c.matches_prefix), matchesSuffix: nz(c.matches_suffix),
              numNewerVersions: nz(c.num_newer_versions), customTimeBefore: nz(c.custom_time_before), daysSinceCustomTime: nz(c.days_since_custom_time),
              daysSinceNoncurrentTime: nz(c.days_since_noncurrent_time), noncurrentTimeBefore: nz(c.noncurrent_time_before),
            },
          };
        }),
      },
    };
  },
  spec: {
    sets: {
      lifecycle_rule: (e) => ruleKey(e as Record<string, any>),
      autoclass: setOfNonEmpty((e) => ({ enabled: e.enabled, terminal: e.enabled ? e.terminal_storage_class : '' })),
      versioning: setOfNonEmpty((e) => ({ enabled: e.enabled })),
      retention_policy: setOfNonEmpty((e) => ({ locked: e.is_locked, period: e.retention_period })),
      logging: setOfNonEmpty((e) => ({ bucket: e.log_bucket, prefix: e.log_object_prefix })),
      soft_delete_policy: setOfNonEmpty((e) => ({ seconds: e.retention_duration_seconds })),
      cors: setOfNonEmpty((e) => ({ origin: [...(e.origin ?? [])].sort(), method: [...(e.method ?? [])].sort(), header: [...(e.response_header ?? [])].sort(), age: e.max_age_seconds })),
    },
  },
}, {
  path: (a, scope) => (scope.account ? `/storage/v1/b?project=${encodeURIComponent(scope.account)}` : undefined),
  route: '/storage/v1/b',
  key: 'items',
  pathOfItem: (j) => (j.name ? `/storage/v1/b/${j.name}` : undefined),
  confirmMissing: true,
  discover: {
    path: (project) => `/storage/v1/b?project=${encodeURIComponent(project)}`,
    id: (j) => j.name,
    // A region (`US-CENTRAL1`) is where the bucket lives; a multi- or dual-region (`US`, `NAM4`) is no region.
    location: (j) => (typeof j.location === 'string' && /^[A-Z]+-[A-Z]+\d+$/i.test(j.location) ? j.location.toLowerCase() : null),
  },
});

/** An object's name is one path segment: `a/b.txt` is `a%2Fb.txt`. */
const objectPath = (a: Record<string, any>) => (a.bucket && a.name ? `/storage/v1/b/${a.bucket}/o/${encodeURIComponent(a.name)}` : undefined);

export const storageBucketObjectReader = googleReader({
  type: 'google_storage_bucket_object',
  service: 'storage',
  route: '/storage/v1/b/:bucket/o/:object',
  pathOf: (a) => objectPath(a),
  toState: (j) => ({
    name: j.name, bucket: j.bucket, content_type: j.contentType ?? '', md5hash: j.md5Hash ?? '', crc32c: j.crc32c ?? '',
    storage_class: j.storageClass ?? '', metadata: j.metadata ?? {}, cache_control: j.cacheControl ?? '',
    content_disposition: j.contentDisposition ?? '', content_encoding: j.contentEncoding ?? '', content_language: j.contentLanguage ?? '',
    event_based_hold: j.eventBasedHold ?? false, temporary_hold: j.temporaryHold ?? false,
  }),
  fromState: (a) => ({
    kind: 'storage#object', name: a.name, bucket: a.bucket, id: `${a.bucket}/${a.name}/1`, generation: String(a.generation ?? '1'),
    selfLink: a.self_link, mediaLink: a.media_link, contentType: a.content_type || undefined, md5Hash: a.md5hash || undefined,
    crc32c: a.crc32c || undefined, storageClass: a.storage_class || undefined, metadata: a.metadata ?? undefined,
    cacheControl: a.cache_control || undefined, contentDisposition: a.content_disposition || undefined,
    contentEncoding: a.content_encoding || undefined, contentLanguage: a.content_language || undefined,
    eventBasedHold: a.event_based_hold || undefined, temporaryHold: a.temporary_hold || undefined,
  }),
});
