// An organization's SSO configuration: the identity provider's SAML settings, the domains whose
// password sign-in it refuses (verified domains only) and the default role of members SSO or
// SCIM adds (never above what the person saving it holds).
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/crypto.ts';
import { isBuiltInRole } from '../../core/permissions.ts';
import type { Grantor } from '../../core/tenancy/grants.ts';
import { isPemCertificate } from './saml.ts';
import { normalizeDomain, type Domains } from './domains.ts';
import type { SsoConfig, SsoScimStore } from './store.ts';
import type { SsoConfigBody } from './schemas.ts';

const ID = /^[a-f0-9]{24}$/;

export function createSsoConfig(ctx: AppContext, store: SsoScimStore, domains: Domains, callbackUrl: string) {
  const view = (c: SsoConfig) => ({
    provider: c.provider,
    saml: { entryPoint: c.saml.entryPoint, issuer: c.saml.issuer, cert: '****', signatureAlgorithm: c.saml.signatureAlgorithm, wantAuthnResponseSigned: c.saml.wantAuthnResponseSigned },
    enforcedDomains: c.enforcedDomains, defaultRole: c.defaultRole, enabled: c.enabled, callbackUrl, createdAt: c.createdAt, updatedAt: c.updatedAt,
  });

  async function checkRole(orgId: string, role: string) {
    if (role === 'owner') throw new AppError('bad_request', { message: 'defaultRole cannot be owner' });
    if (isBuiltInRole(role)) return;
    if (!ID.test(role) || !(await ctx.tenancy.findRole(orgId, role))) {
      throw new AppError('bad_request', { message: 'defaultRole must be admin, member, viewer or a custom role of this organization' });
    }
  }

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
  };
}
