// The MongoDB filters and sorts core/ferret-reads.ts asks of FerretDB's PostgreSQL, as SQL over a
// collection's table (`_jsonb`, FerretDB 1.24's storage of one document). A small, exact subset:
// top-level fields only, compared with strings, numbers or booleans, by equality, `$in`, `$ne`,
// or a string range; anything else (`$or`, `$regex`, a dotted path, a date or null value) gives
// null, and the caller reads through the driver as before. Each form keeps MongoDB's meaning for
// the fields the stores keep (never of mixed types):
//   - equality is FerretDB's own pushdown, `_jsonb->'f' @> value` (GIN-served; an array holding
//     the value matches, as in MongoDB);
//   - `$ne` is its negation, and a missing field matches (as in MongoDB);
//   - a string range compares strings only, in bytes (COLLATE "C", MongoDB's binary order);
//   - a sort orders missing and null first, then numbers (FerretDB stores dates as numbers),
//     then strings in bytes, descending the reverse: MongoDB's order over these types.

type Scalar = string | number | boolean;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

export interface Sql { text: string; args: unknown[] }

/** A builder of one statement's arguments ($1, $2, ...). */
export class Args {
  readonly values: unknown[] = [];
  add(v: unknown) { this.values.push(v); return `$${this.values.length}`; }
}

const col = (a: Args, field: string) => `_jsonb->${a.add(field)}::text`;

/** The WHERE condition of a filter, or null when the filter has a form outside the subset. */
export function whereOf(filter: Record<string, unknown>, a: Args): string | null {
  const parts: string[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (!FIELD.test(field)) return null;
    if (isScalar(cond)) {
      parts.push(`${col(a, field)} @> ${a.add(JSON.stringify(cond))}::jsonb`);
      continue;
    }
    if (!cond || typeof cond !== 'object' || Array.isArray(cond) || cond instanceof Date) return null;
    for (const [op, v] of Object.entries(cond as Record<string, unknown>)) {
      if (op === '$in' && Array.isArray(v) && v.every(isScalar)) {
        parts.push(v.length ? `(${v.map((x) => `${col(a, field)} @> ${a.add(JSON.stringify(x))}::jsonb`).join(' OR ')})` : 'false');
      } else if (op === '$ne' && isScalar(v)) {
        parts.push(`NOT coalesce(${col(a, field)} @> ${a.add(JSON.stringify(v))}::jsonb, false)`);
      } else if (op in RANGE && typeof v === 'string') {
        const c = col(a, field);
        parts.push(`(jsonb_typeof(${c}) = 'string' AND (${c} #>> '{}') COLLATE "C" ${RANGE[op]} ${a.add(v)})`);
      } else {
        return null;
      }
    }
  }
  return parts.length ? parts.join(' AND ') : 'true';
}

/** ORDER BY for a sort document, or null when a key is outside the subset. */
export function orderOf(sort: Record<string, 1 | -1>, a: Args): string | null {
  const keys: string[] = [];
  for (const [field, dir] of Object.entries(sort)) {
    if (!FIELD.test(field)) return null;
    const c = col(a, field);
    const d = dir === -1 ? 'DESC' : 'ASC';
    keys.push(
      `(CASE jsonb_typeof(${c}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'boolean' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 5 ELSE 0 END) ${d}`,
      `(CASE WHEN jsonb_typeof(${c}) = 'number' THEN (${c})::numeric END) ${d} NULLS ${dir === -1 ? 'LAST' : 'FIRST'}`,
      `(CASE WHEN jsonb_typeof(${c}) = 'string' THEN ${c} #>> '{}' END) COLLATE "C" ${d} NULLS ${dir === -1 ? 'LAST' : 'FIRST'}`,
    );
  }
  return keys.join(', ');
}

/** The value of a grouped field as the driver would give it (strings, numbers, booleans, null). */
export const groupValue = (v: unknown) => (v === undefined ? null : v);
