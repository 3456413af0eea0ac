// Handlers of the project routes (manifests/projects.ts).
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createRepoConfigStore, type Provider } from '../repo-configs/store.ts';
import { createProjectStore } from './store.ts';
import { createProjectService } from './service.ts';

const orgOf = (req: FastifyRequest) => req.org!.id;
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export default definePlugin((ctx) => {
  const store = createProjectStore(ctx.db);
  const service = createProjectService(ctx, store, createRepoConfigStore(ctx.db));
  ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
  ctx.services.projectCredentials = { get: service.values };
  return {
    handlers: {
      list: (req) => service.list(orgOf(req)),
      create: (req) => service.create(orgOf(req), req.body as { name: string; provider: Provider }),
      get: (req) => service.get(orgOf(req), idOf(req)),
      update: (req) => service.update(orgOf(req), idOf(req), req.body as { name?: string }),
      remove: (req) => service.remove(orgOf(req), idOf(req)),
      setCredentials: (req) => service.setCredentials(orgOf(req), idOf(req), req.body as Record<string, unknown>),
      setDefault: (req) => service.setDefault(orgOf(req), idOf(req)),
    },
  };
});
