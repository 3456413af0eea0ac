// Handlers of the drift widget routes (manifests/drift-widgets.ts).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/drift-widgets.ts';
import { nextInSequence } from '../../core/redis.ts';
import { createWidgetStore } from './store.ts';
import { createWidgetService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['drifts'],
  build(ctx, deps) {
    const store = createWidgetStore(ctx.db);
    const service = createWidgetService(store, deps.drifts, (orgId, atLeast) => nextInSequence(ctx.redis.main, `widget-order:${orgId}`, atLeast));
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      provides: service,
      handlers: {
        list: ({ org }) => service.list(org.id),
        refreshAll: ({ org }) => service.refreshAll(org.id),
        reorder: ({ org, body }) => service.reorder(org.id, body.order),
        get: ({ org, params }) => service.get(org.id, params.id),
        create: ({ org, body }) => service.create(org.id, body),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        refresh: ({ org, params }) => service.refresh(org.id, params.id),
      },
    };
  },
});
