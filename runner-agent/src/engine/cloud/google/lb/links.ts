// What the load-balancing readers share beyond compute/common.ts: lists of Compute links read
// back in the state's own form (the provider keeps what the API answers, older states a name or
// a relative path), so a link the state writes another way is no drift.
import { last } from '../kit.ts';
import { link, list, strings } from '../compute/common.ts';

/** Each live link in the form the state holds the same resource in (by its relative path, or its name). */
export function links(live: unknown, state: unknown): string[] {
  const mine = strings(state);
  return strings(live).map((l) => link(l, mine.find((s) => link(l, s) === s) ?? mine.find((s) => !s.includes('/') && last(s) === last(l))));
}

/** The `n`th element of a state block list (the live block's counterpart, for links inside it). */
export const nth = (v: unknown, n: number): Record<string, any> => (list(v)[n] && typeof list(v)[n] === 'object' ? list(v)[n] : {});

/** A state link as the fake answers it (the API always writes full v1 URLs). */
export const full = (v: unknown): string | undefined => {
  if (typeof v !== 'string' || !v) return undefined;
  return v.startsWith('http') ? v : v.includes('/') ? `https://www.googleapis.com/compute/v1/${v.replace(/^\/+/, '')}` : v;
};
