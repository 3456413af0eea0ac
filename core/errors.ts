// One table of error codes: status and default message. Handlers and guards throw
// AppError with a code from here; the error handler turns it into the DESIGN.md shape
// {success:false, error:{code, message, details?}}.
export const ERRORS = {
  validation_failed: [400, 'Request validation failed'],
  bad_request: [400, 'Bad request'],
  unauthorized: [401, 'Authentication required'],
  invalid_token: [401, 'Invalid or expired token'],
  invalid_signature: [401, 'Invalid request signature'],
  invalid_credentials: [401, 'Invalid email or password'],
  forbidden: [403, 'Forbidden'],
  scope_denied: [403, 'Token lacks the required scope'],
  permission_denied: [403, 'Your role does not allow this action'],
  plan_required: [403, 'Your plan does not include this feature'],
  token_kind_denied: [403, 'This route does not accept this kind of token'],
  repository_denied: [403, 'Token is not allowed to access this repository'],
  plan_limit: [403, 'Your plan limit is reached'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'This path does not take this method'],
  conflict: [409, 'Conflict'],
  credentials_unreadable: [409, 'Stored credentials cannot be decrypted; save them again'],
  payload_too_large: [413, 'Request body is too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  rate_limited: [429, 'Too many requests'],
  internal: [500, 'Internal server error'],
  store_unavailable: [503, 'A required store is unavailable'],
  shutting_down: [503, 'The server is shutting down; retry shortly'],
  uri_too_long: [414, 'A path parameter is longer than the 100 characters accepted'],
  headers_too_large: [431, 'The request headers are larger than the server accepts'],
  request_timeout: [408, 'The request took too long to arrive'],
  // Password sign-in refused for an email domain an organization signs in through SAML (docs/sso-scim.md).
  'auth.sso_required': [403, 'Your organization requires single sign-on for this email domain; sign in through SSO'],
  // SSO domain verification (docs/sso-scim.md#verified-domains).
  'sso.domain_taken': [409, 'This domain is verified by another organization'],
  'sso.domain_record_missing': [409, 'The DNS TXT record was not found; publish it and verify again'],
  'sso.domain_unverified': [400, 'enforcedDomains may name only domains this organization has verified'],
  'sso.dns_unavailable': [503, 'The DNS lookup failed; retry shortly'],
  'sso.link_taken': [409, 'This identity of the identity provider is already linked to another account'],
  // Organization rules (docs/orgs.md lists them with their statuses).
  'orgs.already_member': [409, 'This user is already a member of the organization'],
  'orgs.owner_cannot_be_removed': [409, 'The organization owner cannot be removed; transfer ownership first'],
  'orgs.owner_must_transfer': [409, 'The owner must transfer ownership before leaving the organization'],
  'orgs.owner_role_fixed': [409, "The owner's role changes only by transferring ownership"],
  'orgs.same_organization': [400, 'targetOrgId is this organization'],
  'orgs.transfer_to_self': [400, 'You already own this organization'],
  'orgs.role_escalation': [403, 'It involves permissions your role does not hold'],
  'orgs.unknown_role': [400, 'Unknown role'],
  'orgs.invalid_role_name': [400, 'Invalid role name'],
  'orgs.role_name_taken': [409, 'A role with this name already exists in this organization'],
  'orgs.invitation_pending': [409, 'A pending invitation for this email already exists'],
  'orgs.invitation_not_pending': [409, 'This invitation can no longer be revoked'],
  'orgs.invitation_not_found': [404, 'Invitation not found'],
  'orgs.invitation_revoked': [410, 'This invitation has been revoked'],
  'orgs.invitation_expired': [410, 'This invitation has expired'],
  'orgs.invitation_used': [409, 'This invitation has already been used'],
  'orgs.invitation_email_mismatch': [403, 'This invitation was sent to another email address'],
  // Billing (SPEC Errors; docs/billing.md). The provider's failures are the only 500s the API
  // answers on purpose, with the spec's message per route.
  'billing.invalid_price': [400, 'Invalid price ID'],
  'billing.session_required': [400, 'Session ID is required'],
  'billing.invalid_session': [400, 'Invalid session'],
  'billing.session_not_completed': [400, 'Session not completed'],
  'billing.invalid_signature': [400, 'Invalid signature'],
  'billing.not_configured': [503, 'Billing is not configured'],
  'billing.provider_failed': [500, 'The payment provider failed'],
  // Guardrails (docs/guardrails.md): a plan evaluation stopped at its time limit, or refused for capacity.
  'guardrails.evaluation_timeout': [422, 'The plan could not be evaluated within the time limit'],
  'guardrails.evaluation_busy': [503, 'Plan evaluations are at capacity; retry shortly'],
  // Integrations (docs/integrations.md).
  'tracker.not_configured': [503, 'Tracker integration is not configured'],
  'tracker.not_connected': [409, 'The issue tracker is not connected'],
  'tracker.provider_failed': [502, 'The issue tracker answered with an error'],
  // OAuth flows bound to the browser and session that started them (core/browser-binding.ts).
  'oauth.browser_mismatch': [403, 'This authorization was started in another browser; start it again from this one'],
  'oauth.user_mismatch': [403, 'This authorization was started by another user'],
  'oauth.session_ended': [403, 'The session that started this authorization has ended; sign in and start it again'],
  // Source host and AI fixes (docs/scm.md, docs/drift-fixes.md).
  'scm.not_configured': [503, 'Source host sign-in is not configured'],
  'scm.app_not_configured': [503, 'Source host app is not configured'],
  'scm.provider_failed': [502, 'The source host answered with an error'],
  ai_provider_error: [502, 'The AI provider failed'],
} as const satisfies Record<string, readonly [number, string]>;

/** The only codes an AppError takes: a new kind of failure is a new row above. */
export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, opts: { message?: string; details?: unknown; headers?: Record<string, string> } = {}) {
    const [status, message] = ERRORS[code];
    super(opts.message ?? message);
    this.code = code;
    this.statusCode = status;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

/** Shorthands for the common cases, so call sites read as sentences. */
export const notFound = (what = 'Resource') => new AppError('not_found', { message: `${what} not found` });
export const badRequest = (message: string, details?: unknown) => new AppError('bad_request', { message, details });
export const conflict = (message: string, details?: unknown) => new AppError('conflict', { message, details });
export const forbidden = (message = 'Forbidden') => new AppError('forbidden', { message });
export const unauthorized = (message?: string, code: 'unauthorized' | 'invalid_token' = 'unauthorized') =>
  new AppError(code, { message });
