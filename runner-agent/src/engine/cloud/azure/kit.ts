// The common shape of an Azure Resource Manager reader: every ARM resource is read by its id
// (`GET {id}?api-version=V`, one pinned version per type), or, when several live in one resource
// group and the type has a group-level list, by one paged list of the group. A reader states only
// its API version, its paths and the mapping both ways between ARM's JSON and the azurerm
// provider's attributes; `armReader` makes the read and the fake's routes from them.
import type { CompareSpec } from '../../diff.ts';
import { mapLimit } from '../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../types.ts';
import type { RestApi } from '../rest/api.ts';
import { fakeList, indexBy, stubInstance, text, type FakeRequest, type FakeRoute, type FakeWorld, type Listed, type RestItem, type RestReader } from '../rest/reader.ts';

export const ARM = 'management';
export const CONCURRENCY = 8;
/** Groups with at least this many instances of a listable type are read with one list. */
export const LIST_FROM = 3;

export type ArmJson = Record<string, any>;

export interface ArmType {
  /** The Terraform type, e.g. azurerm_virtual_network. */
  type: string;
  apiVersion: string;
  /**
   * The resource's path pattern, from `/subscriptions`: e.g.
   * `/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/virtualNetworks/:name`.
   * The fake answers it for every state instance whose id is the request's path.
   */
  path: string;
  /** The resource group's list of this type (a path pattern ending at the type), when ARM has one. */
  list?: string;
  /**
   * The subscription's list of this type (Cloud Discovery's list mode); default: derived from
   * `list` for a top-level type (`/subscriptions/:sub/providers/Microsoft.X/things`).
   */
  subscriptionList?: string;
  /** ARM's JSON as the provider's attributes (only the attributes the reader maps). */
  toState(json: ArmJson, instance: StateInstance): LiveAttributes;
  /** The provider's attributes as ARM's JSON: what the fake answers for a state instance. */
  fromState(attributes: Record<string, any>, instance: StateInstance): ArmJson;
  /** The ARM id to read; default the state's `id`. */
  idOf?(attributes: Record<string, unknown>): string | undefined;
  spec?: CompareSpec;
  /** Extra fake routes (parts of another resource's answer this type's state knows). */
  fake?: FakeRoute[];
}

export const lower = (s: string | undefined) => (s ?? '').toLowerCase();
/** ARM's canonical location: `West Europe` and `westeurope` are one. */
export const location = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '').toLowerCase() : v);
/** `/subscriptions/S/resourceGroups/RG/...` -> RG's id (case kept). */
export function groupIdOf(id: string): string | undefined {
  return /^(\/subscriptions\/[^/]+\/resourceGroups\/[^/]+)/i.exec(id)?.[1];
}
/** The last segment of an ARM id: the resource's name. */
export const nameOf = (id: string) => id.split('/').filter(Boolean).pop() ?? '';

/** The state instances of `type` whose id (or idOf) is `path`, case-insensitively. */
export function instanceAt(world: FakeWorld, type: string, path: string, idOf?: ArmType['idOf']): StateInstance | undefined {
  const want = lower(path);
  return world.of(type).find((i) => lower((idOf ?? ((a) => text(a.id)))(i.attributes)) === want);
}

export function armReader(t: ArmType): RestReader {
  const idOf = t.idOf ?? ((a: Record<string, unknown>) => text(a.id));
  const url = (id: string) => `${id}?api-version=${t.apiVersion}`;
  const fakeGet: FakeRoute = {
    method: 'GET', service: ARM, path: t.path,
    answer: (req: FakeRequest, world: FakeWorld) => {
      const i = instanceAt(world, t.type, req.path, t.idOf);
      return i && withIdentity(t.fromState(i.attributes, i), i.attributes, idOf);
    },
  };
  const routes: FakeRoute[] = [fakeGet, ...(t.fake ?? [])];
  if (t.list) {
    routes.push({
      method: 'GET', service: ARM, path: t.list,
      answer: (req: FakeRequest, world: FakeWorld) => {
        const prefix = lower(groupIdOf(req.path));
        const inGroup = world.of(t.type).filter((i) => lower(groupIdOf(idOf(i.attributes) ?? '')) === prefix);
        return fakeList(inGroup.map((i) => withIdentity(t.fromState(i.attributes, i), i.attributes, idOf)));
      },
    });
  }
  const subList = t.subscriptionList ?? (t.list && /^\/subscriptions\/:[^/]+\/resourceGroups\/:[^/]+\/providers\/[^:]+$/i.test(t.list)
    ? t.list.replace(/\/resourceGroups\/:[^/]+/i, '') : undefined);
  if (subList) {
    routes.push({
      method: 'GET', service: ARM, path: subList,
      answer: (req: FakeRequest, world: FakeWorld) => {
        const sub = lower(/^\/subscriptions\/[^/]+/i.exec(req.path)?.[0]);
        const all = world.of(t.type).filter((i) => lower(idOf(i.attributes)).startsWith(`${sub}/`));
        return fakeList(all.map((i) => withIdentity(t.fromState(i.attributes, i), i.attributes, idOf)));
      },
    });
  }
  return {
    spec: t.spec ?? {},
    fake: routes,
    ...(subList ? {
      async list(api: RestApi, account: string): Promise<Listed[]> {
        const path = subList.replace(/^\/subscriptions\/:[^/]+/i, `/subscriptions/${account}`);
        const all = await api.list<ArmJson>(ARM, `${path}?api-version=${t.apiVersion}`, `list ${t.type} in subscription ${account}`, { style: 'nextLink' });
        return all.filter((j) => typeof j.id === 'string').map((j) => {
          const loc = location(j.location);
          return { id: j.id as string, location: typeof loc === 'string' && loc ? loc : null, attributes: t.toState(j, stubInstance(t.type, j.id as string)) };
        });
      },
    } : {}),
    async read(items: RestItem[], api: RestApi) {
      const ids = items.map((it) => idOf(it.instance.attributes));
      const listed = t.list ? await listedGroups(ids, api, t) : new Map<string, Map<string, ArmJson>>();
      return mapLimit(items, CONCURRENCY, async (it, k) => {
        const id = ids[k];
        if (!id) return null;
        const group = lower(groupIdOf(id));
        const inList = listed.get(group);
        const json = inList ? inList.get(lower(id)) ?? null : await api.get<ArmJson>(ARM, url(id), `GET ${t.type} ${id}`);
        return json ? t.toState(json, it.instance) : null;
      });
    },
  };
}

/** Lists (once per scan) the groups holding LIST_FROM or more of the items; group id -> (resource id -> JSON). */
async function listedGroups(ids: (string | undefined)[], api: RestApi, t: ArmType): Promise<Map<string, Map<string, ArmJson>>> {
  const counts = new Map<string, string>();
  const n = new Map<string, number>();
  for (const id of ids) {
    const g = id && groupIdOf(id);
    if (!g) continue;
    counts.set(lower(g), g);
    n.set(lower(g), (n.get(lower(g)) ?? 0) + 1);
  }
  const out = new Map<string, Map<string, ArmJson>>();
  for (const [key, g] of counts) {
    if ((n.get(key) ?? 0) < LIST_FROM) continue;
    const path = t.list!.replace(/^\/subscriptions\/:[^/]+\/resourceGroups\/:[^/]+/i, g);
    const items = await api.once(`arm-list:${path}`, () => api.list<ArmJson>(ARM, `${path}?api-version=${t.apiVersion}`, `list ${t.type} in ${g}`, { style: 'nextLink' }));
    out.set(key, indexBy(items, (x) => text(x.id)));
  }
  return out;
}

/** Every ARM answer carries id, name and type, whatever the mapping wrote. */
function withIdentity(json: ArmJson, attributes: Record<string, unknown>, idOf: (a: Record<string, unknown>) => string | undefined): ArmJson {
  const id = idOf(attributes) ?? '';
  return { id, name: nameOf(id), ...json };
}
