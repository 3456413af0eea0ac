// Proves on paper that every query uses an index (DESIGN.md: the embedded database scans,
// production MongoDB must not). A query is covered by an index when its equality fields
// are exactly the index's leading keys, its sort fields come next in order (or all
// reversed), or, with no equality field, the index starts with a range or sort field.
// A match on _id is always covered by the _id index.
import type { CollectionSpec } from './db.ts';

export interface QueryShape { collection: string; command: string; filter: Record<string, unknown>; sort: Record<string, number> | null }
interface Parts { eq: Set<string>; range: Set<string> }

const EQUALITY_OPS = new Set(['$eq', '$in']);

/** The equality and range fields of a filter; `$or` yields one set per branch. */
export function filterParts(filter: Record<string, unknown>): Parts[] {
  let variants: Parts[] = [{ eq: new Set(), range: new Set() }];
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (key === '$and' && Array.isArray(value)) {
      for (const sub of value) variants = combine(variants, filterParts(sub as Record<string, unknown>));
    } else if (key === '$or' && Array.isArray(value)) {
      // Every branch must be served by an index: one variant per branch.
      variants = combine(variants, value.flatMap((sub) => filterParts(sub as Record<string, unknown>)));
    } else if (key.startsWith('$')) {
      continue; // $comment, $expr: not index-relevant here
    } else if (isOperatorObject(value)) {
      const ops = Object.keys(value as object);
      const target = ops.every((op) => EQUALITY_OPS.has(op)) ? 'eq' : 'range';
      for (const v of variants) v[target].add(key);
    } else {
      for (const v of variants) v.eq.add(key);
    }
  }
  return variants;
}

function combine(left: Parts[], right: Parts[]): Parts[] {
  return left.flatMap((l) => right.map((r) => ({ eq: new Set([...l.eq, ...r.eq]), range: new Set([...l.range, ...r.range]) })));
}

const isOperatorObject = (v: unknown) =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).some((k) => k.startsWith('$'));

export function covers(index: Record<string, number>, parts: Parts, sort: Record<string, number> | null): boolean {
  const keys = Object.keys(index);
  if (parts.eq.has('_id')) return true;
  const eq = parts.eq;
  const prefix = keys.slice(0, eq.size);
  if (prefix.length !== eq.size || !prefix.every((k) => eq.has(k))) return false;
  const sortKeys = Object.entries(sort ?? {}).filter(([k]) => !eq.has(k));
  if (sortKeys.length) {
    const next = keys.slice(eq.size, eq.size + sortKeys.length);
    if (next.length !== sortKeys.length || !next.every((k, i) => k === sortKeys[i][0])) return false;
    const same = sortKeys.every(([k, d]) => Math.sign(index[k]) === Math.sign(d));
    const reversed = sortKeys.every(([k, d]) => Math.sign(index[k]) === -Math.sign(d));
    if (!same && !reversed) return false;
  }
  if (eq.size === 0 && sortKeys.length === 0) return parts.range.has(keys[0]);
  return true;
}

export interface Uncovered { owner: string; collection: string; command: string; filter: string; sort: string }

export function uncoveredQueries(queries: QueryShape[], specs: Map<string, CollectionSpec>): Uncovered[] {
  const seen = new Set<string>();
  const out: Uncovered[] = [];
  for (const q of queries) {
    const spec = specs.get(q.collection);
    if (spec?.unchecked) continue;
    // estimatedDocumentCount: MongoDB answers a count without a filter from collection metadata.
    if (q.command === 'count' && !Object.keys(q.filter ?? {}).length) continue;
    const shape = JSON.stringify([q.collection, shapeOf(q.filter), q.sort]);
    if (seen.has(shape)) continue;
    seen.add(shape);
    const ok = spec && filterParts(q.filter).every((parts) => [{ key: { _id: 1 } }, ...spec.indexes].some((i) => covers(i.key as Record<string, number>, parts, q.sort)));
    if (!ok) out.push({ owner: spec?.owner ?? '(no store declares this collection)', collection: q.collection, command: q.command, filter: JSON.stringify(shapeOf(q.filter)), sort: JSON.stringify(q.sort ?? {}) });
  }
  return out;
}

/** The filter with values replaced by their operator names, for readable reports. */
function shapeOf(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(shapeOf);
  if (!filter || typeof filter !== 'object') return 1;
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, k.startsWith('$') || isOperatorObject(v) ? shapeOfOps(v) : 1]));
}
function shapeOfOps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, 1]));
  return 1;
}
