// Handlers of the admin routes (manifests/admin.ts): platform admins only (the manifest's
// platformAdmin), every organization. Usage analytics are counted from the engine's request
// observer and saved to Redis every FLUSH_MS and at shutdown.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/admin.ts';
import { createUsageStore } from './store.ts';
import { createUsage, FLUSH_MS } from './usage.ts';
import { createAdminScheduler } from './scheduler.ts';
import { createAdminService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['auth', 'repo-configs', 'scans', 'drifts', 'runners'],
  build(ctx, deps) {
    const usage = createUsage(createUsageStore(ctx.redis.main), ctx.log);
    ctx.metrics.onRequest(usage.observe);
    const scheduler = createAdminScheduler(ctx, deps['repo-configs'], deps.scans);
    const service = createAdminService(ctx, {
      auth: deps.auth, configs: deps['repo-configs'], scans: deps.scans, drifts: deps.drifts, runners: deps.runners, usage,
    });
    let timer: NodeJS.Timeout | undefined;
    return {
      async start() {
        timer = setInterval(() => { void usage.flush(); }, FLUSH_MS);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await usage.flush();
      },
      handlers: {
        dashboard: () => service.dashboard(),
        users: ({ query }) => service.users(query),
        health: () => service.health(),
        schedulerStatus: () => scheduler.status(),
        schedulerRun: () => scheduler.runDue(),
        schedulerFix: () => scheduler.fix(),
        behavior: ({ query }) => usage.behavior(query.days),
        navigation: ({ query }) => usage.navigation(query.days),
      },
    };
  },
});
