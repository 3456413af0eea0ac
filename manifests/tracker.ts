// The issue tracker (SPEC "Tracker integration", /api/tracker, B except the OAuth callback,
// whose proof is the browser binding of core/browser-binding.ts;
// Jira Cloud REST v3 through Atlassian's OAuth 2.0 three-legged flow; docs/integrations.md).
// Without TRACKER_CLIENT_ID every route answers 503 `Tracker integration is not configured`,
// except GET /config (connected:false) and DELETE /disconnect.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  CallbackQuery, ConfigBody, ConfigView, InitiateView, IssueType, Message, Priority, Project, ProjectParams,
  TestView, TicketView, VerifyTicketView, WidgetParams,
} from '../plugins/tracker/schemas.ts';
import { Type } from 'typebox';

const read = { auth: 'bearer', orgContext: true, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', orgContext: true, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'tracker',
  prefix: '/api/tracker',
  reply: 'envelope',
  errors: { 502: 'The tracker failed or is unreachable (tracker.provider_failed)', 503: 'Tracker integration is not configured (tracker.not_configured)' },
  description: 'Issue tracker (Jira Cloud) connection through OAuth 2.0, and tickets created from drift widgets',
  routes: [
    { id: 'trackerOauthInitiate', method: 'GET', url: '/oauth/initiate', ...write,
      summary: 'The authorization URL; its state is bound to the caller, the organization and the browser (a binding cookie, HttpOnly, SameSite=Lax, Path = the callback, 10 minutes: call this from the browser that will complete it, with credentials), single use', response: { 200: InitiateView }, handler: 'initiate' },
    { id: 'trackerOauthCallback', method: 'GET', url: '/oauth/callback', auth: 'none', audit: false, resumes: { permission: 'integrations:write' },
      summary: 'The authorization server sends the browser back here: the state is spent; the browser must carry the binding cookie of the initiate call (else 403 oauth.browser_mismatch), the session that started must be live (403 oauth.session_ended) and a session sent along must be that user (403 oauth.user_mismatch), who still holds integrations:write; then the code is exchanged, the site found, the tokens stored encrypted',
      query: CallbackQuery, response: { 200: ConfigView }, raises: ['not_found', 'oauth.browser_mismatch', 'oauth.session_ended', 'oauth.user_mismatch'], handler: 'callback' },
    { id: 'getTrackerConfig', method: 'GET', url: '/config', ...read, summary: 'Whether connected, the site and the ticket defaults', response: { 200: ConfigView }, handler: 'getConfig' },
    { id: 'setTrackerConfig', method: 'POST', url: '/config', ...write, audit: 'tracker.config_updated',
      summary: 'Sets defaultProject and defaultIssueType (null clears one)', body: ConfigBody, response: { 200: ConfigView }, handler: 'setConfig' },
    { id: 'testTrackerConnection', method: 'POST', url: '/test-connection', ...write, audit: 'tracker.connection_tested',
      summary: "Calls the site as the connected account; 409 when not connected, 502 when the tracker refuses", response: { 200: TestView }, raises: ['tracker.not_connected'], handler: 'testConnection' },
    { id: 'listTrackerProjects', method: 'GET', url: '/projects', ...read, summary: 'Projects of the connected site', response: { 200: Type.Array(Project) }, raises: ['tracker.not_connected'], handler: 'projects' },
    { id: 'listTrackerIssueTypes', method: 'GET', url: '/projects/:projectKey/issue-types', ...read,
      summary: 'Issue types a project can create', params: ProjectParams, response: { 200: Type.Array(IssueType) }, raises: ['tracker.not_connected'], handler: 'issueTypes' },
    { id: 'listTrackerPriorities', method: 'GET', url: '/priorities', ...read, summary: 'Priorities of the site', response: { 200: Type.Array(Priority) }, raises: ['tracker.not_connected'], handler: 'priorities' },
    { id: 'createWidgetTicket', method: 'POST', url: '/widgets/:widgetId/create-ticket', ...write, audit: 'tracker.ticket_created',
      summary: "Creates an issue from the widget's filters and the drifts it counts; a second call answers the existing ticket", params: WidgetParams, response: { 200: TicketView }, raises: ['conflict', 'tracker.not_connected'], handler: 'createTicket' },
    { id: 'verifyWidgetTicket', method: 'GET', url: '/widgets/:widgetId/verify-ticket', ...read,
      summary: "Whether the widget's ticket still exists, and its status", params: WidgetParams, response: { 200: VerifyTicketView }, raises: ['tracker.not_connected'], handler: 'verifyTicket' },
    { id: 'disconnectTracker', method: 'DELETE', url: '/disconnect', ...write, audit: 'tracker.disconnected',
      summary: 'Deletes the stored tokens and site', response: { 200: Message }, handler: 'disconnect' },
  ],
});
