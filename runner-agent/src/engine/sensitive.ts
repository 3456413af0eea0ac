// Attributes the state marks sensitive (`sensitive_attributes`: passwords, secret strings,
// private keys...) never reach a drift record, and so never reach the database, webhooks or
// chat. Before comparing, the value at each sensitive path is replaced, on both sides, by a hash
// of its canonical form (so equal values still compare equal and a change still shows); any diff
// entry at, above or under a sensitive path then shows only SENSITIVE_CHANGED.
import { createHash } from 'node:crypto';
import { setKeys, type CompareSpec } from './diff.ts';
import type { DiffEntry } from './types.ts';
import { blank, canonicalText, isEmpty, isObject, jsonText, normalizePolicy, scalarKey, scalarSet } from './values.ts';

export const SENSITIVE_CHANGED = '(sensitive value changed)';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * A value's hash. A reader that reads a secret (a secret version, a SecureString) hands back this
 * hash instead of the value, so the value never leaves it; a value already hashed stays as is.
 */
export const digest = (v: unknown): unknown => (isEmpty(v) || hashed(v) ? v : sha(canonicalText(meaning(v))));
const hashed = (v: unknown) => typeof v === 'string' && DIGEST.test(v);

/**
 * What the hash covers: the value as the comparison means it (diff.ts), so that two spellings the
 * comparison calls equal hash alike: empty and false members dropped, scalar lists as sets, JSON
 * text parsed. A set the reader's spec names (a Cloud Run env, IAM members) hashes its element
 * keys, sorted: Terraform marks a whole set sensitive when one element's value is.
 */
function meaning(v: unknown): unknown {
  if (Array.isArray(v)) return v.every((x) => !isObject(x) && !Array.isArray(x)) ? scalarSet(v) : v.map(meaning);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().filter((k) => !blank(v[k])).map((k) => [k, meaning(v[k])]));
  const json = jsonText(v);
  return json !== undefined ? json : scalarKey(v);
}

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const matches = (pattern: string, p: string[]) => { const a = pattern.split('.'); return a.length === p.length && a.every((s, i) => s === '*' || s === p[i]); };

/** The hash at one sensitive path: a set by its element keys, a policy by its meaning, anything else as digest() does. */
function hashAt(v: unknown, path: string[], owner: Record<string, unknown>, spec: CompareSpec): unknown {
  if (isEmpty(v) || hashed(v)) return v;
  const setKey = spec.sets?.[path.join('.')];
  if (setKey && Array.isArray(v)) return sha(setKeys(v, setKey, owner, path.join('.')).join('\n'));
  if (spec.policies?.some((p) => matches(p, path))) return sha(canonicalText(normalizePolicy(v)));
  return digest(v);
}

/**
 * A copy of `attrs` with the value at each path replaced by its hash (containers copied along the
 * way only); `spec`: the reader's sets and policies, hashed by their meaning.
 */
export function hashSensitive(attrs: Record<string, unknown>, paths: string[][], spec: CompareSpec = {}): Record<string, unknown> {
  if (paths.length === 0) return attrs;
  const root: Record<string, unknown> = { ...attrs };
  for (const p of paths) {
    let node: unknown = root;
    for (let i = 0; i < p.length; i++) {
      const key = Array.isArray(node) ? Number(p[i]) : p[i];
      const holder = node as Record<string | number, unknown>;
      if (!(isObject(node) || Array.isArray(node)) || holder[key] === undefined) break;
      if (i === p.length - 1) { holder[key] = hashAt(holder[key], p, attrs, spec); break; }
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
