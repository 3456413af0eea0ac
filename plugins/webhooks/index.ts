// Handlers of the webhook and chat routes (manifests/webhooks.ts), the outbox's subscription
// to every event of the spec's list, and the delivery job.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/webhooks.ts';
import { WEBHOOK_EVENTS } from '../../core/event-catalog.ts';
import { createWebhookStore } from './store.ts';
import { createOutbound } from './outbound.ts';
import { createOutbox, DELIVER_JOB, type Outbox } from './outbox.ts';
import { createWebhookService, type WebhookService } from './service.ts';
import { createRetention, PURGE_EVERY, PURGE_JOB, type Retention } from './retention.ts';

/** How often the job looks for due deliveries (an insert also starts a drain at once). */
const DELIVER_EVERY = '10 seconds';

export type WebhooksPlugin = WebhookService & Pick<Outbox, 'runDue' | 'enqueue' | 'idle'> & Pick<Retention, 'purge'>;
declare module '../../core/plugin.ts' {
  interface PluginServices { webhooks: WebhooksPlugin }
}

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createWebhookStore(ctx.db);
    const outbound = createOutbound(ctx.config);
    const outbox = createOutbox(ctx, store, outbound);
    const service = createWebhookService(ctx, store, outbound, outbox);
    const retention = createRetention(ctx, store);
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    ctx.metrics.gauge('webhook_outbox_pending', 'Webhook and chat deliveries waiting in the outbox (first attempts and retries), every organization', [],
      async () => [{ labels: {}, value: await store.pendingCount() }]);
    // The subscriber resolves once the deliveries are written (the bus awaits it).
    const subscribe = <K extends (typeof WEBHOOK_EVENTS)[number]>(event: K) => ctx.bus.on(event, async (e) => {
      if (await outbox.enqueue(event, e.orgId, e.data, e.at)) outbox.kick();
    });
    for (const event of WEBHOOK_EVENTS) subscribe(event);
    // Idempotent: each attempt is claimed by a unique key, so overlapping runs send nothing twice.
    ctx.scheduler.define(DELIVER_JOB, async () => { await outbox.runDue(new Date()); }, { concurrency: 1 });
    // Idempotent: a second run deletes nothing more.
    ctx.scheduler.define(PURGE_JOB, async () => {
      const purged = await retention.purge(new Date());
      if (purged.deliveries || purged.attempts) ctx.log.info(purged, 'webhook retention: old deliveries and attempt keys deleted');
    }, { concurrency: 1 });
    return {
      provides: { ...service, runDue: outbox.runDue, enqueue: outbox.enqueue, idle: outbox.idle, purge: retention.purge },
      async start() {
        if (ctx.config.WEBHOOK_WORKER) {
          await ctx.scheduler.every(DELIVER_EVERY, DELIVER_JOB, {});
          await ctx.scheduler.every(PURGE_EVERY, PURGE_JOB, {});
        }
      },
      async stop() {
        await outbox.idle();
        await outbound.close();
      },
      handlers: {
        list: ({ org }) => service.list(org.id),
        create: ({ org, body }) => service.create(org.id, body),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        test: ({ org, params }) => service.test(org.id, params.id),
        getChat: ({ org }) => service.getChat(org.id),
        putChat: ({ org, body }) => service.putChat(org.id, body),
        removeChat: ({ org }) => service.removeChat(org.id),
        testChat: ({ org }) => service.testChat(org.id),
      },
    };
  },
});
