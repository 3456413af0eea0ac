// google_firestore_index (Firestore v1 `projects/P/databases/D/collectionGroups/C/indexes/I`) and
// google_storage_notification (Storage JSON v1 `b/B/notificationConfigs/N`): one GET each. An
// index cannot be changed in place (its fields, scope and API scope are compared: a rebuilt index
// has a new id, so a replaced one shows as deleted); a notification's topic, events, prefix,
// payload format and custom attributes are compared.
import { googleReader, ownProject, type GJson } from '../kit.ts';
import { sameAs, short } from './kit.ts';

type A = Record<string, any>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const indexName = (a: A) => [text(a.name), text(a.id)].find((v) => v?.startsWith('projects/') && v.includes('/indexes/'));

/** The API appends `__name__` (ordered like the last field) to every index; a state that does not list it compares without it. */
function fieldsOf(j: GJson, a: A): A[] {
  const fields = (j.fields ?? []).map((f: GJson) => ({
    field_path: f.fieldPath, order: f.order ?? '', array_config: f.arrayConfig ?? '',
    ...(f.vectorConfig ? { vector_config: [{ dimension: f.vectorConfig.dimension, flat: f.vectorConfig.flat ? [{}] : [] }] } : {}),
  }));
  const stateHasName = (Array.isArray(a.fields) ? a.fields : []).some((f: A) => f?.field_path === '__name__');
  return stateHasName ? fields : fields.filter((f: A, k: number) => !(f.field_path === '__name__' && k === fields.length - 1 && k > 0));
}

export const firestoreIndexReader = googleReader({
  type: 'google_firestore_index',
  service: 'firestore',
  route: '/v1/projects/:project/databases/:database/collectionGroups/:collection/indexes/:index',
  pathOf: (a) => { const n = indexName(a); return n && `/v1/${n}`; },
  toState: (j, i) => ({
    name: j.name, collection: j.name?.split('/collectionGroups/')[1]?.split('/')[0], query_scope: j.queryScope ?? 'COLLECTION',
    api_scope: j.apiScope ?? 'ANY_API', fields: fieldsOf(j, i.attributes),
  }),
  fromState: (a) => {
    const fields = (Array.isArray(a.fields) ? a.fields : []).map((f: A) => ({
      fieldPath: f.field_path, order: f.order || undefined, arrayConfig: f.array_config || undefined,
      vectorConfig: Array.isArray(f.vector_config) && f.vector_config.length ? { dimension: f.vector_config[0].dimension, flat: {} } : undefined,
    }));
    const last = fields[fields.length - 1];
    const withName = fields.some((f: GJson) => f.fieldPath === '__name__') ? fields : [...fields, { fieldPath: '__name__', order: last?.order ?? 'ASCENDING' }];
    return { name: indexName(a), queryScope: a.query_scope || 'COLLECTION', apiScope: a.api_scope || 'ANY_API', fields: withName, state: 'READY' };
  },
});

const notificationPath = (a: A) => {
  const id = text(a.notification_id) ?? (text(a.id)?.includes('/notificationConfigs/') ? short(a.id) : undefined);
  return a.bucket && id ? `/storage/v1/b/${encodeURIComponent(a.bucket)}/notificationConfigs/${id}` : undefined;
};
/** `//pubsub.googleapis.com/projects/P/topics/T`, `projects/P/topics/T` or `T`: the same topic. */
const topicKey = (v: string) => v.replace(/^\/\/pubsub\.googleapis\.com\//, '');

export const storageNotificationReader = googleReader({
  type: 'google_storage_notification',
  service: 'storage',
  route: '/storage/v1/b/:bucket/notificationConfigs/:id',
  pathOf: notificationPath,
  toState: (j, i) => ({
    topic: sameAs(i.attributes.topic, j.topic ?? '', (x, y) => topicKey(x) === topicKey(y) || short(x) === short(y) && !x.includes('/')),
    payload_format: j.payload_format ?? 'NONE', event_types: j.event_types ?? [], custom_attributes: j.custom_attributes ?? {},
    object_name_prefix: j.object_name_prefix ?? '',
  }),
  fromState: (a) => ({
    kind: 'storage#notification', id: text(a.notification_id) ?? short(a.id), selfLink: a.self_link, etag: String(a.notification_id ?? '1'),
    topic: typeof a.topic === 'string' && !a.topic.startsWith('//') ? `//pubsub.googleapis.com/${a.topic.includes('/') ? a.topic : `projects/${ownProject(a) ?? ''}/topics/${a.topic}`}` : a.topic,
    payload_format: a.payload_format || 'NONE', event_types: Array.isArray(a.event_types) && a.event_types.length ? a.event_types : undefined,
    custom_attributes: a.custom_attributes && Object.keys(a.custom_attributes).length ? a.custom_attributes : undefined,
    object_name_prefix: a.object_name_prefix || undefined,
  }),
});
