// Tickets created from drift widgets (SPEC "Tracker integration"): one issue per widget, whose
// description lists the widget's filters and the drifts it counts; and whether it still exists.
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import type { QueryQuery } from '../drifts/schemas.ts';
import type { WidgetService } from '../drift-widgets/service.ts';
import type { TrackerClient } from './client.ts';

export function createTickets(ctx: AppContext, client: TrackerClient, deps: { drifts: Pick<DriftService, 'query'>; widgets: Pick<WidgetService, 'record' | 'setTicket'> }) {
  const { configured, connection, jira, ok } = client;
  const cfg = ctx.config;

  async function widget(orgId: string, id: string) {
    configured();
    const w = await deps.widgets.record(orgId, id);
    if (!w) throw notFound('Widget');
    return w;
  }

  /** The issue's description in the Atlassian Document Format: the widget's filters and the drifts it counts. */
  function description(w: { title: string; filters: object; metric: number }, drifts: { resourceAddress: string; severity: string; status: string; repositoryName: string }[], total: number) {
    const text = (t: string) => ({ type: 'text', text: t });
    const filters = Object.entries(w.filters).filter(([, v]) => v !== undefined && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
    return {
      type: 'doc', version: 1,
      content: [
        { type: 'paragraph', content: [text(`Created from the Drift widget "${w.title}": ${total} drifts match its filters.`)] },
        { type: 'paragraph', content: [text(`Filters: ${filters.length ? filters.join('; ') : 'none (every drift)'}`)] },
        ...(drifts.length ? [{
          type: 'bulletList',
          content: drifts.map((d) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [text(`[${d.severity}] ${d.resourceAddress} (${d.repositoryName}, ${d.status})`)] }] })),
        }] : []),
        ...(total > drifts.length ? [{ type: 'paragraph', content: [text(`… and ${total - drifts.length} more.`)] }] : []),
        { type: 'paragraph', content: [text(`${cfg.FRONTEND_URL}/drifts`)] },
      ],
    };
  }

  return {
    async createTicket(orgId: string, widgetId: string) {
      const w = await widget(orgId, widgetId);
      if (w.ticket) return { key: w.ticket.key, url: w.ticket.url, created: false };
      const c = await connection(orgId);
      if (!c.defaultProject || !c.defaultIssueType) throw badRequest('Set defaultProject and defaultIssueType in the tracker config first');
      // One ticket per widget, also when two calls race: the winner creates, the other answers the winner's.
      const claim = await ctx.once.runOnce(`tracker-ticket:${widgetId}`, orgId, async () => {
        const f = w.filters;
        const query: QueryQuery = {
          page: 1, limit: 20, status: f.status?.join(','), severity: f.severity?.join(','), resourceType: f.resourceType, q: f.q, repositoryConfigId: f.repositoryConfigId,
        };
        const found = await deps.drifts.query(orgId, query, undefined);
        const summary = `Drift: ${w.title} (${found.pagination.total} drifts)`.slice(0, 250);
        const res = await jira(orgId, 'POST', '/issue', {
          fields: { project: { key: c.defaultProject }, issuetype: { name: c.defaultIssueType }, summary, description: description(w, found.data, found.pagination.total) },
        });
        const issue = ok(res, 'the issue creation') as { id: string; key: string };
        const ticket = { id: String(issue.id), key: issue.key, url: `${c.siteUrl.replace(/\/+$/, '')}/browse/${issue.key}`, createdAt: new Date() };
        await deps.widgets.setTicket(orgId, widgetId, ticket);
        return ticket;
      });
      if (claim.won) return { key: claim.value.key, url: claim.value.url, created: true };
      const again = await widget(orgId, widgetId);
      if (!again.ticket) throw new AppError('conflict', { message: 'A ticket for this widget is being created; try again shortly' });
      return { key: again.ticket.key, url: again.ticket.url, created: false };
    },
    async verifyTicket(orgId: string, widgetId: string) {
      const w = await widget(orgId, widgetId);
      if (!w.ticket) return { exists: false, key: null, url: null, status: null };
      const res = await jira(orgId, 'GET', `/issue/${encodeURIComponent(w.ticket.key)}?fields=status,summary`);
      if (res.status === 404) return { exists: false, key: w.ticket.key, url: w.ticket.url, status: null };
      const issue = ok(res, 'the issue request');
      return { exists: true, key: w.ticket.key, url: w.ticket.url, status: String(issue.fields?.status?.name ?? '') };
    },
  };
}
