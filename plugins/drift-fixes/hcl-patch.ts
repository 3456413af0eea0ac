// Exact fixes in HCL source (docs/drift-fixes.md): the resource block that declares a drifted
// resource is found at its declared line, and each changed attribute path of the drift
// (`instance_type`, `tags.Name`, `versioning_configuration.0.status`, `ingress`) is located in
// its body: an attribute, a key of an object literal, the n-th nested block, or every nested
// block of a type. A literal value is rewritten with the live value; a missing attribute is
// added before the closing brace, one gone from the cloud removed; a list of nested blocks is
// written again from the live objects. A value written as an expression (a variable, local,
// function call, reference) is never rewritten: the fix names what to change instead.
//
// The reading and writing of HCL itself is hcl-read.ts: it reads only what it needs of HCL's
// native syntax, and anything it does not understand ends in advice, not in a guessed edit.
import {
  bodyIndent, expressionAdvice, indentOf, KEY, lineStartOf, literalOf, matchClose, parseBody, quote, render, renderBlock, type Item,
} from './hcl-read.ts';

export interface Change { attribute: string; before: unknown; after: unknown }
export interface Edit { start: number; end: number; text: string }
export interface Advice { attribute: string; text: string }
export interface FilePatch { edits: Edit[]; advice: Advice[]; exact: string[] }

/** What the engine writes for a sensitive attribute (runner-agent/src/engine/sensitive.ts SENSITIVE_CHANGED). */
const SENSITIVE = '(sensitive value changed)';
const SECRET_NAME = /(password|passwd|secret|token|private_key|api_key|access_key|credential)/i;

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
