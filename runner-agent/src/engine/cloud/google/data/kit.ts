// The storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry readers share one addition to
// the Google kit (kept here, additive): a parent's list call. These APIs answer full resources in
// their lists (buckets of a project, topics of a project, instances of a project, databases and
// users of an instance, repositories of a location), so when several state instances share a
// parent, one paged list reads them all; fewer are read one GET each (a project may hold far more
// than the state names). The fake answers the list from the state, through the same `fromState`.
import { CONCURRENCY, googleReader, ownProject, type GJson, type GoogleType, LIST_FROM } from '../kit.ts';
import { mapLimit } from '../../../limit.ts';
import { ownLocation } from '../scope.ts';
import { fakeList, indexBy, stubInstance, type FakeRequest, type Listed, type FakeWorld, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import type { LiveAttributes } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { canonicalText } from '../../../values.ts';

export interface ParentList {
  /** The list call that answers this resource (query included), e.g. `/storage/v1/b?project=P`; undefined when unknown. */
  path(attributes: Record<string, any>, scope: Scope): string | undefined;
  /** The fake's route pattern for that path, without its query. */
  route: string;
  /** The key of the items in a page (`items`, `topics`, `subscriptions`, `repositories`...). */
  key: string;
  /** The path `pathOf` gives for a listed item (`listPath` is the list it came from, without its query). */
  pathOfItem(json: GJson, listPath: string): string | undefined;
  /** How an item is found among its list's when not by its path (a SQL user: by name, and host when both name one). */
  find?(all: GJson[], attributes: Record<string, any>): GJson | undefined;
  /** Least items sharing a list for it to be read by the list (default LIST_FROM; 1: always listed). */
  from?: number;
  /**
   * Whether an item its list lacks is read again by its own GET before it counts as gone: a bucket
   * is named without its project, and a state may name the wrong project for it.
   */
  confirmMissing?: boolean;
  /**
   * List mode (Cloud Discovery): the project's list of every resource of the type, the id the state
   * holds for a listed one (what `terraform import` takes), and where it lives (null: global).
   */
  discover?: { path(project: string): string; id(json: GJson): string | undefined; location(json: GJson): string | null };
}

/** A list path's identity: its path and query without the page token, parameters sorted. */
function listKey(pathAndQuery: string): string {
  const u = new URL(pathAndQuery, 'http://x');
  u.searchParams.delete('pageToken');
  u.searchParams.sort();
  return `${u.pathname}?${u.searchParams.toString()}`;
}

/** A state instance's scope as the fake sees it: its own project, else the request's. */
const fakeScope = (a: Record<string, unknown>, req: FakeRequest): Scope => ({
  account: ownProject(a) ?? req.params.project ?? '', location: ownLocation(a) ?? req.params.location ?? null, source: 'fake',
});

export function listedReader(t: GoogleType, list: ParentList): RestReader {
  const base = googleReader(t);
  const from = list.from ?? LIST_FROM;
  return {
    spec: base.spec,
    fake: [...base.fake, {
      method: 'GET', service: t.service, path: list.route,
      answer: (req: FakeRequest, world: FakeWorld) => {
        const want = listKey(`${req.path}?${req.query.toString()}`);
        const items = world.of(t.type).filter((i) => { const p = list.path(i.attributes, fakeScope(i.attributes, req)); return p !== undefined && listKey(p) === want; });
        return fakeList(items.map((i) => t.fromState(i.attributes, i)), list.key);
      },
    }],
    ...(list.discover ? { list: (api: RestApi, project: string) => discover(t, list, api, project) } : {}),
    async read(items: RestItem[], api: RestApi): Promise<(LiveAttributes | null)[]> {
      const lists = items.map((it) => list.path(it.instance.attributes, it.scope));
      const count = new Map<string, number>();
      for (const p of lists) if (p) count.set(p, (count.get(p) ?? 0) + 1);
      // The lists to read, a bounded number at a time (an instance's databases, many instances).
      const paths = [...count].filter(([, n]) => n >= from).map(([p]) => p);
      // The cache holds the list itself (as discover's does): a discovery after the scan reuses it.
      const read = await mapLimit(paths, CONCURRENCY, async (p) => {
        const all = await api.once(`gcp-list:${t.service}${p}`, () => api.list<GJson>(t.service, p, `list ${t.type} ${p}`, { style: 'pageToken', items: list.key }));
        return { all, byPath: indexBy(all, (x) => list.pathOfItem(x, p.split('?')[0])) };
      });
      const listed = new Map(paths.map((p, k) => [p, read[k]]));
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      const single: number[] = [];
      items.forEach((it, k) => {
        const got = lists[k] ? listed.get(lists[k]) : undefined;
        if (!got) { single.push(k); return; }
        const path = t.pathOf(it.instance.attributes, it.scope);
        const json = list.find ? list.find(got.all, it.instance.attributes) : path ? got.byPath.get(path.toLowerCase()) : undefined;
        if (json) out[k] = t.toState(json, it.instance);
        else if (list.confirmMissing) single.push(k);
      });
      if (single.length) (await base.read(single.map((k) => items[k]), api)).forEach((v, n) => { out[single[n]] = v; });
      return out;
    },
  };
}

async function discover(t: GoogleType, list: ParentList, api: RestApi, project: string): Promise<Listed[]> {
  const d = list.discover!;
  const path = d.path(project);
  // The same cache key as a scan's read of that list: one call when both need it.
  const all = await api.once(`gcp-list:${t.service}${path}`, () => api.list<GJson>(t.service, path, `list ${t.type} in ${project}`, { style: 'pageToken', items: list.key }));
  return all.flatMap((j) => {
    const id = d.id(j);
    return id ? [{ id, location: d.location(j), attributes: t.toState(j, stubInstance(t.type, id)) }] : [];
  });
}

/** A block the API may omit or answer with its defaults: compared as a set keyed on its non-default values. */
export const setOfNonEmpty = (pick: (e: Record<string, any>) => Record<string, unknown>) => (e: unknown): string[] => {
  const v = pick((e ?? {}) as Record<string, any>);
  const kept = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== '' && x !== 0 && x !== false && !(Array.isArray(x) && x.length === 0)));
  return Object.keys(kept).length ? [canonicalText(kept)] : [];
};

/** The state's own text when it means the same as the live one (a reference written short or long, a case): no false drift. */
export const sameAs = (stateValue: unknown, live: string | undefined, equal: (a: string, b: string) => boolean): string | undefined =>
  typeof stateValue === 'string' && live !== undefined && equal(stateValue, live) ? stateValue : live;

/** A nested block the provider writes as a one-element list when the API answers it, else []. */
export const opt = <T>(present: unknown, block: () => T): T[] => (present ? [block()] : []);
/** `'7'`, 7 or undefined as the provider's integer (the APIs write int64 as strings). */
export const int = (v: unknown): number => (v === undefined || v === null || v === '' ? 0 : Number(v));
/** The last segment of a resource name. */
export const short = (v: unknown): string => (typeof v === 'string' ? v.split('/').pop() ?? '' : '');
