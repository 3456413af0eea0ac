// Handlers of the drift routes (manifests/drifts.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createRepoConfigStore } from '../repo-configs/store.ts';
import { repoScope } from '../repo-configs/access.ts';
import { createScanStore } from '../scans/store.ts';
import { createDriftStore } from './store.ts';
import { createDriftService, toFilter, type FilterQuery } from './service.ts';
import { streamCsv } from './export.ts';

const orgOf = (req: FastifyRequest) => req.org!.id;
const params = (req: FastifyRequest) => req.params as { driftId: string; scanId: string; repositoryConfigId: string };
type PagedQuery = FilterQuery & { page: number; limit: number };

export default definePlugin((ctx) => {
  const drifts = createDriftStore(ctx.db);
  const service = createDriftService(ctx, { drifts, scans: createScanStore(ctx.db), configs: createRepoConfigStore(ctx.db) });
  ctx.onOrgDelete((orgId) => drifts.removeOrg(orgId));
  ctx.services.drifts = service;

  return {
    handlers: {
      list: (req) => service.list(orgOf(req), req.query as PagedQuery, repoScope(req)),
      query: (req) => service.query(orgOf(req), req.query as PagedQuery, repoScope(req)),
      aggregations: (req) => service.aggregations(orgOf(req), req.query as FilterQuery, repoScope(req)),
      exportCsv: (req: FastifyRequest, reply: FastifyReply) => {
        const q = req.query as FilterQuery;
        return streamCsv(req, reply, drifts, orgOf(req), toFilter(q, repoScope(req)), q.sort);
      },
      suggestions: (req) => service.suggestions(orgOf(req), repoScope(req)),
      autocomplete: (req) => service.autocomplete(orgOf(req), req.query as { field: string; prefix?: string; limit?: number }, repoScope(req)),
      byScan: (req) => service.byScan(orgOf(req), params(req).scanId, repoScope(req)),
      byRepository: (req) => service.byRepository(orgOf(req), params(req).repositoryConfigId, req.query as { page: number; limit: number }, repoScope(req)),
      statistics: (req) => service.statistics(orgOf(req), params(req).repositoryConfigId, repoScope(req)),
      rules: () => service.rules(),
      get: (req) => service.get(orgOf(req), params(req).driftId, repoScope(req)),
      setStatus: (req) => service.setStatus(orgOf(req), params(req).driftId, (req.body as { status: 'acknowledged' | 'resolved' | 'ignored' }).status, repoScope(req)),
      feedback: (req) => service.feedback(orgOf(req), params(req).driftId, req.body as { rating: number; comment?: string }, req.principal?.userId, repoScope(req)),
    },
  };
});
