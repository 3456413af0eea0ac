// Handlers of the repository config routes (manifests/repo-configs.ts).
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createDriftStore } from '../drifts/store.ts';
import { createScanStore } from '../scans/store.ts';
import { createWorkspaceStore } from '../workspaces/store.ts';
import { createProjectStore } from '../projects/store.ts';
import { createRepoConfigStore } from './store.ts';
import { createRepoConfigService } from './service.ts';
import { repoScope } from './access.ts';
import type { CreateRepoConfig, UpdateRepoConfig } from './schemas.ts';

type Meter = (orgId: string) => Promise<number>;
const orgOf = (req: FastifyRequest) => req.org!.id;
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

export default definePlugin((ctx) => {
  const configs = createRepoConfigStore(ctx.db);
  const service = createRepoConfigService(ctx, {
    configs, scans: createScanStore(ctx.db), drifts: createDriftStore(ctx.db),
    workspaces: createWorkspaceStore(ctx.db), projects: createProjectStore(ctx.db),
  });
  (ctx.services.registerMeter as ((name: string, fn: Meter) => void) | undefined)?.('repositories', (orgId) => configs.count(orgId));
  ctx.onOrgDelete((orgId) => configs.removeOrg(orgId));
  ctx.services.repoConfigs = service;

  return {
    handlers: {
      list: (req) => service.list(orgOf(req), repoScope(req)),
      get: (req) => service.get(orgOf(req), idOf(req), repoScope(req)),
      editView: (req) => service.editView(orgOf(req), idOf(req), repoScope(req)),
      create: (req) => service.create(orgOf(req), req.body as CreateRepoConfig, repoScope(req)),
      update: (req) => service.update(orgOf(req), idOf(req), req.body as UpdateRepoConfig, repoScope(req)),
      remove: (req) => service.remove(orgOf(req), idOf(req), repoScope(req)),
      stats: (req) => service.stats(orgOf(req), idOf(req), repoScope(req)),
    },
  };
});
