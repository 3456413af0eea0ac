// customer.subscription.updated: an upgrade applies at once; a downgrade or a cancellation waits
// for the end of the paid period (the period-end job applies it); the same plan withdraws what was
// pending; a price outside the price map syncs the status only. Each branch writes the account once,
// with the event recorded in that same write.
import type Stripe from 'stripe';
import { planRank, type Plan } from '../../core/plans.ts';
import { appliedOf, findOrg, periodEndOf, PERIOD_END_JOB, priceOf, WEBHOOK_ROUTE, type EventParts, type SubscriptionLike, type Target } from './event-shapes.ts';

export function createSubscriptionUpdate({ ctx, store, planOf, setPlan }: Pick<EventParts, 'ctx' | 'store' | 'planOf' | 'setPlan'>) {
  async function schedulePeriodEnd(orgId: string, at: Date): Promise<void> {
    await ctx.scheduler.at(at, PERIOD_END_JOB, { orgId });
  }

  async function applyUpdated(t: Target, sub: SubscriptionLike, event: Stripe.Event): Promise<void> {
    const account = await store.account(t.orgId);
    const org = await findOrg(ctx, t.orgId);
    if (!org) return;
    const plan = planOf(priceOf(sub));
    const periodEnd = periodEndOf(sub);
    const base = { subscriptionId: sub.id, status: sub.status ?? account?.status ?? null, currentPeriodEnd: periodEnd, cancelAtPeriodEnd: sub.cancel_at_period_end === true };
    // Each branch below writes the account once, with the event recorded in that same write.
    const applied = appliedOf(event);
    /** A change that waits for the end of the paid period (the period-end job applies it). */
    const pendUntilPeriodEnd = async (pendingPlan: Plan) => {
      const at = periodEnd ?? new Date();
      await store.update(t.orgId, { ...base, pendingPlan, pendingAt: at }, applied);
      await schedulePeriodEnd(t.orgId, at);
    };
    if (sub.cancel_at_period_end) {
      // Cancellation: the plan (or an upgrade in the same change) holds until the period ends, then Free.
      if (plan && planRank(plan) > planRank(org.plan)) await setPlan(t.orgId, plan, event.type, WEBHOOK_ROUTE, sub.id);
      await pendUntilPeriodEnd('free');
    } else if (!plan) {
      ctx.log.warn({ orgId: t.orgId, subscriptionId: sub.id, priceId: priceOf(sub) }, 'billing: subscription on a price outside the price map; status synced only');
      await store.update(t.orgId, base, applied);
    } else if (planRank(plan) > planRank(org.plan)) {
      // Upgrade: effective at once (the provider prorates the charge).
      await store.update(t.orgId, { ...base, pendingPlan: null, pendingAt: null }, applied);
      await setPlan(t.orgId, plan, event.type, WEBHOOK_ROUTE, sub.id);
    } else if (planRank(plan) < planRank(org.plan)) {
      // Downgrade: stored, applied at the end of the paid period by the job; the higher plan's limits hold until then.
      await pendUntilPeriodEnd(plan);
    } else {
      // Same plan: a pending downgrade or cancellation was withdrawn.
      await store.update(t.orgId, { ...base, pendingPlan: null, pendingAt: null }, applied);
    }
  }

  return applyUpdated;
}
