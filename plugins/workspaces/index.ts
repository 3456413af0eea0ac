// Handlers of the workspace routes (manifests/workspaces.ts).
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/context.ts';
import { nextInSequence } from '../../core/redis.ts';
import { createRepoConfigStore } from '../repo-configs/store.ts';
import { createWorkspaceStore } from './store.ts';
import { createWorkspaceService } from './service.ts';
import type { CreateWorkspace } from './schemas.ts';

const orgOf = (req: FastifyRequest) => req.org!.id;
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export default definePlugin((ctx) => {
  const store = createWorkspaceStore(ctx.db);
  const service = createWorkspaceService(store, createRepoConfigStore(ctx.db), (orgId, atLeast) => nextInSequence(ctx.redis.main, `workspace-order:${orgId}`, atLeast));
  ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
  return {
    handlers: {
      list: (req) => service.list(orgOf(req)),
      create: (req) => service.create(orgOf(req), req.body as CreateWorkspace),
      reorder: (req) => service.reorder(orgOf(req), (req.body as { order: string[] }).order),
      get: (req) => service.get(orgOf(req), idOf(req)),
      update: (req) => service.update(orgOf(req), idOf(req), req.body as Partial<CreateWorkspace>),
      remove: (req) => service.remove(orgOf(req), idOf(req)),
      setDefault: (req) => service.setDefault(orgOf(req), idOf(req)),
    },
  };
});
