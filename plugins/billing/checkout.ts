// A completed Checkout Session (the provider's event, or the browser's verify-session naming the
// same session, once for both): the subscription synced to the organization, its plan from the
// session's own metadata; the subscription's details when the provider answers.
import { periodEndOf, type EventParts, type SessionLike, type SubscriptionLike } from './event-shapes.ts';
import { idOf } from './provider.ts';

export function createCheckoutApplier({ ctx, store, provider, planOf, isCurrent, setPlan }: EventParts) {
  /** A completed Checkout Session: the subscription synced to the organization, its plan from the session's own metadata. */
  return async function applyCheckout(orgId: string, session: SessionLike, created: number, markId: string, cause: string, route: string): Promise<void> {
    const plan = planOf(session.metadata?.priceId);
    const subscriptionId = idOf(session.subscription);
    const customerId = idOf(session.customer);
    if (!plan || !subscriptionId) {
      ctx.log.warn({ orgId, sessionId: session.id, priceId: session.metadata?.priceId }, 'billing: checkout session without a known price or a subscription; ignored');
      return;
    }
    // The browser's verify-session and the provider's event name the same session: once for both.
    await ctx.once.runOnce(`billing-checkout:${session.id}`, orgId, async () => {
      if (customerId) await store.linkCustomer(orgId, customerId);
      if (!(await isCurrent(subscriptionId, created))) return;
      let status = 'active';
      let periodEnd: Date | null = null;
      // Details when the provider answers; the plan change never depends on it.
      if (provider.api) {
        try {
          const sub = (await provider.api.subscriptions.retrieve(subscriptionId)) as unknown as SubscriptionLike;
          status = sub.status ?? status;
          periodEnd = periodEndOf(sub);
        } catch (err) {
          ctx.log.warn({ orgId, subscriptionId, providerRequestId: (err as { requestId?: string }).requestId ?? null, err }, 'billing: subscription details not fetched; plan applied from the session');
        }
      }
      await store.update(orgId, { subscriptionId, status, pendingPlan: null, pendingAt: null, cancelAtPeriodEnd: false, currentPeriodEnd: periodEnd }, { id: markId, type: cause, created });
      await setPlan(orgId, plan, cause, route, subscriptionId);
      await store.markApplied(orgId, subscriptionId, created, markId);
    });
  };
}
