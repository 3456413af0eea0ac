// aws_iam_role_policy_attachment, aws_iam_instance_profile, aws_iam_user, aws_iam_group. IAM has
// no batch Get: attachments share one ListAttachedRolePolicies per role (not one per
// attachment); the others cost one Get each, at most PER_RESOURCE_CONCURRENCY at once.
import {
  GetGroupCommand, GetInstanceProfile$, GetInstanceProfileCommand, GetUser$, GetUserCommand, ListAttachedRolePoliciesCommand,
  type GetGroupCommandOutput, type GetInstanceProfileCommandOutput, type GetUserCommandOutput, type ListAttachedRolePoliciesCommandOutput,
} from '@aws-sdk/client-iam';
import { mapLimit } from '../../../limit.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { listAttachedRolePolicies } from './roles.answers.ts';
import { answer, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, date, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';
import { getGroupAnswer } from '../iamextra/groups.ts';

/** An IAM read; NoSuchEntity gives undefined. */
async function get<O>(ctx: AwsContext, command: unknown, what: string): Promise<O | undefined> {
  try {
    return await ctx.send<O>(ctx.iam(), command, what);
  } catch (e) {
    if (errorName(e) === 'NoSuchEntity' || errorName(e) === 'NoSuchEntityException') return undefined;
    throw e;
  }
}
const noSuch = (what: string) => new FakeError('NoSuchEntity', `The ${what} cannot be found.`, 404);
const created = (a: Record<string, unknown>) => date(a.create_date) ?? new Date(0);

/** Managed policy ARNs attached to a role, once per role for the scan; undefined when the role is gone. */
function attachedTo(ctx: AwsContext, role: string): Promise<Set<string> | undefined> {
  return once(ctx, `iam:attached:${role}`, async () => {
    const arns = new Set<string>();
    let marker: string | undefined;
    do {
      const out = await get<ListAttachedRolePoliciesCommandOutput>(ctx, new ListAttachedRolePoliciesCommand({ RoleName: role, Marker: marker }), 'iam:ListAttachedRolePolicies');
      if (!out) return undefined;
      for (const p of out.AttachedPolicies ?? []) if (p.PolicyArn) arns.add(p.PolicyArn);
      marker = out.IsTruncated ? out.Marker : undefined;
    } while (marker);
    return arns;
  });
}

export const rolePolicyAttachmentReader: TypeReader = {
  spec: {},
  answers: [listAttachedRolePolicies],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const { role, policy_arn: arn } = instance.attributes;
    const attached = await attachedTo(ctx, str(role));
    return attached?.has(str(arn)) ? { role: str(role), policy_arn: str(arn) } : null;
  }),
};

export const instanceProfileReader: TypeReader = {
  spec: {},
  answers: [answer<{ InstanceProfileName: string }>('iam', GetInstanceProfile$, (input, world) => {
    const a = attrsOf(world, 'aws_iam_instance_profile').find((x) => str(x.name || x.id) === input.InstanceProfileName);
    if (!a) throw noSuch(`Instance Profile ${input.InstanceProfileName}`);
    return { InstanceProfile: {
      InstanceProfileName: input.InstanceProfileName, Arn: opt(a.arn) ?? `arn:aws:iam::123456789012:instance-profile/${input.InstanceProfileName}`, Path: opt(a.path) ?? '/',
      InstanceProfileId: opt(a.unique_id) ?? 'AIPAREPLAY', CreateDate: created(a), Tags: tagList(stateTags(a)),
      Roles: opt(a.role) ? [{ RoleName: str(a.role), Path: '/', RoleId: 'AROAREPLAY', Arn: `arn:aws:iam::123456789012:role/${str(a.role)}`, CreateDate: new Date(0) }] : [],
    } };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const name = str(instance.attributes.name || instance.attributes.id);
    const p = (await get<GetInstanceProfileCommandOutput>(ctx, new GetInstanceProfileCommand({ InstanceProfileName: name }), 'iam:GetInstanceProfile'))?.InstanceProfile;
    if (!p) return null;
    const tags = tagMap(p.Tags);
    return { id: p.InstanceProfileName, name: p.InstanceProfileName, arn: p.Arn, path: p.Path, unique_id: p.InstanceProfileId, role: p.Roles?.[0]?.RoleName ?? '', tags, tags_all: tags };
  }),
};

export const userReader: TypeReader = {
  spec: {},
  answers: [answer<{ UserName: string }>('iam', GetUser$, (input, world) => {
    const a = attrsOf(world, 'aws_iam_user').find((x) => str(x.name || x.id) === input.UserName);
    if (!a) throw noSuch(`user with name ${input.UserName}`);
    return { User: {
      UserName: input.UserName, Arn: opt(a.arn) ?? `arn:aws:iam::123456789012:user/${input.UserName}`, Path: opt(a.path) ?? '/', UserId: opt(a.unique_id) ?? 'AIDAREPLAY',
      CreateDate: created(a), PermissionsBoundary: opt(a.permissions_boundary) ? { PermissionsBoundaryArn: str(a.permissions_boundary), PermissionsBoundaryType: 'Policy' } : undefined,
      Tags: tagList(stateTags(a)),
    } };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const name = str(instance.attributes.name || instance.attributes.id);
    const u = (await get<GetUserCommandOutput>(ctx, new GetUserCommand({ UserName: name }), 'iam:GetUser'))?.User;
    if (!u) return null;
    const tags = tagMap(u.Tags);
    return { id: u.UserName, name: u.UserName, arn: u.Arn, path: u.Path, unique_id: u.UserId, permissions_boundary: u.PermissionsBoundary?.PermissionsBoundaryArn ?? '', tags, tags_all: tags };
  }),
};

export const groupReader: TypeReader = {
  spec: {},
  // One GetGroup answer for every reader that calls it (memberships read its users).
  answers: [getGroupAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const name = str(instance.attributes.name || instance.attributes.id);
    // MaxItems 1: the group's own fields are all that is compared, not its member list.
    const g = (await get<GetGroupCommandOutput>(ctx, new GetGroupCommand({ GroupName: name, MaxItems: 1 }), 'iam:GetGroup'))?.Group;
    return g ? { id: g.GroupName, name: g.GroupName, arn: g.Arn, path: g.Path, unique_id: g.GroupId } : null;
  }),
};
