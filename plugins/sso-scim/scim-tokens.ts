// SCIM bearer tokens: `scim_` + 32 random bytes, stored hashed, bound to one organization; the
// credential reader that accepts them, and who a SCIM request acts as (the token's creator,
// with the permissions they hold now).
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import { NO_GRANTOR, type Grantor } from '../../core/tenancy/grants.ts';
import type { ScimActor } from './scim.ts';
import type { ScimToken, SsoScimStore } from './store.ts';

const TOUCH_EVERY_MS = 60_000;

export function createScimTokens(ctx: AppContext, store: SsoScimStore) {
  const tokenCache = ctx.caches.create<ScimToken>('scim-token', (hash) => store.tokenByHash(hash), { ttlMs: 30_000 });
  const touched = new Map<string, number>();

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

  return {
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
