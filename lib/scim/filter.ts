// SCIM filters and attribute paths (RFC 7644 §3.4.2.2 and §3.5.2): a tokenizer and a recursive
// descent parser (precedence: not > and > or; parentheses; attribute paths with sub-attributes,
// value paths `emails[type eq "work"]` and schema URN prefixes). Anything outside the grammar is
// a ScimError invalidFilter (invalidPath for PATCH paths). Attribute definitions: attributes.ts;
// the database form of a filter: compile.ts; deciding it on a resource: match.ts.
import { invalidFilter, invalidPath, type ScimError } from './errors.ts';

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


type Token = { t: '(' | ')' | '[' | ']' | 'word' | 'string' | 'number' | 'end'; v: string; at: number };

function tokenize(text: string, fail: (m: string) => ScimError): Token[] {
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
export function attrPath(word: string, fail: (m: string) => ScimError): AttrPath {
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
  private readonly tokens: Token[];
  private readonly fail: (m: string) => ScimError;
  constructor(tokens: Token[], fail: (m: string) => ScimError) { this.tokens = tokens; this.fail = fail; }
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
