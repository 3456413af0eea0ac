// Deciding a parsed SCIM filter (filter.ts) on a resource's SCIM JSON, in memory: what the
// database form (compile.ts) leaves over, value filters on PATCH paths, and tests.
import { resolve, type Attrs } from './attributes.ts';
import { ENTERPRISE_URN, type AttrPath, type CompareOp, type Filter, type Value } from './filter.ts';

const lowerKeys = (o: unknown): Record<string, unknown> => {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
};

/** The values a path names in a resource's JSON (attribute names are case-insensitive). */
export function valuesAt(resource: Record<string, unknown>, path: AttrPath): unknown[] {
  const root = path.schema === 'enterprise' ? lowerKeys(lowerKeys(resource)[ENTERPRISE_URN.toLowerCase()]) : lowerKeys(resource);
  const top = root[path.attr.toLowerCase()];
  const items = Array.isArray(top) ? top : top === undefined ? [] : [top];
  if (!path.sub) return items;
  return items.map((i) => lowerKeys(i)[path.sub!.toLowerCase()]).filter((v) => v !== undefined);
}

function compare(actual: unknown, op: CompareOp, expected: Value, caseExact: boolean): boolean {
  if (actual === undefined || actual === null) return op === 'eq' ? expected === null : op === 'ne' ? expected !== null : false;
  if (expected === null) return op === 'ne';
  if (typeof actual === 'string' && typeof expected === 'string') {
    const asDate = /^\d{4}-\d\d-\d\dT/.test(actual) && !Number.isNaN(Date.parse(expected)) && /^\d{4}-\d\d-\d\dT/.test(expected);
    const a = asDate ? Date.parse(actual) : caseExact ? actual : actual.toLowerCase();
    const e = asDate ? Date.parse(expected) : caseExact ? expected : expected.toLowerCase();
    switch (op) {
      case 'eq': return a === e;
      case 'ne': return a !== e;
      case 'co': return String(a).includes(String(e));
      case 'sw': return String(a).startsWith(String(e));
      case 'ew': return String(a).endsWith(String(e));
      case 'gt': return a > e;
      case 'ge': return a >= e;
      case 'lt': return a < e;
      case 'le': return a <= e;
    }
  }
  if (op === 'eq') return actual === expected;
  if (op === 'ne') return actual !== expected;
  if (typeof actual === 'number' && typeof expected === 'number') {
    return op === 'gt' ? actual > expected : op === 'ge' ? actual >= expected : op === 'lt' ? actual < expected : op === 'le' ? actual <= expected : false;
  }
  return false;
}

const CASE_EXACT = new Set(['id', 'externalid', 'value', '$ref']);

/** Whether a resource (its SCIM JSON) matches a filter; `attrs` checks the paths exist. */
export function matches(attrs: Attrs, f: Filter, resource: Record<string, unknown>): boolean {
  switch (f.kind) {
    case 'and': return matches(attrs, f.left, resource) && matches(attrs, f.right, resource);
    case 'or': return matches(attrs, f.left, resource) || matches(attrs, f.right, resource);
    case 'not': return !matches(attrs, f.expr, resource);
    case 'pr': {
      resolve(attrs, f.path);
      return valuesAt(resource, f.path).some((v) => v !== null && v !== '' && !(Array.isArray(v) && !v.length));
    }
    case 'cmp': {
      const { attr } = resolve(attrs, f.path);
      const path = attr.type === 'complex' && !f.path.sub ? { ...f.path, sub: 'value' } : f.path;
      const values = valuesAt(resource, path);
      const exact = CASE_EXACT.has((path.sub ?? path.attr).toLowerCase()) && !(path.attr.toLowerCase() === 'emails' || path.attr.toLowerCase() === 'phonenumbers');
      if (!values.length) return compare(undefined, f.op, f.value, exact);
      return f.op === 'ne' ? values.every((v) => compare(v, 'ne', f.value, exact)) : values.some((v) => compare(v, f.op, f.value, exact));
    }
    case 'value': {
      const { attr } = resolve(attrs, f.path);
      const elements = valuesAt(resource, { ...f.path, sub: undefined });
      const subs = attr.subs ?? {};
      return elements.some((el) => {
        const element = lowerKeys(el);
        if (!matches(subs, f.filter, element)) return false;
        if (!f.then) return true;
        const v = element[f.then.sub.toLowerCase()];
        if (f.then.op === 'pr') return v !== undefined && v !== null && v !== '';
        return compare(v, f.then.op, f.then.value, CASE_EXACT.has(f.then.sub.toLowerCase()));
      });
    }
  }
}
