// IAM: per-entity reads (GetRole, GetPolicy + GetPolicyVersion, role policy listings), at most
// PER_RESOURCE_CONCURRENCY at once. Policy documents compare semantically (values.ts).
import {
  GetPolicyCommand, GetPolicyVersionCommand, GetRoleCommand, GetRolePolicyCommand, ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  type GetPolicyCommandOutput, type GetPolicyVersionCommandOutput, type GetRoleCommandOutput, type GetRolePolicyCommandOutput,
  type ListAttachedRolePoliciesCommandOutput, type ListRolePoliciesCommandOutput,
} from '@aws-sdk/client-iam';
import { genericKey } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { str, type TypeReader } from '../reader.ts';
import { getRolePolicy, POLICY_ANSWERS, ROLE_ANSWERS } from './roles.answers.ts';

const NOT_FOUND = new Set(['NoSuchEntity', 'NoSuchEntityException']);

/** Runs an IAM read; NoSuchEntity gives undefined. */
async function read<O>(ctx: AwsContext, command: unknown, what: string): Promise<O | undefined> {
  try {
    return await ctx.send<O>(ctx.iam(), command, what);
  } catch (e) {
    if (NOT_FOUND.has(errorName(e))) return undefined;
    throw e;
  }
}

/** IAM returns documents URL-encoded. */
const decode = (doc: string | undefined) => {
  if (!doc) return '';
  try { return decodeURIComponent(doc); } catch { return doc; }
};

async function inlinePolicies(ctx: AwsContext, role: string): Promise<{ name: string; policy: string }[]> {
  const names: string[] = [];
  let marker: string | undefined;
  do {
    const out = await read<ListRolePoliciesCommandOutput>(ctx, new ListRolePoliciesCommand({ RoleName: role, Marker: marker }), 'iam:ListRolePolicies');
    names.push(...(out?.PolicyNames ?? []));
    marker = out?.IsTruncated ? out.Marker : undefined;
  } while (marker);
  const docs = await Promise.all(names.map((name) =>
    read<GetRolePolicyCommandOutput>(ctx, new GetRolePolicyCommand({ RoleName: role, PolicyName: name }), 'iam:GetRolePolicy')));
  return names.map((name, i) => ({ name, policy: decode(docs[i]?.PolicyDocument) }));
}

async function attachedPolicies(ctx: AwsContext, role: string): Promise<string[]> {
  const arns: string[] = [];
  let marker: string | undefined;
  do {
    const out = await read<ListAttachedRolePoliciesCommandOutput>(ctx, new ListAttachedRolePoliciesCommand({ RoleName: role, Marker: marker }), 'iam:ListAttachedRolePolicies');
    arns.push(...(out?.AttachedPolicies ?? []).map((p) => p.PolicyArn ?? '').filter(Boolean));
    marker = out?.IsTruncated ? out.Marker : undefined;
  } while (marker);
  return arns;
}

export const roleReader: TypeReader = {
  spec: { policies: ['assume_role_policy'], sets: { inline_policy: genericKey } },
  answers: ROLE_ANSWERS,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const state = instance.attributes;
    const name = str(state.name || state.id);
    const out = await read<GetRoleCommandOutput>(ctx, new GetRoleCommand({ RoleName: name }), 'iam:GetRole');
    const r = out?.Role;
    if (!r) return null;
    const tags = tagMap(r.Tags);
    const live: LiveAttributes = {
      id: r.RoleName, name: r.RoleName, arn: r.Arn, path: r.Path, description: r.Description ?? '',
      max_session_duration: r.MaxSessionDuration, assume_role_policy: decode(r.AssumeRolePolicyDocument),
      permissions_boundary: r.PermissionsBoundary?.PermissionsBoundaryArn ?? '', unique_id: r.RoleId,
      create_date: r.CreateDate?.toISOString(), tags, tags_all: tags,
    };
    // The provider keeps these in the role's state even when separate resources manage them.
    if ('inline_policy' in state) live.inline_policy = await inlinePolicies(ctx, name);
    if ('managed_policy_arns' in state) live.managed_policy_arns = await attachedPolicies(ctx, name);
    return live;
  }),
};

export const policyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: POLICY_ANSWERS,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const arn = str(instance.attributes.arn || instance.attributes.id);
    const p = (await read<GetPolicyCommandOutput>(ctx, new GetPolicyCommand({ PolicyArn: arn }), 'iam:GetPolicy'))?.Policy;
    if (!p) return null;
    const v = await read<GetPolicyVersionCommandOutput>(ctx, new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: p.DefaultVersionId }), 'iam:GetPolicyVersion');
    const tags = tagMap(p.Tags);
    return {
      id: p.Arn, arn: p.Arn, name: p.PolicyName, path: p.Path, description: p.Description ?? '',
      policy_id: p.PolicyId, attachment_count: p.AttachmentCount, policy: decode(v?.PolicyVersion?.Document), tags, tags_all: tags,
    };
  }),
};

export const rolePolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: [getRolePolicy],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const [idRole, idName] = str(instance.attributes.id).split(':');
    const role = str(instance.attributes.role) || idRole;
    const name = str(instance.attributes.name) || idName;
    const out = await read<GetRolePolicyCommandOutput>(ctx, new GetRolePolicyCommand({ RoleName: role, PolicyName: name }), 'iam:GetRolePolicy');
    return out ? { role, name, policy: decode(out.PolicyDocument) } : null;
  }),
};
