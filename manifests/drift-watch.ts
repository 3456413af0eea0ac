// Drift Watch (SPEC "Drift Watch", B, Pro+): watches that scan a repository config at an
// interval, snooze, the accepted baseline, the event log, analytics and templates. Named
// top-level keys. Org permissions drift-watch:read / drift-watch:write; the spec's CLI scopes
// have none for Drift Watch, so a CLI token needs drifts:read / drifts:write, and only one for
// every repository may call (a watch reports on its repository's drifts; its events and
// analytics on the organization's).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import {
  AcceptResult, Analytics, AnalyticsQuery, BulkResult, BulkUpdate, CreateTemplate, CreateWatch, EventList, EventQuery,
  RunTemplate, SnoozeBody, Summary, TemplateList, TemplateView, UpdateWatch, WatchList, WatchQuery, WatchView,
} from '../plugins/drift-watch/schemas.ts';

const read = { auth: 'bearer', scope: 'drifts:read', permission: 'drift-watch:read', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'drifts:write', permission: 'drift-watch:write', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
/** Facts the handler returns beside its answer (never sent): the audit entry's details. */
const facts = (action: string) => ({ action, details: (r: { audit?: Record<string, unknown> }) => r?.audit });
const target = (action: string) => ({ action, details: (r: { _id?: string; name?: string; audit?: Record<string, unknown> }) => (r?._id ? { target: { type: 'drift_watch', id: r._id, name: r.name }, ...r.audit } : undefined) });

export default defineManifest({
  plugin: 'drift-watch',
  prefix: '/api/drift-watch',
  reply: 'named',
  plan: 'pro',
  description: 'Continuous drift monitoring of a repository config at an interval, with snooze, an accepted baseline, events and analytics',
  routes: [
    { id: 'listWatches', method: 'GET', url: '/', ...read, summary: 'Newest first; filters status and repositoryId',
      query: WatchQuery, response: { 200: WatchList }, handler: 'list' },
    { id: 'createWatch', method: 'POST', url: '/', ...write, audit: target('drift_watch.created'),
      summary: 'Starts active; repositoryId must be a repository config of the organization (404 otherwise)',
      body: CreateWatch, response: { 201: WatchView }, raises: ['conflict'], handler: 'create' },
    { id: 'bulkUpdateWatches', method: 'PATCH', url: '/bulk-update', ...write, audit: { action: 'drift_watch.bulk_updated', details: (r: { updated?: number }, b: { ids?: string[] }) => ({ ids: b?.ids, updated: r?.updated }) },
      summary: "Applies the create fields in updates to the caller's organization's watches among ids; answers how many",
      body: BulkUpdate, response: { 200: BulkResult }, raises: ['conflict'], handler: 'bulkUpdate' },
    { id: 'listWatchEvents', method: 'GET', url: '/events', ...read, summary: 'drift_detected, drift_resolved and check_passed events, newest first',
      query: EventQuery, response: { 200: EventList }, handler: 'events' },
    { id: 'watchEventSummary', method: 'GET', url: '/events/summary', ...read, summary: 'Event counts per type, and active and snoozed watches',
      response: { 200: Summary }, handler: 'summary' },
    { id: 'watchAnalytics', method: 'GET', url: '/analytics', ...read, summary: 'Per UTC day detections and resolutions, mean time to resolve, most drifting resources and watches',
      query: AnalyticsQuery, response: { 200: Analytics }, handler: 'analytics' },
    { id: 'listWatchTemplates', method: 'GET', url: '/templates', ...read, response: { 200: TemplateList }, handler: 'listTemplates' },
    { id: 'createWatchTemplate', method: 'POST', url: '/templates', ...write, audit: target('drift_watch.template_created'),
      summary: 'Watch settings (workspace, interval, notifyOn, filters) to start watches from',
      body: CreateTemplate, response: { 201: TemplateView }, handler: 'createTemplate' },
    { id: 'deleteWatchTemplate', method: 'DELETE', url: '/templates/:id', ...write, audit: 'drift_watch.template_deleted',
      params: IdParams, response: { 204: null }, handler: 'removeTemplate' },
    { id: 'runWatchTemplate', method: 'POST', url: '/templates/:id/run', ...write, audit: target('drift_watch.created'),
      summary: "A new watch from the template's config with overrides applied, validated as a create body (400 otherwise)",
      params: IdParams, body: RunTemplate, response: { 201: WatchView }, handler: 'runTemplate' },
    { id: 'getWatch', method: 'GET', url: '/:id', ...read, params: IdParams, response: { 200: WatchView }, handler: 'get' },
    { id: 'updateWatch', method: 'PATCH', url: '/:id', ...write, audit: { action: 'drift_watch.updated', details: (r: { _id?: string; status?: string }, b: Record<string, unknown>) => (r?._id ? { fields: Object.keys(b ?? {}), status: r.status } : undefined) },
      summary: 'Only the fields given change; status paused stops the runs, active resumes them',
      params: IdParams, body: UpdateWatch, response: { 200: WatchView }, raises: ['conflict'], handler: 'update' },
    { id: 'deleteWatch', method: 'DELETE', url: '/:id', ...write, audit: 'drift_watch.removed', params: IdParams, response: { 204: null }, raises: ['conflict'], handler: 'remove' },
    { id: 'acceptWatchBaseline', method: 'POST', url: '/:id/accept', ...write, audit: facts('drift_watch.baseline_accepted'),
      summary: "The drifts open on the watch's repository become the accepted baseline; reported again only when their diff changes",
      params: IdParams, response: { 200: AcceptResult }, raises: ['conflict'], handler: 'accept' },
    { id: 'snoozeWatch', method: 'POST', url: '/:id/snooze', ...write, audit: 'drift_watch.snoozed',
      summary: 'Runs and events go on; no notification or watch.drift_detected until snoozedUntil or unsnooze',
      params: IdParams, body: SnoozeBody, response: { 200: WatchView }, raises: ['conflict'], handler: 'snooze' },
    { id: 'unsnoozeWatch', method: 'POST', url: '/:id/unsnooze', ...write, audit: 'drift_watch.unsnoozed',
      summary: '409 when the watch is not snoozed', params: IdParams, response: { 200: WatchView }, raises: ['conflict'], handler: 'unsnooze' },
  ],
});
