// google_monitoring_alert_policy and google_monitoring_notification_channel (Cloud Monitoring v3),
// google_logging_metric (Cloud Logging v2) and google_cloud_scheduler_job (Cloud Scheduler v1):
// each read from one paged list of its project (a scheduler job: of its region) when three or more
// share it, else one GET each. An alert condition's aggregations and a metric's bucket options are
// not mapped; what a condition watches (filter, comparison, threshold, duration) is.
import type { Scope } from '../../rest/reader.ts';
import { ownProject, type GJson } from '../kit.ts';
import { listedReader, opt, short } from '../data/kit.ts';
import { ownLocation } from '../scope.ts';

type A = Record<string, any>;
const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const first = (v: unknown): A => list(v)[0] ?? {};
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
/** The `projects/P/<kind>/ID` name the state holds, as a v3 path. */
const v3 = (a: A) => (typeof a.name === 'string' && a.name.startsWith('projects/') ? `/v3/${a.name}` : undefined);
const projectList = (kind: string) => (a: A, scope: Scope) => { const p = ownProject(a) ?? scope.account; return p ? `/v3/projects/${p}/${kind}` : undefined; };

// A condition's kinds, state block -> API key, with the fields compared.
const CONDITIONS: [string, string, [string, string][]][] = [
  ['condition_threshold', 'conditionThreshold', [['filter', 'filter'], ['comparison', 'comparison'], ['threshold_value', 'thresholdValue'], ['duration', 'duration']]],
  ['condition_absent', 'conditionAbsent', [['filter', 'filter'], ['duration', 'duration']]],
  ['condition_monitoring_query_language', 'conditionMonitoringQueryLanguage', [['query', 'query'], ['duration', 'duration']]],
  ['condition_matched_log', 'conditionMatchedLog', [['filter', 'filter']]],
  ['condition_prometheus_query_language', 'conditionPrometheusQueryLanguage', [['query', 'query'], ['duration', 'duration']]],
];

export const alertPolicyReader = listedReader({
  type: 'google_monitoring_alert_policy',
  service: 'monitoring',
  route: '/v3/projects/:project/alertPolicies/:id',
  pathOf: (a) => v3(a),
  toState: (j) => ({
    display_name: j.displayName ?? '', combiner: j.combiner ?? '', enabled: j.enabled ?? true, severity: j.severity,
    notification_channels: strs(j.notificationChannels), user_labels: j.userLabels ?? {},
    documentation: opt(j.documentation, () => ({ content: j.documentation.content ?? '', mime_type: j.documentation.mimeType ?? 'text/markdown' })),
    conditions: list(j.conditions).map((c) => ({
      display_name: c.displayName ?? '',
      ...Object.fromEntries(CONDITIONS.map(([k, key, fields]) => [k, opt(c[key], () => Object.fromEntries(fields.map(([f, g]) => [f, c[key][g] ?? (f === 'threshold_value' ? 0 : '')])))])),
    })),
  }),
  fromState: (a) => ({
    name: a.name, displayName: a.display_name, combiner: a.combiner || undefined, enabled: a.enabled ?? true, severity: a.severity || undefined,
    notificationChannels: a.notification_channels ?? undefined, userLabels: a.user_labels ?? undefined,
    documentation: list(a.documentation).length ? { content: first(a.documentation).content, mimeType: first(a.documentation).mime_type || undefined } : undefined,
    conditions: list(a.conditions).map((c) => ({
      name: c.name || undefined, displayName: c.display_name,
      ...Object.fromEntries(CONDITIONS.filter(([k]) => list(c[k]).length).map(([k, key, fields]) => [key, Object.fromEntries(fields.map(([f, g]) => [g, first(c[k])[f] === '' ? undefined : first(c[k])[f]]))])),
    })),
    creationRecord: { mutateTime: '2024-01-01T00:00:00Z' },
  }),
}, {
  path: projectList('alertPolicies'), route: '/v3/projects/:project/alertPolicies', key: 'alertPolicies',
  pathOfItem: (j) => (j.name ? `/v3/${j.name}` : undefined),
  discover: { path: (p) => `/v3/projects/${p}/alertPolicies`, id: (j) => j.name, location: () => null },
});

/** The labels that are credentials (the provider's sensitive_labels): the API answers them masked, the state keeps them out of `labels`. */
const SECRET_LABELS = ['auth_token', 'password', 'service_key'];
function withoutSecrets(live: unknown, state: unknown): Record<string, string> {
  const mine = state && typeof state === 'object' ? state as Record<string, string> : {};
  return Object.fromEntries(Object.entries(live && typeof live === 'object' ? live as Record<string, string> : {}).filter(([k]) => !SECRET_LABELS.includes(k) || k in mine));
}

export const notificationChannelReader = listedReader({
  type: 'google_monitoring_notification_channel',
  service: 'monitoring',
  route: '/v3/projects/:project/notificationChannels/:id',
  pathOf: (a) => v3(a),
  // Sensitive labels (tokens, passwords) are write-only: the API answers them obfuscated and the provider keeps them out of `labels`.
  toState: (j, i) => ({
    display_name: j.displayName ?? '', type: j.type ?? '', description: j.description ?? '', enabled: j.enabled ?? true,
    labels: withoutSecrets(j.labels, i.attributes.labels), user_labels: j.userLabels ?? {},
  }),
  fromState: (a) => ({
    name: a.name, type: a.type, displayName: a.display_name || undefined, description: a.description || undefined, enabled: a.enabled ?? true,
    labels: a.labels ?? undefined, userLabels: a.user_labels ?? undefined, verificationStatus: a.verification_status || undefined,
  }),
}, {
  path: projectList('notificationChannels'), route: '/v3/projects/:project/notificationChannels', key: 'notificationChannels',
  pathOfItem: (j) => (j.name ? `/v3/${j.name}` : undefined),
  discover: { path: (p) => `/v3/projects/${p}/notificationChannels`, id: (j) => j.name, location: () => null },
});

/** A metric's name may hold slashes: one encoded path segment. */
const metricPath = (a: A, scope: Scope) => { const p = ownProject(a) ?? scope.account; return a.name && p ? `/v2/projects/${p}/metrics/${encodeURIComponent(a.name)}` : undefined; };

export const loggingMetricReader = listedReader({
  type: 'google_logging_metric',
  service: 'logging',
  route: '/v2/projects/:project/metrics/:name',
  pathOf: metricPath,
  toState: (j) => {
    const md = j.metricDescriptor;
    return {
      name: j.name, description: j.description ?? '', filter: j.filter ?? '', disabled: j.disabled ?? false, bucket_name: j.bucketName ?? '',
      label_extractors: j.labelExtractors ?? {}, value_extractor: j.valueExtractor ?? '',
      metric_descriptor: opt(md, () => ({ metric_kind: md.metricKind ?? '', value_type: md.valueType ?? '', unit: md.unit ?? '1', display_name: md.displayName ?? '' })),
    };
  },
  fromState: (a) => {
    const md = first(a.metric_descriptor);
    return {
      name: a.name, description: a.description || undefined, filter: a.filter, disabled: a.disabled || undefined, bucketName: a.bucket_name || undefined,
      labelExtractors: a.label_extractors ?? undefined, valueExtractor: a.value_extractor || undefined,
      metricDescriptor: list(a.metric_descriptor).length ? { metricKind: md.metric_kind, valueType: md.value_type, unit: md.unit || undefined, displayName: md.display_name || undefined } : undefined,
    };
  },
}, {
  path: (a, scope) => { const p = ownProject(a) ?? scope.account; return p ? `/v2/projects/${p}/metrics` : undefined; },
  route: '/v2/projects/:project/metrics', key: 'metrics',
  pathOfItem: (j, parent) => (j.name ? `${parent}/${encodeURIComponent(j.name)}` : undefined),
  discover: { path: (p) => `/v2/projects/${p}/metrics`, id: (j) => j.name, location: () => null },
});

// Headers Cloud Scheduler adds to a job's requests, which the provider leaves out of `headers`.
const SERVER_HEADER = /^(X-Google-|X-AppEngine-|Content-Length)/;
function userHeaders(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h && typeof h === 'object' ? h as Record<string, string> : {})) {
    if (SERVER_HEADER.test(k)) continue;
    if (k === 'User-Agent' && /^(Google-Cloud-Scheduler|AppEngine-Google; \(\+http:\/\/code\.google\.com\/appengine\))$/.test(v)) continue;
    if (k === 'Content-Type' && v === 'application/octet-stream') continue;
    out[k] = v;
  }
  return out;
}
const jobRegion = (a: A, scope: Scope) => ownLocation(a) ?? scope.location;
const jobPath = (a: A, scope: Scope) => { const p = ownProject(a) ?? scope.account; const r = jobRegion(a, scope); return a.name && p && r ? `/v1/projects/${p}/locations/${r}/jobs/${short(a.name)}` : undefined; };

export const schedulerJobReader = listedReader({
  type: 'google_cloud_scheduler_job',
  service: 'cloudscheduler',
  route: '/v1/projects/:project/locations/:location/jobs/:name',
  pathOf: jobPath,
  toState: (j) => {
    const ps = j.pubsubTarget;
    const ht = j.httpTarget;
    return {
      name: short(j.name), description: j.description ?? '', schedule: j.schedule ?? '', time_zone: j.timeZone ?? 'Etc/UTC', paused: j.state === 'PAUSED',
      attempt_deadline: j.attemptDeadline ?? '',
      pubsub_target: opt(ps, () => ({ topic_name: ps.topicName ?? '', data: ps.data ?? '', attributes: ps.attributes ?? {} })),
      http_target: opt(ht, () => ({
        uri: ht.uri ?? '', http_method: ht.httpMethod ?? '', body: ht.body ?? '', headers: userHeaders(ht.headers),
        oauth_token: opt(ht.oauthToken, () => ({ service_account_email: ht.oauthToken.serviceAccountEmail ?? '', scope: ht.oauthToken.scope ?? '' })),
        oidc_token: opt(ht.oidcToken, () => ({ service_account_email: ht.oidcToken.serviceAccountEmail ?? '', audience: ht.oidcToken.audience ?? '' })),
      })),
    };
  },
  fromState: (a, i) => {
    const ps = first(a.pubsub_target);
    const ht = first(a.http_target);
    const p = ownProject(a) ?? '';
    return {
      name: `projects/${p}/locations/${jobRegion(a, { account: p, location: null, source: 'fake' }) ?? ''}/jobs/${short(a.name || i.name)}`,
      description: a.description || undefined, schedule: a.schedule, timeZone: a.time_zone || undefined, state: a.paused ? 'PAUSED' : 'ENABLED',
      attemptDeadline: a.attempt_deadline || undefined,
      pubsubTarget: list(a.pubsub_target).length ? { topicName: ps.topic_name, data: ps.data || undefined, attributes: ps.attributes ?? undefined } : undefined,
      httpTarget: list(a.http_target).length ? {
        uri: ht.uri, httpMethod: ht.http_method || 'POST', body: ht.body || undefined, headers: { ...(ht.headers ?? {}), 'User-Agent': 'Google-Cloud-Scheduler' },
        oauthToken: list(ht.oauth_token).length ? { serviceAccountEmail: first(ht.oauth_token).service_account_email, scope: first(ht.oauth_token).scope || undefined } : undefined,
        oidcToken: list(ht.oidc_token).length ? { serviceAccountEmail: first(ht.oidc_token).service_account_email, audience: first(ht.oidc_token).audience || undefined } : undefined,
      } : undefined,
    };
  },
}, {
  path: (a, scope) => { const p = ownProject(a) ?? scope.account; const r = jobRegion(a, scope); return p && r ? `/v1/projects/${p}/locations/${r}/jobs` : undefined; },
  route: '/v1/projects/:project/locations/:location/jobs', key: 'jobs',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
});
