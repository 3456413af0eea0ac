// Linking an identity provider to one's own account (docs/sso-scim.md#linking-an-account).
// The organization's IdP may sign in an existing account outside the domains it verified only
// when the account holder asked for it: signed in with their own credentials, as a member of
// the organization, they start a link (POST /sso/links), sign in at the IdP, and the callback
// sends their browser to the confirm page with a one-time code; POST /sso/links/confirm with the
// same user's session records (user, organization, NameID). The code alone is useless to anyone else (it names the
// user who started), and the IdP's signed answer names the identity, so neither side can link
// the other's.
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { AppError } from '../../core/errors.ts';
import type { AuthService } from '../auth/service.ts';
import type { LinkStore, SsoLink } from './link-store.ts';
import type { Saml } from './saml.ts';
import type { SsoConfig } from './store.ts';

export const LINK_CODE_TTL_MS = 5 * 60_000;

interface Pending { userId: string; orgId: string; nameId: string }

export function createLinks(ctx: AppContext, store: LinkStore, saml: Saml, auth: AuthService, configOf: (orgId: string) => Promise<SsoConfig | null>) {
  const redis = ctx.redis.main;
  const codeKey = (code: string) => `sso:link:${sha256Hex(code)}`;
  const view = (l: SsoLink) => ({ orgId: l.orgId, nameId: l.nameId, createdAt: l.createdAt });
  const invalid = () => new AppError('invalid_token', { message: 'Invalid or expired link code; start the link again' });

  return {
    /** POST /sso/links: the IdP's URL with an AuthnRequest bound to the signed-in user. */
    async start(userId: string, orgId: string) {
      const config = await configOf(orgId);
      if (!config?.enabled) throw new AppError('not_found', { message: 'SSO not configured for this organization' });
      return { redirectUrl: await saml.loginUrl(config, orgId, userId) };
    },
    /** The callback's answer to a link request: a one-time code for the confirm page. */
    async issueCode(pending: Pending): Promise<string> {
      const code = randomToken('ssolink_');
      await redis.set(codeKey(code), JSON.stringify(pending), 'PX', LINK_CODE_TTL_MS);
      return code;
    },
    /** POST /sso/links/confirm: only the user who started the link confirms it, once. */
    async confirm(userId: string, orgId: string, code: string) {
      const raw = await redis.get(codeKey(code));
      const pending = raw ? JSON.parse(raw) as Pending : null;
      if (!pending || pending.userId !== userId || pending.orgId !== orgId) throw invalid();
      if (!(await redis.getdel(codeKey(code)))) throw invalid();
      const existing = await store.byNameId(pending.orgId, pending.nameId);
      if (existing?.userId === userId) return view(existing);
      if (existing) throw new AppError('sso.link_taken');
      // One identity per organization and account: a new one replaces the previous.
      await store.remove(userId, pending.orgId);
      const link: SsoLink = { _id: newId(), userId, orgId: pending.orgId, nameId: pending.nameId, createdAt: new Date() };
      if (!(await store.insert(link))) throw new AppError('sso.link_taken');
      return view(link);
    },
    async list(userId: string, orgId: string) {
      const link = await store.byUser(userId, orgId);
      return { links: link ? [view(link)] : [] };
    },
    async remove(userId: string, orgId: string) {
      if (!(await store.remove(userId, orgId))) throw new AppError('not_found', { message: "No link to this organization's identity provider" });
      return { success: true as const };
    },
    /** The account an identity of this organization is linked to; a link whose account is gone is dropped. */
    async accountOf(orgId: string, nameId: string): Promise<string | null> {
      const link = await store.byNameId(orgId, nameId);
      if (!link) return null;
      if (await auth.sso.accountById(link.userId)) return link.userId;
      await store.removeStale(link._id);
      return null;
    },
  };
}
export type Links = ReturnType<typeof createLinks>;
