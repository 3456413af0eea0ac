// Guardrail rules: the attribute path language, the operators and what each means for lists,
// absent values and values unknown until apply (docs/guardrails.md "Operators"). Pure code:
// no HTTP, no database, so the evaluation is the same in the service, the tests and the bench.
import { isDeepStrictEqual } from 'node:util';
import { patternMatches, patternProblem } from './regex.ts';

export const OPERATORS = [
  'equals', 'not_equals', 'exists', 'not_exists', 'in', 'not_in', 'contains', 'not_contains',
  'matches', 'gt', 'gte', 'lt', 'lte',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition { attribute: string; operator: Operator; value?: unknown }
export interface Rule extends Condition {
  resourceType: string;
  /** Optional: the rule applies only where every condition holds (see scopeOf). */
  when?: Condition[];
}

/** Operators that take no value. */
const NO_VALUE: ReadonlySet<Operator> = new Set(['exists', 'not_exists']);
/** Operators satisfied by a value that is absent (null or not set): "must not" rules. */
const NEGATIVE: ReadonlySet<Operator> = new Set(['not_equals', 'not_exists', 'not_in', 'not_contains']);
const NUMERIC: ReadonlySet<Operator> = new Set(['gt', 'gte', 'lt', 'lte']);

export const MAX_PATH_LENGTH = 300;

/** One step of a path: a key, an index, or every element of a list. */
export type Segment = { key: string } | { index: number } | { all: true };

/**
 * Parses `a.b[*].c`, `a[0]`, `tags["kubernetes.io/role"]`. Returns the segments, or a message
 * saying what is wrong (the write-time 400).
 */
export function parsePath(path: string): Segment[] | string {
  if (!path || path.length > MAX_PATH_LENGTH) return `must be 1 to ${MAX_PATH_LENGTH} characters`;
  const out: Segment[] = [];
  let i = 0;
  let expectKey = true;
  while (i < path.length) {
    const ch = path[i];
    if (ch === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return `has an unclosed "[" at ${i}`;
      const inner = path.slice(i + 1, close);
      if (inner === '*') out.push({ all: true });
      else if (/^\d{1,6}$/.test(inner)) out.push({ index: Number(inner) });
      else if (/^"[^"]+"$/.test(inner)) out.push({ key: inner.slice(1, -1) });
      else return `has "[${inner}]": use [*], a number, or a quoted key ["name"]`;
      i = close + 1;
      expectKey = false;
      continue;
    }
    if (ch === '.') {
      if (expectKey) return `has an empty segment at ${i}`;
      i++;
      expectKey = true;
      if (i >= path.length) return 'ends with "."';
      continue;
    }
    if (!expectKey) return `needs "." or "[" before "${path.slice(i)}"`;
    const m = /^[A-Za-z0-9_\-:/]+/.exec(path.slice(i));
    if (!m) return `has an unexpected character "${ch}" at ${i}`;
    out.push({ key: m[0] });
    i += m[0].length;
    expectKey = false;
  }
  if (!out.length) return 'names nothing';
  return out;
}

/** Write-time check of one condition; returns problems as {path, message}. */
export function conditionProblems(c: Condition, where: string): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const bad = (field: string, message: string) => problems.push({ path: `${where}/${field}`, message });
  const parsed = parsePath(c.attribute);
  if (typeof parsed === 'string') bad('attribute', `attribute "${c.attribute}" ${parsed}`);
  const hasValue = c.value !== undefined && c.value !== null;
  if (NO_VALUE.has(c.operator)) {
    if (hasValue) bad('value', `operator ${c.operator} takes no value`);
    return problems;
  }
  if (!hasValue) { bad('value', `operator ${c.operator} needs a value`); return problems; }
  if (badKey(c.value)) bad('value', 'object keys in a value may not contain "." or start with "$"');
  if (c.operator === 'in' || c.operator === 'not_in') {
    if (!Array.isArray(c.value) || c.value.length === 0) bad('value', `operator ${c.operator} needs a non-empty array value`);
    else if (c.value.length > 500) bad('value', `operator ${c.operator} accepts at most 500 values`);
  } else if (NUMERIC.has(c.operator)) {
    if (typeof c.value !== 'number' || !Number.isFinite(c.value)) bad('value', `operator ${c.operator} needs a number value`);
  } else if (c.operator === 'matches') {
    if (typeof c.value !== 'string') bad('value', 'operator matches needs a string value (a regular expression)');
    else {
      const why = patternProblem(c.value);
      if (why) bad('value', `the pattern ${why}`);
    }
  }
  return problems;
}

const badKey = (v: unknown): boolean => {
  if (Array.isArray(v)) return v.some(badKey);
  if (!v || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => k.includes('.') || k.startsWith('$') || badKey(x));
};

export function ruleProblems(rules: readonly Rule[]): { path: string; message: string }[] {
  const problems = rules.flatMap((r, i) => [
    ...conditionProblems(r, `body/rules/${i}`),
    ...(r.when ?? []).flatMap((c, j) => conditionProblems(c, `body/rules/${i}/when/${j}`)),
  ]);
  for (const [i, r] of rules.entries()) {
    if (r.when?.length && scopeOf(r) === undefined) {
      problems.push({ path: `body/rules/${i}/when`, message: 'every "when" attribute must start with the same list prefix as the attribute (e.g. ingress[*].from_port beside ingress[*].cidr_blocks), or none may use [*]' });
    }
  }
  return problems;
}

// ---- Resolving a path in a planned resource ----

/** A value a path reaches: known, unknown until apply, or absent (null / not set). */
export interface Reached { path: string; state: 'known' | 'unknown' | 'absent'; value?: unknown; sensitive: boolean }

/** The planned values of one resource, with Terraform's parallel unknown and sensitive trees. */
export interface Planned { after: unknown; unknown: unknown; sensitive: unknown }

const child = (tree: unknown, seg: { key: string } | { index: number }): unknown => {
  if (tree === true) return true; // a whole unknown/sensitive subtree
  if (!tree || typeof tree !== 'object') return undefined;
  return 'key' in seg ? (Array.isArray(tree) ? undefined : (tree as Record<string, unknown>)[seg.key]) : (Array.isArray(tree) ? tree[seg.index] : undefined);
};
const showSeg = (seg: { key: string } | { index: number }, first: boolean) =>
  'index' in seg ? `[${seg.index}]` : /^[A-Za-z0-9_\-]+$/.test(seg.key) ? `${first ? '' : '.'}${seg.key}` : `["${seg.key}"]`;

/** Every value the path reaches in `p`, with its concrete path (ingress[1].cidr_blocks). */
export function resolve(p: Planned, segments: readonly Segment[], base = ''): Reached[] {
  const out: Reached[] = [];
  walk(segments, out, p.after, p.unknown, p.sensitive, 0, base);
  return out;
}

// A module-level function rather than a closure per call: resolve runs for every rule on every
// resource change (250,000 times for 5,000 changes and 50 guardrails).
function walk(segments: readonly Segment[], out: Reached[], value: unknown, unk: unknown, sens: unknown, i: number, path: string): void {
  const sensitive = sens === true;
  if (unk === true) { out.push({ path, state: 'unknown', sensitive }); return; }
  if (i === segments.length) {
    out.push(value === null || value === undefined ? { path, state: 'absent', sensitive } : { path, state: 'known', value, sensitive });
    return;
  }
  const seg = segments[i];
  if ('all' in seg) {
    // A list absent or empty yields no values: nothing to check (docs: "vacuous").
    if (Array.isArray(value)) {
      for (let j = 0; j < value.length; j++) walk(segments, out, value[j], child(unk, { index: j }), sensitive ? true : child(sens, { index: j }), i + 1, `${path}[${j}]`);
    } else if (value !== null && value !== undefined && typeof value === 'object') {
      // A map: every value (for_each-like maps of blocks).
      for (const k of Object.keys(value)) walk(segments, out, (value as Record<string, unknown>)[k], child(unk, { key: k }), sensitive ? true : child(sens, { key: k }), i + 1, `${path}["${k}"]`);
    }
    return;
  }
  const next = value !== null && typeof value === 'object' ? child(value, seg) : undefined;
  walk(segments, out, next, child(unk, seg), sensitive ? true : child(sens, seg), i + 1, path + showSeg(seg, path === ''));
}

// ---- Operators ----

export type Outcome = 'pass' | 'fail' | 'unknown';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep equality, with the common case (two scalars) decided without the general comparison. */
const same = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && isDeepStrictEqual(a, b));

/** One operator on one known, present value. */
function test(op: Operator, actual: unknown, expected: unknown): boolean {
  switch (op) {
    case 'equals': return same(actual, expected);
    case 'not_equals': return !same(actual, expected);
    case 'exists': return true;
    case 'not_exists': return false;
    case 'in': {
      const set = expected as unknown[];
      return Array.isArray(actual) ? actual.every((a) => set.some((e) => same(a, e))) : set.some((e) => same(actual, e));
    }
    case 'not_in': {
      const set = expected as unknown[];
      return Array.isArray(actual) ? !actual.some((a) => set.some((e) => same(a, e))) : !set.some((e) => same(actual, e));
    }
    case 'contains': return contains(actual, expected);
    case 'not_contains': return !contains(actual, expected);
    case 'matches': {
      // RE2, linear in the string (regex.ts); a string past its cap does not match.
      const source = expected as string;
      return Array.isArray(actual) ? actual.length > 0 && actual.every((a) => typeof a === 'string' && patternMatches(source, a)) : typeof actual === 'string' && patternMatches(source, actual);
    }
    case 'gt': return typeof actual === 'number' && actual > (expected as number);
    case 'gte': return typeof actual === 'number' && actual >= (expected as number);
    case 'lt': return typeof actual === 'number' && actual < (expected as number);
    case 'lte': return typeof actual === 'number' && actual <= (expected as number);
  }
}

/** A list holds the value; a string holds it as a substring; a map holds it as a key. */
function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((a) => same(a, expected));
  if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
  if (isObject(actual)) return typeof expected === 'string' && Object.hasOwn(actual, expected);
  return false;
}

/**
 * The outcome of a condition on one reached value. Absent values pass the "must not"
 * operators and fail the others; unknown values pass `exists`, fail `not_exists` and are
 * undecided ('unknown') for every comparison.
 */
export function outcome(c: Condition, r: Reached): Outcome {
  if (r.state === 'unknown') return c.operator === 'exists' ? 'pass' : c.operator === 'not_exists' ? 'fail' : 'unknown';
  if (r.state === 'absent') return NEGATIVE.has(c.operator) ? 'pass' : 'fail';
  return test(c.operator, r.value, c.value) ? 'pass' : 'fail';
}

// ---- Scoped rules (`when`) ----

const allIndex = (segs: readonly Segment[]) => segs.findIndex((s) => 'all' in s);

/**
 * Where a rule with `when` conditions is checked: undefined when its paths disagree. With no
 * `[*]` in the attribute, or a `when` not sharing its first list prefix, the scope is the
 * resource (length 0); otherwise the prefix up to and including the attribute's first `[*]`,
 * and every condition is checked on the same list element as the attribute.
 */
export function scopeOf(rule: Rule): number | undefined {
  const attr = parsePath(rule.attribute);
  if (typeof attr === 'string') return 0;
  const conds = (rule.when ?? []).map((c) => parsePath(c.attribute));
  if (conds.some((c) => typeof c === 'string')) return 0;
  const k = allIndex(attr);
  const prefix = k < 0 ? [] : attr.slice(0, k + 1);
  const shares = (segs: Segment[]) => segs.length > prefix.length && prefix.every((s, i) => JSON.stringify(s) === JSON.stringify(segs[i]));
  const list = conds as Segment[][];
  if (!list.length || k < 0) return list.every((c) => allIndex(c) < 0) ? 0 : undefined;
  if (list.every(shares)) return prefix.length;
  if (list.every((c) => allIndex(c) < 0)) return 0;
  return undefined;
}

export interface Finding { path: string; state: Reached['state']; value?: unknown; sensitive: boolean; outcome: Outcome }

/** A rule compiled once per evaluation: its parsed paths and scope. */
export interface Compiled { rule: Rule; attr: Segment[]; scope: number; when: { cond: Condition; segs: Segment[] }[] }
export function compile(rule: Rule): Compiled {
  const attr = parsePath(rule.attribute) as Segment[];
  return { rule, attr, scope: scopeOf(rule) ?? 0, when: (rule.when ?? []).map((cond) => ({ cond, segs: parsePath(cond.attribute) as Segment[] })) };
}

/**
 * Checks one compiled rule on one resource's planned values: every value the attribute
 * reaches within the scopes where all `when` conditions pass. A `when` condition that is
 * unknown counts as holding (the stricter reading: the rule may apply after apply).
 */
export function check(c: Compiled, p: Planned): Finding[] {
  const holds = (segs: Segment[], cond: Condition, scope: Planned, base: string) =>
    resolve(scope, segs, base).every((r) => outcome(cond, r) !== 'fail');
  const onScope = (scope: Planned, base: string, from: number): Finding[] => {
    if (!c.when.every(({ cond, segs }) => holds(segs.slice(from), cond, scope, base))) return [];
    return resolve(scope, c.attr.slice(from), base).map((r) => ({ ...r, outcome: outcome(c.rule, r) }));
  };
  if (c.scope === 0) return onScope(p, '', 0);
  // Each element of the scope's list, as a small Planned of its own.
  const prefix = c.attr.slice(0, c.scope - 1);
  const lists = resolve(p, prefix);
  const out: Finding[] = [];
  for (const l of lists) {
    if (l.state === 'unknown') { out.push({ path: l.path, state: 'unknown', sensitive: l.sensitive, outcome: outcome(c.rule, l) }); continue; }
    if (l.state === 'absent' || !Array.isArray(l.value)) continue;
    const unk = descend(p.unknown, prefix);
    const sens = descend(p.sensitive, prefix);
    l.value.forEach((v, j) => {
      const u = child(unk, { index: j });
      const s = sens === true ? true : child(sens, { index: j });
      out.push(...onScope({ after: v, unknown: u, sensitive: s }, `${l.path}[${j}]`, c.scope));
    });
  }
  return out;
}

/** The unknown/sensitive tree under a path without [*] (scopes have none before their last step). */
function descend(tree: unknown, segs: readonly Segment[]): unknown {
  let t = tree;
  for (const s of segs) {
    if ('all' in s) return undefined;
    t = child(t, s);
  }
  return t;
}
