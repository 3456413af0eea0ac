// The IAM extras' ignore list and severity rules (data only: rules.ts and ignore.ts import this
// file, not the readers, so the shared tables stay free of provider code).
import type { SeverityRule } from '../../../rules.ts';
import { gainsEntry } from '../list-rules.ts';

export const IAMEXTRA_IGNORED: Record<string, string[]> = {
  // Write-only or computed: the API never returns a password, its encryption or the key used.
  aws_iam_user_login_profile: ['password', 'encrypted_password', 'key_fingerprint', 'pgp_key', 'password_length'],
  aws_iam_group_policy: ['name_prefix'],
};

export const IAMEXTRA_RULES: SeverityRule[] = [
  { id: 'oidc-trust-widened', severity: 'critical', description: 'OpenID Connect provider gained a client id or thumbprint',
    rationale: 'Tokens from another audience or signing certificate can now assume roles that trust this provider.',
    types: ['aws_iam_openid_connect_provider'], changeTypes: ['changed'], attributes: ['client_id_list', 'thumbprint_list'],
    test: { describe: 'gained an entry', fn: gainsEntry } },
  { id: 'oidc-provider-changed', severity: 'high', description: 'OpenID Connect provider url, client ids or thumbprints changed',
    rationale: 'Which identity provider roles trust changed outside review.',
    types: ['aws_iam_openid_connect_provider'], changeTypes: ['changed'], attributes: ['url', 'client_id_list', 'thumbprint_list'] },
  { id: 'iam-group-policy-changed', severity: 'high', description: 'IAM group inline policy or attached policy changed',
    rationale: 'What every member of the group may do changed outside review.',
    types: ['aws_iam_group_policy', 'aws_iam_group_policy_attachment'] },
  { id: 'iam-group-membership-changed', severity: 'high', description: 'A user was added to or removed from an IAM group',
    rationale: 'Who holds the permissions of the group changed outside review.',
    types: ['aws_iam_group_membership', 'aws_iam_user_group_membership'] },
  { id: 'login-profile-changed', severity: 'high', description: 'IAM user console login profile deleted or changed',
    rationale: 'Whether the user can sign in to the console, or must reset the password first, changed outside review.',
    types: ['aws_iam_user_login_profile'] },
];
