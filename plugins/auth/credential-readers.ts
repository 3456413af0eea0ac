// The credential readers this plugin owns: user JWTs, CLI tokens, download tokens and the
// service key. Hot path: a cached principal per user and per CLI token, so a request
// costs no database command once warm.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { safeEqual, sha256Hex } from '../../core/crypto.ts';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import type { AuthStore, CliToken, User } from './store.ts';
import type { Tokens } from './tokens.ts';

const invalid = () => new AppError('invalid_token');

export function createCredentials(ctx: AppContext, store: AuthStore, tokens: Tokens) {
  const users = ctx.caches.create<User>('user', (id) => store.userById(id));
  const cliTokens = ctx.caches.create<CliToken>('cli-token', (hash) => store.cliTokenByHash(hash), { ttlMs: 30_000 });

  const userPrincipal = (user: User, extra: Partial<Principal>): Principal => ({
    kind: 'user', userId: user._id, email: user.email, name: user.name,
    platformRole: user.role, defaultOrgId: user.defaultOrgId, ...extra,
  });

  async function fromJwt(token: string, accept: 'access' | 'download'): Promise<Principal> {
    const claims = tokens.verify(token);
    if (!claims) throw invalid();
    if (claims.typ === 'service' && accept === 'access') return { kind: 'service', platformRole: 'admin' };
    if (claims.typ !== accept) throw invalid();
    if (claims.sid && tokens.isRevoked(claims.sid)) throw invalid();
    const user = await users.get(claims.sub);
    if (!user) throw invalid();
    return accept === 'download'
      ? userPrincipal(user, { kind: 'download' })
      : userPrincipal(user, { sessionId: claims.sid });
  }

  ctx.provideCredential('jwt', async (req) => {
    const token = bearerToken(req);
    if (!token || token.startsWith('ci_')) return undefined;
    return fromJwt(token, 'access');
  });

  ctx.provideCredential('cli', async (req) => {
    const token = bearerToken(req);
    if (!token?.startsWith('ci_')) return undefined;
    const record = await cliTokens.get(sha256Hex(token));
    if (!record) throw invalid();
    const user = await users.get(record.userId);
    if (!user) throw invalid();
    return userPrincipal(user, {
      kind: 'cli', platformRole: 'user', orgId: record.orgId, tokenId: record._id, signingKey: token,
      scopes: record.scopes, repositories: { all: record.allRepositories, ids: record.repositories },
    });
  });

  // Auth kind 'user-redirect': a browser navigating to the start of an OAuth flow cannot send a
  // header, so the user's access JWT may come in ?token= there (and nowhere else: the loader
  // allows the kind on GET routes only, and no callback accepts it as proof).
  ctx.provideCredential('jwt-query', async (req: FastifyRequest) => {
    const token = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !token) return undefined;
    if (token.startsWith('ci_')) throw new AppError('token_kind_denied', { message: 'This route needs a user session; CLI tokens are not accepted' });
    const principal = await fromJwt(token, 'access');
    if (principal.kind !== 'user') throw invalid();
    return principal;
  });

  ctx.provideCredential('download', async (req: FastifyRequest) => {
    const token = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !token) return undefined;
    return fromJwt(token, 'download');
  });

  ctx.provideCredential('service-key', async (req) => {
    const key = req.headers['x-service-key'];
    if (typeof key !== 'string' || !key) return undefined;
    if (!ctx.config.SERVICE_KEY || !safeEqual(key, ctx.config.SERVICE_KEY)) throw new AppError('invalid_token', { message: 'Invalid service key' });
    return { kind: 'service', platformRole: 'admin' };
  });

  return { users, cliTokens };
}
export type Credentials = ReturnType<typeof createCredentials>;
