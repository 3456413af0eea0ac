// List modes of the IAM readers (global: listed once per account). Roles and users are listed
// once per scan; their inline policies, attached policies and access keys are listed per role
// or user with a bounded concurrency.
import {
  ListAccessKeysCommand, ListAttachedRolePoliciesCommand, ListAttachedUserPoliciesCommand, ListGroupsCommand, ListInstanceProfilesCommand,
  ListPoliciesCommand, ListRolePoliciesCommand, ListRolesCommand, ListUserPoliciesCommand, ListUsersCommand,
  type ListAccessKeysCommandOutput, type ListAttachedRolePoliciesCommandOutput, type ListAttachedUserPoliciesCommandOutput, type ListGroupsCommandOutput,
  type ListInstanceProfilesCommandOutput, type ListPoliciesCommandOutput, type ListRolePoliciesCommandOutput, type ListRolesCommandOutput,
  type ListUserPoliciesCommandOutput, type ListUsersCommandOutput,
} from '@aws-sdk/client-iam';
import { mapLimit } from '../../limit.ts';
import type { AwsContext } from './context.ts';
import { PER_RESOURCE_CONCURRENCY } from './context.ts';
import { pages, paged, type Listed, type Lister } from './list-kit.ts';
import { once } from './reader.ts';

const G = 'us-east-1';
const marker = (o: { IsTruncated?: boolean; Marker?: string }) => (o.IsTruncated ? o.Marker : undefined);

/** The account's role names, once per scan; service-linked roles belong to AWS services, not to anyone's configuration. */
function roleNames(ctx: AwsContext): Promise<string[]> {
  return once(ctx, 'list:iam:roles', async () => {
    const out: string[] = [];
    await pages((Marker) => ctx.send<ListRolesCommandOutput>(ctx.iam(), new ListRolesCommand({ Marker, MaxItems: 1000 }), 'iam:ListRoles'), marker,
      (o) => { for (const r of o.Roles ?? []) if (r.RoleName && !r.Path?.startsWith('/aws-service-role/')) out.push(r.RoleName); });
    return out;
  });
}

function userNames(ctx: AwsContext): Promise<string[]> {
  return once(ctx, 'list:iam:users', async () => {
    const out: string[] = [];
    await pages((Marker) => ctx.send<ListUsersCommandOutput>(ctx.iam(), new ListUsersCommand({ Marker, MaxItems: 1000 }), 'iam:ListUsers'), marker,
      (o) => { for (const u of o.Users ?? []) if (u.UserName) out.push(u.UserName); });
    return out;
  });
}

/** For each owner (role or user), every page of one per-owner call, as listed resources. */
async function perOwner<O extends { IsTruncated?: boolean; Marker?: string }>(owners: string[], call: (owner: string, Marker?: string) => Promise<O>,
  each: (owner: string, o: O) => Listed[]): Promise<Listed[]> {
  const found = await mapLimit(owners, PER_RESOURCE_CONCURRENCY, async (owner) => {
    const out: Listed[] = [];
    await pages((m) => call(owner, m), marker, (o) => out.push(...each(owner, o)));
    return out;
  });
  return found.flat();
}

export const IAM_LISTERS: Record<string, Lister> = {
  aws_iam_role: { service: 'iam', global: true, list: async (ctx) => (await roleNames(ctx)).map((id) => ({ id, region: G })) },
  aws_iam_user: { service: 'iam', global: true, list: async (ctx) => (await userNames(ctx)).map((id) => ({ id, region: G })) },
  aws_iam_policy: paged<ListPoliciesCommandOutput>('iam', (ctx, _r, Marker) => ctx.send(ctx.iam(), new ListPoliciesCommand({ Scope: 'Local', Marker, MaxItems: 1000 }), 'iam:ListPolicies'),
    marker, (o) => (o.Policies ?? []).map((p) => p.Arn), true),
  aws_iam_group: paged<ListGroupsCommandOutput>('iam', (ctx, _r, Marker) => ctx.send(ctx.iam(), new ListGroupsCommand({ Marker, MaxItems: 1000 }), 'iam:ListGroups'),
    marker, (o) => (o.Groups ?? []).map((g) => g.GroupName), true),
  aws_iam_instance_profile: paged<ListInstanceProfilesCommandOutput>('iam', (ctx, _r, Marker) => ctx.send(ctx.iam(), new ListInstanceProfilesCommand({ Marker, MaxItems: 1000 }), 'iam:ListInstanceProfiles'),
    marker, (o) => (o.InstanceProfiles ?? []).map((p) => p.InstanceProfileName), true),
  // Inline policies: id `role:name`, as the provider's id and import.
  aws_iam_role_policy: { service: 'iam', global: true, list: async (ctx) => perOwner(await roleNames(ctx),
    (role, Marker) => ctx.send<ListRolePoliciesCommandOutput>(ctx.iam(), new ListRolePoliciesCommand({ RoleName: role, Marker, MaxItems: 1000 }), 'iam:ListRolePolicies'),
    (role, o) => (o.PolicyNames ?? []).map((name) => ({ id: `${role}:${name}`, region: G, attributes: { role, name } }))) },
  aws_iam_user_policy: { service: 'iam', global: true, list: async (ctx) => perOwner(await userNames(ctx),
    (user, Marker) => ctx.send<ListUserPoliciesCommandOutput>(ctx.iam(), new ListUserPoliciesCommand({ UserName: user, Marker, MaxItems: 1000 }), 'iam:ListUserPolicies'),
    (user, o) => (o.PolicyNames ?? []).map((name) => ({ id: `${user}:${name}`, region: G, attributes: { user, name } }))) },
  // Attachments: id `role/policy-arn` (`user/policy-arn`), the import id (the provider's own id is random).
  aws_iam_role_policy_attachment: { service: 'iam', global: true, list: async (ctx) => perOwner(await roleNames(ctx),
    (role, Marker) => ctx.send<ListAttachedRolePoliciesCommandOutput>(ctx.iam(), new ListAttachedRolePoliciesCommand({ RoleName: role, Marker, MaxItems: 1000 }), 'iam:ListAttachedRolePolicies'),
    (role, o) => (o.AttachedPolicies ?? []).filter((p) => p.PolicyArn).map((p) => ({ id: `${role}/${p.PolicyArn}`, region: G, attributes: { role, policy_arn: p.PolicyArn } }))) },
  aws_iam_user_policy_attachment: { service: 'iam', global: true, list: async (ctx) => perOwner(await userNames(ctx),
    (user, Marker) => ctx.send<ListAttachedUserPoliciesCommandOutput>(ctx.iam(), new ListAttachedUserPoliciesCommand({ UserName: user, Marker, MaxItems: 1000 }), 'iam:ListAttachedUserPolicies'),
    (user, o) => (o.AttachedPolicies ?? []).filter((p) => p.PolicyArn).map((p) => ({ id: `${user}/${p.PolicyArn}`, region: G, attributes: { user, policy_arn: p.PolicyArn } }))) },
  aws_iam_access_key: { service: 'iam', global: true, list: async (ctx) => perOwner(await userNames(ctx),
    (user, Marker) => ctx.send<ListAccessKeysCommandOutput>(ctx.iam(), new ListAccessKeysCommand({ UserName: user, Marker, MaxItems: 1000 }), 'iam:ListAccessKeys'),
    (user, o) => (o.AccessKeyMetadata ?? []).filter((k) => k.AccessKeyId).map((k) => ({ id: k.AccessKeyId!, region: G, attributes: { user } }))) },
};
