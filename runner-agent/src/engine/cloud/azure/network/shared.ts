// Reading Microsoft.Network resources, shared by the network readers. Many of these types are
// children embedded in their parent's JSON (a vnet's subnets, an NSG's rules, a load balancer's
// pools, rules and probes): they are read from ONE parent read, shared with the parent's own type
// and every sibling type through `api.once`. A collection (a resource group's list of one type,
// or a parent's list of children) the state names LIST_FROM or more members of is read with one
// paged list instead of one GET each; the decision counts every id of the family the whole state
// knows, so the types sharing a family make the same calls and share them.
import type { CompareSpec } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import { isObject } from '../../../values.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, indexBy, stubInstance, text, type FakeRoute, type FakeWorld, type Listed, type RestReader } from '../../rest/reader.ts';
import { ARM, CONCURRENCY, LIST_FROM, location, lower, nameOf, type ArmJson } from '../kit.ts';

/** One pinned version per API family: Microsoft.Network's current stable, and Private DNS's. */
export const NETWORK_API = '2024-07-01';
export const PRIVATE_DNS_API = '2024-06-01';

/** `/a/b/c/d` -> `/a/b/c`: an id's collection (a group's list of the type, or a parent's list of children). */
export const collectionOf = (id: string) => id.slice(0, id.lastIndexOf('/'));
/** A child's parent: `.../virtualNetworks/V/subnets/S` -> `.../virtualNetworks/V`. */
export const parentOf = (id: string) => collectionOf(collectionOf(id));
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const list = <T = any>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
/** `{id}` of ARM's sub-resource references, absent when the state holds none. */
export const ref = (id: unknown) => (text(id) ? { id } : undefined);
export const idList = (v: unknown): string[] => list(v).map((x) => str(x?.id)).filter(Boolean);

/** The state instance of `type` whose id (or idOf) is `id`, case-insensitively. */
export function byId(world: FakeWorld, type: string, id: string, idOf: (a: Record<string, any>) => string = (a) => str(a.id)): StateInstance | undefined {
  const want = lower(id);
  return world.of(type).find((i) => lower(idOf(i.attributes)) === want);
}

/** A child of a parent's JSON by name (ARM names are case-insensitive). */
export function childOf(parent: ArmJson, collection: string, name: string): ArmJson | undefined {
  return list<ArmJson>(parent.properties?.[collection]).find((c) => lower(c?.name) === lower(name));
}

/** The JSON of each id (null when gone), by lowercased id; `known` are the family's other ids in the state. */
export async function readArm(ids: (string | undefined)[], api: RestApi, apiVersion: string, what: string, known: string[] = []): Promise<Map<string, ArmJson | null>> {
  const members = new Map<string, Set<string>>();
  for (const id of [...ids, ...known]) {
    if (!id) continue;
    const col = lower(collectionOf(id));
    if (!members.has(col)) members.set(col, new Set());
    members.get(col)!.add(lower(id));
  }
  const wanted = [...new Map(ids.filter((x): x is string => !!x).map((id) => [lower(id), id])).values()];
  const out = new Map<string, ArmJson | null>();
  await mapLimit(wanted, CONCURRENCY, async (id) => {
    const col = collectionOf(id);
    if ((members.get(lower(col))?.size ?? 0) >= LIST_FROM) {
      const listed = await api.once(`arm-list:${lower(col)}?${apiVersion}`, async () =>
        indexBy(await api.list<ArmJson>(ARM, `${col}?api-version=${apiVersion}`, `list ${what} in ${col}`, { style: 'nextLink' }), (x) => text(x.id)));
      out.set(lower(id), listed.get(lower(id)) ?? null);
    } else {
      out.set(lower(id), await api.once(`arm-get:${lower(id)}?${apiVersion}`, () => api.get<ArmJson>(ARM, `${id}?api-version=${apiVersion}`, `GET ${what} ${id}`)));
    }
  });
  return out;
}

// ARM answers some references and enums in another case than the provider wrote them (a group
// name upper-cased in a nested id, `dynamic` for `Dynamic`): the provider ignores those case
// differences, so a live value equal to the state's but for case takes the state's spelling.
const CASELESS = new Set(['private_ip_address_allocation', 'allocation_method', 'protocol', 'access', 'direction', 'sku', 'sku_tier', 'load_distribution', 'ip_version', 'private_ip_address_version']);
export function alignCase(live: unknown, state: unknown, key = ''): unknown {
  if (typeof live === 'string') {
    return typeof state === 'string' && (live.startsWith('/') || CASELESS.has(key)) && lower(live) === lower(state) ? state : live;
  }
  if (Array.isArray(live)) {
    const st = Array.isArray(state) ? state : [];
    return live.map((x, i) => {
      if (typeof x === 'string') return st.find((s) => typeof s === 'string' && x.startsWith('/') && lower(s) === lower(x)) ?? x;
      const pair = isObject(x) && typeof x.name === 'string' ? st.find((s) => isObject(s) && lower(str(s.name)) === lower(x.name as string)) : st[i];
      return alignCase(x, pair, key);
    });
  }
  if (isObject(live)) {
    const st = isObject(state) ? state : {};
    return Object.fromEntries(Object.entries(live).map(([k, v]) => [k, alignCase(v, st[k], k)]));
  }
  return live;
}

export interface NetType {
  type: string;
  apiVersion: string;
  /** The id the instance is read from: its own, or its parent's when the parent's JSON embeds it. */
  source(attributes: Record<string, any>): string | undefined;
  /** Every id of the source's family the state knows (shared list decisions). */
  known?(world: FakeWorld): string[];
  /** The resource's JSON within the source's (a child by name); default the source's. */
  pick?(json: ArmJson, attributes: Record<string, any>): ArmJson | undefined;
  /** ARM's JSON as the provider's attributes; null when what the resource stands for is gone (an association). */
  toState(json: ArmJson, instance: StateInstance, world?: FakeWorld): LiveAttributes | null;
  spec?: CompareSpec;
  fake?: FakeRoute[];
  /** A top-level type's provider path (`Microsoft.Network/virtualNetworks`): list mode over the subscription (Cloud Discovery). */
  subscriptionList?: string;
}

export function netReader(t: NetType): RestReader {
  return {
    spec: t.spec ?? {},
    fake: t.fake ?? [],
    ...(t.subscriptionList ? {
      async list(api: RestApi, account: string): Promise<Listed[]> {
        const all = await api.list<ArmJson>(ARM, `/subscriptions/${account}/providers/${t.subscriptionList}?api-version=${t.apiVersion}`, `list ${t.type} in subscription ${account}`, { style: 'nextLink' });
        return all.filter((j) => typeof j.id === 'string').flatMap((j) => {
          const attributes = t.toState(j, stubInstance(t.type, j.id));
          const loc = location(j.location);
          return attributes ? [{ id: j.id as string, location: typeof loc === 'string' && loc ? loc : null, attributes }] : [];
        });
      },
    } : {}),
    async read(items, api, world) {
      const sources = items.map((it) => t.source(it.instance.attributes));
      const got = await readArm(sources, api, t.apiVersion, t.type, world && t.known ? t.known(world) : []);
      return items.map((it, k) => {
        const src = sources[k];
        const json = src ? got.get(lower(src)) : null;
        const own = json && (t.pick ? t.pick(json, it.instance.attributes) : json);
        const live = own ? t.toState(own, it.instance, world) : null;
        return live && (alignCase(live, it.instance.attributes) as LiveAttributes);
      });
    },
  };
}

/**
 * The fake's answers for one family of resources: GET of one member and the list of its
 * collection, both built from every state instance of the family (a parent's JSON embeds its
 * children's), so one route answers what several types' states say.
 */
export function familyRoutes(path: string, ids: (world: FakeWorld) => string[], build: (world: FakeWorld, id: string) => ArmJson | undefined): FakeRoute[] {
  const withIdentity = (id: string, json: ArmJson | undefined) => json && { id, name: nameOf(id), ...json };
  // A top-level type is also listed over the whole subscription (Cloud Discovery's list mode).
  const kind = /^\/subscriptions\/:[^/]+\/resourceGroups\/:[^/]+\/providers\/([^:]+)\/:[^/]+$/i.exec(path)?.[1];
  const subscriptionRoute: FakeRoute[] = kind ? [{
    method: 'GET', service: ARM, path: `/subscriptions/:sub/providers/${kind}`,
    answer: (req, world) => {
      const sub = lower(`/subscriptions/${req.params.sub}/`);
      const top = (id: string) => lower(id).startsWith(sub) && lower(collectionOf(id)).endsWith(lower(`/providers/${kind}`));
      return fakeList([...new Map(ids(world).filter(top).map((id) => [lower(id), id])).values()].map((id) => withIdentity(id, build(world, id))).filter(Boolean));
    },
  }] : [];
  return [
    ...subscriptionRoute,
    { method: 'GET', service: ARM, path, answer: (req, world) => withIdentity(req.path, build(world, req.path)) },
    {
      method: 'GET', service: ARM, path: collectionOf(path),
      answer: (req, world) => {
        const col = lower(req.path);
        const members = [...new Map(ids(world).filter((id) => lower(collectionOf(id)) === col).map((id) => [lower(id), id])).values()];
        return fakeList(members.map((id) => withIdentity(id, build(world, id))).filter(Boolean));
      },
    },
  ];
}
