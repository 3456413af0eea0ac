// Billing's domain rules (SPEC "Billing", Errors): checkout, portal and verification through the
// payment provider, and its events (events.ts). No HTTP here: handlers pass the raw body and the
// signature header of the webhook in.
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import type { Plan } from '../../core/plans.ts';
import { changePlan, type PlanChange } from '../../core/tenancy/plan-change.ts';
import type { BillingStore } from './store.ts';
import { createEventApplier, type SessionLike } from './events.ts';
import { isMissing, notConfigured, providerFailure, type Provider } from './provider.ts';
import type { SubscriptionView } from './schemas.ts';

// A Checkout Session id as Stripe issues them. Anything else is refused before it reaches the
// client, which puts the id into the request path unencoded.
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

export interface BillingService {
  checkout(orgId: string, priceId: string): Promise<{ url: string }>;
  portal(orgId: string): Promise<{ url: string }>;
  verify(orgId: string, sessionId: string | undefined): Promise<{ success: boolean; plan: Plan }>;
  subscription(orgId: string): Promise<SubscriptionView>;
  /** Verifies the signature and applies the event once; throws billing.invalid_signature. */
  receive(rawBody: string | undefined, signature: string | string[] | undefined): Promise<{ received: true }>;
  /** Applies the downgrades and cancellations due at `now` (the period-end job; tests pass a later clock). */
  applyDue(now: Date): Promise<number>;
  /** The one plan-change path (core/tenancy/plan-change.ts), for other callers of the service. */
  changePlan(orgId: string, to: Plan, change: PlanChange): ReturnType<typeof changePlan>;
}

declare module '../../core/plugin.ts' {
  interface PluginServices { billing: BillingService }
}

export function createBillingService(ctx: AppContext, store: BillingStore, provider: Provider, prices: Map<string, Plan>): BillingService {
  const events = createEventApplier(ctx, store, provider, prices);
  const api = () => {
    if (!provider.api) throw notConfigured();
    return provider.api;
  };
  const frontend = ctx.config.FRONTEND_URL.replace(/\/$/, '');

  /** One customer per organization, reused across sessions (an idempotency key makes concurrent first calls one customer). */
  async function customerOf(orgId: string): Promise<string> {
    const known = (await store.account(orgId))?.customerId;
    if (known) return known;
    const org = await ctx.tenancy.org(orgId);
    const customer = await api().customers.create({ name: org?.name, metadata: { orgId } }, { idempotencyKey: `drift-org-customer-${orgId}` });
    await store.linkCustomer(orgId, customer.id);
    return (await store.account(orgId))?.customerId ?? customer.id;
  }

  return {
    async checkout(orgId, priceId) {
      // The price map first: an unknown price is the caller's error even when billing is off.
      if (!prices.has(priceId)) throw new AppError('billing.invalid_price');
      const stripe = api();
      const message = 'Failed to create checkout session';
      try {
        const customer = await customerOf(orgId);
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription', customer, client_reference_id: orgId,
          metadata: { orgId, priceId }, subscription_data: { metadata: { orgId } },
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: `${frontend}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${frontend}/billing`,
        });
        if (!session.url) throw Object.assign(new Error('the session has no url'), { requestId: session.lastResponse?.requestId });
        return { url: session.url };
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw providerFailure(ctx.log, message, err, { orgId, priceId });
      }
    },

    async portal(orgId) {
      const stripe = api();
      const message = 'Failed to create portal session';
      try {
        // An organization that never checked out gets its customer now (the one its checkouts
        // will reuse), so "no customer on file" never reaches the caller as a 500; the portal
        // then shows no subscription.
        const customer = await customerOf(orgId);
        const session = await stripe.billingPortal.sessions.create({ customer, return_url: `${frontend}/billing` });
        return { url: session.url };
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw providerFailure(ctx.log, message, err, { orgId });
      }
    },

    async verify(orgId, sessionId) {
      if (!sessionId?.trim()) throw new AppError('billing.session_required');
      const stripe = api();
      if (!SESSION_ID.test(sessionId)) throw new AppError('billing.invalid_session');
      let session: SessionLike;
      try {
        session = (await stripe.checkout.sessions.retrieve(sessionId)) as unknown as SessionLike;
      } catch (err) {
        if (isMissing(err)) throw new AppError('billing.invalid_session');
        throw providerFailure(ctx.log, 'Failed to verify session', err, { orgId, sessionId });
      }
      // Another organization's session is answered as an unknown one: no hint that it exists.
      const owner = session.metadata?.orgId ?? session.client_reference_id ?? null;
      if (owner !== orgId) throw new AppError('billing.invalid_session');
      if (session.status !== 'complete' || !session.subscription) throw new AppError('billing.session_not_completed');
      await events.applyVerifiedSession(orgId, session);
      const org = await ctx.tenancy.findOrg(orgId);
      return { success: true, plan: org?.plan ?? 'free' };
    },

    async subscription(orgId) {
      const [account, org] = await Promise.all([store.account(orgId), ctx.tenancy.findOrg(orgId)]);
      return {
        plan: org?.plan ?? 'free',
        subscriptionId: account?.subscriptionId ?? null,
        status: account?.status ?? null,
        pendingPlan: account?.pendingPlan ?? null,
        pendingAt: account?.pendingAt ?? null,
        cancelAtPeriodEnd: account?.cancelAtPeriodEnd ?? false,
        currentPeriodEnd: account?.currentPeriodEnd ?? null,
      };
    },

    async receive(rawBody, signature) {
      if (!provider.verify) throw notConfigured();
      if (typeof rawBody !== 'string' || typeof signature !== 'string' || !signature) throw new AppError('billing.invalid_signature');
      let event;
      try {
        event = provider.verify(rawBody, signature);
      } catch {
        throw new AppError('billing.invalid_signature');
      }
      await events.handle(event);
      return { received: true };
    },

    applyDue: (now) => events.applyDue(now),
    changePlan: (orgId, to, change) => changePlan(ctx, orgId, to, change),
  };
}
