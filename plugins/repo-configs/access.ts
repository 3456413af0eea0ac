// CLI tokens limited to some repositories (SPEC Authentication 3: "limited by its scopes
// and, unless allRepositories is true, by repositories"). A token's `repositories` are
// repository config ids. Lists are narrowed to them; a record of another repository,
// addressed by id, answers 403 repository_denied (it is in the caller's organization, so
// its existence is no secret; another organization's record stays a 404).
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';

/** undefined: every repository of the organization; a list: only these config ids. */
export type RepoScope = readonly string[] | undefined;

export function repoScope(req: FastifyRequest): RepoScope {
  const p = req.principal;
  if (p?.kind !== 'cli' || !p.repositories || p.repositories.all) return undefined;
  return p.repositories.ids;
}

export const repositoryDenied = () => new AppError('repository_denied', { message: 'This token is not allowed to access this repository' });

export function assertAllowed(scope: RepoScope, repositoryConfigId: string): void {
  if (scope && !scope.includes(repositoryConfigId)) throw repositoryDenied();
}

/** The config ids a query may touch: the caller's filter narrowed by the token's scope. */
export function narrow(scope: RepoScope, filterId?: string): readonly string[] | undefined {
  if (filterId) return !scope || scope.includes(filterId) ? [filterId] : [];
  return scope;
}
