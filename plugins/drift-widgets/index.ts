// Handlers of the drift widget routes (manifests/drift-widgets.ts).
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createDriftStore } from '../drifts/store.ts';
import { repoScope, repositoryDenied } from '../repo-configs/access.ts';
import { createWidgetStore } from './store.ts';
import { createWidgetService } from './service.ts';
import { nextInSequence } from '../../core/redis.ts';
import type { CreateWidget, UpdateWidget } from './schemas.ts';

/**
 * Widget metrics count the whole organization's drifts, so a CLI token limited to some
 * repositories is refused (403 repository_denied) rather than shown counts it may not see.
 */
const orgOf = (req: FastifyRequest) => {
  if (repoScope(req)) throw repositoryDenied();
  return req.org!.id;
};
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export default definePlugin((ctx) => {
  const store = createWidgetStore(ctx.db);
  const service = createWidgetService(store, createDriftStore(ctx.db), (orgId, atLeast) => nextInSequence(ctx.redis.main, `widget-order:${orgId}`, atLeast));
  ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
  return {
    handlers: {
      list: (req) => service.list(orgOf(req)),
      refreshAll: (req) => service.refreshAll(orgOf(req)),
      reorder: (req) => service.reorder(orgOf(req), (req.body as { order: string[] }).order),
      get: (req) => service.get(orgOf(req), idOf(req)),
      create: (req) => service.create(orgOf(req), req.body as CreateWidget),
      update: (req) => service.update(orgOf(req), idOf(req), req.body as UpdateWidget),
      remove: (req) => service.remove(orgOf(req), idOf(req)),
      refresh: (req) => service.refresh(orgOf(req), idOf(req)),
    },
  };
});
