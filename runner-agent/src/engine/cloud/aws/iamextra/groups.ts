// aws_iam_group_membership, aws_iam_user_group_membership, aws_iam_group_policy_attachment and
// aws_iam_group_policy. Memberships share one paged GetGroup per group and one ListGroupsForUser
// per user, attachments one ListAttachedGroupPolicies per group (memoised for the scan, not one
// call per resource); inline group policies cost one GetGroupPolicy each.
import {
  GetGroup$, GetGroupCommand, GetGroupPolicy$, GetGroupPolicyCommand, ListAttachedGroupPolicies$, ListAttachedGroupPoliciesCommand, ListGroupsForUser$,
  ListGroupsForUserCommand, type GetGroupCommandOutput, type GetGroupPolicyCommandOutput, type ListAttachedGroupPoliciesCommandOutput,
  type ListGroupsForUserCommandOutput,
} from '@aws-sdk/client-iam';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, date, list, opt } from '../replay/kit.ts';
import { fakeGroups, fakeUsers, groupPolicyKey, iamGet, noSuch } from './iam-kit.ts';

/** Pages of one IAM listing into a set (undefined when the owner is gone). */
async function pagedSet<O extends { IsTruncated?: boolean; Marker?: string }>(
  ctx: AwsContext, page: (marker?: string) => unknown, what: string, pick: (o: O) => (string | undefined)[],
): Promise<Set<string> | undefined> {
  const out = new Set<string>();
  let marker: string | undefined;
  do {
    const o = await iamGet<O>(ctx, page(marker), what);
    if (!o) return undefined;
    for (const v of pick(o)) if (v) out.add(v);
    marker = o.IsTruncated ? o.Marker : undefined;
  } while (marker);
  return out;
}

const groupUsers = (ctx: AwsContext, group: string) => once(ctx, `iam:group-users:${group}`, () =>
  pagedSet<GetGroupCommandOutput>(ctx, (Marker) => new GetGroupCommand({ GroupName: group, Marker }), 'iam:GetGroup', (o) => (o.Users ?? []).map((u) => u.UserName)));
const userGroups = (ctx: AwsContext, user: string) => once(ctx, `iam:user-groups:${user}`, () =>
  pagedSet<ListGroupsForUserCommandOutput>(ctx, (Marker) => new ListGroupsForUserCommand({ UserName: user, Marker }), 'iam:ListGroupsForUser', (o) => (o.Groups ?? []).map((g) => g.GroupName)));
const groupAttached = (ctx: AwsContext, group: string) => once(ctx, `iam:group-attached:${group}`, () =>
  pagedSet<ListAttachedGroupPoliciesCommandOutput>(ctx, (Marker) => new ListAttachedGroupPoliciesCommand({ GroupName: group, Marker }), 'iam:ListAttachedGroupPolicies',
    (o) => (o.AttachedPolicies ?? []).map((p) => p.PolicyArn)));

/**
 * GetGroup as the fake answers it for every reader that calls it (aws_iam_group reads the group,
 * memberships its users): a group any state type names exists, its users are the members the
 * state declares.
 */
export const getGroupAnswer = answer<{ GroupName: string }>('iam', GetGroup$, (input, world) => {
  const users = fakeGroups(world).get(input.GroupName);
  if (!users) throw noSuch(`group with name ${input.GroupName}`);
  const a = attrsOf(world, 'aws_iam_group').find((x) => str(x.name || x.id) === input.GroupName) ?? {};
  return {
    Group: { GroupName: input.GroupName, Arn: opt(a.arn) ?? `arn:aws:iam::123456789012:group/${input.GroupName}`, Path: opt(a.path) ?? '/', GroupId: opt(a.unique_id) ?? 'AGPAREPLAY', CreateDate: date(a.create_date) ?? new Date(0) },
    Users: [...users].map((UserName) => ({ UserName, Path: '/', UserId: 'AIDAREPLAY', Arn: `arn:aws:iam::123456789012:user/${UserName}`, CreateDate: new Date(0) })),
    IsTruncated: false,
  };
});

/** Exclusive: the group's every member is compared, so a user added out of band shows. */
export const groupMembershipReader: TypeReader = {
  spec: {},
  answers: [getGroupAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const group = str(instance.attributes.group);
    const users = await groupUsers(ctx, group);
    return users ? { group, users: [...users] } : null;
  }),
};

/** Not exclusive: only the groups the state lists are this resource's; none left means deleted (as the provider reads it). */
export const userGroupMembershipReader: TypeReader = {
  spec: {},
  answers: [answer<{ UserName: string }>('iam', ListGroupsForUser$, (input, world) => {
    if (!fakeUsers(world).has(input.UserName)) throw noSuch(`user with name ${input.UserName}`);
    const groups = [...fakeGroups(world)].filter(([, users]) => users.has(input.UserName)).map(([g]) => g);
    return { Groups: groups.map((GroupName) => ({ GroupName, Path: '/', GroupId: 'AGPAREPLAY', Arn: `arn:aws:iam::123456789012:group/${GroupName}`, CreateDate: new Date(0) })), IsTruncated: false };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const user = str(instance.attributes.user);
    const live = await userGroups(ctx, user);
    const groups = list(instance.attributes.groups).filter((g) => live?.has(g));
    return live && groups.length ? { user, groups } : null;
  }),
};

export const groupPolicyAttachmentReader: TypeReader = {
  spec: {},
  answers: [answer<{ GroupName: string }>('iam', ListAttachedGroupPolicies$, (input, world) => {
    if (!fakeGroups(world).has(input.GroupName)) throw noSuch(`group with name ${input.GroupName}`);
    const arns = attrsOf(world, 'aws_iam_group_policy_attachment').filter((a) => str(a.group) === input.GroupName).map((a) => str(a.policy_arn));
    return { AttachedPolicies: arns.map((PolicyArn) => ({ PolicyArn, PolicyName: PolicyArn.split('/').pop() })), IsTruncated: false };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const { group, policy_arn: arn } = instance.attributes;
    return (await groupAttached(ctx, str(group)))?.has(str(arn)) ? { group: str(group), policy_arn: str(arn) } : null;
  }),
};

export const groupPolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: [answer<{ GroupName: string; PolicyName: string }>('iam', GetGroupPolicy$, (input, world) => {
    const a = attrsOf(world, 'aws_iam_group_policy').find((x) => groupPolicyKey(x).group === input.GroupName && groupPolicyKey(x).name === input.PolicyName);
    if (!a) throw noSuch(`group policy with name ${input.PolicyName}`);
    return { GroupName: input.GroupName, PolicyName: input.PolicyName, PolicyDocument: encodeURIComponent(str(a.policy)) };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const { group, name } = groupPolicyKey(instance.attributes);
    const out = await iamGet<GetGroupPolicyCommandOutput>(ctx, new GetGroupPolicyCommand({ GroupName: group, PolicyName: name }), 'iam:GetGroupPolicy');
    if (!out) return null;
    let doc = out.PolicyDocument ?? '';
    try { doc = decodeURIComponent(doc); } catch { /* IAM encodes it; keep the text when it is not */ }
    return { group, name, policy: doc };
  }),
};
