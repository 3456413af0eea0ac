// Value normalisation shared by the SDK comparison and the tofu mapping: what counts as "the
// same" between a state file and a live API answer.

export type Plain = null | boolean | number | string | Plain[] | { [k: string]: Plain };

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** null, undefined, "", [] and {} all mean "not set": state files and APIs disagree on which they use. */
export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.every(isEmpty);
  if (isObject(v)) return Object.values(v).every(isEmpty);
  return false;
}

/** Scalars compared across representations: 22 == "22", true == "true". */
export function scalarKey(v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^-?\d+(\.\d+)?$/.test(t)) return String(Number(t));
    return t;
  }
  return JSON.stringify(canonical(v));
}

/** Objects with sorted keys (recursively), so JSON.stringify gives one text per value. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = canonical(v[k]);
    return out;
  }
  return v;
}

export const canonicalText = (v: unknown): string => JSON.stringify(canonical(v)) ?? 'null';

/**
 * The value of a JSON object or array held as text (a BigQuery schema, a policy, container
 * definitions, a Cloud Run annotation holding JSON), else undefined.
 */
export function jsonText(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try { return JSON.parse(t) as unknown; } catch { return undefined; }
}

/**
 * A JSON document's canonical text: keys sorted, members that are empty (null, "", [], {})
 * dropped (an API adds or leaves out empty members that the configuration never wrote), list
 * order kept (it carries meaning in schemas and container definitions).
 */
export function canonicalJson(v: unknown): string {
  const norm = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(norm);
    if (!isObject(x)) return x;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort()) if (!isEmpty(x[k])) out[k] = norm(x[k]);
    return out;
  };
  return JSON.stringify(norm(v)) ?? 'null';
}

/**
 * Whether `a` and `b` are one JSON document, when at least one is JSON text and the other is
 * JSON text or a parsed document; undefined when the pair is no JSON pair.
 */
export function sameJson(a: unknown, b: unknown): boolean | undefined {
  const x = jsonText(a);
  const y = jsonText(b);
  if (x === undefined && y === undefined) return undefined;
  const doc = (parsed: unknown, raw: unknown) => (parsed !== undefined ? parsed : isObject(raw) || Array.isArray(raw) ? raw : undefined);
  const dx = doc(x, a);
  const dy = doc(y, b);
  if (dx === undefined || dy === undefined) return undefined;
  return canonicalJson(dx) === canonicalJson(dy);
}

/**
 * An unset boolean and `false`: states written by older providers (or for a block the API left out)
 * hold null where the API's omitted default is false; the provider reads both as false.
 */
export const unsetOrFalse = (a: unknown, b: unknown): boolean =>
  (a === false && (b === null || b === undefined)) || (b === false && (a === null || a === undefined));

/** Empty, or false, at every depth: a block the API left out and the provider wrote with its defaults off (`[{auto_repair = false}]`). */
export function blank(v: unknown): boolean {
  if (v === false || isEmpty(v)) return true;
  if (Array.isArray(v)) return v.every(blank);
  if (isObject(v)) return Object.values(v).every(blank);
  return false;
}

/** Sorted unique scalar keys of a list, for lists whose order carries no meaning (sets). */
export function scalarSet(v: unknown): string[] {
  const arr = Array.isArray(v) ? v : isEmpty(v) ? [] : [v];
  return [...new Set(arr.filter((x) => !isEmpty(x)).map(scalarKey))].sort();
}

const toList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function sortedStrings(v: unknown, lower = false): string[] {
  const items = toList(v).map((x) => (typeof x === 'string' ? x : scalarKey(x)));
  return [...new Set(lower ? items.map((s) => s.toLowerCase()) : items)].sort();
}

function normPrincipal(p: unknown): unknown {
  if (p === '*') return '*';
  if (!isObject(p)) return sortedStrings(p);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(p).sort()) out[k] = p[k] === '*' ? '*' : sortedStrings(p[k]);
  return out;
}

function normCondition(c: unknown): unknown {
  if (!isObject(c)) return c;
  const out: Record<string, unknown> = {};
  for (const op of Object.keys(c).sort()) {
    const block = c[op];
    if (!isObject(block)) { out[op] = block; continue; }
    const inner: Record<string, unknown> = {};
    // Condition keys are case-insensitive in IAM; values are not.
    for (const key of Object.keys(block).sort()) inner[key.toLowerCase()] = sortedStrings(block[key]);
    out[op] = inner;
  }
  return out;
}

function normStatement(s: unknown): unknown {
  if (!isObject(s)) return s;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(s).sort()) {
    const v = s[k];
    if (k === 'Action' || k === 'NotAction') out[k] = sortedStrings(v, true); // IAM actions are case-insensitive
    else if (k === 'Resource' || k === 'NotResource') out[k] = sortedStrings(v);
    else if (k === 'Principal' || k === 'NotPrincipal') out[k] = normPrincipal(v);
    else if (k === 'Condition') out[k] = normCondition(v);
    else if (k === 'Sid' && v === '') continue;
    else out[k] = canonical(v);
  }
  return out;
}

/**
 * Parses a policy document (JSON text, possibly URL-encoded as IAM returns it, or an object)
 * into a canonical form: one-element lists and plain strings are the same, order of actions,
 * resources and statements does not matter, action names are case-insensitive. Text that is not
 * JSON is returned trimmed, so it still compares as text.
 */
export function normalizePolicy(doc: unknown): unknown {
  if (isEmpty(doc)) return null;
  let value: unknown = doc;
  if (typeof doc === 'string') {
    let text = doc.trim();
    if (text.startsWith('%7B') || text.startsWith('%7b')) {
      try { text = decodeURIComponent(text); } catch { /* keep as is */ }
    }
    try { value = JSON.parse(text); } catch { return text; }
  }
  if (!isObject(value)) return canonical(value);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    if (k === 'Statement') {
      const stmts = toList(value.Statement).map(normStatement);
      out.Statement = stmts.sort((a, b) => canonicalText(a).localeCompare(canonicalText(b)));
    } else out[k] = canonical(value[k]);
  }
  return out;
}

export const samePolicy = (a: unknown, b: unknown): boolean =>
  canonicalText(normalizePolicy(a)) === canonicalText(normalizePolicy(b));

/** AWS tag lists ([{Key, Value}]) as the map Terraform stores; AWS-reserved `aws:` tags dropped. */
export function tagMap(tags: { Key?: string; Value?: string }[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tags ?? []) if (t.Key && !t.Key.startsWith('aws:')) out[t.Key] = t.Value ?? '';
  return out;
}

/** `*` matches any run of characters (dots included); everything else is literal. */
export function globRegExp(pattern: string, allowSuffix = false): RegExp {
  const body = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}${allowSuffix ? '(\\..*)?' : ''}$`);
}

/**
 * State attributes with `tags` replaced by `tags_all` when the state holds it: the live tags
 * include the provider's default_tags, which `tags` leaves out and `tags_all` holds (provider
 * 3.38+). An older state without `tags_all` keeps its `tags`.
 */
export function withAllTags(attrs: Record<string, unknown>): Record<string, unknown> {
  const all = attrs.tags_all;
  if (!isObject(all) || !('tags_all' in attrs)) return attrs;
  const own = isObject(attrs.tags) ? attrs.tags : {};
  // A tags_all that lacks some of `tags` is not the full set (a state written mid-upgrade): keep tags.
  if (!Object.keys(own).every((k) => k in all)) return attrs;
  const { tags_all: _dropped, ...rest } = attrs;
  return { ...rest, tags: all };
}
