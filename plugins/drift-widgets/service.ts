// Drift widgets: dashboard tiles whose metric is the number of drifts matching their
// filters, computed on create, on update and on refresh (one widget or all). Metrics are
// organization-wide: a widget belongs to the organization, not to one token's repositories
// (a token limited to some repositories is refused: manifest repositories 'unlimited').
import { newId } from '../../core/crypto.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import { MAX_WIDGETS, type Widget, type WidgetFilters, type WidgetStore, type WidgetTicket } from './store.ts';
import { filtersOf, type CreateWidget, type UpdateWidget } from './schemas.ts';
import { namedChanges, type Changes } from '../../core/db.ts';
import type { NextOrder } from '../../core/redis.ts';

export const widgetView = (w: Widget) => ({
  _id: w._id, title: w.title, type: w.type, filters: w.filters, order: w.order, metric: w.metric,
  lastRefreshed: w.lastRefreshed.toISOString(), createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString(),
});

export function createWidgetService(store: WidgetStore, drifts: Pick<DriftService, 'count'>, nextOrder: NextOrder) {
  const metric = (orgId: string, f: WidgetFilters) => drifts.count(orgId, {
    status: f.status, severity: f.severity, resourceType: f.resourceType, q: f.q,
    repositoryConfig: f.repositoryConfigId ? [f.repositoryConfigId] : undefined,
  });
  async function load(orgId: string, id: string) {
    const w = await store.get(orgId, id);
    if (!w) throw notFound('Widget');
    return w;
  }

  return {
    list: async (orgId: string) => (await store.list(orgId)).map(widgetView),
    get: async (orgId: string, id: string) => widgetView(await load(orgId, id)),
    async create(orgId: string, input: CreateWidget) {
      const existing = await store.list(orgId);
      if (existing.length >= MAX_WIDGETS) throw conflict(`An organization can have at most ${MAX_WIDGETS} widgets`);
      const now = new Date();
      const filters = filtersOf(input.filters ?? {});
      const w: Widget = {
        _id: newId(), orgId, title: input.title, type: input.type, filters, order: await nextOrder(orgId, existing.reduce((m, x) => Math.max(m, x.order), -1) + 1),
        metric: await metric(orgId, filters), lastRefreshed: now, createdAt: now, updatedAt: now,
      };
      await store.insert(w);
      return widgetView(w);
    },
    async update(orgId: string, id: string, input: UpdateWidget) {
      const w = await load(orgId, id);
      const now = new Date();
      const filters = input.filters && filtersOf(input.filters);
      const set: Changes<Widget> = namedChanges({ title: input.title, type: input.type, filters, updatedAt: now });
      if (filters) Object.assign(set, { metric: await metric(orgId, filters), lastRefreshed: now });
      await store.update(orgId, id, set);
      return widgetView({ ...w, ...set });
    },
    async remove(orgId: string, id: string) {
      if (!(await store.remove(orgId, id))) throw notFound('Widget');
      return { message: 'Widget deleted' };
    },
    async refresh(orgId: string, id: string) {
      const w = await load(orgId, id);
      const now = new Date();
      const set = { metric: await metric(orgId, w.filters), lastRefreshed: now };
      await store.update(orgId, id, set);
      return widgetView({ ...w, ...set });
    },
    async refreshAll(orgId: string) {
      const rows = await store.list(orgId);
      const now = new Date();
      const metrics = await Promise.all(rows.map((w) => metric(orgId, w.filters)));
      await store.setMany(orgId, rows.map((w, i) => ({ id: w._id, set: { metric: metrics[i], lastRefreshed: now } })));
      return rows.map((w, i) => widgetView({ ...w, metric: metrics[i], lastRefreshed: now }));
    },
    // --- for the tracker plugin (a ticket created from a widget)
    /** The widget as stored (filters, metric, ticket), or null when the organization has none with this id. */
    record: (orgId: string, id: string) => store.get(orgId, id),
    setTicket: (orgId: string, id: string, ticket: WidgetTicket) => store.update(orgId, id, { ticket }),
    async reorder(orgId: string, order: string[]) {
      const rows = await store.list(orgId);
      const known = new Set(rows.map((w) => w._id));
      const unknown = order.filter((id) => !known.has(id));
      if (unknown.length) throw badRequest('order names widgets that do not exist in this organization', { unknown });
      const ids = [...order, ...rows.filter((w) => !order.includes(w._id)).map((w) => w._id)];
      const now = new Date();
      await store.setMany(orgId, ids.map((id, i) => ({ id, set: { order: i, updatedAt: now } })));
      const byId = new Map(rows.map((w) => [w._id, w]));
      return ids.map((id, i) => widgetView({ ...byId.get(id)!, order: i, updatedAt: now }));
    },
  };
}
export type WidgetService = ReturnType<typeof createWidgetService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { 'drift-widgets': WidgetService }
}
