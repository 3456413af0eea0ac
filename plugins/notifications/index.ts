// Handlers of the notification routes (manifests/notifications.ts) and the bus subscriptions.
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createNotificationStore } from './store.ts';
import { createNotificationService, TEMPLATES } from './service.ts';

const userOf = (req: FastifyRequest) => req.principal!.userId!;
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export default definePlugin((ctx) => {
  const store = createNotificationStore(ctx.db);
  const service = createNotificationService(ctx, store);
  ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
  return {
    async start() {
      for (const type of Object.keys(TEMPLATES)) ctx.bus.on(type, (event) => service.fromEvent(event));
    },
    handlers: {
      list: (req) => service.list(userOf(req), req.query as { page: number; limit: number; unreadOnly?: boolean }),
      unreadCount: (req) => service.unreadCount(userOf(req)),
      markAllRead: (req) => service.markAllRead(userOf(req)),
      markRead: (req) => service.markRead(userOf(req), idOf(req)),
      remove: (req) => service.remove(userOf(req), idOf(req)),
    },
  };
});
