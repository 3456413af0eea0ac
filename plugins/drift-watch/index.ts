// Handlers of the Drift Watch routes (manifests/drift-watch.ts), its jobs (the due scan of the
// watches' runs, the end of a snooze) and its bus subscriptions (the end of a run's scan).
import { definePlugin } from '../../core/plugin.ts';
import { sweepEveryPoll } from '../../core/due-scan.ts';
import manifest from '../../manifests/drift-watch.ts';
import { createWatchStore } from './store.ts';
import { createWatchService, RUN_JOB, SNOOZE_JOB } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['repo-configs', 'drifts', 'scans'],
  build(ctx, deps) {
    const store = createWatchStore(ctx.db);
    const configs = deps['repo-configs'];
    const service = createWatchService(ctx, { store, drifts: deps.drifts, scans: deps.scans, configs });
    // A deleted repository config takes its watches with it.
    configs.onRemove((orgId, configId) => service.removeOfRepository(orgId, configId));
    ctx.onOrgDelete((orgId) => service.removeOrg(orgId));
    return {
      provides: service,
      async start() {
        // Watches fall due by the thousand in one minute: no Agenda job per watch (each lock read
        // every job record on the embedded database, and was not atomic) but a sweep of the due
        // minutes in every process (core/due-scan.ts: the minutes since its last sweep by equality,
        // a range catch-up at start and every CATCH_UP_MS). The first sweep moves watches of the old kind over.
        sweepEveryPoll(ctx.scheduler, ctx.log, 'drift-watch.due', { migrate: () => service.migrate(), sweep: (now) => service.sweepDue(now) });
        // A job of the old kind locked before the move still runs its occurrence, claimed as the due scan claims it.
        ctx.scheduler.define<{ orgId: string; watchId: string }>(RUN_JOB, async (data, _job, dueAt) => {
          await service.tick(data.orgId, data.watchId, dueAt);
        }, { concurrency: 20, lockLimit: 20 });
        ctx.scheduler.define<{ orgId: string; watchId: string }>(SNOOZE_JOB, async (data) => {
          await service.expireSnooze(data.orgId, data.watchId);
        });
        ctx.bus.on('scan.completed', (event) => service.onScanEvent(event));
        ctx.bus.on('scan.failed', (event) => service.onScanEvent(event));
      },
      handlers: {
        list: ({ org, query }) => service.list(org.id, query),
        create: ({ org, body, principal }) => service.create(org.id, principal.userId ?? null, body),
        bulkUpdate: ({ org, body }) => service.bulkUpdate(org.id, body),
        events: ({ org, query }) => service.events(org.id, query),
        summary: ({ org }) => service.summary(org.id),
        analytics: ({ org, query }) => service.analytics(org.id, query.period),
        listTemplates: ({ org }) => service.listTemplates(org.id),
        createTemplate: ({ org, body }) => service.createTemplate(org.id, body),
        removeTemplate: ({ org, params }) => service.removeTemplate(org.id, params.id),
        runTemplate: ({ org, params, body, principal }) => service.runTemplate(org.id, principal.userId ?? null, params.id, body),
        get: ({ org, params }) => service.get(org.id, params.id),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        accept: ({ org, params, principal }) => service.accept(org.id, params.id, principal.userId ?? 'unknown'),
        snooze: ({ org, params, body }) => service.snooze(org.id, params.id, body),
        unsnooze: ({ org, params }) => service.unsnooze(org.id, params.id),
      },
    };
  },
});
