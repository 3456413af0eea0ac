// The common shape of a Google Cloud reader: a resource is read at the REST path its attributes
// and scope give (`GET https://{service}.googleapis.com{path}`), or, for Compute types with an
// `aggregatedList`, from one paged list of the project when several are read. A reader states its
// service, path and the mapping both ways between the API's JSON and the google provider's
// attributes; `googleReader` makes the read and the fake's routes from them.
import type { CompareSpec } from '../../diff.ts';
import { mapLimit } from '../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../types.ts';
import type { RestApi } from '../rest/api.ts';
import { fakeList, indexBy, stubInstance, text, type FakeRequest, type FakeRoute, type FakeWorld, type Listed, type RestItem, type RestReader, type Scope } from '../rest/reader.ts';

export const CONCURRENCY = 8;
export const LIST_FROM = 3;
export type GJson = Record<string, any>;

export interface GoogleType {
  type: string;
  /** The API host's first label: `compute`, `storage`, `pubsub`... (also the fake's first path segment). */
  service: string;
  /** The resource's path under the service (`/compute/v1/projects/P/global/networks/N`); undefined when the state lacks what it needs. */
  pathOf(attributes: Record<string, any>, scope: Scope): string | undefined;
  /** The fake's route pattern for that path, e.g. `/compute/v1/projects/:project/global/networks/:name`. */
  route: string;
  /** `POST` for reads the API makes POSTs (getIamPolicy). */
  method?: 'GET' | 'POST';
  toState(json: GJson, instance: StateInstance): LiveAttributes;
  fromState(attributes: Record<string, any>, instance: StateInstance): GJson;
  /** Compute's aggregated list of the type, e.g. `instances` for `/compute/v1/projects/P/aggregated/instances`. */
  aggregated?: string;
  /** List mode for a type without an aggregated list: the project's list path (e.g. `/compute/v1/projects/P/global/networks`). */
  projectList?(project: string): string;
  /** The provider's id of a listed resource; default: its Compute self link's path (`projects/P/global/networks/N`). */
  listId?(json: GJson, project: string): string | undefined;
  spec?: CompareSpec;
  fake?: FakeRoute[];
}

/** The project a resource's own attributes name: `project`, else the `projects/P/` of its id or self link. */
export function ownProject(a: Record<string, unknown>): string | undefined {
  if (text(a.project)) return a.project as string;
  for (const k of ['id', 'self_link', 'name']) {
    const m = typeof a[k] === 'string' ? /(?:^|\/)projects\/([^/]+)/.exec(a[k] as string) : null;
    if (m) return m[1];
  }
  return undefined;
}
/** The last segment of a name or URL (`zones/us-central1-a` -> `us-central1-a`). */
export const last = (v: unknown) => (typeof v === 'string' ? v.split('/').pop() ?? '' : '');
/** A self link as the API writes it (always www.googleapis.com/compute/v1/...). */
export const selfLink = (path: string) => `https://www.googleapis.com${path}`;

/** The request's scope in the fake: its `:project`, `:zone`, `:region` or `:location` params. */
const requestScope = (req: FakeRequest): Scope => ({
  account: req.params.project ?? '', location: req.params.zone ?? req.params.region ?? req.params.location ?? null, source: 'fake',
});

export function instanceAt(world: FakeWorld, t: GoogleType, req: FakeRequest): StateInstance | undefined {
  const scope = requestScope(req);
  return world.of(t.type).find((i) => t.pathOf(i.attributes, { ...scope, account: ownProject(i.attributes) ?? scope.account }) === req.path);
}

export function googleReader(t: GoogleType): RestReader {
  const routes: FakeRoute[] = [{
    method: t.method ?? 'GET', service: t.service, path: t.route,
    answer: (req: FakeRequest, world: FakeWorld) => { const i = instanceAt(world, t, req); return i && t.fromState(i.attributes, i); },
  }, ...(t.fake ?? [])];
  if (t.projectList) {
    const pattern = t.projectList(':project');
    routes.push({
      method: 'GET', service: t.service, path: pattern,
      answer: (req: FakeRequest, world: FakeWorld) => fakeList(world.of(t.type)
        .filter((i) => (ownProject(i.attributes) ?? req.params.project) === req.params.project).map((i) => t.fromState(i.attributes, i)), 'items'),
    });
  }
  if (t.aggregated) {
    routes.push({
      method: 'GET', service: t.service, path: `/compute/v1/projects/:project/aggregated/${t.aggregated}`,
      answer: (req: FakeRequest, world: FakeWorld) => {
        const items: Record<string, Record<string, unknown[]>> = {};
        for (const i of world.of(t.type)) {
          if ((ownProject(i.attributes) ?? req.params.project) !== req.params.project) continue;
          const json = t.fromState(i.attributes, i);
          const where = json.zone ? `zones/${last(json.zone)}` : json.region ? `regions/${last(json.region)}` : 'global';
          ((items[where] ??= {})[t.aggregated!] ??= []).push(json);
        }
        return { kind: `compute#${t.aggregated}AggregatedList`, items };
      },
    });
  }
  return {
    spec: t.spec ?? {},
    fake: routes,
    ...(t.aggregated || t.projectList ? {
      /** List mode: the project's aggregated (or own) list; the id is the provider's (`projects/P/zones/Z/instances/N`). */
      async list(api: RestApi, project: string): Promise<Listed[]> {
        const path = t.aggregated ? `/compute/v1/projects/${project}/aggregated/${t.aggregated}?returnPartialSuccess=true` : t.projectList!(project);
        const all = await api.once(`gcp-list:${path}`, () => api.list<GJson>(t.service, path, `list ${t.type} in ${project}`, { style: 'pageToken' }));
        const idOf = t.listId ?? ((j: GJson) => (typeof j.selfLink === 'string' ? new URL(j.selfLink).pathname.replace(/^\/compute\/(v1|beta)\//, '') : undefined));
        return all.flatMap((j) => {
          const id = idOf(j, project);
          if (!id) return [];
          const location = last(j.zone) || last(j.region) || last(j.location) || null;
          return [{ id, location, attributes: t.toState(j, stubInstance(t.type, id)) }];
        });
      },
    } : {}),
    async read(items: RestItem[], api: RestApi) {
      const paths = items.map((it) => t.pathOf(it.instance.attributes, it.scope));
      const listed = t.aggregated ? await aggregatedLists(items, paths, api, t) : new Map<string, Map<string, GJson>>();
      return mapLimit(items, CONCURRENCY, async (it, k) => {
        const path = paths[k];
        if (!path) return null;
        const inList = listed.get(it.scope.account);
        const json = inList ? inList.get(path.toLowerCase()) ?? null
          : t.method === 'POST' ? await api.post<GJson>(t.service, path, {}, `${t.type} ${path}`)
            : await api.get<GJson>(t.service, path, `GET ${t.type} ${path}`);
        return json ? t.toState(json, it.instance) : null;
      });
    },
  };
}

/** Projects with LIST_FROM or more of the items, each read with one aggregated list: project -> (path -> JSON). */
async function aggregatedLists(items: RestItem[], paths: (string | undefined)[], api: RestApi, t: GoogleType): Promise<Map<string, Map<string, GJson>>> {
  const n = new Map<string, number>();
  items.forEach((it, k) => { if (paths[k]) n.set(it.scope.account, (n.get(it.scope.account) ?? 0) + 1); });
  const out = new Map<string, Map<string, GJson>>();
  for (const [project, count] of n) {
    if (count < LIST_FROM) continue;
    const path = `/compute/v1/projects/${project}/aggregated/${t.aggregated}?returnPartialSuccess=true`;
    const all = await api.once(`gcp-agg:${path}`, () => api.list<GJson>(t.service, path, `aggregatedList ${t.aggregated} in ${project}`, { style: 'pageToken' }));
    out.set(project, indexBy(all, (x) => (typeof x.selfLink === 'string' ? new URL(x.selfLink).pathname : undefined)));
  }
  return out;
}
