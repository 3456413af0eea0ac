// The manifest types: a plugin's routes as data (DESIGN.md "Shape"). The loader turns each
// entry into a Fastify route with its schemas, its guard chain and its OpenAPI entry.
import type { TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallSerializerTypeProvider, CallValidatorTypeProvider } from 'fastify/types/type-provider.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CliScope, Permission } from './permissions.ts';
import type { LimitName, Plan } from './plans.ts';
import type { RateLimitName } from './guards/rate-limit.ts';
import type { OrgContext, Principal } from './guards/principal.ts';
import type { RepoScope } from './guards/repositories.ts';
import type { ErrorCode } from './errors.ts';

/**
 * How a request proves who it is. `runner-link`: a runner token in the `token` query
 * parameter (the install script and agent package links, fetched by curl); when the path
 * names a `:runnerId`, the token must be that runner's. `cloud-events`: a `ce_` token
 * (plugins/cloud-events), accepted by that plugin's ingestion route and nowhere else.
 * `user-redirect`: a user session (access JWT) in the Authorization header, or in the `token`
 * query parameter, for the GET that starts a browser redirect flow (an OAuth start the browser
 * navigates to). GET routes only; the JWT proves who starts, never a callback (those are
 * `none` and prove the browser and user through core/browser-binding.ts).
 */
export const AUTH_KINDS = ['none', 'user', 'user-redirect', 'bearer', 'runner', 'runner-link', 'scim', 'service-key', 'download', 'cloud-events'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ReplyStyle = 'envelope' | 'named' | 'raw';

export interface RouteSpec {
  /** Becomes the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  url: string;
  summary?: string;
  auth: AuthKind;
  /** CLI scope a `ci_` token must hold. */
  scope?: CliScope;
  /**
   * A `bearer` route without a scope is closed to CLI tokens (their scopes are the whole
   * of what they may do), unless it says so here: identity routes such as /me.
   */
  cliAllowed?: boolean;
  /** Org permission slug the caller's role must grant (custom roles included). */
  permission?: Permission;
  /** Owner-only routes (billing, organization deletion): not assignable to custom roles. */
  ownerOnly?: boolean;
  /** Platform admin role (/api/admin). */
  platformAdmin?: boolean;
  /** Minimum plan; the plugin's tier applies when absent. */
  plan?: Plan;
  rateLimit?: RateLimitName;
  /**
   * The plan limit (core/plans.ts PLAN_LIMITS) a request to this route counts against: the
   * engine refuses it with 403 plan_limit when the organization is at its plan's limit,
   * before the handler (core/limits.ts, with the meter the plugin defines by ctx.defineMeter).
   */
  limit?: LimitName;
  /**
   * The audit trail (core/audit.ts). Absent: an authenticated POST/PUT/PATCH/DELETE is
   * recorded as http.<method>.<path>. A name: recorded under that curated action (also when
   * unauthenticated, e.g. sign-in). false: never recorded. A rule: see AuditRule.
   */
  audit?: false | string | AuditRule;
  /**
   * How a CLI token limited to some repositories is held to them (SPEC Authentication 3),
   * decided by the engine before the handler (core/guards/repositories.ts).
   */
  repositories?: RepositoryRule;
  /**
   * More access when the validated body asks for more (predictions' action `scan` starts a
   * scan): each gate whose `body` field has that value adds its CLI scope and permission,
   * decided by the engine after validation, before the handler (core/guards/body-gates.ts).
   */
  gates?: readonly BodyGate[];
  /**
   * A browser callback (auth `none`) resuming a flow a user started: the handler proves the
   * flow's user and organization from its state, then asks `input.resumed(orgId, userId)`,
   * which the engine answers with that user's access when they still hold `permission` there
   * (removed or demoted since the start: null).
   */
  resumes?: { permission: Permission };
  /** Path parameter naming the organization (org routes); otherwise x-org-id or the default org. */
  orgParam?: string;
  /** Needs an organization context (default: true for user/bearer routes with a permission, plan or orgParam). */
  orgContext?: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** Success status -> schema of the data (wrapped in the envelope by the loader when reply is envelope). */
  response: Record<number, TSchema | null>;
  /**
   * Overrides the plugin's reply style for one route (raw: the handler writes the reply itself;
   * a route whose success is a 3xx may return `{redirect, audit?}` instead, and the engine sends
   * the redirect after keeping the result for the audit rule).
   */
  reply?: ReplyStyle;
  /**
   * The body arrives unparsed, as text, whatever its content type (req.rawBody): for routes
   * that verify a signature over the bytes as sent (payment-provider webhooks). No body schema.
   */
  rawBody?: true;
  /**
   * The largest body this route accepts, in bytes, when it needs more than BODY_LIMIT (a
   * Terraform plan of thousands of resources); larger bodies answer 413 payload_too_large.
   */
  bodyLimit?: number;
  /** Content types other than JSON that the route accepts (multipart uploads). */
  consumes?: readonly string[];
  /** Media types of the success answer when it is not JSON (CSV exports, scripts, archives, images). */
  produces?: readonly string[];
  handler: string;
  /** Overrides the manifest's errorFormat for one route. */
  errorFormat?: ErrorFormat;
  /** Statuses the handler answers beyond what the guards derive (core/openapi-errors.ts), with why. */
  errors?: Readonly<Record<number, string>>;
  /**
   * The error codes (rows of core/errors.ts) the handler, and what it calls, raises beyond
   * what the route's guards document: each becomes its status in the OpenAPI entry, the code
   * named in that status's description. A status a test sees the route answer that its entry
   * does not document fails the run (core/status-log.ts, scripts/check-statuses.ts).
   */
  raises?: readonly ErrorCode[];
}

/**
 * How a route's errors are written. Absent: the one JSON error shape. 'scim': the SCIM error
 * schema of RFC 7644 §3.12 (`schemas`, `status` as a string, `scimType`, `detail`), and every
 * answer typed application/scim+json (the SCIM protocol routes, whose clients are identity providers).
 */
export type ErrorFormat = 'scim';

/**
 * 'narrowed': a list; the handler narrows what it reads to `input.repositories`.
 * 'unlimited': only tokens for every repository (creating a repository config).
 * {param, record}: the path parameter names a record (a repository config, scan, drift...)
 * whose repository must be one of the token's, or 403 repository_denied. A record of
 * another organization, or none, is left to the handler's 404. `record` names a kind a
 * plugin defines with ctx.defineRepositoryRecord.
 * {body}: the validated body's field is a repository config id, which must be one of the
 * token's (403 repository_denied otherwise; an evaluation of a plan for one repository).
 */
export type RepositoryRule = 'narrowed' | 'unlimited' | { param: string; record: string } | { body: string };

/** See RouteSpec.gates. */
export interface BodyGate {
  body: { field: string; equals: string };
  permission: Permission;
  scope?: CliScope;
}

/** An audit rule for routes whose entries need more than a name. */
export interface AuditRule {
  /** Curated action (default: derived from method and path). */
  action?: string;
  /** Action recorded instead when the answer is an error (auth.login_failed). */
  failure?: string;
  /** Facts about the outcome, from the handler's result (ids of what was created...). */
  details?: (result: any, body: any) => Record<string, unknown> | undefined;
  /** What the trail keeps instead of the request body (a summary of a large report). */
  body?: (body: any) => unknown;
  /** Unauthenticated routes: who acted, from the result (sign-up, sign-in). */
  actor?: (result: any) => AuditActor | undefined;
  /** Not recorded when this holds for the result (an empty poll, a heartbeat changing nothing). */
  skip?: (result: any) => boolean;
  /**
   * The trail the entry goes to, from the result: an organization id, or null for the
   * platform trail (an organization's own deletion). Default: the request's organization.
   */
  org?: (result: any) => string | null;
  /**
   * Routes whose audited event is known only from the outcome (a browser callback that signs a
   * user in or links an account, whatever its method): the handler's result names the whole
   * entry (`result.audit`); undefined: nothing recorded. The other fields are not read then.
   */
  event?: (result: any) => AuditEvent | undefined;
}

/** An entry the outcome names in full (AuditRule.event): the request gives method, route, status, ip. */
export interface AuditEvent {
  action: string;
  orgId: string | null;
  actor: { userId: string | null; email?: string; kind?: Principal['kind'] };
  resourceType: string;
  resourceId: string | null;
  details?: Record<string, unknown>;
}

/**
 * Facts about a change the answer does not show (a target, before/after): a handler may
 * return them beside its result as `audit`. No response schema has that field, so the answer
 * never carries it; a route's audit rule reads it (details).
 */
export interface AuditNote { audit?: Record<string, unknown> }
export interface AuditActor { userId: string; email?: string; kind: Principal['kind']; orgId?: string | null }

export interface Manifest {
  plugin: string;
  prefix: string;
  reply: ReplyStyle;
  /** Default plan tier of the plugin; the operator config may raise or lower it. */
  plan?: Plan;
  /** Plugins the engine cannot run without (accounts, organizations) cannot be disabled. */
  required?: boolean;
  description?: string;
  /** How errors of every route are written (RouteSpec.errorFormat overrides). */
  errorFormat?: ErrorFormat;
  /** Statuses every route of the plugin may answer beyond the derived ones (an upstream's 502), with why. */
  errors?: Readonly<Record<number, string>>;
  /**
   * Paths under `prefix + under` that no route matches answer 404 in this error format (a
   * protocol's clients, e.g. SCIM identity providers, read only their own error schema).
   */
  unmatched?: { under: string; errorFormat: ErrorFormat };
  routes: readonly RouteSpec[];
}

/** Keeps the literal types of every entry, so handlers are typed from their entry (HandlersOf). */
export const defineManifest = <const M extends Manifest>(m: M): M => m;

// Types of a handler, derived from its manifest entry through the TypeBox type provider.
type In<S> = S extends TSchema ? CallValidatorTypeProvider<TypeBoxTypeProvider, S> : undefined;
/** The answer's type; a 204 has none, but its handler may still hand audit facts to the rule. */
type Out<S> = S extends TSchema ? CallSerializerTypeProvider<TypeBoxTypeProvider, S> : void | AuditNote;
type OrgRoute = { permission: string } | { ownerOnly: true } | { orgParam: string } | { orgContext: true };
type SuccessKey<R extends RouteSpec> = Extract<keyof R['response'], 200 | 201 | 202 | 204>;

/** What a handler receives: its entry's params, query and body, already validated. */
export interface RouteInput<R extends RouteSpec = RouteSpec> {
  params: In<R['params']>;
  query: In<R['query']>;
  body: In<R['body']>;
  /** The organization the guards resolved (routes with a permission, owner-only, an org param or orgContext). */
  org: R extends OrgRoute ? OrgContext : OrgContext | undefined;
  principal: R['auth'] extends 'none' ? Principal | undefined : Principal;
  /** undefined: every repository; a list: the only repository config ids a limited CLI token may read. */
  repositories: RepoScope;
  /** Routes with `resumes`: the access of the user who started the flow, when they still hold the permission. */
  resumed: (orgId: string, userId: string) => Promise<OrgContext | null>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** The data of the entry's success answer (the loader wraps it in the envelope); raw routes write the reply. */
export type RouteResult<R extends RouteSpec, Style extends ReplyStyle = ReplyStyle> =
  R extends { reply: 'raw' } ? unknown
  : R extends { reply: ReplyStyle } ? Out<R['response'][SuccessKey<R>]>
  : Style extends 'raw' ? unknown : Out<R['response'][SuccessKey<R>]>;

export type Handler<R extends RouteSpec = RouteSpec, Style extends ReplyStyle = ReplyStyle> =
  (input: RouteInput<R>) => Promise<RouteResult<R, Style>> | RouteResult<R, Style>;

type RouteNamed<M extends Manifest, H> = Extract<M['routes'][number], { handler: H }>;
/** One handler per name the manifest's entries use, each typed from its entry. */
export type HandlersOf<M extends Manifest> = { [H in M['routes'][number]['handler']]: Handler<RouteNamed<M, H>, M['reply']> };

/** Loosely typed handler, as the loader calls it. */
export type AnyHandler = (input: RouteInput) => unknown;
