// The MongoDB filters and sorts core/ferret-reads.ts asks of FerretDB's PostgreSQL, as SQL over a
// collection's table (`_jsonb`, FerretDB 1.24's storage of one document). An exact subset; any
// other form (a date or null compared, an operator not below, a regex that is not an escaped
// literal) gives null, and the caller reads through the driver as before. Each form keeps
// MongoDB's meaning for the fields the stores keep (never of mixed types):
//   - top-level equality is FerretDB's own pushdown, `_jsonb->'f' @> value` (GIN-served; an
//     array holding the value matches, as in MongoDB); `$ne`, `$nin` and `$nor` are negations
//     where a missing field matches, as in MongoDB;
//   - a dotted path (`name.familyName`, `emails.value`) and `$regex` are SQL/JSON path tests in
//     lax mode (`jsonb_path_exists`), which step into arrays as MongoDB does; a regex is pushed
//     only as an escaped ASCII literal with optional anchors (what lib/scim and the drift filters
//     make), whose meaning is the same in PostgreSQL's regex engine; `$` also before a final
//     newline, as PCRE's. Case-insensitive (`i`) folds ASCII letters: a value holding the Kelvin
//     sign or the long s (U+212A, U+017F) is the one place MongoDB's folding matches more;
//   - a string range compares strings only, in bytes (COLLATE "C", MongoDB's binary order);
//   - a sort orders missing and null first, then numbers (FerretDB stores dates as numbers),
//     then strings in bytes, descending the reverse: MongoDB's order over these types.

type Scalar = string | number | boolean;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isPlain = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
/** An escaped literal (lib/scim's and the drift filter's escapeRegex) between optional anchors; ASCII only. */
const LITERAL = /^(\^?)((?:[^\\.*+?^${}()|[\]]|\\[.*+?^${}()|[\]\\])*)(\$?)$/;

export interface Sql { text: string; args: unknown[] }

/** A builder of one statement's arguments ($1, $2, ...). */
export class Args {
  readonly values: unknown[] = [];
  add(v: unknown) { this.values.push(v); return `$${this.values.length}`; }
}

const col = (a: Args, field: string) => `_jsonb->${a.add(field)}::text`;

/** A SQL/JSON path test on the values at a (dotted) path, arrays stepped into; `$v0`.. are `vars`. */
const pathTest = (a: Args, path: string, predicate: string, vars: Record<string, unknown> = {}) =>
  `jsonb_path_exists(_jsonb, ${a.add(`lax $${path.split('.').map((p) => `."${p}"`).join('')} ? (${predicate})`)}::jsonpath, ${a.add(JSON.stringify(vars))}::jsonb)`;

/** The PostgreSQL pattern of a MongoDB regex of the pushed form, or null. */
function regexOf(src: unknown, options: unknown): string | null {
  if (typeof src !== 'string' || (options !== undefined && options !== '' && options !== 'i') || !/^[\x20-\x7e]*$/.test(src)) return null;
  const m = LITERAL.exec(src);
  if (!m) return null;
  const pattern = `${m[1]}${m[2]}${m[3] ? '\\n?$' : ''}`;
  return `@ like_regex ${JSON.stringify(pattern)}${options === 'i' ? ' flag "i"' : ''}`;
}

/** Equality with any of the values at a path (null: missing or null, top-level only). */
function anyEqual(a: Args, path: string, values: unknown[]): string | null {
  if (!values.length) return 'false';
  const top = !path.includes('.');
  if (!values.every((v) => isScalar(v) || (v === null && top))) return null;
  if (top) return `(${values.map((v) => v === null ? `(${col(a, path)} IS NULL OR ${col(a, path)} @> 'null'::jsonb)` : `${col(a, path)} @> ${a.add(JSON.stringify(v))}::jsonb`).join(' OR ')})`;
  return pathTest(a, path, values.map((_, i) => `@ == $v${i}`).join(' || '), Object.fromEntries(values.map((v, i) => [`v${i}`, v])));
}

/** The condition on one path, or null when it has a form outside the subset. */
function fieldOf(path: string, cond: unknown, a: Args): string | null {
  if (!PATH.test(path)) return null;
  const top = !path.includes('.');
  if (isScalar(cond)) return top ? `${col(a, path)} @> ${a.add(JSON.stringify(cond))}::jsonb` : anyEqual(a, path, [cond]);
  if (!isPlain(cond)) return null;
  const ops = Object.keys(cond);
  // A boolean "range" of one value (lib/scim's eq on a boolean) is that equality.
  if (ops.length === 2 && typeof cond.$gte === 'boolean' && cond.$gte === cond.$lte) return fieldOf(path, cond.$gte, a);
  const parts: string[] = [];
  for (const [op, v] of Object.entries(cond)) {
    let part: string | null = null;
    if (op === '$in' && Array.isArray(v)) part = anyEqual(a, path, v);
    else if (op === '$ne' && isScalar(v)) { const eq = anyEqual(a, path, [v]); part = eq && `NOT coalesce(${eq}, false)`; }
    else if (op === '$nin' && Array.isArray(v)) { const eq = anyEqual(a, path, v); part = eq && `NOT coalesce(${eq}, false)`; }
    else if (op in RANGE && typeof v === 'string') {
      if (top) { const c = col(a, path); part = `(jsonb_typeof(${c}) = 'string' AND (${c} #>> '{}') COLLATE "C" ${RANGE[op]} ${a.add(v)})`; }
      else part = pathTest(a, path, `@.type() == "string" && @ ${RANGE[op]} $v`, { v });
    } else if (op === '$regex') {
      const predicate = regexOf(v, cond.$options);
      part = predicate && pathTest(a, path, predicate);
    } else if (op === '$options' && '$regex' in cond) continue;
    else if (op === '$exists' && typeof v === 'boolean' && top) part = `${v ? '' : 'NOT '}(_jsonb ? ${a.add(path)})`;
    if (part === null) return null;
    parts.push(part);
  }
  return parts.length ? parts.join(' AND ') : null;
}

/** The WHERE condition of a filter, or null when the filter has a form outside the subset. */
export function whereOf(filter: Record<string, unknown>, a: Args): string | null {
  const parts: string[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(cond) || !cond.length) return null;
      const subs = cond.map((c) => (isPlain(c) ? whereOf(c, a) : null));
      if (subs.some((x) => x === null)) return null;
      const joined = `(${subs.map((x) => `(${x})`).join(key === '$and' ? ' AND ' : ' OR ')})`;
      // A test on a missing field is SQL NULL, which is false: so too under the negation.
      parts.push(key === '$nor' ? `NOT coalesce(${joined}, false)` : joined);
      continue;
    }
    const part = fieldOf(key, cond, a);
    if (part === null) return null;
    parts.push(part);
  }
  return parts.length ? parts.join(' AND ') : 'true';
}

/**
 * The columns of a sort, each with its direction: three per field (type rank, number, string) so
 * the order is MongoDB's over mixed types. Field names are inlined as literals (they match FIELD),
 * not passed as arguments: PostgreSQL serves an ORDER BY from a btree expression index only when
 * the expressions are the same, and core/ferret-gin.ts makes those indexes from these columns.
 * NULLS is explicit on every column, so an index made for a sort serves it forward and its exact
 * reverse backward.
 */
export function sortColumns(sort: Record<string, 1 | -1>): string[] | null {
  const keys: string[] = [];
  for (const [field, dir] of Object.entries(sort)) {
    if (!FIELD.test(field) || (dir !== 1 && dir !== -1)) return null;
    const c = `(_jsonb->'${field}')`;
    const d = dir === -1 ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
    keys.push(
      `(CASE jsonb_typeof(${c}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'boolean' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 5 ELSE 0 END) ${d}`,
      `(CASE WHEN jsonb_typeof(${c}) = 'number' THEN (${c})::numeric END) ${d}`,
      `((CASE WHEN jsonb_typeof(${c}) = 'string' THEN ${c} #>> '{}' END) COLLATE "C") ${d}`,
    );
  }
  return keys.length ? keys : null;
}

/** ORDER BY for a sort document, or null when a key is outside the subset. */
export function orderOf(sort: Record<string, 1 | -1>): string | null {
  return sortColumns(sort)?.join(', ') ?? null;
}

/** The value of a grouped field as the driver would give it (strings, numbers, booleans, null). */
export const groupValue = (v: unknown) => (v === undefined ? null : v);
