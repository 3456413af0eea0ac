// Handlers of the notification routes (manifests/notifications.ts) and the bus subscriptions.
import { definePlugin } from '../../core/plugin.ts';
import { unauthorized } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import manifest from '../../manifests/notifications.ts';
import { createNotificationStore } from './store.ts';
import { createNotificationService, TEMPLATES } from './service.ts';

const userOf = (principal: Principal) => {
  const id = principal.userId;
  if (!id) throw unauthorized('This route needs a user');
  return id;
};

export default definePlugin({
  manifest,
  // The user directory: members who turned in-app notifications off get none.
  needs: ['auth'],
  build(ctx, { auth }) {
    const store = createNotificationStore(ctx.db);
    const service = createNotificationService(ctx, store, auth.userDirectory);
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      async start() {
        for (const type of Object.keys(TEMPLATES) as (keyof typeof TEMPLATES)[]) ctx.bus.on(type, (event) => service.fromEvent(event));
      },
      handlers: {
        list: ({ principal, query }) => service.list(userOf(principal), query),
        unreadCount: ({ principal }) => service.unreadCount(userOf(principal)),
        markAllRead: ({ principal }) => service.markAllRead(userOf(principal)),
        markRead: ({ principal, params }) => service.markRead(userOf(principal), params.id),
        remove: ({ principal, params }) => service.remove(userOf(principal), params.id),
      },
    };
  },
});
