// Defaults the API leaves out, written the way the state holds them. A provider writes 0 or false
// for an unset number or flag, but older states (and some resources) hold null: compared with
// the provider's default, that null would be a drift nobody made.
import { isEmpty, isObject } from '../../values.ts';

/** The live value; when the API left it out, the provider's default, or the state's own empty value (null). */
export const orDefault = <T>(live: T | undefined, state: unknown, dflt: T): T | null | undefined =>
  live ?? (state === null || state === undefined ? (state as null | undefined) : dflt);

/** A value with every false, 0, empty string, empty list and empty map left out (recursively). */
export function withoutDefaults(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDefaults).filter((x) => !isEmpty(x));
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = withoutDefaults(x);
      if (!isEmpty(n) && n !== false && n !== 0) out[k] = n;
    }
    return out;
  }
  return v;
}

/**
 * A nested block the API always answers (rollback settings, cache): a list of one element, or the
 * state's empty list when the answer holds only defaults and the state holds the block empty.
 */
export function blockAs(live: Record<string, unknown> | undefined, state: unknown): Record<string, unknown>[] {
  if (!live) return [];
  const stateHasNone = !Array.isArray(state) || state.length === 0;
  return stateHasNone && isEmpty(withoutDefaults(live)) ? [] : [live];
}
