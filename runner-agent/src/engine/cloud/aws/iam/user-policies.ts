// aws_iam_user_policy_attachment, aws_iam_user_policy and aws_iam_access_key: attachments
// share one ListAttachedUserPolicies per user and access keys one ListAccessKeys per user (not
// one per resource); inline policies cost one GetUserPolicy each. NoSuchEntity means deleted.
import {
  GetUserPolicy$, GetUserPolicyCommand, ListAccessKeys$, ListAccessKeysCommand, ListAttachedUserPolicies$, ListAttachedUserPoliciesCommand,
  type AccessKeyMetadata, type GetUserPolicyCommandOutput, type ListAccessKeysCommandOutput, type ListAttachedUserPoliciesCommandOutput,
} from '@aws-sdk/client-iam';
import { mapLimit } from '../../../limit.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError } from '../replay/kit.ts';

const GONE = new Set(['NoSuchEntity', 'NoSuchEntityException']);
const noSuch = (what: string) => new FakeError('NoSuchEntity', `The ${what} cannot be found.`, 404);
/** aws_iam_user_policy ids are `user:policy`. */
const userPolicyKey = (a: Record<string, unknown>) => {
  const [idUser, idName] = str(a.id).split(':');
  return { user: str(a.user) || idUser, name: str(a.name) || idName };
};

function userExists(world: FakeWorld, user: string): void {
  const known = [...attrsOf(world, 'aws_iam_user').map((a) => str(a.name || a.id)), ...attrsOf(world, 'aws_iam_user_policy_attachment').map((a) => str(a.user)),
    ...attrsOf(world, 'aws_iam_access_key').map((a) => str(a.user)),
    ...attrsOf(world, 'aws_iam_user_policy').map((a) => userPolicyKey(a).user)];
  if (!known.includes(user)) throw noSuch(`user with name ${user}`);
}

function attachedToUser(ctx: AwsContext, user: string): Promise<Set<string> | undefined> {
  return once(ctx, `iam:user-attached:${user}`, async () => {
    const arns = new Set<string>();
    let marker: string | undefined;
    try {
      do {
        const out = await ctx.send<ListAttachedUserPoliciesCommandOutput>(ctx.iam(), new ListAttachedUserPoliciesCommand({ UserName: user, Marker: marker }), 'iam:ListAttachedUserPolicies');
        for (const p of out.AttachedPolicies ?? []) if (p.PolicyArn) arns.add(p.PolicyArn);
        marker = out.IsTruncated ? out.Marker : undefined;
      } while (marker);
    } catch (e) {
      if (GONE.has(errorName(e))) return undefined;
      throw e;
    }
    return arns;
  });
}

export const userPolicyAttachmentReader: TypeReader = {
  spec: {},
  answers: [answer<{ UserName: string }>('iam', ListAttachedUserPolicies$, (input, world) => {
    userExists(world, input.UserName);
    const arns = attrsOf(world, 'aws_iam_user_policy_attachment').filter((a) => str(a.user) === input.UserName).map((a) => str(a.policy_arn));
    return { AttachedPolicies: arns.map((PolicyArn) => ({ PolicyArn, PolicyName: PolicyArn.split('/').pop() })), IsTruncated: false };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const { user, policy_arn: arn } = instance.attributes;
    return (await attachedToUser(ctx, str(user)))?.has(str(arn)) ? { user: str(user), policy_arn: str(arn) } : null;
  }),
};

export const userPolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: [answer<{ UserName: string; PolicyName: string }>('iam', GetUserPolicy$, (input, world) => {
    userExists(world, input.UserName);
    const a = attrsOf(world, 'aws_iam_user_policy').find((x) => userPolicyKey(x).user === input.UserName && userPolicyKey(x).name === input.PolicyName);
    if (!a) throw noSuch(`user policy with name ${input.PolicyName}`);
    return { UserName: input.UserName, PolicyName: input.PolicyName, PolicyDocument: encodeURIComponent(str(a.policy)) };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const { user, name } = userPolicyKey(instance.attributes);
    try {
      const out = await ctx.send<GetUserPolicyCommandOutput>(ctx.iam(), new GetUserPolicyCommand({ UserName: user, PolicyName: name }), 'iam:GetUserPolicy');
      let doc = out.PolicyDocument ?? '';
      try { doc = decodeURIComponent(doc); } catch { /* IAM encodes it; keep the text when it is not */ }
      return { user, name, policy: doc };
    } catch (e) {
      if (GONE.has(errorName(e))) return null;
      throw e;
    }
  }),
};

function accessKeysOf(ctx: AwsContext, user: string): Promise<Map<string, AccessKeyMetadata> | undefined> {
  return once(ctx, `iam:access-keys:${user}`, async () => {
    const keys = new Map<string, AccessKeyMetadata>();
    let marker: string | undefined;
    try {
      do {
        const out = await ctx.send<ListAccessKeysCommandOutput>(ctx.iam(), new ListAccessKeysCommand({ UserName: user, Marker: marker }), 'iam:ListAccessKeys');
        for (const k of out.AccessKeyMetadata ?? []) if (k.AccessKeyId) keys.set(k.AccessKeyId, k);
        marker = out.IsTruncated ? out.Marker : undefined;
      } while (marker);
    } catch (e) {
      if (GONE.has(errorName(e))) return undefined;
      throw e;
    }
    return keys;
  });
}

/** Only the key's user and status are compared: its secret is never readable again. */
export const accessKeyReader: TypeReader = {
  spec: {},
  answers: [answer<{ UserName: string }>('iam', ListAccessKeys$, (input, world) => {
    userExists(world, input.UserName);
    return { AccessKeyMetadata: attrsOf(world, 'aws_iam_access_key').filter((a) => str(a.user) === input.UserName).map((a) => ({
      UserName: input.UserName, AccessKeyId: str(a.id), Status: str(a.status) || 'Active', CreateDate: new Date(str(a.create_date) || 0),
    })), IsTruncated: false };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const k = (await accessKeysOf(ctx, str(instance.attributes.user)))?.get(str(instance.attributes.id));
    return k ? { id: k.AccessKeyId, user: k.UserName, status: k.Status } : null;
  }),
};
