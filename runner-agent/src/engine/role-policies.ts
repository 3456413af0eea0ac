// An aws_iam_role's `managed_policy_arns` and `inline_policy` when the same state manages some
// of those policies with their own resources (aws_iam_role_policy_attachment(s_exclusive),
// aws_iam_role_policy / aws_iam_role_policies_exclusive). The role keeps a copy of both lists
// from its last refresh, which those resources make stale; so the policies they manage are
// taken out of both sides (each resource compares its own), and a policy attached or put out
// of band is still reported on the role, since nothing in the state manages it.
import type { StateInstance } from './types.ts';
import { isEmpty, isObject } from './values.ts';

export const MANAGED_POLICIES = Symbol('managedPolicies');
export interface ManagedPolicies { arns: Set<string>; names: Set<string>; all: { arns: boolean; names: boolean } }

const s = (v: unknown) => (typeof v === 'string' ? v : '');
/** The role a resource names: `role` / `role_name`, else the `role:policy` id of aws_iam_role_policy. */
const roleOf = (a: Record<string, unknown>) => s(a.role) || s(a.role_name) || s(a.id).split(':')[0];

/** Policies managed by their own resources, per role name. */
export function managedRolePolicies(instances: StateInstance[]): Map<string, ManagedPolicies> {
  const out = new Map<string, ManagedPolicies>();
  const of = (role: string) => {
    let m = out.get(role);
    if (!m) out.set(role, (m = { arns: new Set(), names: new Set(), all: { arns: false, names: false } }));
    return m;
  };
  for (const { type, attributes: a } of instances) {
    if (type === 'aws_iam_role_policy_attachment') of(roleOf(a)).arns.add(s(a.policy_arn));
    else if (type === 'aws_iam_role_policy') of(roleOf(a)).names.add(s(a.name) || s(a.id).split(':')[1] || '');
    // The exclusive resources own the whole list: the role's copy says nothing more.
    else if (type === 'aws_iam_role_policy_attachments_exclusive') of(roleOf(a)).all.arns = true;
    else if (type === 'aws_iam_role_policies_exclusive') of(roleOf(a)).all.names = true;
  }
  return out;
}

/** Role attributes without the managed policies (state or live side alike). */
export function withoutManaged(attrs: Record<string, unknown>, m: ManagedPolicies): Record<string, unknown> {
  const out: Record<string, unknown> = { ...attrs };
  if ('managed_policy_arns' in out) {
    if (m.all.arns) delete out.managed_policy_arns;
    else if (Array.isArray(out.managed_policy_arns)) out.managed_policy_arns = out.managed_policy_arns.filter((arn) => !m.arns.has(s(arn)));
  }
  if ('inline_policy' in out) {
    if (m.all.names) delete out.inline_policy;
    else if (Array.isArray(out.inline_policy)) {
      out.inline_policy = out.inline_policy.filter((p) => !isEmpty(p) && !(isObject(p) && m.names.has(s(p.name))));
    }
  }
  return out;
}
