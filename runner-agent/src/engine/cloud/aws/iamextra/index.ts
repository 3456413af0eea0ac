// IAM extras (issue 33): OIDC providers, group memberships and policies, login profiles.
import type { TypeReader } from '../reader.ts';
import { groupMembershipReader, groupPolicyAttachmentReader, groupPolicyReader, userGroupMembershipReader } from './groups.ts';
import { loginProfileReader } from './login-profile.ts';
import { oidcProviderReader } from './oidc.ts';

export { IAMEXTRA_IGNORED, IAMEXTRA_RULES } from './table.ts';

export const IAMEXTRA_READERS: Record<string, TypeReader> = {
  aws_iam_openid_connect_provider: oidcProviderReader,
  aws_iam_group_membership: groupMembershipReader,
  aws_iam_user_group_membership: userGroupMembershipReader,
  aws_iam_group_policy_attachment: groupPolicyAttachmentReader,
  aws_iam_group_policy: groupPolicyReader,
  aws_iam_user_login_profile: loginProfileReader,
};
