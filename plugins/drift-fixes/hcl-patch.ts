// Exact fixes in HCL source (docs/drift-fixes.md): the resource block that declares a drifted
// resource is found at its declared line, and each changed attribute path of the drift
// (`instance_type`, `tags.Name`, `versioning_configuration.0.status`, `ingress`) is located in
// its body: an attribute, a key of an object literal, the n-th nested block, or every nested
// block of a type. A literal value is rewritten with the live value; a missing attribute is
// added before the closing brace, one gone from the cloud removed; a list of nested blocks is
// written again from the live objects. A value written as an expression (a variable, local,
// function call, reference) is never rewritten: the fix names what to change instead.
//
// The scanner reads only what it needs of HCL's native syntax: identifiers, `=`, blocks with
// labels, strings with `${}` templates, heredocs, comments, brackets. Anything it does not
// understand ends in advice, not in a guessed edit.

export interface Change { attribute: string; before: unknown; after: unknown }
export interface Edit { start: number; end: number; text: string }
export interface Advice { attribute: string; text: string }
export interface FilePatch { edits: Edit[]; advice: Advice[]; exact: string[] }

type Item =
  | { kind: 'attr'; name: string; lineStart: number; exprStart: number; exprEnd: number; lineEnd: number }
  | { kind: 'block'; name: string; lineStart: number; open: number; close: number; lineEnd: number };

const IDENT = /[A-Za-z_][\w-]*/y;
/** What the engine writes for a sensitive attribute (runner-agent/src/engine/sensitive.ts SENSITIVE_CHANGED). */
const SENSITIVE = '(sensitive value changed)';
const SECRET_NAME = /(password|passwd|secret|token|private_key|api_key|access_key|credential)/i;
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r';

/** Index just past a string starting at `i` (a `"`), templates included. */
function skipString(s: string, i: number): number {
  i++;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') { i += 2; continue; }
    if (c === '"') return i + 1;
    if ((c === '$' || c === '%') && s[i + 1] === '{' && s[i - 1] !== c) { i = matchClose(s, i + 1) + 1; continue; }
    if (c === '\n') return i; // unterminated: stop at the line's end
    i++;
  }
  return i;
}

/** Index just past a heredoc whose `<<` is at `i`; -1 when it is not one. */
function skipHeredoc(s: string, i: number): number {
  const m = /<<-?([A-Za-z_]\w*)[ \t]*\r?\n/y;
  m.lastIndex = i;
  const h = m.exec(s);
  if (!h) return -1;
  const end = new RegExp(`^[ \\t]*${h[1]}[ \\t]*$`, 'm');
  const rest = s.slice(i + h[0].length);
  const found = end.exec(rest);
  return found ? i + h[0].length + found.index + found[0].length : s.length;
}

/** Index past a comment at `i`, or `i` when there is none. */
function skipComment(s: string, i: number): number {
  if (s[i] === '#' || (s[i] === '/' && s[i + 1] === '/')) { const nl = s.indexOf('\n', i); return nl < 0 ? s.length : nl; }
  if (s[i] === '/' && s[i + 1] === '*') { const e = s.indexOf('*/', i + 2); return e < 0 ? s.length : e + 2; }
  return i;
}

/** The index of the bracket closing the one at `open` (`{`, `[` or `(`). */
export function matchClose(s: string, open: number): number {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '{': '}', '[': ']', '(': ')' };
  let i = open;
  while (i < s.length) {
    const c = s[i];
    const skipped = skipComment(s, i);
    if (skipped !== i) { i = skipped; continue; }
    if (c === '"') { i = skipString(s, i); continue; }
    if (c === '<' && s[i + 1] === '<') { const h = skipHeredoc(s, i); if (h > 0) { i = h; continue; } }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === '}' || c === ']' || c === ')') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
    i++;
  }
  return -1;
}

/** Index of the end of an expression starting at `i`: the end of its line outside brackets (a trailing comment excluded). */
function skipExpr(s: string, i: number): number {
  let end = i;
  while (i < s.length) {
    const c = s[i];
    if (c === '\n') break;
    const skipped = skipComment(s, i);
    if (skipped !== i) { if (s[i] === '/' && s[i + 1] === '*') { i = skipped; continue; } break; }
    if (c === '"') { i = skipString(s, i); end = i; continue; }
    if (c === '<' && s[i + 1] === '<') { const h = skipHeredoc(s, i); if (h > 0) { i = h; end = i; break; } }
    if (c === '{' || c === '[' || c === '(') { const close = matchClose(s, i); if (close < 0) return -1; i = close + 1; end = i; continue; }
    if (c === ',' || c === ']' || c === '}' || c === ')') break;
    i++;
    if (!isSpace(c)) end = i;
  }
  return end;
}

const lineStartOf = (s: string, i: number) => s.lastIndexOf('\n', i - 1) + 1;
const lineEndOf = (s: string, i: number) => { const nl = s.indexOf('\n', i); return nl < 0 ? s.length : nl; };

/** The attributes and blocks of a body between `from` and `to` (exclusive), in order; null when it does not read. */
export function parseBody(s: string, from: number, to: number): Item[] | null {
  const items: Item[] = [];
  let i = from;
  while (i < to) {
    const c = s[i];
    if (isSpace(c) || c === '\n' || c === ',') { i++; continue; }
    const skipped = skipComment(s, i);
    if (skipped !== i) { i = skipped; continue; }
    let name: string;
    const lineStart = lineStartOf(s, i);
    if (c === '"') {
      const e = skipString(s, i);
      try { name = JSON.parse(s.slice(i, e)); } catch { return null; }
      i = e;
    } else {
      IDENT.lastIndex = i;
      const m = IDENT.exec(s);
      if (!m) return null;
      name = m[0];
      i += m[0].length;
    }
    while (isSpace(s[i])) i++;
    if ((s[i] === '=' && s[i + 1] !== '=') || s[i] === ':') {
      i++;
      while (isSpace(s[i])) i++;
      const exprEnd = skipExpr(s, i);
      if (exprEnd < 0 || exprEnd > to) return null;
      items.push({ kind: 'attr', name, lineStart, exprStart: i, exprEnd, lineEnd: lineEndOf(s, exprEnd) });
      i = exprEnd;
      continue;
    }
    // A block: labels, then its body.
    while (i < to && s[i] !== '{' && s[i] !== '\n') {
      if (s[i] === '"') i = skipString(s, i); else i++;
    }
    if (s[i] !== '{') return null;
    const close = matchClose(s, i);
    if (close < 0 || close > to) return null;
    items.push({ kind: 'block', name, lineStart, open: i, close, lineEnd: lineEndOf(s, close) });
    i = close + 1;
  }
  return items;
}

/** A literal value of HCL (string without templates, number, bool, null, list, object); undefined for an expression. */
export function literalOf(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('"')) {
    if (/\$\{|%\{/.test(t.replace(/\$\$\{|%%\{/g, ''))) return undefined;
    try { return JSON.parse(t.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{')); } catch { return undefined; }
  }
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  if (t.startsWith('[') && matchClose(t, 0) === t.length - 1) {
    const out: unknown[] = [];
    let i = 1;
    while (i < t.length - 1) {
      while (i < t.length - 1 && /[\s,]/.test(t[i])) i++;
      if (i >= t.length - 1) break;
      const skipped = skipComment(t, i);
      if (skipped !== i) { i = skipped; continue; }
      const e = skipExpr(t, i);
      if (e <= i) return undefined;
      const v = literalOf(t.slice(i, e));
      if (v === undefined) return undefined;
      out.push(v);
      i = e;
    }
    return out;
  }
  if (t.startsWith('{') && matchClose(t, 0) === t.length - 1) {
    const items = parseBody(t, 1, t.length - 1);
    if (!items || items.some((x) => x.kind !== 'attr')) return undefined;
    const out: Record<string, unknown> = {};
    for (const x of items as Extract<Item, { kind: 'attr' }>[]) {
      const v = literalOf(t.slice(x.exprStart, x.exprEnd));
      if (v === undefined) return undefined;
      out[x.name] = v;
    }
    return out;
  }
  return undefined;
}

const KEY = /^[A-Za-z_][\w-]*$/;
const quote = (v: string) => JSON.stringify(v).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');

/** An HCL literal for a value; objects span lines at `indent`. */
export function render(v: unknown, indent: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return `[${v.map((x) => render(x, indent)).join(', ')}]`;
    return `[\n${v.map((x) => `${indent}  ${render(x, `${indent}  `)}`).join(',\n')},\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return '{}';
  const width = Math.max(...entries.map(([k]) => (KEY.test(k) ? k : quote(k)).length));
  return `{\n${entries.map(([k, x]) => `${indent}  ${(KEY.test(k) ? k : quote(k)).padEnd(width)} = ${render(x, `${indent}  `)}`).join('\n')}\n${indent}}`;
}

/** A nested block written from a live object: its scalar and list attributes, null ones left out. */
function renderBlock(name: string, obj: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(obj).filter(([, v]) => v !== null && v !== undefined);
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return `${indent}${name} {\n${entries.map(([k, v]) => `${indent}  ${k.padEnd(width)} = ${render(v, `${indent}  `)}`).join('\n')}\n${indent}}`;
}

const indentOf = (s: string, lineStart: number) => /^[ \t]*/.exec(s.slice(lineStart))![0];
/** The indentation of a body's items: the first item's, else the opening line's plus two spaces. */
const bodyIndent = (s: string, open: number, items: Item[]) => (items[0] ? indentOf(s, items[0].lineStart) : `${indentOf(s, lineStartOf(s, open))}  `);

/** What an expression is, for advice: a variable, a local, or the expression itself. */
export function expressionAdvice(expr: string): { kind: 'variable' | 'local' | 'expression'; name: string } {
  const t = expr.trim();
  const whole = /^"?\$\{([^}]*)\}"?$/.exec(t);
  const inner = (whole ? whole[1] : t).trim();
  const v = /^var\.([A-Za-z_][\w-]*)$/.exec(inner);
  if (v) return { kind: 'variable', name: v[1] };
  const l = /^local\.([A-Za-z_][\w-]*)$/.exec(inner);
  if (l) return { kind: 'local', name: l[1] };
  return { kind: 'expression', name: t.length > 200 ? `${t.slice(0, 200)}…` : t };
}

/** Where the `resource "type" "name"` block opens: at the declared line, else anywhere in the file; -1 when absent. */
export function findResource(s: string, type: string, name: string, line: number | null): number {
  const re = new RegExp(`^[ \\t]*resource[ \\t]+"${type.replace(/[^\w-]/g, '')}"[ \\t]+"${name.replace(/[^\w-]/g, '')}"[ \\t]*\\{`, 'gm');
  let first = -1;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const at = m.index + m[0].length - 1;
    if (first < 0) first = at;
    if (line !== null && s.slice(0, m.index).split('\n').length === line) return at;
  }
  return first;
}

/**
 * The edits that make the resource's body declare the live values (`accept`), with advice for
 * what cannot be edited exactly. `open` is the index of the resource block's `{`.
 */
export function acceptEdits(s: string, open: number, changes: Change[]): FilePatch {
  const patch: FilePatch = { edits: [], advice: [], exact: [] };
  const close = matchClose(s, open);
  if (close < 0) { patch.advice.push({ attribute: '*', text: 'The resource block could not be read (unbalanced brackets)' }); return patch; }

  const place = (bodyOpen: number, bodyClose: number, path: string[], c: Change): void => {
    const items = parseBody(s, bodyOpen + 1, bodyClose);
    if (!items) { patch.advice.push({ attribute: c.attribute, text: 'The block holding it could not be read; change it by hand' }); return; }
    const [head, ...rest] = path;
    const attr = items.find((x): x is Extract<Item, { kind: 'attr' }> => x.kind === 'attr' && x.name === head);
    const blocks = items.filter((x): x is Extract<Item, { kind: 'block' }> => x.kind === 'block' && x.name === head);
    const indent = bodyIndent(s, bodyOpen, items);
    if (attr) {
      const expr = s.slice(attr.exprStart, attr.exprEnd);
      if (rest.length) {
        if (expr.startsWith('{') && literalOf(expr) !== undefined) return place(attr.exprStart, attr.exprEnd - 1, rest, c);
        if (expr.startsWith('{')) return place(attr.exprStart, attr.exprEnd - 1, rest, c);
        const what = expressionAdvice(expr);
        patch.advice.push({ attribute: c.attribute, text: adviceText(what, c) });
        return;
      }
      if (literalOf(expr) === undefined) { patch.advice.push({ attribute: c.attribute, text: adviceText(expressionAdvice(expr), c) }); return; }
      if (c.after === null || c.after === undefined) {
        // Gone from the cloud: the attribute goes from the code (its whole lines).
        const end = attr.lineEnd < s.length ? attr.lineEnd + 1 : attr.lineEnd;
        patch.edits.push({ start: attr.lineStart, end, text: '' });
      } else {
        patch.edits.push({ start: attr.exprStart, end: attr.exprEnd, text: render(c.after, indentOf(s, attr.lineStart)) });
      }
      patch.exact.push(c.attribute);
      return;
    }
    if (blocks.length) {
      if (rest.length && /^\d+$/.test(rest[0])) {
        const b = blocks[Number(rest[0])];
        if (!b) { patch.advice.push({ attribute: c.attribute, text: `There is no ${head} block number ${Number(rest[0]) + 1} in the code; add it by hand` }); return; }
        if (rest.length === 1) { patch.advice.push({ attribute: c.attribute, text: `Replace the ${head} block with the live value ${JSON.stringify(c.after)}` }); return; }
        return place(b.open, b.close, rest.slice(1), c);
      }
      if (!rest.length && Array.isArray(c.after) && c.after.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
        // Every block of this type written again from the live objects, where the first stood.
        const blockIndent = indentOf(s, blocks[0].lineStart);
        const text = (c.after as Record<string, unknown>[]).map((o) => renderBlock(head, o, blockIndent)).join('\n');
        blocks.forEach((b, k) => {
          const end = b.lineEnd < s.length ? b.lineEnd + 1 : b.lineEnd;
          patch.edits.push({ start: b.lineStart, end, text: k === 0 ? (text ? `${text}\n` : '') : '' });
        });
        patch.exact.push(c.attribute);
        return;
      }
      patch.advice.push({ attribute: c.attribute, text: `Change the ${head} block${blocks.length > 1 ? 's' : ''} to the live value ${JSON.stringify(c.after)}` });
      return;
    }
    // Not in the code: the provider's default was used. Declare the live value.
    if (rest.length === 0 && c.after !== null && c.after !== undefined) {
      const at = lineStartOf(s, bodyClose);
      const closeIndent = indentOf(s, at);
      const before = s.slice(at, bodyClose).trim() === '' ? at : bodyClose;
      const prefix = before === at ? '' : '\n';
      patch.edits.push({ start: before, end: before, text: `${prefix}${indent === closeIndent ? `${indent}  ` : indent}${KEY.test(head) ? head : quote(head)} = ${render(c.after, indent)}\n` });
      patch.exact.push(c.attribute);
      return;
    }
    if (rest.length === 0) { patch.exact.push(c.attribute); return; } // absent in code and in the cloud: nothing to write
    patch.advice.push({ attribute: c.attribute, text: `${head} is not written in the resource block; add it with the live value ${JSON.stringify(c.after)}` });
  };

  for (const c of changes) {
    // Secrets are never written into code: the engine masks sensitive values, and a value named like a secret stays out too.
    if (c.after === SENSITIVE || c.before === SENSITIVE || SECRET_NAME.test(c.attribute)) {
      patch.advice.push({ attribute: c.attribute, text: 'A secret value changed: set it from your secret store (a variable marked sensitive), never in the code' });
      continue;
    }
    place(open, close, c.attribute.split('.'), c);
  }
  return patch;
}

function adviceText(what: { kind: 'variable' | 'local' | 'expression'; name: string }, c: Change): string {
  const live = JSON.stringify(c.after);
  if (what.kind === 'variable') return `The value comes from variable "${what.name}": set it to ${live} in the tfvars file that sets it (terraform.tfvars or *.auto.tfvars), or in its default in the variable "${what.name}" block`;
  if (what.kind === 'local') return `The value comes from local "${what.name}": change that local so ${c.attribute} becomes ${live}`;
  return `The value is the expression ${what.name}: change what it reads so ${c.attribute} becomes ${live}`;
}

/** The edit removing the whole resource block whose `{` is at `open` (the resource was deleted in the cloud, and that is accepted). */
export function removeBlockEdit(s: string, open: number): Edit | null {
  const close = matchClose(s, open);
  if (close < 0) return null;
  const start = lineStartOf(s, open);
  const nl = s.indexOf('\n', close);
  let end = nl < 0 ? s.length : nl + 1;
  // One blank line after the block goes with it, so no double gap is left.
  if (s[end] === '\n' && (start === 0 || s[start - 2] === '\n' || s[start - 1] === '\n')) end++;
  return { start, end, text: '' };
}

/** The text with the edits applied (edits must not overlap). */
export function applyEdits(s: string, edits: Edit[]): string {
  let out = s;
  for (const e of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Whether the code at the resource declares the same values as `before` for each change (a revert needs no edit). */
export function declaredValues(s: string, open: number, changes: Change[]): { attribute: string; declared: string | null }[] {
  const close = matchClose(s, open);
  const items = close < 0 ? null : parseBody(s, open + 1, close);
  return changes.map((c) => {
    const head = c.attribute.split('.')[0];
    const attr = items?.find((x): x is Extract<Item, { kind: 'attr' }> => x.kind === 'attr' && x.name === head);
    return { attribute: c.attribute, declared: attr ? s.slice(attr.exprStart, attr.exprEnd) : null };
  });
}
