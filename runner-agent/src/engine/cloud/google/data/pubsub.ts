// google_pubsub_topic and google_pubsub_subscription: pubsub v1. The project's topics (or
// subscriptions) are read with one paged list when the state holds several: the list answers
// full resources.
import { ownProject, type GJson } from '../kit.ts';
import { listedReader, opt, sameAs, setOfNonEmpty, short } from './kit.ts';

const at = (kind: string) => (a: Record<string, any>, project: string) => (a.name && project ? `/v1/projects/${project}/${kind}/${short(a.name)}` : undefined);
const topicPath = at('topics');
const subscriptionPath = at('subscriptions');
/** `projects/P/topics/T` or `T`: the same topic to the provider. */
const sameName = (a: string, b: string) => short(a) === short(b);
/** Durations the API may write with fractional zeros (`600.000s`): the same duration. */
const sameDuration = (a: string, b: string) => a === b || (a !== '' && b !== '' && parseFloat(a) === parseFloat(b));
const full = (kind: string, v: unknown, project: string) => (typeof v === 'string' && v && !v.includes('/') ? `projects/${project}/${kind}/${v}` : v);

export const pubsubTopicReader = listedReader({
  type: 'google_pubsub_topic',
  service: 'pubsub',
  route: '/v1/projects/:project/topics/:name',
  pathOf: (a, scope) => topicPath(a, scope.account),
  toState: (j, instance) => ({
    name: sameAs(instance.attributes.name, short(j.name), sameName), labels: j.labels ?? {}, kms_key_name: j.kmsKeyName ?? '',
    message_retention_duration: sameAs(instance.attributes.message_retention_duration, j.messageRetentionDuration ?? '', sameDuration),
    message_storage_policy: opt(j.messageStoragePolicy, () => ({
      allowed_persistence_regions: j.messageStoragePolicy.allowedPersistenceRegions ?? [], enforce_in_transit: j.messageStoragePolicy.enforceInTransit ?? false,
    })),
    schema_settings: opt(j.schemaSettings, () => ({ schema: j.schemaSettings.schema ?? '', encoding: j.schemaSettings.encoding ?? 'ENCODING_UNSPECIFIED' })),
  }),
  fromState: (a) => {
    const msp = a.message_storage_policy?.[0];
    const ss = a.schema_settings?.[0];
    return {
      name: `projects/${ownProject(a) ?? ''}/topics/${short(a.name)}`, labels: a.effective_labels ?? a.labels ?? undefined,
      kmsKeyName: a.kms_key_name || undefined, messageRetentionDuration: a.message_retention_duration || undefined,
      messageStoragePolicy: msp && { allowedPersistenceRegions: msp.allowed_persistence_regions, enforceInTransit: msp.enforce_in_transit || undefined },
      schemaSettings: ss && { schema: ss.schema, encoding: ss.encoding },
    };
  },
  spec: {
    sets: {
      message_storage_policy: setOfNonEmpty((e) => ({ regions: [...(e.allowed_persistence_regions ?? [])].sort(), transit: e.enforce_in_transit })),
    },
  },
}, {
  path: (_a, scope) => (scope.account ? `/v1/projects/${scope.account}/topics?pageSize=1000` : undefined),
  route: '/v1/projects/:project/topics',
  key: 'topics',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
  discover: { path: (project) => `/v1/projects/${project}/topics?pageSize=1000`, id: (j) => j.name, location: () => null },
});

export const pubsubSubscriptionReader = listedReader({
  type: 'google_pubsub_subscription',
  service: 'pubsub',
  route: '/v1/projects/:project/subscriptions/:name',
  pathOf: (a, scope) => subscriptionPath(a, scope.account),
  toState: (j, instance) => {
    const push = j.pushConfig ?? {};
    const dl = j.deadLetterPolicy;
    const a = instance.attributes as Record<string, any>;
    return {
      name: sameAs(a.name, short(j.name), sameName), topic: sameAs(a.topic, j.topic, sameName), labels: j.labels ?? {},
      ack_deadline_seconds: j.ackDeadlineSeconds ?? 10,
      message_retention_duration: sameAs(a.message_retention_duration, j.messageRetentionDuration ?? '', sameDuration),
      retain_acked_messages: j.retainAckedMessages ?? false, enable_message_ordering: j.enableMessageOrdering ?? false,
      enable_exactly_once_delivery: j.enableExactlyOnceDelivery ?? false, filter: j.filter ?? '',
      // `expirationPolicy: {}` is "never expires": the provider writes ttl "".
      expiration_policy: opt(j.expirationPolicy, () => ({ ttl: sameAs(a.expiration_policy?.[0]?.ttl, j.expirationPolicy.ttl ?? '', sameDuration) })),
      dead_letter_policy: opt(dl, () => ({
        dead_letter_topic: sameAs(a.dead_letter_policy?.[0]?.dead_letter_topic, dl.deadLetterTopic ?? '', sameName), max_delivery_attempts: dl.maxDeliveryAttempts ?? 0,
      })),
      retry_policy: opt(j.retryPolicy, () => ({ minimum_backoff: j.retryPolicy.minimumBackoff ?? '', maximum_backoff: j.retryPolicy.maximumBackoff ?? '' })),
      // As the provider: an empty pushConfig (a pull subscription) is no block.
      push_config: opt(Object.keys(push).length, () => ({
        push_endpoint: push.pushEndpoint ?? '', attributes: push.attributes ?? {},
        oidc_token: opt(push.oidcToken, () => ({ service_account_email: push.oidcToken.serviceAccountEmail ?? '', audience: push.oidcToken.audience ?? '' })),
      })),
    };
  },
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    const push = a.push_config?.[0];
    const dl = a.dead_letter_policy?.[0];
    const rp = a.retry_policy?.[0];
    const exp = a.expiration_policy?.[0];
    return {
      name: `projects/${project}/subscriptions/${short(a.name)}`, topic: full('topics', a.topic, project), labels: a.effective_labels ?? a.labels ?? undefined,
      ackDeadlineSeconds: a.ack_deadline_seconds, messageRetentionDuration: a.message_retention_duration || undefined,
      retainAckedMessages: a.retain_acked_messages || undefined, enableMessageOrdering: a.enable_message_ordering || undefined,
      enableExactlyOnceDelivery: a.enable_exactly_once_delivery || undefined, filter: a.filter || undefined,
      expirationPolicy: exp && (exp.ttl ? { ttl: exp.ttl } : {}),
      deadLetterPolicy: dl && { deadLetterTopic: full('topics', dl.dead_letter_topic, project), maxDeliveryAttempts: dl.max_delivery_attempts || undefined },
      retryPolicy: rp && { minimumBackoff: rp.minimum_backoff || undefined, maximumBackoff: rp.maximum_backoff || undefined },
      pushConfig: push ? {
        pushEndpoint: push.push_endpoint, attributes: push.attributes ?? undefined,
        oidcToken: push.oidc_token?.[0] && { serviceAccountEmail: push.oidc_token[0].service_account_email, audience: push.oidc_token[0].audience || undefined },
      } : {},
      state: 'ACTIVE',
    };
  },
  spec: {
    sets: {
      retry_policy: setOfNonEmpty((e) => ({ min: e.minimum_backoff, max: e.maximum_backoff })),
      dead_letter_policy: setOfNonEmpty((e) => ({ topic: short(e.dead_letter_topic), attempts: e.max_delivery_attempts })),
    },
  },
}, {
  path: (_a, scope) => (scope.account ? `/v1/projects/${scope.account}/subscriptions?pageSize=1000` : undefined),
  route: '/v1/projects/:project/subscriptions',
  key: 'subscriptions',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
  discover: { path: (project) => `/v1/projects/${project}/subscriptions?pageSize=1000`, id: (j) => j.name, location: () => null },
});
