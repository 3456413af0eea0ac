// CLI API tokens: `ci_` + 32 random bytes, stored as a SHA-256 hash, shown once, bound to
// the organization they were created in.
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { notFound } from '../../core/errors.ts';
import type { AuthStore, CliToken } from './store.ts';
import type { Credentials } from './credential-readers.ts';
import type { CreateCliToken } from './schemas.ts';

const view = (t: CliToken) => ({
  _id: t._id, name: t.name, prefix: t.prefix, scopes: t.scopes, allRepositories: t.allRepositories,
  repositories: t.repositories, orgId: t.orgId, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

export function createCliTokens(_ctx: AppContext, store: AuthStore, creds: Credentials) {
  return {
    async list(userId: string) {
      const rows = await store.listCliTokens(userId, 500);
      return rows.map(view);
    },
    async create(userId: string, orgId: string, input: CreateCliToken) {
      const token = randomToken('ci_');
      const record: CliToken = {
        _id: newId(), hash: sha256Hex(token), userId, orgId, name: input.name, prefix: token.slice(0, 10),
        scopes: input.scopes, allRepositories: input.allRepositories, repositories: input.allRepositories ? [] : input.repositories,
        createdAt: new Date(),
      };
      await store.insertCliToken(record);
      return { _id: record._id, token, name: record.name, scopes: record.scopes, allRepositories: record.allRepositories, repositories: record.repositories, createdAt: record.createdAt.toISOString() };
    },
    async revoke(userId: string, tokenId: string) {
      const record = await store.revokeCliToken(userId, tokenId);
      if (!record) throw notFound('CLI token');
      await creds.cliTokens.invalidate(record.hash);
      return record;
    },
  };
}
