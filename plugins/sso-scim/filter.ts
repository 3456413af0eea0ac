// SCIM filters and attribute paths (RFC 7644 §3.4.2.2 and §3.5.2): a tokenizer and a recursive
// descent parser (precedence: not > and > or; parentheses; attribute paths with sub-attributes,
// value paths `emails[type eq "work"]` and schema URN prefixes), a compiler to a MongoDB filter
// (paging and filtering stay in the database, on the declared indexes) and an evaluator for what
// the compiler cannot express exactly. Anything outside the grammar is 400 invalidFilter.
import { AppError } from '../../core/errors.ts';

export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const CORE_URNS = ['urn:ietf:params:scim:schemas:core:2.0:user', 'urn:ietf:params:scim:schemas:core:2.0:group'];

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
export type Value = string | number | boolean | null;

/** An attribute path: `name.givenName` -> {attr: 'name', sub: 'givenName'}; `enterprise` for the extension's URN. */
export interface AttrPath { schema: 'core' | 'enterprise'; attr: string; sub?: string }

export type Filter =
  | { kind: 'cmp'; path: AttrPath; op: CompareOp; value: Value }
  | { kind: 'pr'; path: AttrPath }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; expr: Filter }
  /** `emails[type eq "work"]`, optionally followed by a sub-attribute comparison (`emails[type eq "work"].value eq "x"`). */
  | { kind: 'value'; path: AttrPath; filter: Filter; then?: { sub: string; op: CompareOp | 'pr'; value: Value } };

/** A PATCH path: an attribute, or a value path with an optional sub-attribute after it. */
export interface PatchPath { path: AttrPath; filter?: Filter; sub?: string }

export const invalidFilter = (detail: string) => new AppError('bad_request', { message: detail, details: { scimType: 'invalidFilter' } });
export const invalidPath = (detail: string) => new AppError('bad_request', { message: detail, details: { scimType: 'invalidPath' } });

type Token = { t: '(' | ')' | '[' | ']' | 'word' | 'string' | 'number' | 'end'; v: string; at: number };

function tokenize(text: string, fail: (m: string) => AppError): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if ('()[]'.includes(c)) { out.push({ t: c as Token['t'], v: c, at: i }); i++; continue; }
    if (c === '"') {
      // A JSON string literal (RFC 7159 escapes).
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw fail(`Unterminated string at position ${i + 1}`);
      let value: string;
      try { value = JSON.parse(text.slice(i, j + 1)); } catch { throw fail(`Malformed string at position ${i + 1}`); }
      out.push({ t: 'string', v: value, at: i });
      i = j + 1;
      continue;
    }
    if (/[-0-9]/.test(c)) {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(i));
      if (!m) throw fail(`Malformed number at position ${i + 1}`);
      out.push({ t: 'number', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    // Words: keywords, operators, literals and attribute paths (with URN colons and dots).
    // A sub-attribute right after a value filter (`emails[type eq "work"].value`) starts with its dot.
    const m = (out[out.length - 1]?.t === ']' ? /^\.?[A-Za-z][A-Za-z0-9_:.$-]*/ : /^[A-Za-z][A-Za-z0-9_:.$-]*/).exec(text.slice(i));
    if (!m) throw fail(`Unexpected character "${c}" at position ${i + 1}`);
    out.push({ t: 'word', v: m[0], at: i });
    i += m[0].length;
  }
  out.push({ t: 'end', v: '', at: text.length });
  return out;
}

/** `urn:...:2.0:User:manager.value`, `name.givenName`, `userName` -> an AttrPath. */
export function attrPath(word: string, fail: (m: string) => AppError): AttrPath {
  let schema: AttrPath['schema'] = 'core';
  let rest = word;
  if (/^urn:/i.test(word)) {
    const lower = word.toLowerCase();
    const ext = ENTERPRISE_URN.toLowerCase();
    const core = CORE_URNS.find((u) => lower.startsWith(`${u}:`));
    if (lower.startsWith(`${ext}:`)) { schema = 'enterprise'; rest = word.slice(ext.length + 1); }
    else if (core) rest = word.slice(core.length + 1);
    else throw fail(`Unknown schema in attribute path "${word}"`);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || parts.some((p) => !/^[A-Za-z][A-Za-z0-9_$-]*$/.test(p))) throw fail(`Malformed attribute path "${word}"`);
  return { schema, attr: parts[0], sub: parts[1] };
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly fail: (m: string) => AppError) {}
  peek() { return this.tokens[this.i]; }
  next() { return this.tokens[this.i++]; }
  isWord(v: string) { const t = this.peek(); return t.t === 'word' && t.v.toLowerCase() === v; }
  expect(t: Token['t']) {
    const tok = this.next();
    if (tok.t !== t) throw this.fail(`Expected "${t}" at position ${tok.at + 1}`);
    return tok;
  }
  done() {
    const tok = this.peek();
    if (tok.t !== 'end') throw this.fail(`Unexpected "${tok.v}" at position ${tok.at + 1}`);
  }

  // or-expression: and-expression ("or" and-expression)*
  parseOr(inValue = false): Filter {
    let left = this.parseAnd(inValue);
    while (this.isWord('or')) { this.next(); left = { kind: 'or', left, right: this.parseAnd(inValue) }; }
    return left;
  }
  parseAnd(inValue: boolean): Filter {
    let left = this.parseUnary(inValue);
    while (this.isWord('and')) { this.next(); left = { kind: 'and', left, right: this.parseUnary(inValue) }; }
    return left;
  }
  parseUnary(inValue: boolean): Filter {
    if (this.isWord('not')) {
      this.next();
      this.expect('(');
      const expr = this.parseOr(inValue);
      this.expect(')');
      return { kind: 'not', expr };
    }
    if (this.peek().t === '(') {
      this.next();
      const expr = this.parseOr(inValue);
      this.expect(')');
      return expr;
    }
    return this.parseAttrExp(inValue);
  }
  parseAttrExp(inValue: boolean): Filter {
    const tok = this.next();
    if (tok.t !== 'word') throw this.fail(`Expected an attribute path at position ${tok.at + 1}`);
    const path = attrPath(tok.v, this.fail);
    if (this.peek().t === '[') {
      if (inValue) throw this.fail('Value filters cannot nest');
      if (path.sub) throw this.fail(`A value filter applies to a multi-valued attribute, not "${tok.v}"`);
      this.next();
      const filter = this.parseOr(true);
      this.expect(']');
      // An extension of the grammar some clients send: `emails[type eq "work"].value eq "x"`.
      const after = this.peek();
      if (after.t === 'word' && after.v.startsWith('.')) {
        this.next();
        const sub = after.v.slice(1);
        if (!/^[A-Za-z][A-Za-z0-9_$-]*$/.test(sub)) throw this.fail(`Malformed sub-attribute "${after.v}"`);
        const { op, value } = this.parseOperator();
        return { kind: 'value', path, filter, then: { sub, op, value } };
      }
      return { kind: 'value', path, filter };
    }
    const { op, value } = this.parseOperator();
    return op === 'pr' ? { kind: 'pr', path } : { kind: 'cmp', path, op, value };
  }
  parseOperator(): { op: CompareOp | 'pr'; value: Value } {
    const opTok = this.next();
    const op = opTok.t === 'word' ? opTok.v.toLowerCase() : '';
    if (op === 'pr') return { op: 'pr', value: null };
    if (!COMPARE_OPS.has(op)) throw this.fail(`Expected an operator (eq, ne, co, sw, ew, gt, ge, lt, le, pr) at position ${opTok.at + 1}`);
    const v = this.next();
    let value: Value;
    if (v.t === 'string') value = v.v;
    else if (v.t === 'number') value = Number(v.v);
    else if (v.t === 'word' && ['true', 'false', 'null'].includes(v.v.toLowerCase())) value = JSON.parse(v.v.toLowerCase());
    else throw this.fail(`Expected a value (string, number, true, false, null) at position ${v.at + 1}`);
    return { op: op as CompareOp, value };
  }
}

const MAX_FILTER = 2000;

export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER) throw invalidFilter(`The filter is longer than ${MAX_FILTER} characters`);
  const p = new Parser(tokenize(text, invalidFilter), invalidFilter);
  if (p.peek().t === 'end') throw invalidFilter('The filter is empty');
  const f = p.parseOr();
  p.done();
  return f;
}

/** A PATCH operation's path (RFC 7644 §3.5.2: attrPath / valuePath [subAttr]). */
export function parsePatchPath(text: string): PatchPath {
  const tokens = tokenize(text, invalidPath);
  const p = new Parser(tokens, invalidPath);
  const first = p.next();
  if (first.t !== 'word') throw invalidPath(`Malformed path "${text}"`);
  const path = attrPath(first.v, invalidPath);
  if (p.peek().t !== '[') { p.done(); return { path }; }
  if (path.sub) throw invalidPath(`Malformed path "${text}"`);
  p.next();
  let filter: Filter;
  try { filter = p.parseOr(true); } catch (err) { throw invalidPath((err as Error).message); }
  p.expect(']');
  let sub: string | undefined;
  const after = p.peek();
  if (after.t === 'word' && after.v.startsWith('.')) {
    p.next();
    sub = after.v.slice(1);
    if (!/^[A-Za-z][A-Za-z0-9_$-]*$/.test(sub)) throw invalidPath(`Malformed path "${text}"`);
  }
  p.done();
  return { path, filter, sub };
}

// ---- The resources' attributes, as filters and the compiler see them ----

export interface AttrDef {
  /** The stored field (dotted), or null when only the evaluator can read it. */
  field: string | null;
  type: 'string' | 'boolean' | 'dateTime' | 'complex' | 'reference';
  caseExact?: boolean;
  multi?: boolean;
  /** A stored lower-case copy the compiler compares against (unique lookups stay exact on an index). */
  lower?: string;
  /** Sub-attributes of a complex attribute (lower-case name -> definition relative to the element). */
  subs?: Record<string, AttrDef>;
  /** Served by an index as an equality: the only fields a compiled filter compares with equality. */
  keyed?: boolean;
}

const str = (field: string | null, extra: Partial<AttrDef> = {}): AttrDef => ({ field, type: 'string', ...extra });
const multiValued = (field: string, subs: Record<string, AttrDef>): AttrDef => ({ field, type: 'complex', multi: true, subs });
const META: Record<string, AttrDef> = {
  created: { field: 'createdAt', type: 'dateTime' }, lastmodified: { field: 'updatedAt', type: 'dateTime' },
  resourcetype: str(null, { caseExact: true }), location: str(null, { caseExact: true }), version: str(null, { caseExact: true }),
};

/** Lower-case `attr` or `attr.sub` -> definition; enterprise attributes under `enterprise:`. */
export const USER_ATTRS: Record<string, AttrDef> = {
  id: str('_id', { caseExact: true, keyed: true }),
  externalid: str('externalId', { caseExact: true, keyed: true }),
  username: str('userName', { lower: 'userNameLower', keyed: true }),
  displayname: str('displayName'), nickname: str('nickName'), title: str('title'), usertype: str('userType'),
  preferredlanguage: str('preferredLanguage'), locale: str('locale'), timezone: str('timezone'), profileurl: str('profileUrl'),
  active: { field: 'active', type: 'boolean' },
  name: { field: 'name', type: 'complex', subs: {
    formatted: str('formatted'), familyname: str('familyName'), givenname: str('givenName'), middlename: str('middleName'),
    honorificprefix: str('honorificPrefix'), honorificsuffix: str('honorificSuffix'),
  } },
  emails: multiValued('emails', { value: str('value'), type: str('type'), primary: { field: 'primary', type: 'boolean' }, display: str('display') }),
  phonenumbers: multiValued('phoneNumbers', { value: str('value'), type: str('type'), primary: { field: 'primary', type: 'boolean' }, display: str('display') }),
  meta: { field: null, type: 'complex', subs: META },
  'enterprise:employeenumber': str('enterprise.employeeNumber'),
  'enterprise:department': str('enterprise.department'),
  'enterprise:costcenter': str('enterprise.costCenter'),
  'enterprise:organization': str('enterprise.organization'),
  'enterprise:division': str('enterprise.division'),
  'enterprise:manager': { field: 'enterprise.manager', type: 'complex', subs: { value: str('value', { caseExact: true }), displayname: str('displayName'), $ref: str(null, { caseExact: true }) } },
};

export const GROUP_ATTRS: Record<string, AttrDef> = {
  id: str('_id', { caseExact: true, keyed: true }),
  externalid: str('externalId', { caseExact: true, keyed: true }),
  displayname: str('displayName', { lower: 'displayNameLower', keyed: true }),
  // Members are stored as the ids of the SCIM users (`members`); display names are not kept.
  members: { field: 'members', type: 'complex', multi: true, subs: { value: str('', { caseExact: true }), display: str(null), type: str(null), $ref: str(null, { caseExact: true }) } },
  meta: { field: null, type: 'complex', subs: META },
};

export type Attrs = Record<string, AttrDef>;

/** The definition of a path, and of its sub-attribute (for a complex attribute: `value` when none is named). */
export function resolve(attrs: Attrs, path: AttrPath, fail = invalidFilter): { attr: AttrDef; sub?: AttrDef; name: string } {
  const key = path.schema === 'enterprise' ? `enterprise:${path.attr.toLowerCase()}` : path.attr.toLowerCase();
  const attr = attrs[key];
  if (!attr) throw fail(`Unknown attribute "${path.attr}"`);
  if (attr.type !== 'complex') {
    if (path.sub) throw fail(`"${path.attr}" has no sub-attributes`);
    return { attr, name: key };
  }
  const subName = (path.sub ?? (attr.multi || attr.subs?.value ? 'value' : '')).toLowerCase();
  const sub = attr.subs?.[subName];
  if (!sub) throw fail(`Unknown attribute "${path.attr}${path.sub ? `.${path.sub}` : ''}"`);
  return { attr, sub, name: key };
}

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

// ---- Evaluation in memory (on the SCIM representation of a resource) ----

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
