// The payment provider's event objects as the billing plugin reads them (the fields it reads,
// across API versions), the events it handles, and the small readers every event module shares.
import type Stripe from 'stripe';
import type { AppContext } from '../../core/context.ts';
import type { Plan } from '../../core/plans.ts';
import type { changePlan } from '../../core/tenancy/plan-change.ts';
import type { BillingStore } from './store.ts';
import type { Provider } from './provider.ts';

export const PERIOD_END_JOB = 'billing.period-end';
export const HANDLED_EVENTS = ['checkout.session.completed', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.payment_failed'] as const;
export const WEBHOOK_ROUTE = '/api/billing/webhook';

export type Ref = string | { id: string } | null | undefined;
export type Meta = Record<string, string> | null | undefined;
/** The fields read from the event objects, across API versions (invoice.subscription moved to parent). */
export interface SessionLike { id: string; created: number; metadata?: Meta; client_reference_id?: string | null; customer?: Ref; subscription?: Ref; mode?: string; status?: string | null }
export interface SubscriptionLike {
  id: string; customer?: Ref; status?: string; metadata?: Meta; cancel_at_period_end?: boolean; current_period_end?: number;
  items?: { data?: { price?: { id?: string }; current_period_end?: number }[] };
}
export interface InvoiceLike {
  customer?: Ref; subscription?: Ref; subscription_details?: { metadata?: Meta };
  parent?: { subscription_details?: { subscription?: Ref; metadata?: Meta } | null } | null;
}
export interface Target { orgId: string; subscriptionId: string | null; customerId: string | null }

export const toDate = (s: number | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null);
/** Where the period end and price sit on a subscription (newer API versions keep them on the item). */
export const periodEndOf = (sub: SubscriptionLike) => toDate(sub.current_period_end ?? sub.items?.data?.[0]?.current_period_end);
export const priceOf = (sub: SubscriptionLike) => sub.items?.data?.[0]?.price?.id;
/** The record of an applied event, written with its effect (store.update). */
export const appliedOf = (event: Stripe.Event) => ({ id: event.id, type: event.type, created: event.created });

/** What the event modules share: the context, the store, the provider, and the rules the applier keeps. */
export interface EventParts {
  ctx: AppContext;
  store: BillingStore;
  provider: Provider;
  planOf: (priceId: string | undefined | null) => Plan | null;
  /** False when a newer event of this subscription was applied already. */
  isCurrent: (subscriptionId: string | null, created: number) => Promise<boolean>;
  setPlan: (orgId: string, to: Plan, cause: string, route: string, resourceId: string | null) => ReturnType<typeof changePlan>;
}

/** The organization, read through core/tenancy (billing never writes it). */
export const findOrg = (ctx: AppContext, orgId: string) => ctx.tenancy.findOrg(orgId);
