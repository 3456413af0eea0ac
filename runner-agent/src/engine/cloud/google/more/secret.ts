// google_secret_manager_secret and google_secret_manager_secret_version: Secret Manager v1.
// A project's secrets are read with one paged list when the state holds several (the list answers
// full secrets); a version is one GET of its metadata (`projects/P/secrets/S/versions/V`), never
// `:access` — the payload (`secret_data`) needs more than Viewer and is not compared: only whether
// the version is enabled and when it is (to be) destroyed. The API names the project by number
// (`projects/123/secrets/S`), as the provider's `name` does; the path uses the state's project.
import { googleReader, type GJson } from '../kit.ts';
import type { RestApi } from '../../rest/api.ts';
import type { RestReader, Scope } from '../../rest/reader.ts';
import { listedReader, opt, setOfNonEmpty, short } from '../data/kit.ts';

type A = Record<string, any>;
const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

const secretId = (a: A): string | undefined => (a.secret_id || short(a.name) || undefined) as string | undefined;
const secretPath = (a: A, scope: Scope) => { const id = secretId(a); return id && scope.account ? `/v1/projects/${scope.account}/secrets/${id}` : undefined; };
/** 25,000 is the largest page secrets.list serves. */
const listPath = (project: string) => `/v1/projects/${project}/secrets?pageSize=25000`;

const cmeState = (c: GJson | undefined) => opt(c, () => ({ kms_key_name: c!.kmsKeyName ?? '' }));
const cmeJson = (v: unknown) => (list(v).length ? { kmsKeyName: first(v).kms_key_name } : undefined);

/**
 * Provider 4.x writes automatic replication as `automatic = true` (4.x late: beside an empty `auto`),
 * 5+ as an `auto` block: the live block carries the spelling the state uses.
 */
function replicationState(r: GJson | undefined, state: unknown): A[] {
  if (!r) return [];
  const own = first(state);
  return [{
    ...('automatic' in own ? { automatic: !!r.automatic } : {}),
    auto: opt(r.automatic, () => ({ customer_managed_encryption: cmeState(r.automatic.customerManagedEncryption) })),
    user_managed: opt(r.userManaged, () => ({
      replicas: (r.userManaged.replicas ?? []).map((x: GJson) => ({ location: x.location, customer_managed_encryption: cmeState(x.customerManagedEncryption) })),
    })),
  }];
}

function replicationJson(v: unknown): GJson | undefined {
  const r = first(v);
  if (r.automatic === true && !list(r.auto).length) return { automatic: {} };
  if (list(r.auto).length) return { automatic: { customerManagedEncryption: cmeJson(first(r.auto).customer_managed_encryption) } };
  if (list(r.user_managed).length) {
    return { userManaged: { replicas: list(first(r.user_managed).replicas).map((x) => ({ location: x.location, customerManagedEncryption: cmeJson(x.customer_managed_encryption) })) } };
  }
  return undefined;
}

const base = listedReader({
  type: 'google_secret_manager_secret',
  service: 'secretmanager',
  route: '/v1/projects/:project/secrets/:name',
  pathOf: secretPath,
  toState: (j, instance) => ({
    name: j.name, secret_id: short(j.name), labels: j.labels ?? {},
    // Provider 5+ keeps the configuration's annotations apart from every one (effective_annotations).
    ...('effective_annotations' in instance.attributes ? { effective_annotations: j.annotations ?? {} } : { annotations: j.annotations ?? {} }),
    replication: replicationState(j.replication, instance.attributes.replication),
    rotation: opt(j.rotation, () => ({ next_rotation_time: j.rotation.nextRotationTime ?? '', rotation_period: j.rotation.rotationPeriod ?? '' })),
    topics: (j.topics ?? []).map((t: GJson) => ({ name: t.name })),
    expire_time: j.expireTime ?? '', version_aliases: j.versionAliases ?? {}, version_destroy_ttl: j.versionDestroyTtl ?? '',
  }),
  fromState: (a) => {
    const rot = first(a.rotation);
    return {
      name: a.name || `projects/${a.project}/secrets/${secretId(a)}`, createTime: a.create_time || undefined,
      labels: a.effective_labels ?? a.labels ?? undefined, annotations: a.effective_annotations ?? a.annotations ?? undefined,
      replication: replicationJson(a.replication),
      rotation: list(a.rotation).length ? { nextRotationTime: rot.next_rotation_time || undefined, rotationPeriod: rot.rotation_period || undefined } : undefined,
      topics: list(a.topics).length ? list(a.topics).map((t) => ({ name: t.name })) : undefined,
      expireTime: a.expire_time || undefined, versionAliases: a.version_aliases && Object.keys(a.version_aliases).length ? a.version_aliases : undefined,
      versionDestroyTtl: a.version_destroy_ttl || undefined, etag: '"16a6d1fb3c2c8b"',
    };
  },
  spec: {
    sets: {
      topics: (e: unknown) => [String((e as A)?.name ?? '')],
      'replication.0.user_managed.0.replicas': setOfNonEmpty((e) => ({ location: e.location, kms: first(e.customer_managed_encryption).kms_key_name })),
    },
  },
}, {
  path: (_a, scope) => (scope.account ? listPath(scope.account) : undefined),
  route: '/v1/projects/:project/secrets',
  key: 'secrets',
  // The list names the project by number: an item's path is the list's own, plus its id.
  pathOfItem: (j, parent) => (j.name ? `${parent}/${short(j.name)}` : undefined),
  discover: { path: listPath, id: (j) => j.name, location: () => null },
});

export const secretReader: RestReader = {
  ...base,
  // List mode: the id as the provider writes it (`projects/<project id>/secrets/S`), not the API's project number.
  ...(base.list ? { list: async (api: RestApi, project: string) => (await base.list!(api, project)).map((l) => ({ ...l, id: `projects/${project}/secrets/${short(l.id)}` })) } : {}),
};

/** `projects/P/secrets/S` (or `S`, with the scope's project) plus the version number. */
function versionPath(a: A, scope: Scope): string | undefined {
  const secret = typeof a.secret === 'string' ? a.secret : '';
  const parent = secret.startsWith('projects/') ? secret : secret && scope.account ? `projects/${scope.account}/secrets/${secret}` : '';
  const version = a.version || short(a.name) || (typeof a.id === 'string' ? short(a.id) : '');
  return parent && version ? `/v1/${parent}/versions/${version}` : undefined;
}

export const secretVersionReader: RestReader = googleReader({
  type: 'google_secret_manager_secret_version',
  service: 'secretmanager',
  route: '/v1/projects/:project/secrets/:secret/versions/:version',
  pathOf: versionPath,
  // A destroyed version answers DESTROYED (its data gone): not enabled, with its destroy time.
  toState: (j) => ({ enabled: j.state === 'ENABLED', version: short(j.name), destroy_time: j.destroyTime ?? '' }),
  fromState: (a) => ({
    name: a.name, createTime: a.create_time || undefined, destroyTime: a.destroy_time || undefined,
    state: a.enabled === false ? (a.destroy_time ? 'DESTROYED' : 'DISABLED') : 'ENABLED',
    replicationStatus: { automatic: {} }, etag: '"16a6d1fb3c2c8c"',
  }),
});
