// The organization a provider event concerns: metadata.orgId (set at checkout), else the
// checkout's client reference, else the stored customer; null when it names no known organization.
import type Stripe from 'stripe';
import type { AppContext } from '../../core/context.ts';
import { findOrg, type InvoiceLike, type Meta, type SessionLike, type SubscriptionLike, type Target } from './event-shapes.ts';
import { idOf } from './provider.ts';
import type { BillingStore } from './store.ts';

export function createEventLocator(ctx: AppContext, store: BillingStore) {
  /** The organization an event concerns: metadata.orgId (set at checkout), else the stored customer. */
  return async function locate(event: Stripe.Event): Promise<Target | null> {
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
    if (!(await findOrg(ctx, candidate))) return null;
    return { orgId: candidate, subscriptionId, customerId };
  };
}
