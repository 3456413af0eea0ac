// Helpers of the tail/ readers: a reader for a resource that is one reference inside another's
// JSON (an association: gone when the reference is), and the value shapes they share.
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { FakeRoute, RestReader } from '../../rest/reader.ts';
import { mapLimit } from '../../../limit.ts';
import { ARM, CONCURRENCY, lower, type ArmJson } from '../kit.ts';

export type Attrs = Record<string, any>;
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const list = <T = any>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
export const bool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);
/** The first of several attribute names (provider 3.x and 4.x spell some switches differently) the state holds as a boolean. */
export const either = (a: Attrs, names: string[], dflt: boolean): boolean => bool(names.map((n) => a[n]).find((v) => typeof v === 'boolean'), dflt);
/** A live string equal to the state's but for case (ARM ids, enums) takes the state's spelling. */
export const asState = (live: unknown, state: unknown): string => {
  const l = str(live);
  return typeof state === 'string' && lower(state) === lower(l) ? state : l;
};
/** ARM ids as the state spells them, when equal but for case. */
export const idsAsState = (live: unknown[], state: unknown): string[] =>
  live.map((id) => asState(id, list(state).find((s) => lower(str(s)) === lower(str(id)))));

export interface RefType {
  type: string;
  apiVersion: string;
  /** The ARM id of the resource whose JSON holds the reference. */
  source(a: Attrs): string | undefined;
  /** The association's attributes from that JSON; null when the reference is gone. */
  toState(json: ArmJson, instance: StateInstance): LiveAttributes | null;
  fake: FakeRoute[];
}

/**
 * One GET per distinct source (shared through api.once with the other types reading it in the
 * scan), the reference picked out. Never the group's list: the source's own type answers that,
 * and its list knows nothing of the associations a state may hold without it.
 */
export function refReader(t: RefType): RestReader {
  return {
    spec: {},
    fake: t.fake,
    async read(items, api) {
      const sources = items.map((it) => t.source(it.instance.attributes));
      const got = new Map<string, ArmJson | null>();
      const unique = [...new Map(sources.filter((x): x is string => !!x).map((id) => [lower(id), id])).values()];
      await mapLimit(unique, CONCURRENCY, async (id) => {
        got.set(lower(id), await api.once(`arm-get:${lower(id)}?${t.apiVersion}`, () => api.get<ArmJson>(ARM, `${id}?api-version=${t.apiVersion}`, `GET ${t.type} ${id}`)));
      });
      return items.map((it, k) => {
        const json = sources[k] ? got.get(lower(sources[k])) : null;
        return json ? t.toState(json, it.instance) : null;
      });
    },
  };
}
