// Cloud Discovery: start a scan of a cloud account (one at a time per account), the scan job
// (engine discover.ts: list modes + the drift readers, regions × types fanned out with a limit,
// adaptive retries), the timeout job, classification against the repository configs' state
// inventories (scans service managedBy / managedIds), dashboard, costs, buckets, codify and
// validate. No HTTP here. The service composes one module per concern:
//   discovery-deps.ts   job names, the default account, what the modules are given
//   cloud-accounts.ts   the account a scan reads and its credentials
//   discovery-start.ts  POST /scan: checks, regions, the running scan and its jobs
//   discovery-run.ts    the scan job, the timeout job, shutdown
//   resources.ts        classification, one resource, ignore, codify and validate
//   reports.ts          dashboard, costs, buckets
import type { AppContext } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { accountResolver } from './cloud-accounts.ts';
import type { DiscoveryDeps } from './discovery-deps.ts';
import { createDiscoveryRun } from './discovery-run.ts';
import { createDiscoveryStart } from './discovery-start.ts';
import { createDiscoveryReports } from './reports.ts';
import { createDiscoveredResources } from './resources.ts';
import { scanView } from './schemas.ts';

export { DISCOVERY_JOB, DISCOVERY_TIMEOUT_JOB, ORG_ACCOUNT } from './discovery-deps.ts';

export function createDiscoveryService(ctx: AppContext, d: DiscoveryDeps) {
  const account = accountResolver(d);
  const resources = createDiscoveredResources(d);
  const running = new Map<string, AbortController>();

  async function loadScan(orgId: string, id: string) {
    const s = await d.store.getScan(orgId, id);
    if (!s) throw notFound('Discovery scan');
    return s;
  }

  return {
    ...resources,
    ...createDiscoveryRun(ctx, d, { account, classify: resources.classify, running }),
    start: createDiscoveryStart(ctx, d, account),
    async listScans(orgId: string, q: { page: number; limit: number; status?: 'running' | 'completed' | 'failed'; cloudAccountId?: string }) {
      const { rows, total } = await d.store.pageScans(orgId, { status: q.status, cloudAccountId: q.cloudAccountId }, (q.page - 1) * q.limit, q.limit);
      return { scans: rows.map(scanView), total, page: q.page, pages: Math.max(1, Math.ceil(total / q.limit)) };
    },
    getScan: async (orgId: string, id: string) => scanView(await loadScan(orgId, id)),
    ...createDiscoveryReports(d.store),
    removeOrg: (orgId: string) => d.store.removeOrg(orgId),
  };
}
export type DiscoveryService = ReturnType<typeof createDiscoveryService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { discovery: DiscoveryService }
}
