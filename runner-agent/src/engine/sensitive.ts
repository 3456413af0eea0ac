// Attributes the state marks sensitive (`sensitive_attributes`: passwords, secret strings,
// private keys...) never reach a drift record, and so never reach the database, webhooks or
// chat. Before comparing, the value at each sensitive path is replaced, on both sides, by a hash
// of its canonical form (so equal values still compare equal and a change still shows); any diff
// entry at, above or under a sensitive path then shows only SENSITIVE_CHANGED.
import { createHash } from 'node:crypto';
import type { DiffEntry } from './types.ts';
import { canonicalText, isEmpty, isObject, scalarKey } from './values.ts';

export const SENSITIVE_CHANGED = '(sensitive value changed)';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * A value's hash. A reader that reads a secret (a secret version, a SecureString) hands back this
 * hash instead of the value, so the value never leaves it; a value already hashed stays as is.
 */
export const digest = (v: unknown): unknown => (isEmpty(v) || (typeof v === 'string' && DIGEST.test(v)) ? v
  : `sha256:${createHash('sha256').update(typeof v === 'object' ? canonicalText(v) : scalarKey(v)).digest('hex')}`);

/** A copy of `attrs` with the value at each path replaced by its hash (containers copied along the way only). */
export function hashSensitive(attrs: Record<string, unknown>, paths: string[][]): Record<string, unknown> {
  if (paths.length === 0) return attrs;
  const root: Record<string, unknown> = { ...attrs };
  for (const p of paths) {
    let node: unknown = root;
    for (let i = 0; i < p.length; i++) {
      const key = Array.isArray(node) ? Number(p[i]) : p[i];
      const holder = node as Record<string | number, unknown>;
      if (!(isObject(node) || Array.isArray(node)) || holder[key] === undefined) break;
      if (i === p.length - 1) { holder[key] = digest(holder[key]); break; }
      const child = holder[key];
      holder[key] = Array.isArray(child) ? [...child] : isObject(child) ? { ...child } : child;
      node = holder[key];
    }
  }
  return root;
}

/** True when one path is a prefix of the other (segment by segment). */
const overlaps = (attribute: string, p: string[]) => {
  const a = attribute.split('.');
  const n = Math.min(a.length, p.length);
  return a.slice(0, n).every((s, i) => s === p[i]);
};

export function redactDiff(diff: DiffEntry[], paths: string[][]): DiffEntry[] {
  if (paths.length === 0) return diff;
  return diff.map((d) => (paths.some((p) => overlaps(d.attribute, p)) ? { attribute: d.attribute, before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED } : d));
}
