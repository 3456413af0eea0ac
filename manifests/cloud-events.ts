// Cloud change events (issue #24; not in the spec, docs/cloud-events.md): `ce_` tokens (B JWT,
// owner or admin through integrations:write, Pro and above), ingestion of AWS CloudTrail
// records with a `ce_` token only (auth 'cloud-events', its own rate limit), the stored events
// (drifts:read), and the noise rules learned from them, under /api/drifts/noise-rules since
// they are about drifts (this plugin holds them: they are learned from the events).
import { Type } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  Batch, CreatedToken, CreateToken, EventPage, EventQuery, Ingested, NoiseRuleParams, NoiseRuleView, PatchNoiseRule, TokenIdParams, TokenView,
} from '../plugins/cloud-events/schemas.ts';

const admin = { auth: 'user', permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;
const read = { auth: 'bearer', scope: 'drifts:read', permission: 'drifts:read', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'drifts:write', permission: 'drifts:write', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'cloud-events',
  prefix: '/api',
  reply: 'envelope',
  plan: 'pro',
  description: 'AWS CloudTrail change events: who changed a drifted resource, targeted re-checks of the resources they touch, learned noise',
  routes: [
    { id: 'createCloudEventToken', method: 'POST', url: '/cloud-events/tokens', ...admin, audit: 'cloud_events.token_created',
      summary: 'A ce_ token for POST /api/cloud-events, shown once (stored hashed)', body: CreateToken, response: { 201: CreatedToken }, handler: 'createToken' },
    { id: 'listCloudEventTokens', method: 'GET', url: '/cloud-events/tokens', ...admin, summary: 'Tokens of the organization, prefix only, newest first',
      response: { 200: Type.Array(TokenView) }, handler: 'listTokens' },
    { id: 'deleteCloudEventToken', method: 'DELETE', url: '/cloud-events/tokens/:id', ...admin, audit: 'cloud_events.token_revoked',
      summary: 'Revoked at once in every process', params: TokenIdParams, response: { 204: null }, handler: 'revokeToken' },
    { id: 'ingestCloudEvents', method: 'POST', url: '/cloud-events', auth: 'cloud-events', orgContext: true, rateLimit: 'cloud-events', audit: false, reply: 'named', bodyLimit: 5 * 1024 * 1024,
      summary: 'CloudTrail records (bare or as EventBridge delivers them), one or an array of up to 100 (413 beyond); 400 names a bad record and nothing of the batch is stored',
      body: Batch, response: { 200: Ingested }, handler: 'ingest' },
    { id: 'listCloudEvents', method: 'GET', url: '/cloud-events', ...read, reply: 'named',
      summary: 'Stored write events, newest eventTime first; filters resourceId, actor (substring of the identity ARN), eventName, from, to',
      query: EventQuery, response: { 200: EventPage }, handler: 'list' },
    { id: 'listNoiseRules', method: 'GET', url: '/drifts/noise-rules', ...read,
      summary: 'Attributes learned as noise per resource type (changed with no write event, back and forth, 3 times by default)',
      response: { 200: Type.Array(NoiseRuleView) }, handler: 'noiseRules' },
    { id: 'updateNoiseRule', method: 'PATCH', url: '/drifts/noise-rules/:id', ...write, audit: 'drift.noise_rule_changed',
      summary: '{enabled:false} reverses a rule: its drifts show again at the next scan', params: NoiseRuleParams, body: PatchNoiseRule, response: { 200: NoiseRuleView }, handler: 'setNoiseRule' },
  ],
});
