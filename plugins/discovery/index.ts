// Handlers of the Cloud Discovery routes (manifests/discovery.ts), the scan and timeout jobs,
// and the reclassification after each drift scan (the configs' inventories changed).
import { readFileSync } from 'node:fs';
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/discovery.ts';
import { createDiscoveryStore } from './store.ts';
import { createDiscoveryService, DISCOVERY_JOB, DISCOVERY_TIMEOUT_JOB } from './service.ts';

/** Region × type tasks of one scan in flight at once. */
const CONCURRENCY = 8;

export default definePlugin({
  manifest,
  needs: ['scans'],
  uses: ['credentials', 'projects'],
  build(ctx, deps) {
    const store = createDiscoveryStore(ctx.db);
    const service = createDiscoveryService(ctx, {
      store, scans: deps.scans, credentials: deps.credentials, projects: deps.projects,
      endpoint: ctx.config.DRIFT_CLOUD_A_ENDPOINT,
      restEndpoints: { cloud_b: ctx.config.DRIFT_CLOUD_B_ENDPOINT, cloud_c: ctx.config.DRIFT_CLOUD_C_ENDPOINT },
      ...(ctx.config.DRIFT_CLOUD_CA_FILE ? { ca: readFileSync(ctx.config.DRIFT_CLOUD_CA_FILE, 'utf8') } : {}),
      timeoutMinutes: ctx.config.SCAN_TIMEOUT_MINUTES, concurrency: CONCURRENCY,
    });
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    // A drift scan replaced a config's inventory: managed and orphan may have changed.
    // A failure here must not fail the drift scan's recording: the next discovery scan classifies again.
    ctx.bus.on('scan.completed', (e) => service.classify(e.orgId).catch((err: Error) => ctx.log.warn({ orgId: e.orgId, err: err.message }, 'discovery: reclassification failed')));
    return {
      provides: service,
      async start() {
        ctx.scheduler.define<{ orgId: string; scanId: string }>(DISCOVERY_JOB, async (data) => { await service.run(data.orgId, data.scanId); });
        ctx.scheduler.define<{ orgId: string; scanId: string }>(DISCOVERY_TIMEOUT_JOB, async (data) => { await service.expire(data.orgId, data.scanId); });
      },
      async stop() { await service.stop(); },
      handlers: {
        start: ({ org, principal, body }) => service.start(org.id, principal.userId ?? null, body),
        listScans: ({ org, query }) => service.listScans(org.id, query),
        getScan: ({ org, params }) => service.getScan(org.id, params.id),
        getResource: ({ org, params }) => service.getResource(org.id, params.id),
        setStatus: ({ org, params, body }) => service.setStatus(org.id, params.id, body.iacStatus),
        generateIac: ({ org, params }) => service.generateIac(org.id, params.id),
        validate: ({ org, params }) => service.validate(org.id, params.id),
        dashboard: ({ org, query }) => service.dashboard(org.id, query.accountId),
        costs: ({ org, query }) => service.costs(org.id, query),
        buckets: ({ org }) => service.buckets(org.id),
      },
    };
  },
});
