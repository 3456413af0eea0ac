// Which account an organization's verified assertion signs in (docs/sso-scim.md#whose-accounts):
// the claim is the NameID email the organization's own IdP signed, so it proves only what that
// organization owns. In order:
//   1. an identity the account holder linked to this organization (links.ts): that account;
//   2. an existing account with the email: only when the organization verified its domain;
//   3. no account: created (JIT) only in a domain the organization verified.
// Anything else fails with a reason that says what to do, before anything is created or joined.
// Being a member of the organization is not enough: the session reaches every organization of
// the account, so membership does not make the organization the owner of the identity.
import type { AuthService } from '../auth/service.ts';
import { domainOfEmail, type Domains } from './domains.ts';
import type { Links } from './links.ts';
import { SamlFailure } from './saml.ts';

export function createSsoAccounts(auth: AuthService, domains: Domains, links: Links) {
  return {
    async resolve(orgId: string, email: string, name: string | undefined): Promise<{ userId: string; created: boolean; via: 'link' | 'domain' }> {
      const linked = await links.accountOf(orgId, email);
      if (linked) return { userId: linked, created: false, via: 'link' };
      const domain = domainOfEmail(email);
      const verified = domain !== null && await domains.isVerified(orgId, domain);
      const existing = await auth.sso.accountByEmail(email);
      if (existing && !verified) throw new SamlFailure('account_not_linked', 'An account with this email exists and the organization has not verified its domain; its holder can link this identity provider');
      if (!verified) throw new SamlFailure('domain_not_verified', "The email's domain is not verified by this organization");
      if (existing) return { userId: existing.userId, created: false, via: 'domain' };
      // The organization owns the domain: a new account, or the one a concurrent sign-up just made there.
      const account = await auth.sso.provision({ email, name, defaultOrgId: orgId });
      return { userId: account.userId, created: account.created, via: 'domain' };
    },
  };
}
export type SsoAccounts = ReturnType<typeof createSsoAccounts>;
