// A reader for Google types whose API lists a project's (or a location's) resources in one paged
// call (Service Usage's enabled services, IAM's service accounts, Cloud Run v2 services): a list
// holding LIST_FROM or more of the items is read whole (once per scan, shared by every reader
// asking), the others with one GET each, at bounded concurrency. The list and the GET answer the same JSON, so one
// `toState` maps both, and the fake answers both from the state.
import type { CompareSpec } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, type FakeRequest, type FakeRoute, type FakeWorld, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import { CONCURRENCY, LIST_FROM, ownProject, type GJson } from '../kit.ts';

export interface ListedType {
  type: string;
  service: string;
  /** GET path of one resource; undefined when the state lacks what it needs. */
  pathOf(attributes: Record<string, any>, scope: Scope): string | undefined;
  /** The fake's route for that path. */
  route: string;
  /** The list path (with its query) holding the resource: the project's, or its location's; and the fake's route for it. */
  listPath(project: string, attributes: Record<string, any>): string;
  listRoute: string;
  /** The list answer's item key (`services`, `accounts`). */
  items: string;
  /** The key that finds an item of the list: from the state's attributes, and from the API's JSON. */
  keyOfState(attributes: Record<string, any>): string | undefined;
  keyOfJson(json: GJson): string | undefined;
  /** Whether the fake's list answer holds this instance (default: same project). */
  inList?(instance: StateInstance, req: FakeRequest): boolean;
  /** What the read answers that means "gone" although the API returns it (a DISABLED service). */
  gone?(json: GJson): boolean;
  toState(json: GJson, instance: StateInstance): LiveAttributes;
  fromState(attributes: Record<string, any>, instance: StateInstance): GJson;
  spec?: CompareSpec;
}

const projectOf = (i: StateInstance, fallback: string) => ownProject(i.attributes) ?? fallback;

export function listedReader(t: ListedType): RestReader {
  const fake: FakeRoute[] = [
    {
      method: 'GET', service: t.service, path: t.route,
      answer: (req: FakeRequest, world: FakeWorld) => {
        const scope: Scope = { account: req.params.project ?? '', location: null, source: 'fake' };
        const i = world.of(t.type).find((x) => t.pathOf(x.attributes, { ...scope, account: projectOf(x, scope.account) }) === req.path);
        return i && t.fromState(i.attributes, i);
      },
    },
    {
      method: 'GET', service: t.service, path: t.listRoute,
      answer: (req: FakeRequest, world: FakeWorld) => fakeList(
        world.of(t.type).filter((x) => projectOf(x, req.params.project) === req.params.project && (t.inList?.(x, req) ?? true)).map((x) => t.fromState(x.attributes, x)),
        t.items,
      ),
    },
  ];
  return {
    spec: t.spec ?? {},
    fake,
    async read(items: RestItem[], api: RestApi) {
      // Items grouped by the list that holds them: a list pays when LIST_FROM or more share it.
      const lists = items.map((it) => t.listPath(it.scope.account, it.instance.attributes));
      const count = new Map<string, number>();
      for (const l of lists) count.set(l, (count.get(l) ?? 0) + 1);
      return mapLimit(items, CONCURRENCY, async (it, k) => {
        const path = t.pathOf(it.instance.attributes, it.scope);
        if (!path) return null;
        let json: GJson | null;
        if (it.scope.account && (count.get(lists[k]) ?? 0) >= LIST_FROM) {
          const listPath = lists[k];
          const all = await api.once(`gcp-list:${t.service}${listPath}`, async () => {
            const list = await api.list<GJson>(t.service, listPath, `list ${t.type} in ${it.scope.account}`, { style: 'pageToken', items: t.items });
            const byKey = new Map<string, GJson>();
            for (const x of list) { const k = t.keyOfJson(x); if (k) byKey.set(k.toLowerCase(), x); }
            return byKey;
          });
          const key = t.keyOfState(it.instance.attributes);
          json = key ? all.get(key.toLowerCase()) ?? null : null;
        } else json = await api.get<GJson>(t.service, path, `GET ${t.type} ${path}`);
        return json && !t.gone?.(json) ? t.toState(json, it.instance) : null;
      });
    },
  };
}
