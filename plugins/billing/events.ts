// The payment provider's events and their effects (SPEC "States and transitions", Subscription/
// plan). Three rules hold whatever the order or number of deliveries:
//  - each event applies once: its id is an exactly-once key (ctx.once, a unique insert), and
//    the account records it (appliedEvents) in the same write as its effect, where a second
//    application would show as a second entry;
//  - one organization's billing state changes under its lock (Redis SET NX), so the read of
//    the newest applied `created` and the write after it cannot interleave with another
//    delivery (the embedded database does not make an update atomic with its filter);
//  - an event older (by `created`) than the newest applied to the same subscription changes nothing.
// Plan changes go through core/tenancy/plan-change.ts, as ops set-plan's do.
import type Stripe from 'stripe';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { acquireLock } from '../../core/redis.ts';
import { planRank, type Plan } from '../../core/plans.ts';
import { changePlan } from '../../core/tenancy/plan-change.ts';
import type { BillingStore } from './store.ts';
import { idOf, type Provider } from './provider.ts';

export const PERIOD_END_JOB = 'billing.period-end';
export const HANDLED_EVENTS = ['checkout.session.completed', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.payment_failed'] as const;
const WEBHOOK_ROUTE = '/api/billing/webhook';
const LOCK_TTL_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

type Ref = string | { id: string } | null | undefined;
type Meta = Record<string, string> | null | undefined;
/** The fields read from the event objects, across API versions (invoice.subscription moved to parent). */
export interface SessionLike { id: string; created: number; metadata?: Meta; client_reference_id?: string | null; customer?: Ref; subscription?: Ref; mode?: string; status?: string | null }
interface SubscriptionLike {
  id: string; customer?: Ref; status?: string; metadata?: Meta; cancel_at_period_end?: boolean; current_period_end?: number;
  items?: { data?: { price?: { id?: string }; current_period_end?: number }[] };
}
interface InvoiceLike {
  customer?: Ref; subscription?: Ref; subscription_details?: { metadata?: Meta };
  parent?: { subscription_details?: { subscription?: Ref; metadata?: Meta } | null } | null;
}
interface Target { orgId: string; subscriptionId: string | null; customerId: string | null }

const toDate = (s: number | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null);
/** Where the period end and price sit on a subscription (newer API versions keep them on the item). */
const periodEndOf = (sub: SubscriptionLike) => toDate(sub.current_period_end ?? sub.items?.data?.[0]?.current_period_end);
const priceOf = (sub: SubscriptionLike) => sub.items?.data?.[0]?.price?.id;
/** The record of an applied event, written with its effect (store.update). */
const appliedOf = (event: Stripe.Event) => ({ id: event.id, type: event.type, created: event.created });

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

  async function schedulePeriodEnd(orgId: string, at: Date): Promise<void> {
    await ctx.scheduler.at(at, PERIOD_END_JOB, { orgId });
  }

  /** A completed Checkout Session: the subscription synced to the organization, its plan from the session's own metadata. */
  async function applyCheckout(orgId: string, session: SessionLike, created: number, markId: string, cause: string, route: string): Promise<void> {
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
  }

  async function applyUpdated(t: Target, sub: SubscriptionLike, event: Stripe.Event): Promise<void> {
    const account = await store.account(t.orgId);
    const org = await ctx.tenancy.findOrg(t.orgId);
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

  /** The organization an event concerns: metadata.orgId (set at checkout), else the stored customer. */
  async function locate(event: Stripe.Event): Promise<Target | null> {
    const obj = event.data.object as unknown;
    let meta: Meta; let customerId: string | null; let subscriptionId: string | null; let reference: string | null = null;
    if (event.type === 'checkout.session.completed') {
      const s = obj as SessionLike;
      meta = s.metadata; customerId = idOf(s.customer); subscriptionId = idOf(s.subscription); reference = s.client_reference_id ?? null;
    } else if (event.type === 'invoice.payment_failed') {
      const i = obj as InvoiceLike;
      meta = i.parent?.subscription_details?.metadata ?? i.subscription_details?.metadata;
      customerId = idOf(i.customer); subscriptionId = idOf(i.subscription) ?? idOf(i.parent?.subscription_details?.subscription);
    } else {
      const s = obj as SubscriptionLike;
      meta = s.metadata; customerId = idOf(s.customer); subscriptionId = s.id;
    }
    const candidate = meta?.orgId ?? reference ?? (customerId ? await store.orgOfCustomer(customerId) : null);
    if (typeof candidate !== 'string' || !/^[a-f0-9]{24}$/.test(candidate)) return null;
    if (!(await ctx.tenancy.findOrg(candidate))) return null;
    return { orgId: candidate, subscriptionId, customerId };
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
