// Evaluating guardrails on a plan in the JSON of `terraform show -json` / `tofu show -json`
// (format_version 1.x): each managed resource change that creates or updates (a replace's
// create side included) is checked against every rule of its type or of `*`. Pure code.
import { compile, check, type Compiled, type Rule } from './policy-rules.ts';

export const ENFORCEMENTS = ['block', 'warn', 'dry_run', 'require_approval'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];
export type Decision = 'blocked' | 'allowed' | 'pending';

/** At most this many violations (and unknowns) per guardrail in an answer or a stored evaluation; counts give the whole. */
export const MAX_LISTED = 200;
/** A shown value longer than this (as JSON) is cut. */
const MAX_SHOWN = 500;
export const SENSITIVE = '(sensitive)';

export interface ResourceChange {
  address: string; type: string; mode?: string; name?: string; module_address?: string; index?: unknown;
  change: { actions: string[]; after?: unknown; after_unknown?: unknown; after_sensitive?: unknown };
}
export interface PlanDocument { format_version: string; resource_changes?: ResourceChange[] }

export interface GuardrailInput { _id: string; name: string; enforcement: Enforcement; rules: Rule[] }

export interface Violation {
  address: string; resourceType: string; action: 'create' | 'update' | 'replace';
  ruleIndex: number; attribute: string; operator: string; expected?: unknown;
  /** The concrete path checked, e.g. ingress[0].cidr_blocks. */
  path: string;
  /** The planned value: null when absent, "(sensitive)" when the plan marks it sensitive. */
  actual: unknown;
}
export interface Unknown { address: string; ruleIndex: number; attribute: string; path: string }

export interface GuardrailResult {
  guardrailId: string; name: string; enforcement: Enforcement; decision: Decision;
  violationCount: number; violations: Violation[];
  /** Values unknown until apply that a comparison could not decide (listed, not violations). */
  unknownCount: number; unknowns: Unknown[];
}
export interface PlanResult { decision: Decision; resourceChanges: number; evaluated: number; results: GuardrailResult[] }

const STRICTNESS: Record<Decision, number> = { allowed: 0, pending: 1, blocked: 2 };
export const strictest = (ds: Decision[]): Decision => ds.reduce<Decision>((a, d) => (STRICTNESS[d] > STRICTNESS[a] ? d : a), 'allowed');

export function decisionOf(enforcement: Enforcement, violations: number): Decision {
  if (!violations) return 'allowed';
  if (enforcement === 'block') return 'blocked';
  if (enforcement === 'require_approval') return 'pending';
  return 'allowed'; // warn: allowed with warnings; dry_run: allowed, recorded only
}

/** create, update, or replace (either order of delete and create); null for what is not checked. */
export function actionOf(actions: readonly string[]): Violation['action'] | null {
  if (actions.includes('create')) return actions.includes('delete') ? 'replace' : 'create';
  if (actions.includes('update')) return 'update';
  return null; // no-op, delete, read, forget
}

/** A value as an answer may show it: sensitive parts masked, long values cut. */
export function shown(value: unknown, sensitive: unknown): unknown {
  if (sensitive === true) return SENSITIVE;
  const masked = mask(value, sensitive);
  const json = JSON.stringify(masked);
  if (json !== undefined && json.length > MAX_SHOWN) return `${json.slice(0, MAX_SHOWN)}…`;
  return masked;
}
function mask(value: unknown, sensitive: unknown): unknown {
  if (sensitive === true) return SENSITIVE;
  if (!sensitive || typeof sensitive !== 'object' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => mask(v, (sensitive as unknown[])[i]));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, (sensitive as Record<string, unknown>)[k])]));
}

/** The sensitive tree under a concrete path like a.b[0]["c"] (for masking parts of an object value). */
function sensitiveAt(tree: unknown, path: string): unknown {
  let t = tree;
  for (const m of path.matchAll(/\[(\d+)\]|\["([^"]*)"\]|\.?([^.[\]]+)/g)) {
    if (t === true) return true;
    if (!t || typeof t !== 'object') return undefined;
    t = m[1] !== undefined ? (t as unknown[])[Number(m[1])] : (t as Record<string, unknown>)[m[2] ?? m[3]];
  }
  return t;
}

/** The rules of every guardrail, compiled once and grouped by resource type (`*` rules with every type). */
function index(guardrails: readonly GuardrailInput[]) {
  type Entry = { g: number; i: number; c: Compiled };
  const byType = new Map<string, Entry[]>();
  const any: Entry[] = [];
  guardrails.forEach((gr, g) => gr.rules.forEach((rule, i) => {
    const entry = { g, i, c: compile(rule) };
    if (rule.resourceType === '*') any.push(entry);
    else byType.set(rule.resourceType, [...(byType.get(rule.resourceType) ?? []), entry]);
  }));
  const merged = new Map<string, Entry[]>();
  return (type: string) => {
    let list = merged.get(type);
    if (!list) { list = [...(byType.get(type) ?? []), ...any]; merged.set(type, list); }
    return list;
  };
}

export function evaluatePlan(plan: PlanDocument, guardrails: readonly GuardrailInput[]): PlanResult {
  const results: GuardrailResult[] = guardrails.map((g) => ({
    guardrailId: g._id, name: g.name, enforcement: g.enforcement, decision: 'allowed',
    violationCount: 0, violations: [], unknownCount: 0, unknowns: [],
  }));
  const rulesFor = index(guardrails);
  const changes = plan.resource_changes ?? [];
  let evaluated = 0;
  for (const rc of changes) {
    if (rc.mode === 'data') continue;
    const action = actionOf(rc.change?.actions ?? []);
    if (!action) continue;
    evaluated++;
    const planned = { after: rc.change.after, unknown: rc.change.after_unknown, sensitive: rc.change.after_sensitive };
    for (const { g, i, c } of rulesFor(rc.type)) {
      const res = results[g];
      for (const f of check(c, planned)) {
        if (f.outcome === 'unknown') {
          res.unknownCount++;
          if (res.unknowns.length < MAX_LISTED) res.unknowns.push({ address: rc.address, ruleIndex: i, attribute: c.rule.attribute, path: f.path });
        } else if (f.outcome === 'fail') {
          res.violationCount++;
          if (res.violations.length < MAX_LISTED) {
            res.violations.push({
              address: rc.address, resourceType: rc.type, action, ruleIndex: i, attribute: c.rule.attribute, operator: c.rule.operator,
              ...(c.rule.value !== undefined ? { expected: c.rule.value } : {}), path: f.path,
              actual: f.state !== 'known' ? null : f.sensitive ? SENSITIVE : shown(f.value, sensitiveAt(rc.change.after_sensitive, f.path)),
            });
          }
        }
      }
    }
  }
  for (const r of results) r.decision = decisionOf(r.enforcement, r.violationCount);
  return { decision: strictest(results.map((r) => r.decision)), resourceChanges: changes.length, evaluated, results };
}
