// The manifest types: a plugin's routes as data (DESIGN.md "Shape"). The loader turns each
// entry into a Fastify route with its schemas, its guard chain and its OpenAPI entry.
import type { TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CliScope, Permission } from './permissions.ts';
import type { Plan } from './plans.ts';
import type { RateLimitName } from './guards/rate-limit.ts';

export const AUTH_KINDS = ['none', 'user', 'bearer', 'runner', 'scim', 'service-key', 'download'] as const;
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
  /** Curated audit action; otherwise http.<method>.<path> is derived. */
  audit?: string;
  /** Path parameter naming the organization (org routes); otherwise x-org-id or the default org. */
  orgParam?: string;
  /** Needs an organization context (default: true for user/bearer routes with a permission, plan or orgParam). */
  orgContext?: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** Success status -> schema of the data (wrapped in the envelope by the loader when reply is envelope). */
  response: Record<number, TSchema | null>;
  /** Overrides the plugin's reply style for one route (raw: the handler writes the reply itself). */
  reply?: ReplyStyle;
  /** Content types other than JSON that the route accepts (multipart uploads). */
  consumes?: string[];
  /** Media types of the success answer when it is not JSON (CSV exports, scripts, archives, images). */
  produces?: string[];
  handler: string;
}

export interface Manifest {
  plugin: string;
  prefix: string;
  reply: ReplyStyle;
  /** Default plan tier of the plugin; the operator config may raise or lower it. */
  plan?: Plan;
  /** Plugins the engine cannot run without (accounts, organizations) cannot be disabled. */
  required?: boolean;
  description?: string;
  routes: RouteSpec[];
}

export const defineManifest = (m: Manifest): Manifest => m;

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;
