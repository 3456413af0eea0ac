// SAML sign-in (login, callback, code exchange) and the password-sign-in rule for enforced
// domains, with the SSO configuration (sso-config.ts) and SCIM tokens (scim-tokens.ts) beside them.
import type { AuditEvent } from '../../core/manifest.ts';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { sha256Hex } from '../../core/crypto.ts';
import type { AuthService } from '../auth/service.ts';
import { SamlFailure, type Saml } from './saml.ts';
import type { Scim } from './scim.ts';
import { domainOfEmail, type Domains } from './domains.ts';
import type { Links } from './links.ts';
import type { SsoAccounts } from './sso-accounts.ts';
import type { SsoScimStore } from './store.ts';
import { createSsoConfig } from './sso-config.ts';
import { createScimTokens } from './scim-tokens.ts';

const ID = /^[a-f0-9]{24}$/;

export function createSsoService(ctx: AppContext, store: SsoScimStore, auth: AuthService, saml: Saml, scim: Scim, domains: Domains, links: Links, accounts: SsoAccounts, callbackUrl: string) {
  const frontend = ctx.config.FRONTEND_URL.replace(/\/$/, '');

  // Password sign-in refused for a member of an organization enforcing SSO for the email's domain.
  auth.attachPasswordPolicy(async ({ userId, email }) => {
    const domain = domainOfEmail(email);
    if (!domain) return;
    // Only the organization that verified the domain enforces it (a configuration saved before
    // verification existed may still name others).
    const owner = await domains.domainOwner(domain);
    const configs = owner ? (await store.enforcing(domain)).filter((c) => c.orgId === owner) : [];
    for (const c of configs) {
      if (await ctx.tenancy.findMembership(c.orgId, userId)) throw new AppError('auth.sso_required');
    }
  });

  const fail = (reason: string) => `${frontend}/auth/error?reason=${encodeURIComponent(reason)}`;

  return {
    ...createSsoConfig(ctx, store, domains, callbackUrl),
    ...createScimTokens(ctx, store),

    /** GET /sso/saml/login: the identity provider's URL with a fresh AuthnRequest. */
    async loginUrl(orgId: string | undefined, relayState?: string) {
      if (!orgId) throw new AppError('bad_request', { message: 'orgId is required' });
      const config = ID.test(orgId) ? await store.config(orgId) : null;
      const org = config?.enabled ? await ctx.tenancy.org(orgId) : null;
      if (!config?.enabled || !org) throw new AppError('not_found', { message: 'SSO not configured for this organization' });
      return saml.loginUrl(config, relayState ?? orgId);
    },

    /**
     * POST /sso/saml/callback: the redirect to the frontend, with a code or a reason, and the
     * trail's entry for the outcome (the manifest's audit rule has the engine write it).
     */
    async callback(samlResponse: string | undefined): Promise<{ redirect: string; audit?: AuditEvent }> {
      let orgId: string | null = null;
      try {
        if (!samlResponse) throw new SamlFailure('missing_response');
        const { orgId: target, facts, linkUserId } = await saml.orgOfResponse(samlResponse);
        orgId = target;
        const config = await store.config(target);
        if (!config?.enabled) throw new SamlFailure('sso_disabled');
        const org = await ctx.tenancy.org(target);
        if (!org) throw new SamlFailure('sso_disabled');
        const { email, name } = await saml.validate(config, samlResponse, facts);
        const domain = domainOfEmail(email);
        if (config.enforcedDomains.length && !(domain && config.enforcedDomains.includes(domain))) throw new SamlFailure('domain_not_allowed');
        // Each response and each assertion signs in once.
        for (const id of [facts.responseId, ...facts.assertionIds].filter(Boolean) as string[]) {
          if (!(await ctx.once.claim(`saml:${sha256Hex(`${config.saml.issuer}|${id}`)}`, target))) throw new SamlFailure('replayed');
        }
        await saml.spendRequest(facts.inResponseTo!);
        // A link request: the user who started it confirms the identity on the confirm page.
        if (linkUserId) {
          const code = await links.issueCode({ userId: linkUserId, orgId: target, nameId: email });
          return { redirect: `${frontend}/auth/sso-link?code=${encodeURIComponent(code)}&orgId=${target}` };
        }
        const account = await accounts.resolve(target, email, name);
        const m = await ctx.tenancy.findMembership(target, account.userId);
        if (m?.deactivated) throw new SamlFailure('user_deactivated');
        if (!m) await scim.syncMembership(target, account.userId, true, () => scim.defaultRoleOf(target));
        const code = await saml.issueCode({ userId: account.userId, orgId: target });
        return {
          redirect: `${frontend}/auth/callback?code=${encodeURIComponent(code)}`,
          audit: {
            action: 'auth.login', orgId: target, actor: { userId: account.userId, email, kind: 'user' }, resourceType: 'sso', resourceId: null,
            details: { authMethod: 'saml', provisioned: account.created, via: account.via },
          },
        };
      } catch (err) {
        if (!(err instanceof SamlFailure)) throw err;
        return {
          redirect: fail(err.reason),
          audit: { action: 'auth.login_failed', orgId, actor: { userId: null }, resourceType: 'sso', resourceId: null, details: { authMethod: 'saml', reason: err.reason } },
        };
      }
    },

    /** POST /sso/exchange: the one-time code for a session (once, within 60 seconds). */
    async exchange(code: string) {
      const held = await saml.spendCode(code);
      const session = held && await auth.sso.startSession(held.userId);
      if (!session) throw new AppError('invalid_token', { message: 'Invalid or expired code' });
      return session;
    },

  };
}
export type SsoService = ReturnType<typeof createSsoService>;
