// CLI tokens limited to some repositories (SPEC Authentication 3: "limited by its scopes
// and, unless allRepositories is true, by repositories"). A token's `repositories` are
// repository config ids. The manifest says how each route is held to them (RepositoryRule):
// lists are narrowed by their handler to `input.repositories`; a record addressed by id is
// checked here before the handler, and one of another repository answers 403
// repository_denied (it is in the caller's organization, so its existence is no secret;
// another organization's record stays the handler's 404). A body field naming a repository
// config ({body}) is checked the same way.
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { AppError } from '../errors.ts';
import type { RepositoryRule } from '../manifest.ts';

/** undefined: every repository of the organization; a list: only these config ids. */
export type RepoScope = readonly string[] | undefined;

/** The repository config a record of some kind belongs to, or null when the organization has no such record. */
export type RepositoryOf = (orgId: string, id: string) => Promise<string | null>;

export function repoScope(req: FastifyRequest): RepoScope {
  const p = req.principal;
  if (p?.kind !== 'cli' || !p.repositories || p.repositories.all) return undefined;
  return p.repositories.ids;
}

export const repositoryDenied = () => new AppError('repository_denied', { message: 'This token is not allowed to access this repository' });

/** The config ids a query may touch: the caller's filter narrowed by the token's scope. */
export function narrow(scope: RepoScope, filterId?: string): readonly string[] | undefined {
  if (filterId) return !scope || scope.includes(filterId) ? [filterId] : [];
  return scope;
}

/** The preHandler deciding a route's rule; none for 'narrowed' (the handler narrows its reads). */
export function repositoryGuard(rule: RepositoryRule, records: ReadonlyMap<string, RepositoryOf>): preHandlerHookHandler | undefined {
  if (rule === 'narrowed') return undefined;
  // After validation, like the handler's own checks: a malformed body is a 400 whoever calls.
  if (rule === 'unlimited') {
    return async (req) => {
      if (repoScope(req)) throw repositoryDenied();
    };
  }
  if ('body' in rule) {
    // The body names the repository config itself (a plan evaluated for one repository).
    const field = rule.body;
    return async (req) => {
      const scope = repoScope(req);
      const id = (req.body as Record<string, unknown> | undefined)?.[field];
      if (scope && !(typeof id === 'string' && scope.includes(id))) throw repositoryDenied();
    };
  }
  const { param, record } = rule;
  return async (req) => {
    const scope = repoScope(req);
    if (!scope) return;
    const id = (req.params as Record<string, string>)[param];
    const repository = await records.get(record)!(req.org!.id, id);
    if (repository && !scope.includes(repository)) throw repositoryDenied();
  };
}
