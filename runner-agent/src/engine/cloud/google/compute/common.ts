// What the Compute Engine readers share: where a zonal, regional or global resource lives (its
// path from the state's project, zone or region and name), how a Compute link in the API's JSON
// is written back in the state's own form, and `computeReader`: the kit's reader plus, for global
// types, one paged list of the project (`/global/firewalls`...) when several are read in it.
import type { LiveAttributes } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { indexBy, text, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import { googleReader, last, LIST_FROM, ownProject, selfLink, type GJson, type GoogleType } from '../kit.ts';
import { ownLocation } from '../scope.ts';

export const API = '/compute/v1/projects';
export type Attrs = Record<string, any>;

/** The project of a resource: its own attributes first (the fake has no scope), else the scan's. */
const projectOf = (a: Attrs, scope: Scope) => ownProject(a) ?? (scope.account || undefined);

/** The resource's name: its `name`, else the last segment of its id (older providers' ids are the bare name). */
export const nameOf = (a: Attrs): string | undefined => text(a.name) ?? (text(a.id) ? last(a.id) || undefined : undefined);

/** `/compute/v1/projects/P/zones/Z/<kind>/N`: the zone from the state (short or a URL), its self link, else the scope. */
export function zonalPath(kind: string, a: Attrs, scope: Scope): string | undefined {
  const project = projectOf(a, scope);
  const zone = ownLocation(a) ?? scope.location;
  const name = nameOf(a);
  return name && project && zone ? `${API}/${project}/zones/${last(zone)}/${kind}/${name}` : undefined;
}
export function regionalPath(kind: string, a: Attrs, scope: Scope): string | undefined {
  const project = projectOf(a, scope);
  const region = ownLocation(a) ?? scope.location;
  const name = nameOf(a);
  return name && project && region ? `${API}/${project}/regions/${last(region)}/${kind}/${name}` : undefined;
}
export function globalPath(kind: string, a: Attrs, scope: Scope): string | undefined {
  const project = projectOf(a, scope);
  const name = nameOf(a);
  return name && project ? `${API}/${project}/global/${kind}/${name}` : undefined;
}
/** The self link the fake answers for a state (what the API would write). */
export const ownSelfLink = (a: Attrs, path: (a: Attrs, s: Scope) => string | undefined) =>
  text(a.self_link) ?? selfLink(path(a, { account: '', location: null, source: 'fake' }) ?? '');

/** A Compute link relative to the API root: `projects/P/global/networks/N`. */
const relative = (s: string) => s.replace(/^https?:\/\/[^/]+\/compute\/(?:v1|beta|alpha)\//, '').replace(/^\/+/, '');

/**
 * A link the API answers (always a full URL) in the form the state holds it when both name the
 * same resource: the provider writes v1 URLs (ConvertSelfLinkToV1), older ones a relative path
 * or a bare name; a different resource comes back as the API's v1 URL.
 */
export function link(live: unknown, state?: unknown): string {
  const l = typeof live === 'string' ? live : '';
  if (!l) return '';
  if (typeof state === 'string' && state) {
    if (relative(state) === relative(l)) return state;
    if (!state.includes('/') && last(l) === state) return state;
  }
  return `https://www.googleapis.com/compute/v1/${relative(l)}`;
}
/** A state link as the API writes it (the fake's side): relative paths made full URLs; bare names kept. */
export const apiLink = (v: unknown): string | undefined =>
  typeof v === 'string' && v ? (v.includes('/') ? `https://www.googleapis.com/compute/v1/${relative(v)}` : v) : undefined;

export const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
export const strings = (v: unknown): string[] => list(v).filter((x) => typeof x === 'string');
/** Int64 fields come as JSON strings (`"sizeGb": "10"`): numbers, as the provider writes them. */
export const int = (v: unknown, dflt = 0): number => (v === undefined || v === null || v === '' ? dflt : Number(v));

/** API metadata `{items:[{key,value}]}` -> the provider's map, and back. */
export const metadataMap = (m: GJson | undefined): Record<string, string> =>
  Object.fromEntries(list(m?.items).map((x: GJson) => [String(x.key), String(x.value ?? '')]));
export const metadataItems = (m: unknown): GJson => ({
  fingerprint: 'fp', items: Object.entries(m && typeof m === 'object' ? m as Record<string, unknown> : {}).map(([key, value]) => ({ key, value })),
});

/** Labels the fake answers for a state: every label on the resource (provider 5+ `effective_labels`). */
export const stateLabels = (a: Attrs): Record<string, string> | undefined => a.effective_labels ?? a.labels ?? undefined;

/**
 * The kit's reader; with `globalList` (`firewalls`, `networks`...) the projects holding
 * LIST_FROM or more of the items are read with one paged `GET .../global/<list>` each, the
 * others one GET each (the kit's path).
 */
export function computeReader(t: GoogleType & { globalList?: string }): RestReader {
  const kind = t.globalList;
  // The kit's project list: list mode for Cloud Discovery, and the fake's answer to the list.
  const base = googleReader(kind ? { ...t, projectList: (project) => `${API}/${project}/global/${kind}` } : t);
  if (!kind) return base;
  return {
    spec: base.spec,
    fake: base.fake,
    list: base.list,
    async read(items: RestItem[], api: RestApi): Promise<(LiveAttributes | null)[]> {
      const paths = items.map((it) => t.pathOf(it.instance.attributes, it.scope));
      const n = new Map<string, number>();
      items.forEach((it, k) => { if (paths[k]) n.set(it.scope.account, (n.get(it.scope.account) ?? 0) + 1); });
      const listed = new Map<string, Map<string, GJson>>();
      for (const [project, count] of n) {
        if (count < LIST_FROM) continue;
        const path = `${API}/${project}/global/${kind}`;
        const all = await api.once(`gcp-list:${path}`, () => api.list<GJson>(t.service, path, `list ${kind} in ${project}`, { style: 'pageToken' }));
        listed.set(project, indexBy(all, (x) => (typeof x.selfLink === 'string' ? new URL(x.selfLink).pathname : undefined)));
      }
      const rest = items.map((it, k) => ({ it, k })).filter(({ it, k }) => paths[k] && !listed.has(it.scope.account));
      const got = await base.read(rest.map((x) => x.it), api);
      const out: (LiveAttributes | null)[] = items.map((it, k) => {
        const inList = listed.get(it.scope.account);
        const json = inList && paths[k] ? inList.get(paths[k]!.toLowerCase()) : undefined;
        return json ? t.toState(json, it.instance) : null;
      });
      rest.forEach((x, j) => { out[x.k] = got[j]; });
      return out;
    },
  };
}

/** An object without its undefined values: a nested block's keys are compared when both sides hold them. */
export function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
/** The `projects/P/` of a link. */
export const projectIn = (v: unknown): string => (typeof v === 'string' ? /(?:^|\/)projects\/([^/]+)/.exec(v)?.[1] ?? '' : '');
/** The region of a zone (`us-central1-a` -> `us-central1`). */
export const regionOfZone = (zone: string): string => zone.replace(/-[a-z]$/, '');
/** The Cloud KMS key of a key version name, as the provider writes `kms_key_self_link`. */
export const kmsKey = (v: unknown): string => (typeof v === 'string' ? v.split('/cryptoKeyVersions/')[0] : '');

/**
 * A zonal or regional reader for states that name no zone or region (pruned or hand-written
 * states; a scan whose provider block sets none): such an item is looked up by name in the
 * project's aggregated list (the kit's cached one) rather than reported deleted; when several
 * zones hold that name, the first in the list is compared.
 */
export function anyLocation(t: GoogleType & { aggregated: string }): RestReader {
  const base = googleReader(t);
  return {
    ...base,
    async read(items: RestItem[], api: RestApi): Promise<(LiveAttributes | null)[]> {
      const out = await base.read(items, api);
      const lost = items.map((it, k) => ({ it, k, name: nameOf(it.instance.attributes), project: projectOf(it.instance.attributes, it.scope) }))
        .filter((x) => out[x.k] === null && x.name && x.project && !t.pathOf(x.it.instance.attributes, x.it.scope));
      for (const x of lost) {
        const all = await aggregated(api, x.project!, t.aggregated);
        const found = all.find((j) => j.name === x.name);
        if (found) out[x.k] = t.toState(found, x.it.instance);
      }
      return out;
    },
  };
}
/** The project's aggregated list of a kind, once per scan (the kit's cache key). */
export function aggregated(api: RestApi, project: string, kind: string): Promise<GJson[]> {
  const path = `${API}/${project}/aggregated/${kind}?returnPartialSuccess=true`;
  return api.once(`gcp-agg:${path}`, () => api.list<GJson>('compute', path, `aggregatedList ${kind} in ${project}`, { style: 'pageToken' }));
}
