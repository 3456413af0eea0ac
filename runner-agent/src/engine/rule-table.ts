// The severity rule table as a user reads it (GET /api/drifts/rules): each rule's condition
// put in words from the very fields classify() matches on, so the text cannot say one thing
// while the engine does another.
import { SEVERITY_RULES } from './catalogue.ts';
import type { SeverityRule } from './rules.ts';
import type { Severity } from './types.ts';

export interface RuleRow {
  id: string;
  severity: Severity;
  description: string;
  /** Resource types (globs); [] = every type. */
  resourceTypes: string[];
  /** Attribute globs of the diff; [] = any attribute. */
  attributes: string[];
  changeTypes: string[];
  condition: string;
  rationale: string;
}

const list = (xs: readonly unknown[], or = 'or') => {
  const s = xs.map((x) => (typeof x === 'string' ? (x === '' ? 'empty' : x) : JSON.stringify(x)));
  return s.length < 2 ? s.join('') : `${s.slice(0, -1).join(', ')} ${or} ${s[s.length - 1]}`;
};

export function conditionText(r: SeverityRule): string {
  const parts: string[] = [];
  parts.push(r.types ? `${/^[aeiou]/.test(r.types[0]) ? 'an' : 'a'} ${list(r.types)}` : 'a resource of any type');
  if (r.where) parts.push(`whose state has ${Object.entries(r.where).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(' and ')}`);
  if (r.changeTypes?.length === 1) parts.push(r.changeTypes[0] === 'deleted' ? 'was deleted outside IaC' : 'was changed outside IaC');
  else parts.push('was changed or deleted outside IaC');
  if (r.onlyAttributes) parts.push(`and only ${list(r.onlyAttributes, 'and')} differ`);
  const what = r.attributes ? `${list(r.attributes)}` : 'an attribute';
  if (r.gains) parts.push(`and ${what} newly holds ${list(r.gains)}`);
  else if (r.becomes) parts.push(`and ${what} became ${list(r.becomes)}`);
  else if (r.opensToAnyone) parts.push(`and ${what} now allows Principal "*" without a condition`);
  else if (r.test) parts.push(`and ${what} ${r.test.describe}`);
  else if (r.gainsRoute) parts.push(`and ${what} newly routes ${list(r.gainsRoute.destinations)} through a ${r.gainsRoute.targetPrefix}* target`);
  else if (r.attributes) parts.push(`and ${what} differs`);
  return parts.join(' ');
}

/** The rules in the order classify() tries them: the first that matches decides. */
export const RULE_TABLE: RuleRow[] = SEVERITY_RULES.map((r) => ({
  id: r.id, severity: r.severity, description: r.description,
  resourceTypes: r.types ?? [], attributes: r.attributes ?? r.onlyAttributes ?? [], changeTypes: r.changeTypes ?? ['changed', 'deleted'],
  condition: conditionText(r), rationale: r.rationale,
}));
