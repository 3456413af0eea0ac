// In-app notifications: created from the domain events on the bus (scan completed or
// failed, drift detected or resolved), one per member of the organization; listed, counted,
// marked read and deleted by their user.
import { pageOf } from '../../core/schemas.ts';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { notFound } from '../../core/errors.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { DomainEventName } from '../../core/event-catalog.ts';
import type { UserDirectory } from '../auth/service.ts';
import type { Notification, NotificationStore } from './store.ts';

interface EventData {
  scanId?: string; repositoryName?: string; repositoryConfigId?: string; count?: number; driftCount?: number; newDrifts?: number; resolvedDrifts?: number; error?: string; resolvedBy?: string;
  watchId?: string; watchName?: string; newDriftCount?: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Event type -> notification type, title and message. */
export const TEMPLATES: Partial<Record<DomainEventName, (d: EventData) => { type: string; title: string; message: string }>> = {
  'scan.completed': (d) => ({
    type: 'scan_completed', title: `Scan completed: ${d.repositoryName}`,
    message: `${plural(d.driftCount ?? 0, 'drift')} found (${d.newDrifts ?? 0} new, ${d.resolvedDrifts ?? 0} resolved).`,
  }),
  'scan.failed': (d) => ({ type: 'scan_failed', title: `Scan failed: ${d.repositoryName}`, message: d.error ?? 'The scan failed.' }),
  'drift.detected': (d) => ({ type: 'drift_detected', title: `Drift detected in ${d.repositoryName}`, message: `${plural(d.count ?? 0, 'new drift')} detected.` }),
  'drift.resolved': (d) => ({
    type: 'drift_resolved', title: `Drift resolved in ${d.repositoryName}`,
    message: `${plural(d.count ?? 0, 'drift')} resolved${d.resolvedBy === 'user' ? ' by a team member' : ' (no longer found by a scan)'}.`,
  }),
  // Emitted by Drift Watch as its watch's notifyOn says, never while the watch is snoozed.
  'watch.drift_detected': (d) => ({
    type: 'drift_watch', title: d.newDriftCount ? `Drift Watch ${d.watchName}: new drift` : `Drift Watch ${d.watchName}: check completed`,
    message: `${plural(d.newDriftCount ?? 0, 'new drift')}; ${plural(d.driftCount ?? 0, 'drift')} open.`,
  }),
};

export const view = (n: Notification) => ({
  _id: n._id, orgId: n.orgId, type: n.type, title: n.title, message: n.message, read: n.read,
  createdAt: n.createdAt.toISOString(), metadata: n.metadata,
});

export function createNotificationService(ctx: AppContext, store: NotificationStore, directory: UserDirectory) {

  return {
    /** Bus subscriber: one notification per member (every role: they report on the whole organization); the events themselves are emitted once. */
    async fromEvent(event: DomainEvent) {
      const template = TEMPLATES[event.type];
      if (!template) return;
      const data = event.data as EventData;
      const { type, title, message } = template(data);
      const metadata = { scanId: data.scanId, repositoryName: data.repositoryName, repositoryConfigId: data.repositoryConfigId, count: data.count, ...(data.watchId ? { watchId: data.watchId } : {}) };
      const all = await ctx.tenancy.memberUserIds(event.orgId);
      // Members who turned in-app notifications off (preferences) get none.
      const muted = await directory.inAppMuted(all);
      const users = all.filter((u) => !muted.has(u));
      await store.insertMany(users.map((userId) => ({ _id: newId(), userId, orgId: event.orgId, type, title, message, read: false, createdAt: event.at, metadata })));
    },
    async list(userId: string, q: { page: number; limit: number; unreadOnly?: boolean }) {
      const { rows, total } = await store.page(userId, Boolean(q.unreadOnly), (q.page - 1) * q.limit, q.limit);
      return pageOf(rows.map(view), q, total);
    },
    unreadCount: async (userId: string) => ({ count: await store.unread(userId) }),
    markAllRead: async (userId: string) => ({ updated: await store.markAllRead(userId) }),
    async markRead(userId: string, id: string) {
      if (!(await store.markRead(userId, id))) throw notFound('Notification');
      return { message: 'Notification marked as read' };
    },
    async remove(userId: string, id: string) {
      if (!(await store.remove(userId, id))) throw notFound('Notification');
      return { message: 'Notification deleted' };
    },
  };
}
