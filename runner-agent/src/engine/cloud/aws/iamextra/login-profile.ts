// aws_iam_user_login_profile: one GetLoginProfile per user. The password is write-only (the
// API never returns it): what is compared is that the profile exists and password_reset_required.
import { GetLoginProfile$, GetLoginProfileCommand, type GetLoginProfileCommandOutput } from '@aws-sdk/client-iam';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, type TypeReader } from '../reader.ts';
import { attrsOf, bool } from '../replay/kit.ts';
import { iamGet, noSuch } from './iam-kit.ts';

const userOf = (a: Record<string, unknown>) => str(a.user || a.id);

export const loginProfileReader: TypeReader = {
  spec: {},
  answers: [answer<{ UserName: string }>('iam', GetLoginProfile$, (input, world) => {
    const a = attrsOf(world, 'aws_iam_user_login_profile').find((x) => userOf(x) === input.UserName);
    if (!a) throw noSuch(`Login Profile for User ${input.UserName}`);
    return { LoginProfile: { UserName: input.UserName, CreateDate: new Date(0), PasswordResetRequired: bool(a.password_reset_required) ?? false } };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const p = (await iamGet<GetLoginProfileCommandOutput>(ctx, new GetLoginProfileCommand({ UserName: userOf(instance.attributes) }), 'iam:GetLoginProfile'))?.LoginProfile;
    if (!p) return null;
    // Older provider versions stored no reset flag (null): nothing to compare it with then.
    const stated = instance.attributes.password_reset_required;
    return { user: p.UserName, password_reset_required: stated === null || stated === undefined ? undefined : p.PasswordResetRequired ?? false };
  }),
};
