// The payment provider's events and their effects (SPEC "States and transitions", Subscription/
// plan). Three rules hold whatever the order or number of deliveries:
//  - each event applies once: its id is an exactly-once key (ctx.once, a unique insert), and
//    the account records it (appliedEvents) in the same write as its effect, where a second
//    application would show as a second entry;
//  - one organization's billing state changes under its lock (Redis SET NX), so the read of
//    the newest applied `created` and the write after it cannot interleave with another
//    delivery (the embedded database does not make an update atomic with its filter);
//  - an event older (by `created`) than the newest applied to the same subscription changes nothing.
// Plan changes go through core/tenancy/plan-change.ts, as ops set-plan's do. This file holds the
// lock, the order rule and the dispatch; checkout.ts, subscription-update.ts and event-locate.ts
// hold what each event does and whom it concerns; event-shapes.ts the event objects' fields.
import type Stripe from 'stripe';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { acquireLock } from '../../core/redis.ts';
import type { Plan } from '../../core/plans.ts';
import { changePlan } from '../../core/tenancy/plan-change.ts';
import { createCheckoutApplier } from './checkout.ts';
import { createEventLocator } from './event-locate.ts';
import { appliedOf, HANDLED_EVENTS, PERIOD_END_JOB, WEBHOOK_ROUTE, type SessionLike, type SubscriptionLike, type Target } from './event-shapes.ts';
import type { Provider } from './provider.ts';
import type { BillingStore } from './store.ts';
import { createSubscriptionUpdate } from './subscription-update.ts';

export { HANDLED_EVENTS, PERIOD_END_JOB, type SessionLike } from './event-shapes.ts';

const LOCK_TTL_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

export function createEventApplier(ctx: AppContext, store: BillingStore, provider: Provider, prices: Map<string, Plan>) {
  const redis = ctx.redis.main;
  const planOf = (priceId: string | undefined | null) => (priceId ? prices.get(priceId) ?? null : null);

  async function withOrgLock<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    const release = await acquireLock(redis, `billing-lock:${orgId}`, {
      ttlMs: LOCK_TTL_MS, waitMs: LOCK_WAIT_MS,
      busy: () => new AppError('store_unavailable', { message: 'Billing state is busy; try again shortly' }),
      down: () => new AppError('store_unavailable', { message: 'Billing state is unavailable; try again shortly' }),
    });
    try {
      return await work();
    } finally {
      await release();
    }
  }

  /** False when a newer event of this subscription was applied already. */
  async function isCurrent(subscriptionId: string | null, created: number): Promise<boolean> {
    if (!subscriptionId) return true;
    const last = await store.lastCreated(subscriptionId);
    return last === null || created >= last;
  }

  const setPlan = (orgId: string, to: Plan, cause: string, route: string, resourceId: string | null) =>
    changePlan(ctx, orgId, to, { cause, route, resourceId });
  const applyCheckout = createCheckoutApplier({ ctx, store, provider, planOf, isCurrent, setPlan });
  const applyUpdated = createSubscriptionUpdate({ ctx, store, planOf, setPlan });
  const locate = createEventLocator(ctx, store);

  async function apply(event: Stripe.Event, t: Target): Promise<void> {
    const obj = event.data.object as unknown;
    if (event.type === 'checkout.session.completed') {
      const session = obj as SessionLike;
      if (session.mode && session.mode !== 'subscription') return;
      return applyCheckout(t.orgId, session, event.created, event.id, event.type, WEBHOOK_ROUTE);
    }
    if (!(await isCurrent(t.subscriptionId, event.created))) {
      ctx.log.info({ eventId: event.id, type: event.type, subscriptionId: t.subscriptionId }, 'billing: event older than the state applied; ignored');
      return;
    }
    const account = await store.account(t.orgId);
    // An event of a subscription the organization no longer has (replaced by a newer checkout) changes nothing.
    const foreign = Boolean(account?.subscriptionId && t.subscriptionId && account.subscriptionId !== t.subscriptionId);
    if (event.type === 'customer.subscription.updated') {
      await applyUpdated(t, obj as SubscriptionLike, event);
    } else if (event.type === 'customer.subscription.deleted') {
      if (foreign) return;
      await store.update(t.orgId, { status: 'canceled', pendingPlan: null, pendingAt: null, cancelAtPeriodEnd: false }, appliedOf(event));
      await setPlan(t.orgId, 'free', event.type, WEBHOOK_ROUTE, t.subscriptionId);
    } else if (event.type === 'invoice.payment_failed') {
      if (foreign) return;
      await store.update(t.orgId, { status: 'past_due', ...(t.subscriptionId ? { subscriptionId: t.subscriptionId } : {}) }, appliedOf(event));
    }
    if (t.subscriptionId) await store.markApplied(t.orgId, t.subscriptionId, event.created, event.id);
  }

  return {
    withOrgLock,
    /** Applies a verified event once; events of other types and of unknown organizations are acknowledged and ignored. */
    async handle(event: Stripe.Event): Promise<'applied' | 'duplicate' | 'ignored'> {
      if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return 'ignored';
      const target = await locate(event);
      if (!target) {
        ctx.log.warn({ eventId: event.id, type: event.type }, 'billing: event names no known organization; ignored');
        return 'ignored';
      }
      const res = await ctx.once.runOnce(`billing-event:${event.id}`, target.orgId, () => withOrgLock(target.orgId, () => apply(event, target)));
      return res.won ? 'applied' : 'duplicate';
    },
    /** verify-session: the same sync as checkout.session.completed, once per session whichever comes first. */
    applyVerifiedSession: (orgId: string, session: SessionLike) =>
      withOrgLock(orgId, () => applyCheckout(orgId, session, session.created, `verify:${session.id}`, 'verify-session', '/api/billing/verify-session')),
    /** The period-end job: applies every pending downgrade or cancellation due at `now`. Safe to run twice. */
    async applyDue(now: Date): Promise<number> {
      let applied = 0;
      for (const orgId of await store.dueBefore(now)) {
        await withOrgLock(orgId, async () => {
          const acc = await store.account(orgId);
          if (!acc?.pendingPlan || !acc.pendingAt || acc.pendingAt > now) return;
          const cancelled = acc.cancelAtPeriodEnd === true;
          const res = await setPlan(orgId, acc.pendingPlan, cancelled ? 'period_end.cancellation' : 'period_end.downgrade', `job ${PERIOD_END_JOB}`, acc.subscriptionId ?? null);
          await store.update(orgId, { pendingPlan: null, pendingAt: null, ...(cancelled ? { status: 'canceled', cancelAtPeriodEnd: false } : {}) });
          if (res?.changed) applied++;
        });
      }
      return applied;
    },
  };
}
export type EventApplier = ReturnType<typeof createEventApplier>;
