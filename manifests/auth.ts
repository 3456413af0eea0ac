// Authentication and profile (SPEC "Authentication and profile", base /api/auth), except
// the source-host routes (/scm*, /scm-app/*), which come with the source-host integration.
import { Type } from 'typebox';
import { defineManifest, type AuditActor } from '../core/manifest.ts';
import { Id, Nullable, Timestamp } from '../core/schemas.ts';
import {
  CliTokenView, CreateCliToken, CreatedCliToken, ForgotBody, LoginBody, Me, Ok, Preferences, RefreshBody, RegisterBody,
  ResetBody, SessionTokens, ShortToken, TokenBody, TokenIdParams,
} from '../plugins/auth/schemas.ts';

const Limits = Type.Object({ repositories: Nullable(Type.Integer()), scansPerDay: Nullable(Type.Integer()), cloudAccounts: Nullable(Type.Integer()) });
/** One plan limit (core/plans.ts) with its usage; null: unlimited on this plan. */
const LimitUsage = Type.Object({
  limit: Type.Union([Type.Literal('repositories'), Type.Literal('scansPerDay'), Type.Literal('cloudAccounts')]),
  allowed: Nullable(Type.Integer()),
  used: Type.Integer(),
  remaining: Nullable(Type.Integer()),
});
const Quota = Type.Object({
  plan: Type.String(),
  limits: Limits,
  usage: Type.Object({ repositories: Type.Integer(), scansToday: Type.Integer(), cloudAccounts: Type.Integer() }),
  remaining: Type.Object({ repositories: Nullable(Type.Integer()), scansToday: Nullable(Type.Integer()), cloudAccounts: Nullable(Type.Integer()) }),
  /** Every limit of the plan table, in its order, the same facts as above under the limit's own name. */
  items: Type.Array(LimitUsage),
});
/** Who signed up or in: the handler puts it beside the session answer (SessionTokens does not send it). */
const signedIn = (result: { actor?: AuditActor }) => result.actor;
const DeletionStatus = Type.Object({ status: Type.String(), requestedAt: Nullable(Timestamp), scheduledFor: Nullable(Timestamp), cancelledAt: Nullable(Timestamp) });

export default defineManifest({
  plugin: 'auth',
  prefix: '/api/auth',
  reply: 'named',
  required: true,
  description: 'Accounts, sessions, CLI tokens and profile',
  routes: [
    { id: 'register', method: 'POST', url: '/register', auth: 'none', rateLimit: 'auth', audit: { action: 'auth.signup', actor: signedIn },
      body: RegisterBody, response: { 201: SessionTokens }, raises: ['conflict'], handler: 'register' },
    { id: 'login', method: 'POST', url: '/login', auth: 'none', rateLimit: 'auth',
      audit: { action: 'auth.login', failure: 'auth.login_failed', actor: signedIn, details: () => ({ authMethod: 'password' }) },
      body: LoginBody, response: { 200: SessionTokens }, raises: ['auth.sso_required', 'invalid_credentials'], handler: 'login' },
    { id: 'forgotPassword', method: 'POST', url: '/forgot-password', auth: 'none', rateLimit: 'auth',
      body: ForgotBody, response: { 200: Ok }, handler: 'forgotPassword' },
    { id: 'resetPassword', method: 'POST', url: '/reset-password', auth: 'none', rateLimit: 'auth', audit: 'auth.password_reset',
      body: ResetBody, response: { 200: Ok }, handler: 'resetPassword' },
    { id: 'refreshToken', method: 'POST', url: '/refresh', auth: 'none', body: RefreshBody, response: { 200: SessionTokens }, raises: ['invalid_token'], handler: 'refresh' },
    { id: 'getMe', method: 'GET', url: '/me', auth: 'bearer', cliAllowed: true, response: { 200: Me }, raises: ['not_found'], handler: 'me' },
    { id: 'completeOnboarding', method: 'POST', url: '/complete-onboarding', auth: 'user',
      response: { 200: Type.Object({ onboardingCompleted: Type.Boolean() }) }, raises: ['not_found'], handler: 'completeOnboarding' },
    { id: 'completeTour', method: 'POST', url: '/complete-tour', auth: 'user',
      response: { 200: Type.Object({ tourCompleted: Type.Boolean() }) }, raises: ['not_found'], handler: 'completeTour' },
    { id: 'logout', method: 'POST', url: '/logout', auth: 'user', audit: 'auth.logout', response: { 200: Ok }, handler: 'logout' },
    { id: 'getQuota', method: 'GET', url: '/quota', auth: 'bearer', cliAllowed: true, orgContext: true, response: { 200: Quota }, handler: 'quota' },
    { id: 'getPreferences', method: 'GET', url: '/preferences', auth: 'user', response: { 200: Preferences }, handler: 'getPreferences' },
    { id: 'updatePreferences', method: 'PUT', url: '/preferences', auth: 'user', body: Preferences, response: { 200: Preferences }, raises: ['not_found'], handler: 'setPreferences' },
    { id: 'uploadAvatar', method: 'POST', url: '/avatar', auth: 'user', consumes: ['multipart/form-data'],
      response: { 200: Type.Object({ avatar: Type.String(), contentType: Type.String(), size: Type.Integer() }) }, handler: 'uploadAvatar' },
    { id: 'getAvatar', method: 'GET', url: '/avatars/:userId', auth: 'none', reply: 'raw', params: Type.Object({ userId: Id }),
      summary: 'Avatar image of a user (the URL in `avatar`)', produces: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'], response: { 200: null }, handler: 'getAvatar' },
    { id: 'createDownloadToken', method: 'POST', url: '/download-token', auth: 'user', response: { 200: ShortToken }, handler: 'downloadToken' },
    { id: 'createServiceToken', method: 'POST', url: '/service-token', auth: 'service-key', response: { 200: ShortToken }, handler: 'serviceToken' },
    { id: 'getDeletionStatus', method: 'GET', url: '/deletion-status', auth: 'user', response: { 200: DeletionStatus }, handler: 'deletionStatus' },
    { id: 'requestDeletion', method: 'POST', url: '/request-deletion', auth: 'user', audit: 'auth.deletion_requested',
      response: { 200: DeletionStatus }, raises: ['conflict'], handler: 'requestDeletion' },
    { id: 'cancelDeletion', method: 'POST', url: '/cancel-deletion', auth: 'none', rateLimit: 'auth', audit: 'auth.deletion_cancelled',
      body: TokenBody, response: { 200: Ok }, raises: ['conflict'], handler: 'cancelDeletion' },
    { id: 'listCliTokens', method: 'GET', url: '/cli-tokens', auth: 'user', response: { 200: Type.Object({ tokens: Type.Array(CliTokenView) }) }, handler: 'listCliTokens' },
    { id: 'createCliToken', method: 'POST', url: '/cli-tokens', auth: 'user', orgContext: true, audit: 'auth.cli_token_created',
      body: CreateCliToken, response: { 201: CreatedCliToken }, handler: 'createCliToken' },
    { id: 'revokeCliToken', method: 'DELETE', url: '/cli-tokens/:tokenId', auth: 'user', audit: 'auth.cli_token_revoked',
      params: TokenIdParams, response: { 200: Ok }, handler: 'revokeCliToken' },
  ],
});
