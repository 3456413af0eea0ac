// Rule predicates over scalar lists (client ids, thumbprints, alarm actions, version stages),
// shared by the family rule tables: "an entry was added" and "an entry was removed".
import type { DiffEntry } from '../../types.ts';
import { scalarKey } from '../../values.ts';

const entries = (v: unknown): Set<string> => new Set((Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).map(scalarKey).filter(Boolean));

/** `after` holds an entry `before` did not. */
export const gainsEntry = (d: DiffEntry): boolean => { const b = entries(d.before); return [...entries(d.after)].some((x) => !b.has(x)); };
/** `before` held an entry `after` does not. */
export const losesEntry = (d: DiffEntry): boolean => { const a = entries(d.after); return [...entries(d.before)].some((x) => !a.has(x)); };
