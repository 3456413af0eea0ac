// A reader and writer of the parts of HCL's native syntax an exact fix needs: identifiers,
// `=`, blocks with labels, strings with `${}` templates, heredocs, comments, brackets (read),
// and literals and nested blocks (written). Generic: it knows no resource type and no drift;
// hcl-patch.ts builds the edits of a fix on it. Anything it does not understand reads as null or
// undefined, so the caller ends in advice, not in a guessed edit.
export type Item =
  | { kind: 'attr'; name: string; lineStart: number; exprStart: number; exprEnd: number; lineEnd: number }
  | { kind: 'block'; name: string; lineStart: number; open: number; close: number; lineEnd: number };

const IDENT = /[A-Za-z_][\w-]*/y;
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

export const lineStartOf = (s: string, i: number) => s.lastIndexOf('\n', i - 1) + 1;
export const lineEndOf = (s: string, i: number) => { const nl = s.indexOf('\n', i); return nl < 0 ? s.length : nl; };

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

export const KEY = /^[A-Za-z_][\w-]*$/;
export const quote = (v: string) => JSON.stringify(v).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');

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
export function renderBlock(name: string, obj: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(obj).filter(([, v]) => v !== null && v !== undefined);
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return `${indent}${name} {\n${entries.map(([k, v]) => `${indent}  ${k.padEnd(width)} = ${render(v, `${indent}  `)}`).join('\n')}\n${indent}}`;
}

export const indentOf = (s: string, lineStart: number) => /^[ \t]*/.exec(s.slice(lineStart))![0];
/** The indentation of a body's items: the first item's, else the opening line's plus two spaces. */
export const bodyIndent = (s: string, open: number, items: Item[]) => (items[0] ? indentOf(s, items[0].lineStart) : `${indentOf(s, lineStartOf(s, open))}  `);

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
