// Attribute comparison of one resource: state attributes against live attributes (both in the
// Terraform provider's shape). Only attributes present on both sides are compared at the top
// level (the state may hold attributes the API does not return, and the other way round); maps
// such as tags are compared key by key over both sides, so a tag added out of band shows up.
import type { IgnoreRules } from './ignore.ts';
import type { DiffEntry } from './types.ts';
import { blank, canonical, canonicalText, isEmpty, isObject, normalizePolicy, sameJson, scalarKey, scalarSet, unsetOrFalse } from './values.ts';

/** How the attributes of one resource type compare, beyond the generic rules. */
export interface CompareSpec {
  /** Attributes holding JSON policy documents, compared semantically (glob-free paths, `*` = any list index). */
  policies?: string[];
  /** Lists of objects whose order carries no meaning, with the key that identifies equal elements. */
  sets?: Record<string, (element: unknown, owner: Record<string, unknown>, attribute: string) => string[]>;
  /**
   * Attributes the state implies without storing them, compared like stored ones (a KMS key the
   * state holds as enabled implies key_state "Enabled": a key scheduled for deletion then shows).
   */
  implied?: (state: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Attributes the provider's schema marks sensitive (a key vault secret's value), hashed and
   * redacted like the state's own `sensitive_attributes` paths (sensitive.ts) even when the state
   * does not list them (Terraform records only the paths its configuration marked).
   */
  sensitive?: string[];
  /**
   * The value the provider writes for an attribute the API leaves out (glob-free paths, `*` = any
   * list index): an empty side (null, absent, "") compares as this value, so a state holding
   * null and an API answering nothing, or the provider's false or 0, are the same.
   */
  defaults?: Record<string, unknown>;
}

export interface CompareResult { diff: DiffEntry[]; ignored: number }

const pathMatches = (pattern: string, p: string) => {
  const a = pattern.split('.');
  const b = p.split('.');
  return a.length === b.length && a.every((s, i) => s === '*' || s === b[i]);
};

/** Element keys of a set of objects: each element may stand for several atoms (e.g. one rule per CIDR). */
export function setKeys(list: unknown, keyOf: NonNullable<CompareSpec['sets']>[string], owner: Record<string, unknown>, attribute: string): string[] {
  // Empty elements are placeholders, not members: the provider writes inline_policy as
  // [{"name":"","policy":""}] for a role without inline policies.
  const arr = (Array.isArray(list) ? list : []).filter((e) => !isEmpty(e));
  return [...new Set(arr.flatMap((e) => keyOf(e, owner, attribute)))].sort();
}

/** A set attribute the state marks sensitive is compared as its hash (a string), not as a list. */
const listsOrEmpty = (a: unknown, b: unknown) => (Array.isArray(a) || isEmpty(a)) && (Array.isArray(b) || isEmpty(b));

/** Generic element key: the element's canonical JSON with empties dropped and scalar lists sorted. */
export function genericKey(e: unknown): string[] {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.every((x) => !isObject(x)) ? scalarSet(v) : v.map(norm);
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        if (isEmpty(v[k])) continue;
        out[k] = k === 'policy' ? normalizePolicy(v[k]) : norm(v[k]);
      }
      return out;
    }
    return scalarKey(v);
  };
  return [canonicalText(norm(e))];
}

/** A readable value for a diff: policy text parsed, everything else as is (keys sorted). */
const show = (v: unknown, policy: boolean): unknown => (policy ? normalizePolicy(v) : v === undefined ? null : canonical(v));

export function compareAttributes(
  resourceType: string,
  address: string,
  state: Record<string, unknown>,
  live: Record<string, unknown>,
  spec: CompareSpec,
  ignore: IgnoreRules,
): CompareResult {
  const diff: DiffEntry[] = [];
  let ignored = 0;
  const emit = (attribute: string, before: unknown, after: unknown, policy = false) => {
    if (ignore.ignores(resourceType, address, attribute)) { ignored++; return; }
    diff.push({ attribute, before: show(before, policy), after: show(after, policy) });
  };

  const defaults = Object.entries(spec.defaults ?? {});
  const walk = (p: string, a: unknown, b: unknown, owner: Record<string, unknown>): void => {
    const byDefault = defaults.find(([pat]) => pathMatches(pat, p));
    if (byDefault) {
      if (isEmpty(a)) a = byDefault[1];
      if (isEmpty(b)) b = byDefault[1];
    }
    // An ignored subtree is skipped whole: its size says nothing (one count per subtree).
    if (ignore.ignores(resourceType, address, p)) {
      if (!sameValue(p, a, b, owner)) ignored++;
      return;
    }
    if (spec.policies?.some((pat) => pathMatches(pat, p))) {
      if (canonicalText(normalizePolicy(a)) !== canonicalText(normalizePolicy(b))) emit(p, a, b, true);
      return;
    }
    const setKey = listsOrEmpty(a, b) ? spec.sets?.[p] : undefined;
    if (setKey) {
      if (setKeys(a, setKey, owner, p).join('\n') !== setKeys(b, setKey, owner, p).join('\n')) emit(p, a, b);
      return;
    }
    if (blank(a) && blank(b)) return;
    // JSON held as text (schemas, container definitions, documents): compared as documents.
    const json = sameJson(a, b);
    if (json !== undefined) {
      if (!json) emit(p, a, b);
      return;
    }
    if (isObject(a) && isObject(b)) {
      // A map (tags, and the like): keys from both sides.
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(`${p}.${k}`, a[k], b[k], owner);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const objects = a.some(isObject) || b.some(isObject);
      if (!objects) {
        // Scalar lists in these providers are sets (CIDRs, security group ids, policy ARNs).
        if (scalarSet(a).join('\n') !== scalarSet(b).join('\n')) emit(p, a, b);
        return;
      }
      if (a.length === b.length) {
        // Nested blocks (versioning_configuration.0.status): element by element, keys both hold.
        a.forEach((x, i) => {
          const y = b[i];
          if (isObject(x) && isObject(y)) {
            for (const k of Object.keys(x).filter((k) => k in y).sort()) walk(`${p}.${i}.${k}`, x[k], y[k], owner);
          } else walk(`${p}.${i}`, x, y, owner);
        });
        return;
      }
      emit(p, a, b);
      return;
    }
    if (isObject(a) || isObject(b) || Array.isArray(a) || Array.isArray(b)) {
      if (canonicalText(a) !== canonicalText(b) && !(isEmpty(a) && isEmpty(b))) emit(p, a, b);
      return;
    }
    if (!sameScalar(a, b)) emit(p, a, b);
  };

  const view = spec.implied ? { ...spec.implied(state), ...state } : state;
  for (const key of Object.keys(view).filter((k) => k in live).sort()) {
    if (live[key] === undefined) continue;
    walk(key, view[key], live[key], state);
  }
  return { diff, ignored };

  function sameValue(p: string, a: unknown, b: unknown, owner: Record<string, unknown>): boolean {
    if (spec.policies?.some((pat) => pathMatches(pat, p))) return canonicalText(normalizePolicy(a)) === canonicalText(normalizePolicy(b));
    const setKey = listsOrEmpty(a, b) ? spec.sets?.[p] : undefined;
    if (setKey) return setKeys(a, setKey, owner, p).join('\n') === setKeys(b, setKey, owner, p).join('\n');
    if (blank(a) && blank(b)) return true;
    const json = sameJson(a, b);
    if (json !== undefined) return json;
    if (Array.isArray(a) && Array.isArray(b) && !a.some(isObject) && !b.some(isObject)) return scalarSet(a).join('\n') === scalarSet(b).join('\n');
    if ((typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null)) return sameScalar(a, b);
    return canonicalText(a) === canonicalText(b);
  }
}

/** Scalars as the providers mean them: 22 == "22", an unset boolean == false, JSON texts by their meaning. */
const sameScalar = (a: unknown, b: unknown) => scalarKey(a) === scalarKey(b) || unsetOrFalse(a, b) || sameJson(a, b) === true;
