// Drift widgets (SPEC "Drift widgets", B). CLI scopes drifts:read / drifts:write as the
// spec lists them; org permissions widgets:read / widgets:write.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import { CreateWidget, Message, ReorderBody, UpdateWidget, WidgetList, WidgetView } from '../plugins/drift-widgets/schemas.ts';

// Widget metrics count the whole organization's drifts, so a CLI token limited to some
// repositories is refused (403 repository_denied) rather than shown counts it may not see.
const read = { auth: 'bearer', scope: 'drifts:read', permission: 'widgets:read', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'drifts:write', permission: 'widgets:write', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'drift-widgets',
  prefix: '/api/drift-widgets',
  reply: 'envelope',
  description: 'Dashboard widgets whose metric is the number of drifts matching their filters',
  routes: [
    { id: 'listWidgets', method: 'GET', url: '/', ...read, summary: 'In display order', response: { 200: WidgetList }, handler: 'list' },
    { id: 'refreshWidgets', method: 'POST', url: '/refresh', ...read, summary: 'Recomputes every widget\'s metric', response: { 200: WidgetList }, handler: 'refreshAll' },
    { id: 'reorderWidgets', method: 'POST', url: '/reorder', ...write, summary: 'Listed widgets first, in the given order', body: ReorderBody, response: { 200: WidgetList }, handler: 'reorder' },
    { id: 'getWidget', method: 'GET', url: '/:id', ...read, params: IdParams, response: { 200: WidgetView }, handler: 'get' },
    { id: 'createWidget', method: 'POST', url: '/', ...write, audit: 'widget.created', body: CreateWidget, response: { 201: WidgetView }, raises: ['conflict'], handler: 'create' },
    { id: 'updateWidget', method: 'PUT', url: '/:id', ...write, audit: 'widget.updated', params: IdParams, body: UpdateWidget, response: { 200: WidgetView }, handler: 'update' },
    { id: 'deleteWidget', method: 'DELETE', url: '/:id', ...write, audit: 'widget.deleted', params: IdParams, response: { 200: Message }, handler: 'remove' },
    { id: 'refreshWidget', method: 'POST', url: '/:id/refresh', ...read, params: IdParams, response: { 200: WidgetView }, handler: 'refresh' },
  ],
});
