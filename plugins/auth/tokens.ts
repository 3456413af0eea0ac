// JWTs (access, download, service) and the session revocation list. Access tokens are
// checked without the database: the signature (verified claims cached by token) and an
// in-memory set of revoked sessions, loaded at start and kept current over Redis pub/sub.
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../core/context.ts';
import type { AuthStore } from './store.ts';

export type TokenType = 'access' | 'download' | 'service';
export interface Claims { sub: string; typ: TokenType; sid?: string; iat?: number; exp?: number }

export function createTokens(ctx: AppContext, store: AuthStore) {
  const { config } = ctx;
  const signers = {
    access: createSigner({ key: config.JWT_SECRET, algorithm: 'HS256', expiresIn: config.ACCESS_TOKEN_TTL * 1000 }),
    download: createSigner({ key: config.JWT_SECRET, algorithm: 'HS256', expiresIn: config.DOWNLOAD_TOKEN_TTL * 1000 }),
    service: createSigner({ key: config.JWT_SECRET, algorithm: 'HS256', expiresIn: config.ACCESS_TOKEN_TTL * 1000 }),
  };
  const verifier = createVerifier({ key: config.JWT_SECRET, algorithms: ['HS256'] });
  // Verified claims by the token's exact text (hot path: fast-jwt's own cache hashes every token
  // with SHA-256 to look it up, which cost as much as the rest of the guard). A hit is the same
  // string that verified before, so only its expiry is checked again.
  const verified = new LRUCache<string, Claims>({ max: 10_000 });

  // Only revocations younger than an access token's lifetime matter; older tokens expired.
  const ttlMs = config.ACCESS_TOKEN_TTL * 1000;
  const revoked = new Map<string, number>();
  const markRevoked = (sid: string) => {
    revoked.set(sid, Date.now());
    if (revoked.size % 1000 === 0) for (const [k, at] of revoked) if (at < Date.now() - ttlMs) revoked.delete(k);
  };
  const reload = async () => {
    for (const sid of await store.sessionsRevokedSince(new Date(Date.now() - ttlMs))) markRevoked(sid);
  };
  const topic = ctx.caches.topic('session-revoked', markRevoked, () => { void reload(); });

  return {
    sign(typ: TokenType, sub: string, extra: Partial<Claims> = {}): string {
      return signers[typ]({ sub, typ, ...extra });
    },
    /** Verified claims, or null when the token is malformed, forged or expired. */
    verify(token: string): Claims | null {
      const hit = verified.get(token);
      if (hit) {
        if (hit.exp === undefined || hit.exp * 1000 > Date.now()) return hit;
        verified.delete(token);
        return null;
      }
      try {
        const claims = verifier(token) as Claims;
        verified.set(token, claims);
        return claims;
      } catch (err) {
        if (err instanceof TokenError) return null;
        throw err;
      }
    },
    isRevoked: (sid: string) => revoked.has(sid),
    async revokeSessions(sids: string[], reason: string) {
      if (!sids.length) return;
      await store.revokeSessions(sids, reason, new Date());
      for (const sid of sids) {
        markRevoked(sid);
        await topic.publish(sid).catch(() => undefined);
      }
    },
    reload,
  };
}
export type Tokens = ReturnType<typeof createTokens>;
