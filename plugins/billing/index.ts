// Handlers of the billing routes (manifests/billing.ts) and the period-end job.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/billing.ts';
import { createBillingStore } from './store.ts';
import { createBillingService } from './service.ts';
import { createProvider, priceMap } from './provider.ts';
import { PERIOD_END_JOB } from './events.ts';

// A safety sweep besides the job scheduled at each period end (a lost or late job still applies).
const SWEEP_EVERY = '15 minutes';

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createBillingStore(ctx.db);
    const service = createBillingService(ctx, store, createProvider(ctx.config), priceMap(ctx.config));
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    // Idempotent: it re-reads each organization under its lock, so a second run finds nothing due.
    ctx.scheduler.define(PERIOD_END_JOB, async () => {
      const applied = await service.applyDue(new Date());
      if (applied) ctx.log.info({ applied }, 'billing: plan changes due at period end applied');
    });
    return {
      provides: service,
      async start() {
        await ctx.scheduler.every(SWEEP_EVERY, PERIOD_END_JOB, {});
      },
      handlers: {
        checkout: ({ org, body }) => service.checkout(org.id, body.priceId),
        portal: ({ org }) => service.portal(org.id),
        verify: ({ org, body }) => service.verify(org.id, body.sessionId),
        subscription: ({ org }) => service.subscription(org.id),
        webhook: ({ req }) => service.receive(req.rawBody, req.headers['payment-signature']),
      },
    };
  },
});
