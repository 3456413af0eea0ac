// The error statuses an operation documents, derived from its manifest entry: each guard the
// entry declares adds the status it answers (auth -> 401, permission, scope, plan, limit,
// repository rule -> 403, path parameters or the organization -> 404, rate limit -> 429,
// body -> 400/413/415), every operation documents 400 (a URL or header the server cannot read)
// and 503 (a store down, the server draining: core/error-handler.ts), a manifest adds what
// its handlers answer beyond that (`errors`: an upstream's 502), and each route the codes its
// handler raises (`raises`: a 409 conflict, a 410...), each named in its status's description.
// No catch-all range: a status a test sees that the entry lacks fails the run (core/status-log.ts).
import type { Manifest, RouteSpec } from './manifest.ts';
import type { Plan } from './plans.ts';
import { ERRORS, type ErrorCode } from './errors.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function errorStatuses(m: Manifest, route: RouteSpec, plan: Plan | undefined, orgContext: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const input = [route.params && 'path parameters', route.query && 'query', route.body && 'body'].filter(Boolean);
  out[400] = `Malformed request (validation_failed, bad_request)${input.length ? `: ${input.join(', ')} not as the schema says, ` : ': '}or a URL or header the server cannot read`;
  if (route.auth !== 'none') out[401] = 'No valid credential (unauthorized, invalid_token)';
  const denied = [
    route.scope || ((route.auth === 'bearer' || route.auth === 'download') && !route.cliAllowed) ? 'scope_denied: a CLI token without the scope' : '',
    route.auth === 'user' || route.auth === 'user-redirect' ? 'token_kind_denied: a CLI token on a user-session route' : '',
    route.permission || route.gates?.length ? 'permission_denied: the role lacks the permission' : '',
    route.ownerOnly ? 'permission_denied: only the owner' : '',
    route.platformAdmin ? 'forbidden: platform admins only' : '',
    plan && plan !== 'free' ? `plan_required: below the ${plan} plan` : '',
    route.limit ? `plan_limit: at the plan's ${route.limit} limit` : '',
    route.repositories && route.repositories !== 'narrowed' ? 'repository_denied: a CLI token limited to other repositories' : '',
    route.resumes ? `permission_denied: the user who started the flow no longer holds ${route.resumes.permission}` : '',
  ].filter(Boolean);
  if (denied.length) out[403] = `Refused (${denied.join('; ')})`;
  const named = [orgContext && !route.orgParam ? 'the organization (x-org-id)' : '', ...(route.url.match(/:\w+/g) ?? []).map((p) => p.slice(1))].filter(Boolean);
  if (named.length) out[404] = `Not found (not_found): ${named.join(', ')}`;
  // The router refuses a path parameter over its length before the route runs (core/error-handler.ts frameworkErrorHandler).
  if (/:\w/.test(route.url)) out[414] = 'A path parameter longer than the 100 characters accepted (uri_too_long)';
  if (route.limit) out[409] = `Another request holds the organization's ${route.limit} count; retry`;
  const hasBody = Boolean(route.body || route.rawBody || route.consumes) || (MUTATING.has(route.method) && route.method !== 'DELETE');
  if (hasBody) out[413] = `Body larger than ${route.bodyLimit ? `${route.bodyLimit} bytes` : 'the body limit'} (payload_too_large)`;
  if (hasBody && !route.rawBody) out[415] = `Content type other than ${route.consumes?.length ? ['application/json', ...route.consumes].join(', ') : 'application/json'} (unsupported_media_type)`;
  if (route.rateLimit) out[429] = `Over the ${route.rateLimit} rate limit (rate_limited; Retry-After)`;
  Object.assign(out, m.errors, route.errors);
  out[503] = [route.errors?.[503] ?? m.errors?.[503], 'A store is unavailable or the server is shutting down (store_unavailable, shutting_down)'].filter(Boolean).join('; ');
  for (const code of route.raises ?? []) {
    const [status, message] = ERRORS[code];
    if (!out[status]) out[status] = `${code}: ${message}`;
    else if (!namesCode(out[status], code)) out[status] += `; ${code}: ${message}`;
  }
  return out;
}

/** Whether a status's description names the code (a whole word: `orgs.unknown_role`, not `unknown_role`). */
export const namesCode = (description: string, code: string) =>
  new RegExp(`(^|[^\\w.])${code.replace(/\./g, '\\.')}($|[^\\w.])`).test(description);

/** The error codes an operation's statuses document: each named in the description of its own status. */
export function documentedCodes(statuses: Record<string, string>): Set<ErrorCode> {
  const out = new Set<ErrorCode>();
  for (const [code, [status]] of Object.entries(ERRORS) as [ErrorCode, readonly [number, string]][]) {
    const description = statuses[status];
    if (description && namesCode(description, code)) out.add(code);
  }
  return out;
}
