// Handlers of the workspace routes (manifests/workspaces.ts).
import { definePlugin } from '../../core/plugin.ts';
import { nextInSequence } from '../../core/redis.ts';
import manifest from '../../manifests/workspaces.ts';
import { createWorkspaceStore } from './store.ts';
import { createWorkspaceService } from './service.ts';

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createWorkspaceStore(ctx.db);
    const service = createWorkspaceService(store, (orgId, atLeast) => nextInSequence(ctx.redis.main, `workspace-order:${orgId}`, atLeast));
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      provides: service,
      handlers: {
        list: ({ org }) => service.list(org.id),
        create: ({ org, body }) => service.create(org.id, body),
        reorder: ({ org, body }) => service.reorder(org.id, body.order),
        get: ({ org, params }) => service.get(org.id, params.id),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        setDefault: ({ org, params }) => service.setDefault(org.id, params.id),
      },
    };
  },
});
