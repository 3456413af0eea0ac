// SSO configuration, SAML sign-in (login, callback, code exchange), SCIM tokens and the
// password-sign-in rule for enforced domains.
import type { AuditEvent } from '../../core/manifest.ts';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import { isBuiltInRole } from '../../core/permissions.ts';
import type { AuthService } from '../auth/service.ts';
import { isPemCertificate, SamlFailure, type Saml } from './saml.ts';
import type { Scim, ScimActor } from './scim.ts';
import { NO_GRANTOR, type Grantor } from '../../core/tenancy/grants.ts';
import { domainOfEmail, normalizeDomain, type Domains } from './domains.ts';
import type { Links } from './links.ts';
import type { SsoAccounts } from './sso-accounts.ts';
import type { ScimToken, SsoConfig, SsoScimStore } from './store.ts';
import type { SsoConfigBody } from './schemas.ts';

const ID = /^[a-f0-9]{24}$/;
const TOUCH_EVERY_MS = 60_000;

export function createSsoService(ctx: AppContext, store: SsoScimStore, auth: AuthService, saml: Saml, scim: Scim, domains: Domains, links: Links, accounts: SsoAccounts, callbackUrl: string) {
  const frontend = ctx.config.FRONTEND_URL.replace(/\/$/, '');
  const tokenCache = ctx.caches.create<ScimToken>('scim-token', (hash) => store.tokenByHash(hash), { ttlMs: 30_000 });
  const touched = new Map<string, number>();

  const view = (c: SsoConfig) => ({
    provider: c.provider,
    saml: { entryPoint: c.saml.entryPoint, issuer: c.saml.issuer, cert: '****', signatureAlgorithm: c.saml.signatureAlgorithm, wantAuthnResponseSigned: c.saml.wantAuthnResponseSigned },
    enforcedDomains: c.enforcedDomains, defaultRole: c.defaultRole, enabled: c.enabled, callbackUrl, createdAt: c.createdAt, updatedAt: c.updatedAt,
  });

  // SCIM bearer tokens: `scim_` + 32 random bytes, stored hashed, bound to one organization.
  ctx.provideCredential('scim', async (req) => {
    const token = bearerToken(req);
    if (!token?.startsWith('scim_')) return undefined;
    const record = await tokenCache.get(sha256Hex(token));
    if (!record) throw new AppError('invalid_token', { message: 'Invalid or revoked SCIM token' });
    // lastUsedAt at most once a minute per token, across processes (Redis SET NX).
    const now = Date.now();
    if ((touched.get(record._id) ?? 0) < now - TOUCH_EVERY_MS) {
      touched.set(record._id, now);
      void ctx.once.claimFor(`scim-touch:${record._id}`, TOUCH_EVERY_MS)
        .then((won) => (won ? store.touchToken(record._id, new Date(now)) : undefined))
        .catch((err: unknown) => ctx.log.warn({ err }, 'SCIM token lastUsedAt not written'));
    }
    const principal: Principal = { kind: 'scim', platformRole: 'user', orgId: record.orgId, tokenId: record._id };
    return principal;
  });

  // Password sign-in refused for a member of an organization enforcing SSO for the email's domain.
  auth.attachPasswordPolicy(async ({ userId, email }) => {
    const domain = domainOfEmail(email);
    if (!domain) return;
    // Only the organization that verified the domain enforces it (a configuration saved before
    // verification existed may still name others).
    const owner = await domains.domainOwner(domain);
    const configs = owner ? (await store.enforcing(domain)).filter((c) => c.orgId === owner) : [];
    for (const c of configs) {
      if (await ctx.tenancy.store.findMembership(c.orgId, userId)) throw new AppError('auth.sso_required');
    }
  });

  async function checkRole(orgId: string, role: string) {
    if (role === 'owner') throw new AppError('bad_request', { message: 'defaultRole cannot be owner' });
    if (isBuiltInRole(role)) return;
    if (!ID.test(role) || !(await ctx.tenancy.store.findRole(orgId, role))) {
      throw new AppError('bad_request', { message: 'defaultRole must be admin, member, viewer or a custom role of this organization' });
    }
  }

  const fail = (reason: string) => `${frontend}/auth/error?reason=${encodeURIComponent(reason)}`;

  return {
    async getConfig(orgId: string) {
      const c = await store.config(orgId);
      return c ? { configured: true, config: view(c) } : { configured: false };
    },
    async putConfig(orgId: string, body: SsoConfigBody, grantor: Grantor) {
      if (!isPemCertificate(body.saml.cert)) throw new AppError('bad_request', { message: 'saml.cert must be a PEM X.509 certificate' });
      await checkRole(orgId, body.defaultRole);
      // defaultRole is given to every member SSO or SCIM adds, and replaces the previous default of those in no mapped group.
      await ctx.tenancy.assertMayChange(orgId, grantor, (await store.config(orgId))?.defaultRole ?? 'member', body.defaultRole, 'set a defaultRole that grants more than yours');
      const enforced = [...new Set(body.enforcedDomains.map(normalizeDomain))];
      const unverified = await domains.unverified(orgId, enforced);
      if (unverified.length) {
        throw new AppError('sso.domain_unverified', {
          message: `enforcedDomains may name only domains this organization has verified; not verified: ${unverified.join(', ')} (POST /api/sso/domains, then verify)`,
          details: { unverified },
        });
      }
      const now = new Date();
      const saved = await store.saveConfig({
        _id: newId(), orgId, provider: body.provider,
        saml: { entryPoint: body.saml.entryPoint, issuer: body.saml.issuer, cert: body.saml.cert.trim(), signatureAlgorithm: body.saml.signatureAlgorithm, wantAuthnResponseSigned: body.saml.wantAuthnResponseSigned },
        enforcedDomains: enforced, defaultRole: body.defaultRole, enabled: body.enabled,
        createdAt: now, updatedAt: now,
      });
      return view(saved);
    },
    async deleteConfig(orgId: string) {
      await store.removeConfig(orgId);
      return { success: true as const };
    },

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
        const m = await ctx.tenancy.store.findMembership(target, account.userId);
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

    /**
     * Who a SCIM request acts as when it changes roles or memberships: the token's creator, with
     * the permissions they hold now (none once they left, or for a token that names no creator).
     */
    scimActor(orgId: string, principal: Principal): ScimActor {
      let held: Promise<Grantor> | undefined;
      return {
        label: `scim:${principal.tokenId ?? ''}`,
        grantor: () => (held ??= (async () => {
          const record = principal.tokenId ? await store.token(orgId, principal.tokenId) : null;
          const access = record?.createdBy ? await ctx.tenancy.access(orgId, record.createdBy) : null;
          return access ? { permissions: access.permissions } : NO_GRANTOR;
        })()),
      };
    },

    // SCIM token management
    async listTokens(orgId: string) {
      const rows = await store.listTokens(orgId);
      return { tokens: rows.map((t) => ({ id: t._id, label: t.label, prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt ?? null })) };
    },
    /** The token acts with its creator's permissions, read at each use (scimActor). */
    async createToken(orgId: string, label: string, createdBy: string | undefined) {
      const token = randomToken('scim_');
      const record: ScimToken = { _id: newId(), orgId, label, prefix: token.slice(0, 12), hash: sha256Hex(token), createdAt: new Date(), ...(createdBy ? { createdBy } : {}) };
      await store.insertToken(record);
      return { id: record._id, label, token, prefix: record.prefix, createdAt: record.createdAt };
    },
    async revokeToken(orgId: string, id: string) {
      const removed = await store.removeToken(orgId, id);
      if (!removed) throw new AppError('not_found', { message: 'SCIM token not found' });
      // Every process drops its cached copy at once.
      await tokenCache.invalidate(removed.hash);
      return { message: 'SCIM token revoked' };
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
