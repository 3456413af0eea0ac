// The guard chain of one manifest entry, built once at load time. Runs in onRequest (and
// signing in preValidation, once the raw body is read), so credentials, scopes, roles and
// plans are decided before the body is validated: an anonymous caller gets 401, never 400.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import type { AnyHandler, RouteInput, RouteSpec } from '../manifest.ts';
import type { Hold, Limits } from '../limits.ts';
import { AppError, forbidden, unauthorized } from '../errors.ts';
import { ROLE_PERMISSIONS } from '../permissions.ts';
import { planAtLeast, planLabel, type Plan } from '../plans.ts';
import type { Tenancy } from '../tenancy/index.ts';
import { ACCEPTS, bearerToken, type CredentialKind, type CredentialReader, type Principal } from './principal.ts';
import type { RateLimitGuard } from './rate-limit.ts';
import type { SigningGuard } from './signing.ts';
import { repoScope, repositoryGuard, type RepositoryOf } from './repositories.ts';
import { bodyGates, permissionDenied, scopeDenied } from './body-gates.ts';

export interface GuardDeps {
  /** @fastify/auth's composer: tries each accepted credential kind in turn. */
  auth: FastifyInstance['auth'];
  readers: Map<CredentialKind, CredentialReader>;
  records: ReadonlyMap<string, RepositoryOf>;
  tenancy: Tenancy;
  limits: Limits;
  rateLimit: RateLimitGuard;
  verifySignature: SigningGuard;
}

const ID = /^[a-f0-9]{24}$/;

/** Whether the route acts in an organization (from its path parameter, x-org-id or the caller's default). */
export const needsOrgContext = (spec: RouteSpec, requiredPlan: Plan | undefined) =>
  Boolean(spec.orgContext ?? (spec.orgParam || spec.permission || spec.ownerOnly || spec.limit || (requiredPlan && requiredPlan !== 'free')));

/** What a handler (and a plan limit's meter) receives; `resumed` answers the route's `resumes` rule. */
export const inputOf = (req: FastifyRequest, reply: FastifyReply, resumed: RouteInput['resumed']) => ({
  params: req.params, query: req.query, body: req.body, org: req.org, principal: req.principal,
  repositories: repoScope(req), resumed, req, reply,
}) as Parameters<AnyHandler>[0];

/** `plugin`: the manifest's, whose meter decides whether a request adds to its `limit`. */
export function buildGuards(spec: RouteSpec, requiredPlan: Plan | undefined, deps: GuardDeps, plugin: string) {
  const needsOrg = needsOrgContext(spec, requiredPlan);
  const onRequest: onRequestHookHandler[] = [];

  if (spec.auth !== 'none') onRequest.push(authentication(spec, deps) as onRequestHookHandler);
  // A link opened with one runner's token names that runner, or it is not a valid link.
  if (spec.auth === 'runner-link' && /\/:runnerId(\/|$)/.test(spec.url)) {
    onRequest.push(async (req) => {
      if (req.principal?.runnerId !== (req.params as { runnerId?: string }).runnerId) throw unauthorized('Invalid runner token', 'invalid_token');
    });
  }
  if (spec.scope) {
    const scope = spec.scope;
    onRequest.push(async (req) => {
      const p = req.principal;
      if (p?.kind === 'cli' && !p.scopes?.includes(scope)) {
        throw scopeDenied(scope);
      }
    });
  } else if (!spec.cliAllowed && (spec.auth === 'bearer' || spec.auth === 'download')) {
    onRequest.push(async (req) => {
      if (req.principal?.kind === 'cli') throw new AppError('scope_denied', { message: 'This route is not available to CLI tokens; no CLI scope grants it' });
    });
  }
  if (needsOrg) onRequest.push(orgGuard(spec, requiredPlan, deps.tenancy));
  if (spec.platformAdmin) {
    onRequest.push(async (req) => {
      if (req.principal?.platformRole !== 'admin') throw forbidden('Forbidden');
    });
  }
  // Last, so limits counted per user or organization know who is calling.
  if (spec.rateLimit) {
    const name = spec.rateLimit;
    onRequest.push(async (req, reply) => deps.rateLimit(name, req, reply));
  }
  const preValidation: preValidationHookHandler[] = spec.auth === 'bearer' || spec.auth === 'download'
    ? [async (req) => deps.verifySignature(req)]
    : [];
  const repositories = spec.repositories && repositoryGuard(spec.repositories, deps.records);
  const preHandler: preHandlerHookHandler[] = repositories ? [repositories] : [];
  // After the repository rule, as the handler's own checks ran before: a body asking for more.
  if (spec.gates?.length) preHandler.push(bodyGates(spec.gates));
  // Last before the handler, after validation (a malformed body is a 400 whatever the usage) and
  // the repository rule: the hold it takes is kept or given back by the handler's outcome (loader.ts).
  if (spec.limit) {
    const name = spec.limit;
    preHandler.push(async (req) => {
      // Path parameters are strings once validated.
      const params = (req.params ?? {}) as Record<string, string>;
      req.limitHold = await deps.limits.take(req.org!.id, name, { plugin, request: { route: spec, params, body: req.body } });
    });
  }
  return { onRequest, preValidation, preHandler };
}

const ABSENT = new Error('credential kind absent');

/**
 * The route's accepted credential kinds composed with @fastify/auth ("or": the first that
 * reads a principal wins). A credential that is present but invalid decides the answer
 * (invalid_token), so the kinds tried after it only repeat that error; the last function
 * gives the answer when no kind matched.
 */
function authentication(spec: RouteSpec, deps: GuardDeps) {
  const kinds = ACCEPTS[spec.auth as Exclude<RouteSpec['auth'], 'none'>];
  const tryKind = (kind: CredentialKind) => async (req: FastifyRequest) => {
    if (req.authFailure) throw req.authFailure;
    const reader = deps.readers.get(kind);
    let principal: Principal | undefined;
    try {
      principal = reader && await reader(req);
    } catch (err) {
      req.authFailure = err as Error;
      throw err;
    }
    if (!principal) throw ABSENT;
    req.principal = principal;
  };
  const noneMatched = async (req: FastifyRequest) => {
    if (req.authFailure) throw req.authFailure;
    if ((spec.auth === 'user' || spec.auth === 'user-redirect') && bearerToken(req)?.startsWith('ci_')) {
      throw new AppError('token_kind_denied', { message: 'This route needs a user session; CLI tokens are not accepted' });
    }
    throw unauthorized();
  };
  return deps.auth([...kinds.map(tryKind), noneMatched] as never, { relation: 'or' });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when a credential was present but invalid: that error is the answer. */
    authFailure?: Error;
    /** The plan limit's hold taken for this request (manifest `limit`). */
    limitHold?: Hold;
  }
}

function orgGuard(spec: RouteSpec, requiredPlan: Plan | undefined, tenancy: Tenancy): onRequestHookHandler {
  return async (req) => {
    const p = req.principal;
    if (!p) throw unauthorized();
    const fromParam = spec.orgParam ? (req.params as Record<string, string>)[spec.orgParam] : undefined;
    const header = req.headers['x-org-id'];
    const fromHeader = typeof header === 'string' && header ? header : undefined;
    if (fromHeader && !ID.test(fromHeader)) throw new AppError('bad_request', { message: 'x-org-id must be an organization id' });
    // Path parameters are validated after the guards; a malformed org id is still a 400.
    if (fromParam !== undefined && !ID.test(fromParam)) {
      throw new AppError('validation_failed', { message: `params/${spec.orgParam} must be an organization id` });
    }
    let orgId = fromParam ?? p.orgId ?? fromHeader ?? p.defaultOrgId;
    if (!orgId) throw new AppError('not_found', { message: 'Organization not found' });
    // Credentials bound to one org never reach another one.
    if (p.orgId && (orgId !== p.orgId || (fromHeader && fromHeader !== p.orgId))) {
      throw new AppError('not_found', { message: 'Organization not found' });
    }

    let access;
    if (p.kind === 'service') {
      const org = ID.test(orgId) ? await tenancy.org(orgId) : null;
      access = org && { org, role: 'admin', builtInRole: 'admin' as const, permissions: ROLE_PERMISSIONS.admin };
    } else if (p.kind === 'scim' || p.kind === 'cloud-events') {
      // A SCIM or cloud-events token acts for its one organization (orgId checked above) and holds no role.
      const org = await tenancy.org(orgId);
      access = org && { org, role: p.kind, builtInRole: null, permissions: new Set<never>() };
    } else if (p.userId && ID.test(orgId)) {
      access = await tenancy.access(orgId, p.userId);
    }
    // A default organization the user has since left or lost: fall back to their first
    // membership rather than failing every route that uses the default context.
    if (!access && p.userId && !fromParam && !fromHeader && !p.orgId) {
      const first = (await tenancy.listUserMemberships(p.userId))[0];
      if (first) {
        orgId = first.orgId;
        access = await tenancy.access(orgId, p.userId);
      }
    }
    if (!access) throw new AppError('not_found', { message: 'Organization not found' });
    req.org = { id: orgId, ...access };

    if (spec.ownerOnly && access.builtInRole !== 'owner') {
      throw new AppError('permission_denied', { message: 'Only the organization owner can do this' });
    }
    if (spec.permission && !access.permissions.has(spec.permission)) {
      throw permissionDenied(spec.permission);
    }
    if (requiredPlan && !planAtLeast(access.org.plan, requiredPlan)) {
      throw new AppError('plan_required', {
        message: `This feature requires the ${planLabel(requiredPlan)} plan or higher`,
        details: { requiredPlan, currentPlan: access.org.plan },
      });
    }
  };
}
