// google_sql_database and google_sql_user: sqladmin v1, under their instance. An instance's
// databases are read with one list when the state holds several; its users always by the list
// (a user is named by name and host, and the list is how the provider reads them too). A user's
// password is never mapped: the API never answers it.
import { ownProject, type GJson } from '../kit.ts';
import { listedReader, sameAs, short } from './kit.ts';

const under = (a: Record<string, any>, project: string) => (a.instance && project ? `/v1/projects/${project}/instances/${short(a.instance)}` : undefined);

export const sqlDatabaseReader = listedReader({
  type: 'google_sql_database',
  service: 'sqladmin',
  route: '/v1/projects/:project/instances/:instance/databases/:name',
  pathOf: (a, scope) => { const i = under(a, scope.account); return i && a.name ? `${i}/databases/${a.name}` : undefined; },
  toState: (j, instance) => ({
    name: j.name, instance: sameAs(instance.attributes.instance, j.instance, (x, y) => short(x) === short(y)),
    charset: j.charset ?? '', collation: j.collation ?? '',
  }),
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    return {
      kind: 'sql#database', name: a.name, instance: short(a.instance), project, charset: a.charset || undefined, collation: a.collation || undefined,
      selfLink: a.self_link ?? `https://sqladmin.googleapis.com/sql/v1beta4/projects/${project}/instances/${short(a.instance)}/databases/${a.name}`,
    };
  },
}, {
  path: (a, scope) => { const i = under(a, scope.account); return i && `${i}/databases`; },
  route: '/v1/projects/:project/instances/:instance/databases',
  key: 'items',
  pathOfItem: (j, list) => (j.name ? `${list}/${j.name}` : undefined),
});

/** A MySQL IAM user is named `user@domain` in state and `user` by the API. */
const sameUser = (state: string, api: string) => state === api || state.split('@')[0] === api;
/**
 * The user the provider would read: same name, and same host unless either side names none
 * (a PostgreSQL user has no host).
 */
const findUser = (all: GJson[], a: Record<string, any>) => all.find((j) => typeof j.name === 'string' && typeof a.name === 'string'
  && sameUser(a.name, j.name) && (!a.host || !j.host || a.host === j.host));

/** BUILT_IN is the API's default user type; the provider writes it, or "", as the API answered. */
const sameType = (a: string, b: string) => (a || 'BUILT_IN') === (b || 'BUILT_IN');
const userKey = (a: { name?: unknown; host?: unknown }) => `/users/${encodeURIComponent(String(a.name ?? ''))}@${encodeURIComponent(String(a.host ?? ''))}`;

export const sqlUserReader = listedReader({
  type: 'google_sql_user',
  service: 'sqladmin',
  // Never called (users are always read by their instance's list); the key below is the list's.
  route: '/v1/projects/:project/instances/:instance/users/:name',
  pathOf: (a, scope) => { const i = under(a, scope.account); return i && a.name ? `${i}${userKey(a)}` : undefined; },
  toState: (j, instance) => ({
    name: sameAs(instance.attributes.name, j.name, sameUser), host: j.host ?? '', instance: sameAs(instance.attributes.instance, j.instance, (x, y) => short(x) === short(y)),
    type: sameAs(instance.attributes.type, j.type ?? '', sameType),
  }),
  fromState: (a) => ({
    kind: 'sql#user', name: a.name, host: a.host || undefined, instance: short(a.instance), project: ownProject(a) ?? '', type: a.type || undefined, etag: '',
  }),
}, {
  path: (a, scope) => { const i = under(a, scope.account); return i && `${i}/users`; },
  route: '/v1/projects/:project/instances/:instance/users',
  key: 'items',
  pathOfItem: (j, list) => (j.name ? `${list.slice(0, -'/users'.length)}${userKey(j)}` : undefined),
  find: findUser,
  from: 1,
});
