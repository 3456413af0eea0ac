// Severity rules, as data: the first rule whose every condition holds decides a drift's severity,
// and its id goes into the drift record (ruleId). Each provider's rules sit beside its readers
// (cloud/<provider>/<family>/); catalogue.ts orders them before GENERIC_RULES below, and this
// module imports no provider. Conditions:
//   types          resource types the rule is for (glob; absent = every type)
//   changeTypes    changed / deleted (absent = both)
//   where          state attributes that must equal the given values (e.g. the rule's direction)
//   attributes     some diff entry's attribute matches one of these globs ...
//   gains          ... and that entry's `after` holds one of these values, anywhere inside it,
//                  that its `before` did not hold (e.g. a CIDR newly let in)
//   becomes        ... and that entry's `after` equals one of these values ('' matches any empty)
//   onlyAttributes every diff entry's attribute matches one of these globs
//   opensToAnyone  ... and that entry's `after` is a policy letting anyone (Principal "*") in, its `before` not
//   gainsRoute     ... and that entry's `after` routes a destination through a target id prefix that `before` did not
//   test           ... and that entry passes a named predicate (Azure and Google rules: a rule that opens
//                  22 or 3389 to the internet, a member that is `allUsers`...), given the state and the
//                  live attributes after the change; `describe` is its condition in words; `diff` is the
//                  drift's whole diff, for a condition spread over several attributes (a firewall's
//                  source ranges and ports changed together)
import type { ChangeType, DiffEntry, Severity } from './types.ts';
import { globRegExp, isEmpty, isObject, normalizePolicy, scalarKey } from './values.ts';

export interface SeverityRule {
  id: string;
  severity: Severity;
  description: string;
  /** Why the severity: one line a user reads next to a drift (GET /api/drifts/rules). */
  rationale: string;
  types?: string[];
  changeTypes?: ChangeType[];
  where?: Record<string, unknown>;
  attributes?: string[];
  gains?: string[];
  becomes?: unknown[];
  onlyAttributes?: string[];
  opensToAnyone?: boolean;
  gainsRoute?: { destinations: string[]; targetPrefix: string };
  /** `diff` is the drift's every entry (a rule opened by two attributes changed together). */
  test?: { describe: string; fn(entry: DiffEntry, state: Record<string, unknown>, diff: DiffEntry[]): boolean };
}

const TAGS = ['tags', 'tags.*', 'tags_all', 'tags_all.*'];

/**
 * The fallbacks every provider's rules come before (engine/catalogue.ts assembles the whole table):
 * tag-only and label-only edits, then any deletion, then any change. They match every drift, so
 * classify() always finds a rule.
 */
export const GENERIC_RULES: SeverityRule[] = [
  { id: 'tags-only', severity: 'low', description: 'Only tags changed',
    rationale: 'Tags change cost reports and automation, not access.', changeTypes: ['changed'], onlyAttributes: TAGS },
  { id: 'labels-only', severity: 'low', description: 'Only labels changed',
    rationale: 'Labels change cost reports and automation, not access.', types: ['google_*'], changeTypes: ['changed'], onlyAttributes: ['labels', 'labels.*'] },
  { id: 'deleted', severity: 'high', description: 'Resource deleted outside IaC',
    rationale: 'The code declares a resource the cloud no longer has; the next apply recreates it.', changeTypes: ['deleted'] },
  { id: 'changed', severity: 'medium', description: 'Resource changed outside IaC',
    rationale: 'The cloud differs from the code; the next apply reverts it.', changeTypes: ['changed'] },
];

/** Every string (and scalar) inside a value, as comparable keys. */
function leaves(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (isObject(v)) Object.values(v).forEach((x) => leaves(x, out));
  else if (!isEmpty(v)) out.add(scalarKey(v));
  return out;
}

const anyGlob = (globs: string[]) => { const res = globs.map((g) => globRegExp(g)); return (s: string) => res.some((r) => r.test(s)); };

/** Whether a policy document has an Allow statement for Principal "*" (or AWS "*") without a Condition. */
function opensToAnyone(doc: unknown): boolean {
  const p = normalizePolicy(doc);
  const statements = isObject(p) && Array.isArray(p.Statement) ? p.Statement : [];
  return statements.some((s) => isObject(s) && s.Effect === 'Allow' && !s.Condition
    && (s.Principal === '*' || (isObject(s.Principal) && [s.Principal.AWS].flat().includes('*'))));
}

/** Destination -> target pairs of route elements (aws_route_table.route) or of one aws_route's fields. */
function routesOf(v: unknown, owner?: Record<string, unknown>): string[] {
  const list = Array.isArray(v) ? v : owner ? [owner] : [];
  return list.filter(isObject).flatMap((r) => {
    const dest = scalarKey(r.cidr_block ?? r.destination_cidr_block) || scalarKey(r.ipv6_cidr_block ?? r.destination_ipv6_cidr_block);
    return [`${dest}>${scalarKey(r.gateway_id)}`];
  });
}

function gainsRoute(rule: NonNullable<SeverityRule['gainsRoute']>, d: DiffEntry, state: Record<string, unknown>): boolean {
  const single = d.attribute === 'gateway_id';
  const after = single ? routesOf(undefined, { ...state, gateway_id: d.after }) : routesOf(d.after);
  const before = new Set(single ? routesOf(undefined, state) : routesOf(d.before));
  return after.some((r) => !before.has(r) && rule.destinations.some((w) => r.startsWith(`${w}>${rule.targetPrefix}`)));
}

function entryMatches(rule: SeverityRule, d: DiffEntry, state: Record<string, unknown> = {}, diff: DiffEntry[] = [d]): boolean {
  if (rule.opensToAnyone && !(opensToAnyone(d.after) && !opensToAnyone(d.before))) return false;
  if (rule.gainsRoute && !gainsRoute(rule.gainsRoute, d, state)) return false;
  if (rule.test && !rule.test.fn(d, state, diff)) return false;
  if (rule.gains) {
    const before = leaves(d.before);
    const after = leaves(d.after);
    if (!rule.gains.some((g) => after.has(g) && !before.has(g))) return false;
  }
  if (rule.becomes) {
    const ok = rule.becomes.some((b) => (b === '' ? isEmpty(d.after) : !isEmpty(d.after) && scalarKey(b) === scalarKey(d.after)));
    if (!ok) return false;
  }
  return true;
}

export function ruleMatches(rule: SeverityRule, drift: { resourceType: string; changeType: ChangeType; diff: DiffEntry[] }, stateAttributes: Record<string, unknown> = {}): boolean {
  if (rule.types && !anyGlob(rule.types)(drift.resourceType)) return false;
  if (rule.changeTypes && !rule.changeTypes.includes(drift.changeType)) return false;
  if (rule.where && !Object.entries(rule.where).every(([k, v]) => scalarKey(stateAttributes[k]) === scalarKey(v))) return false;
  if (rule.onlyAttributes) {
    const m = anyGlob(rule.onlyAttributes);
    if (drift.diff.length === 0 || !drift.diff.every((d) => m(d.attribute))) return false;
  }
  if (rule.attributes) {
    const m = anyGlob(rule.attributes);
    if (!drift.diff.some((d) => m(d.attribute) && entryMatches(rule, d, stateAttributes, drift.diff))) return false;
  } else if (rule.gains || rule.becomes || rule.test) {
    if (!drift.diff.some((d) => entryMatches(rule, d, stateAttributes, drift.diff))) return false;
  }
  return true;
}

/** Severity and rule id of the first matching rule of `rules` (catalogue.ts SEVERITY_RULES, which ends with catch-alls). */
export function classify(
  drift: { resourceType: string; changeType: ChangeType; diff: DiffEntry[] },
  stateAttributes: Record<string, unknown>,
  rules: SeverityRule[],
): { severity: Severity; ruleId: string } {
  const rule = rules.find((r) => ruleMatches(r, drift, stateAttributes));
  if (rule) return { severity: rule.severity, ruleId: rule.id };
  return drift.changeType === 'deleted' ? { severity: 'high', ruleId: 'deleted' } : { severity: 'medium', ruleId: 'changed' };
}
