// Handlers of the scan routes (manifests/scans.ts), the scan jobs, and the result-recording
// service other plugins use (ctx.services.scanResults).
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { createDriftStore } from '../drifts/store.ts';
import { createRepoConfigStore } from '../repo-configs/store.ts';
import { SCHEDULED_SCAN_JOB } from '../repo-configs/service.ts';
import { repoScope } from '../repo-configs/access.ts';
import { createScanStore } from './store.ts';
import { createScanService, TIMEOUT_JOB } from './service.ts';
import type { ScanResults } from './record.ts';
import { isoDay } from '../drifts/trend.ts';
import type { ScanStatus } from './store.ts';

type Meter = (orgId: string) => Promise<number>;
const orgOf = (req: FastifyRequest) => req.org!.id;
const params = (req: FastifyRequest) => req.params as { scanId: string; repositoryConfigId: string };

export default definePlugin((ctx) => {
  const scans = createScanStore(ctx.db);
  const service = createScanService(ctx, { scans, drifts: createDriftStore(ctx.db), configs: createRepoConfigStore(ctx.db), timeoutMinutes: ctx.config.SCAN_TIMEOUT_MINUTES });
  const results: ScanResults = { recordScanResult: service.recordScanResult };
  ctx.services.scanResults = results;
  ctx.services.scans = service;
  (ctx.services.registerMeter as ((name: string, fn: Meter) => void) | undefined)?.('scansToday', (orgId) => scans.countDay(orgId, isoDay(new Date())));
  ctx.onOrgDelete((orgId) => scans.removeOrg(orgId));

  return {
    async start() {
      ctx.scheduler.define<{ orgId: string; repoConfigId: string }>(SCHEDULED_SCAN_JOB, async (data, job) => {
        await service.runScheduled(data.orgId, data.repoConfigId, job.attrs.lastRunAt ?? new Date());
      });
      ctx.scheduler.define<{ orgId: string; scanId: string }>(TIMEOUT_JOB, async (data) => {
        await service.expire(data.orgId, data.scanId);
      });
    },
    handlers: {
      list: (req) => service.list(orgOf(req), req.query as { page: number; limit: number; status?: ScanStatus }, repoScope(req)),
      dashboard: (req) => service.dashboard(orgOf(req), repoScope(req)),
      async trigger(req) {
        const scan = await service.trigger(orgOf(req), params(req).repositoryConfigId, repoScope(req), req.principal?.userId ?? null);
        req.auditDetails = { scanId: scan._id, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName };
        return scan;
      },
      byRepository: (req) => service.byRepository(orgOf(req), params(req).repositoryConfigId, req.query as { page: number; limit: number }, repoScope(req)),
      latest: (req) => service.latest(orgOf(req), params(req).repositoryConfigId, repoScope(req)),
      get: (req) => service.get(orgOf(req), params(req).scanId, repoScope(req)),
      details: (req) => service.details(orgOf(req), params(req).scanId, repoScope(req)),
      cancel: (req) => service.cancel(orgOf(req), params(req).scanId, repoScope(req)),
      remove: (req) => service.remove(orgOf(req), params(req).scanId, repoScope(req)),
    },
  };
});
