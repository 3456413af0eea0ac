// Replay answers for the IAM readers. A role exists when the state holds it or a resource
// attached to it; its inline and attached policies are the union of what the state records
// on the role and in aws_iam_role_policy / aws_iam_role_policy_attachment resources.
import {
  GetPolicy$, GetPolicyVersion$, GetRole$, GetRolePolicy$, ListAttachedRolePolicies$, ListRolePolicies$,
} from '@aws-sdk/client-iam';
import { isObject } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { attrsOf, date, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const noSuch = (what: string) => new FakeError('NoSuchEntity', `The ${what} cannot be found.`, 404);
const roleName = (a: Record<string, unknown>) => str(a.name || a.id);
/** IAM answers policy documents URL-encoded. */
const encoded = (doc: unknown) => (opt(doc) ? encodeURIComponent(str(doc)) : undefined);

function role(world: FakeWorld, name: string): Record<string, unknown> {
  const own = attrsOf(world, 'aws_iam_role').find((a) => roleName(a) === name);
  if (own) return own;
  const referenced = ['aws_iam_role_policy', 'aws_iam_role_policy_attachment', 'aws_iam_instance_profile']
    .some((t) => attrsOf(world, t).some((a) => str(a.role) === name || (t === 'aws_iam_role_policy' && str(a.id).split(':')[0] === name)));
  if (!referenced) throw noSuch(`role with name ${name}`);
  return { name };
}

export function inlinePolicies(world: FakeWorld, name: string): Map<string, string> {
  const out = new Map<string, string>();
  const r = role(world, name);
  for (const p of Array.isArray(r.inline_policy) ? r.inline_policy : []) if (isObject(p) && opt(p.name)) out.set(str(p.name), str(p.policy));
  for (const a of attrsOf(world, 'aws_iam_role_policy')) {
    const [idRole, idName] = str(a.id).split(':');
    if ((str(a.role) || idRole) === name) out.set(str(a.name) || idName, str(a.policy));
  }
  return out;
}

export function attachedPolicies(world: FakeWorld, name: string): string[] {
  const r = role(world, name);
  const arns = new Set(list(r.managed_policy_arns));
  for (const a of attrsOf(world, 'aws_iam_role_policy_attachment')) if (str(a.role) === name) arns.add(str(a.policy_arn));
  return [...arns];
}

export const getRole = answer<{ RoleName: string }>('iam', GetRole$, (input, world) => {
  const a = role(world, input.RoleName);
  return { Role: {
    RoleName: input.RoleName, Arn: opt(a.arn) ?? `arn:aws:iam::123456789012:role/${input.RoleName}`, Path: opt(a.path) ?? '/', Description: opt(a.description),
    MaxSessionDuration: num(a.max_session_duration), AssumeRolePolicyDocument: encoded(a.assume_role_policy),
    PermissionsBoundary: opt(a.permissions_boundary) ? { PermissionsBoundaryArn: str(a.permissions_boundary), PermissionsBoundaryType: 'Policy' } : undefined,
    RoleId: opt(a.unique_id) ?? 'AROAREPLAY', CreateDate: date(a.create_date) ?? new Date(0), Tags: tagList(stateTags(a)),
  } };
});

const listRolePolicies = answer<{ RoleName: string }>('iam', ListRolePolicies$, (input, world) =>
  ({ PolicyNames: [...inlinePolicies(world, input.RoleName).keys()], IsTruncated: false }));

export const getRolePolicy = answer<{ RoleName: string; PolicyName: string }>('iam', GetRolePolicy$, (input, world) => {
  const doc = inlinePolicies(world, input.RoleName).get(input.PolicyName);
  if (doc === undefined) throw noSuch(`role policy with name ${input.PolicyName}`);
  return { RoleName: input.RoleName, PolicyName: input.PolicyName, PolicyDocument: encoded(doc) };
});

export const listAttachedRolePolicies = answer<{ RoleName: string }>('iam', ListAttachedRolePolicies$, (input, world) =>
  ({ AttachedPolicies: attachedPolicies(world, input.RoleName).map((PolicyArn) => ({ PolicyArn, PolicyName: PolicyArn.split('/').pop() })), IsTruncated: false }));

const policyOf = (world: FakeWorld, arn: string) => {
  const p = attrsOf(world, 'aws_iam_policy').find((a) => str(a.arn || a.id) === arn);
  if (!p) throw noSuch(`policy ${arn}`);
  return p;
};

const getPolicy = answer<{ PolicyArn: string }>('iam', GetPolicy$, (input, world) => {
  const a = policyOf(world, input.PolicyArn);
  return { Policy: {
    Arn: input.PolicyArn, PolicyName: opt(a.name), Path: opt(a.path), Description: opt(a.description), PolicyId: opt(a.policy_id),
    AttachmentCount: num(a.attachment_count), DefaultVersionId: 'v1', Tags: tagList(stateTags(a)),
  } };
});

const getPolicyVersion = answer<{ PolicyArn: string }>('iam', GetPolicyVersion$, (input, world) =>
  ({ PolicyVersion: { Document: encoded(policyOf(world, input.PolicyArn).policy), VersionId: 'v1', IsDefaultVersion: true } }));

export const ROLE_ANSWERS = [getRole, listRolePolicies, getRolePolicy, listAttachedRolePolicies];
export const POLICY_ANSWERS = [getPolicy, getPolicyVersion];
