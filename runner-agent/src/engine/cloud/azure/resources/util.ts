// Helpers shared by the compute, storage, identity and platform readers: the value shapes the
// azurerm provider writes (identity blocks, canonical ids, Enabled/Disabled flags), and a read by
// a parent's list (containers of one account, firewall rules of one server, role assignments of
// one subscription), which the kit's resource-group list does not cover.
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, indexBy, stubInstance, text, type FakeRequest, type FakeRoute, type FakeWorld, type Listed, type RestItem, type RestReader } from '../../rest/reader.ts';
import { mapLimit } from '../../../limit.ts';
import { ARM, CONCURRENCY, LIST_FROM, lower, type ArmJson } from '../kit.ts';

export type Attrs = Record<string, any>;

/** The object without its undefined keys: nested blocks compare on the keys both sides hold, so an unknown stays out. */
export function clean<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A value ARM answered, else undefined (not compared). */
export const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
/** `Enabled`/`Disabled` as a boolean; undefined when ARM did not answer it. */
export const enabled = (v: unknown): boolean | undefined => (typeof v === 'string' ? v.toLowerCase() === 'enabled' : undefined);
export const flag = (b: unknown): string | undefined => (typeof b === 'boolean' ? (b ? 'Enabled' : 'Disabled') : undefined);
export const first = (v: unknown): Attrs => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
export const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/**
 * ARM answers some ids with segment names in another case than the provider writes (identity
 * keys under `resourcegroups`, plans under `serverfarms`): the provider parses them
 * insensitively and writes the canonical form, so the canonical segment names are restored.
 */
const SEGMENTS = ['subscriptions', 'resourceGroups', 'providers', 'userAssignedIdentities', 'serverFarms', 'workspaces', 'virtualNetworks', 'subnets', 'flexibleServers', 'storageAccounts', 'components'];
const BY_LOWER = new Map(SEGMENTS.map((s) => [s.toLowerCase(), s]));
const NAMESPACES = ['Microsoft.ManagedIdentity', 'Microsoft.Web', 'Microsoft.OperationalInsights', 'Microsoft.Network', 'Microsoft.DBforPostgreSQL', 'Microsoft.Storage', 'Microsoft.Insights'];
const NS_BY_LOWER = new Map(NAMESPACES.map((s) => [s.toLowerCase(), s]));
export function canonicalId(id: unknown): string | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const parts = id.split('/');
  // Even positions after the leading '' are segment names (key/value pairs), the namespace follows `providers`.
  return parts.map((p, i) => {
    if (i === 0) return p;
    if (i % 2 === 1) return BY_LOWER.get(p.toLowerCase()) ?? p;
    return parts[i - 1].toLowerCase() === 'providers' ? NS_BY_LOWER.get(p.toLowerCase()) ?? p : p;
  }).join('/');
}

/**
 * An ARM id as the state spells it when they differ only in case (ARM ids are case-insensitive,
 * and provider versions differ: older ones wrote ARM's `serverfarms`, later ones the parsed
 * `serverFarms`); else in its canonical form.
 */
export function idAsState(live: unknown, state: unknown): string | undefined {
  if (typeof live !== 'string' || !live) return undefined;
  if (typeof state === 'string' && state.toLowerCase() === live.toLowerCase()) return state;
  return canonicalId(live);
}
export const idsAsState = (live: unknown[], state: unknown): string[] =>
  live.map((id) => idAsState(id, list(state).find((s) => typeof s === 'string' && s.toLowerCase() === String(id).toLowerCase())) ?? String(id));

/** ARM `identity` as the provider's `identity` block (principal and tenant ids are computed and ignored). */
export function identityToState(identity: ArmJson | undefined, stateBlock?: unknown): Attrs[] {
  if (!identity || !identity.type || /^none$/i.test(identity.type)) return [];
  const ids = idsAsState(Object.keys(identity.userAssignedIdentities ?? {}), first(stateBlock).identity_ids);
  // ARM writes `SystemAssigned,UserAssigned`; the provider `SystemAssigned, UserAssigned`.
  const type = String(identity.type).split(/\s*,\s*/).join(', ');
  return [clean({ type, identity_ids: ids, principal_id: opt(identity.principalId), tenant_id: opt(identity.tenantId) })];
}
export function identityFromState(block: unknown): ArmJson | undefined {
  const b = first(block);
  if (!b.type) return undefined;
  const uai = Object.fromEntries(list(b.identity_ids).map((id: string) => [id, { principalId: null, clientId: null }]));
  return clean({ type: b.type, principalId: b.principal_id || undefined, tenantId: b.tenant_id || undefined, userAssignedIdentities: list(b.identity_ids).length ? uai : undefined });
}

export interface ParentList {
  type: string;
  apiVersion: string;
  /** The parent a resource id is listed under (`/subscriptions/S/.../servers/X`), from the resource's id. */
  parentOf(id: string): string | undefined;
  /** The list path under the parent, e.g. `/firewallRules`. */
  suffix: string;
  /** The fake's route for the list (a path pattern). */
  route: string;
  /** The request path's parent (for the fake), default: the path without `suffix`. */
  parentOfRequest?(req: FakeRequest): string;
  /** The mapped reader (armReader), used for the items read one by one and for its answers. */
  base: RestReader;
  idOf(attributes: Attrs): string | undefined;
  toState(json: ArmJson, instance: StateInstance): LiveAttributes;
  fromState(instanceAttributes: Attrs): ArmJson;
  /** What the parent's list answers of an item, when less than its GET (the fake answers that). */
  listItem?(json: ArmJson): ArmJson;
  /** List mode (Cloud Discovery) when the parent is the subscription itself: `parentOf` of `/subscriptions/S/`. */
  subscriptionParent?: boolean;
}

/**
 * A reader that lists each parent holding LIST_FROM or more of the items once (paged), and reads
 * the others one by one through `base`. The fake answers the list from the state's instances
 * under that parent.
 */
export function withParentList(p: ParentList): RestReader {
  const route: FakeRoute = {
    method: 'GET', service: ARM, path: p.route,
    answer: (req: FakeRequest, world: FakeWorld) => {
      const parent = lower(p.parentOfRequest ? p.parentOfRequest(req) : req.path.slice(0, req.path.length - p.suffix.length));
      const under = world.of(p.type).filter((i) => lower(p.parentOf(p.idOf(i.attributes) ?? '') ?? '') === parent);
      const item = (json: ArmJson) => (p.listItem ? p.listItem(json) : json);
      return fakeList(under.map((i) => item({ id: p.idOf(i.attributes), name: (p.idOf(i.attributes) ?? '').split('/').pop(), ...p.fromState(i.attributes) })));
    },
  };
  // The parent is the subscription (role assignments): the parent's list is the subscription's list mode.
  const list = p.subscriptionParent
    ? async (api: RestApi, account: string): Promise<Listed[]> => {
      const all = await api.list<ArmJson>(ARM, `/subscriptions/${account}${p.suffix}?api-version=${p.apiVersion}`, `list ${p.type} in subscription ${account}`, { style: 'nextLink' });
      return all.filter((j) => typeof j.id === 'string').map((j) => ({ id: j.id as string, location: null, attributes: p.toState(j, stubInstance(p.type, j.id as string)) }));
    }
    : undefined;
  return {
    spec: p.base.spec,
    fake: [...p.base.fake, route],
    ...(list ? { list } : {}),
    async read(items: RestItem[], api: RestApi) {
      const ids = items.map((it) => p.idOf(it.instance.attributes));
      const counts = new Map<string, { parent: string; n: number }>();
      for (const id of ids) {
        const parent = id && p.parentOf(id);
        if (!parent) continue;
        const c = counts.get(lower(parent)) ?? { parent, n: 0 };
        c.n++;
        counts.set(lower(parent), c);
      }
      const listed = new Map<string, Map<string, ArmJson>>();
      const parents = [...counts].filter(([, c]) => c.n >= LIST_FROM);
      await mapLimit(parents, CONCURRENCY, async ([key, { parent }]) => {
        const path = `${parent}${p.suffix}`;
        const all = await api.once(`arm-list:${path}`, () => api.list<ArmJson>(ARM, `${path}?api-version=${p.apiVersion}`, `list ${p.type} under ${parent}`, { style: 'nextLink' }));
        listed.set(key, indexBy(all, (x) => text(x.id)));
      });
      const parentKey = (k: number) => lower((ids[k] && p.parentOf(ids[k]!)) ?? '');
      const singleAt = items.map((_, k) => k).filter((k) => !listed.has(parentKey(k)));
      const singles = singleAt.length ? await p.base.read(singleAt.map((k) => items[k]), api) : [];
      const out: (LiveAttributes | null)[] = items.map((it, k) => {
        const json = listed.get(parentKey(k))?.get(lower(ids[k] ?? ''));
        return json ? p.toState(json, it.instance) : null;
      });
      singleAt.forEach((k, j) => { out[k] = singles[j] ?? null; });
      return out;
    },
  };
}

/** Tags as the provider writes them: a map, empty when ARM has none. */
export const tags = (json: ArmJson): Record<string, string> => json.tags ?? {};

/**
 * Older provider versions left null in state what later ones write as false, 0 or '' (an unset
 * optional-computed attribute: large_file_share_enabled, secure_boot_enabled...). A state null
 * against that live default is the same value, not a drift; against anything else it is one.
 */
export function withNullDefaults(reader: RestReader): RestReader {
  const isDefault = (v: unknown) => v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0);
  return {
    ...reader,
    async read(items, api, state) {
      const live = await reader.read(items, api, state);
      return live.map((l, k) => {
        if (!l) return l;
        const attrs = items[k].instance.attributes;
        const drop = Object.keys(l).filter((key) => attrs[key] === null && isDefault(l[key]));
        if (!drop.length) return l;
        const out = { ...l };
        for (const key of drop) delete out[key];
        return out;
      });
    },
  };
}
