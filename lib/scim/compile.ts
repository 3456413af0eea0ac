// A parsed SCIM filter (filter.ts) compiled to a MongoDB filter, so paging and filtering stay in
// the database on the indexes the attribute table marks `keyed`; what the compiler cannot express
// exactly (value filters: the embedded FerretDB has no $elemMatch) is widened and flagged
// `residual`, for match.ts to decide in memory.
import { invalidFilter } from './errors.ts';
import { resolve, type AttrDef, type Attrs } from './attributes.ts';
import type { CompareOp, Filter, Value } from './filter.ts';

// ---- Compilation to MongoDB ----

type Mongo = Record<string, unknown>;
export interface Compiled {
  /** A filter the database can serve; a superset of the matches when `residual` is set. */
  query: Mongo;
  /** The filter still to evaluate in memory on what `query` returns (a part the compiler cannot express exactly). */
  residual: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One comparison on one stored field; null when the database cannot decide it exactly. */
function compileCmp(field: string, def: AttrDef, op: CompareOp, value: Value, demote: { keyedUsed: boolean }): Mongo | null {
  const ci = def.type === 'string' && !def.caseExact;
  if (def.type === 'boolean') {
    if (typeof value !== 'boolean') throw invalidFilter(`"${op}" compares a boolean attribute with true or false`);
    // Ranges, not equalities: only keyed fields are compared with equality (one index each).
    if (op === 'eq') return { [field]: { $gte: value, $lte: value } };
    if (op === 'ne') return { [field]: { $nin: [value] } };
    throw invalidFilter(`"${op}" does not apply to a boolean attribute`);
  }
  if (def.type === 'dateTime') {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw invalidFilter('A dateTime attribute compares with an xsd:dateTime string');
    const d = new Date(value);
    const ops: Partial<Record<CompareOp, string>> = { eq: '$eq', ne: '$ne', gt: '$gt', ge: '$gte', lt: '$lt', le: '$lte' };
    if (!ops[op]) throw invalidFilter(`"${op}" does not apply to a dateTime attribute`);
    // As a range even for eq: only keyed fields are compared with equality (one index each).
    return op === 'eq' ? { [field]: { $gte: d, $lte: d } } : { [field]: { [ops[op]!]: d } };
  }
  if (value === null) {
    if (op === 'ne') return { [field]: { $nin: [null] } };
    if (op === 'eq') return null; // left to the evaluator
    throw invalidFilter(`"${op}" does not compare with null`);
  }
  if (typeof value !== 'string') throw invalidFilter(`"${field}" is a string attribute; compare it with a string`);
  const target = def.lower ?? field;
  const v = def.lower ? value.toLowerCase() : value;
  const regex = (src: string) => ({ [target]: { $regex: src, $options: ci && !def.lower ? 'i' : '' } });
  switch (op) {
    case 'eq':
      if (def.keyed && (!ci || def.lower) && !demote.keyedUsed) { demote.keyedUsed = true; return { [target]: v }; }
      if (!ci || def.lower) return { [target]: { $gte: v, $lte: v } };
      return regex(`^${escapeRegex(v)}$`);
    case 'ne': {
      const eq = compileCmp(field, { ...def, keyed: false }, 'eq', value, demote);
      return eq && { $nor: [eq] };
    }
    case 'co': return regex(escapeRegex(v));
    case 'sw': return regex(`^${escapeRegex(v)}`);
    case 'ew': return regex(`${escapeRegex(v)}$`);
    default: {
      // Ordering of case-insensitive strings is left to the evaluator unless a lower-case copy is stored.
      if (ci && !def.lower) return null;
      const ops = { gt: '$gt', ge: '$gte', lt: '$lt', le: '$lte' } as const;
      return { [target]: { [ops[op]]: v } };
    }
  }
}

function presence(field: string, def: AttrDef): Mongo {
  if (def.multi) return { [`${field}.0`]: { $exists: true } };
  if (def.type === 'string') return { [field]: { $exists: true, $nin: [null, ''] } };
  return { [field]: { $exists: true, $nin: [null] } };
}

/** Compiles a filter for the database; what it cannot express exactly is widened and flagged. */
export function compileFilter(attrs: Attrs, f: Filter): Compiled {
  let residual = false;
  const demote = { keyedUsed: false };
  const walk = (n: Filter, inOr: boolean): Mongo | null => {
    switch (n.kind) {
      case 'and': {
        const l = walk(n.left, inOr);
        const r = walk(n.right, inOr);
        if (!l || !r) residual = true;
        const parts = [l, r].filter(Boolean) as Mongo[];
        return parts.length ? (parts.length === 1 ? parts[0] : { $and: parts }) : {};
      }
      case 'or': {
        // Each branch names its own keyed field, so each may use its own index.
        const saved = demote.keyedUsed;
        const l = walk(n.left, true);
        demote.keyedUsed = saved;
        const r = walk(n.right, true);
        // Anything and-ed with this or must not add an equality the branches' indexes lack.
        demote.keyedUsed = true;
        if (!l || !r) return null;
        return { $or: [l, r] };
      }
      case 'not': {
        const saved = demote.keyedUsed;
        demote.keyedUsed = true; // a negation never uses an index's equality
        const e = walk(n.expr, inOr);
        demote.keyedUsed = saved;
        return e && { $nor: [e] };
      }
      case 'pr': {
        const { attr, sub } = resolve(attrs, n.path);
        if (attr.multi && !n.path.sub && attr.field) return presence(attr.field, attr);
        const field = fieldOf(attr, sub);
        return field === null ? null : presence(field, sub ?? attr);
      }
      case 'cmp': {
        const { attr, sub } = resolve(attrs, n.path);
        const field = fieldOf(attr, sub);
        if (field === null) return null;
        return compileCmp(field, sub ? { ...sub, keyed: false } : attr, n.op, n.value, demote);
      }
      case 'value': {
        const { attr } = resolve(attrs, n.path);
        if (!attr.field || !attr.subs) throw invalidFilter(`"${n.path.attr}" takes no value filter`);
        const sub: Attrs = Object.fromEntries(Object.entries(attr.subs).map(([k, d]) => [k, { ...d, keyed: false }]));
        const inner = compileRelative(sub, n.filter, n.then);
        if (!inner) return null;
        // Members are stored as bare ids: the element is the value itself.
        if (attr.subs.value?.field === '') return inner.value !== undefined ? { [attr.field]: { $all: [inner.value] } } : null;
        // The embedded FerretDB has no $elemMatch: each condition on the dotted field (a
        // superset: two elements may meet one condition each), then the evaluator is exact.
        residual = true;
        return prefixFields(inner.query, attr.field);
      }
    }
  };
  const query = walk(f, false);
  return { query: query ?? {}, residual: residual || query === null };
}

/** A relative filter's fields under `prefix.` (operators kept). */
function prefixFields(q: Mongo, prefix: string): Mongo {
  return Object.fromEntries(Object.entries(q).map(([k, v]) => k.startsWith('$')
    ? [k, Array.isArray(v) ? v.map((x) => prefixFields(x as Mongo, prefix)) : v]
    : [`${prefix}.${k}`, v]));
}

/** The stored field of an attribute or sub-attribute (meta's live at the top: createdAt, updatedAt); null when not stored. */
function fieldOf(attr: AttrDef, sub?: AttrDef): string | null {
  if (!sub) return attr.field;
  if (sub.field === null) return null;
  if (attr.field === null) return sub.field;
  return sub.field ? `${attr.field}.${sub.field}` : attr.field;
}

/** Compiles a value filter relative to one element of a multi-valued attribute; null when it cannot be exact. */
function compileRelative(subs: Attrs, f: Filter, then?: { sub: string; op: CompareOp | 'pr'; value: Value }): { query: Mongo; value?: string } | null {
  // Bare-id elements (group members): only `value eq "<id>"` has a database form.
  if (subs.value?.field === '') {
    if (f.kind === 'cmp' && f.path.attr.toLowerCase() === 'value' && !f.path.sub && f.op === 'eq' && typeof f.value === 'string' && !then) return { query: {}, value: f.value };
    return null;
  }
  const c = compileFilter(subs, then ? { kind: 'and', left: f, right: then.op === 'pr' ? { kind: 'pr', path: { schema: 'core', attr: then.sub } } : { kind: 'cmp', path: { schema: 'core', attr: then.sub }, op: then.op, value: then.value } } : f);
  return c.residual ? null : { query: c.query };
}
