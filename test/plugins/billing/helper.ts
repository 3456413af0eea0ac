// Payment-provider events as Stripe sends them, signed with the library's own test helper.
import Stripe from 'stripe';
import { randomBytes } from 'node:crypto';
import type { App } from '../../../core/app.ts';
import { STRIPE_TEST } from '../../helper.ts';

const stripe = new Stripe('sk_test_signing_only');
const rand = (n = 12) => randomBytes(n).toString('hex');
export const now = () => Math.floor(Date.now() / 1000);
export const PRICE = { pro: STRIPE_TEST.STRIPE_PRICE_PRO, team: STRIPE_TEST.STRIPE_PRICE_TEAM, enterprise: STRIPE_TEST.STRIPE_PRICE_ENTERPRISE };

export function event(type: string, object: Record<string, unknown>, opts: { id?: string; created?: number } = {}) {
  return { id: opts.id ?? `evt_${rand()}`, object: 'event', api_version: '2025-01-27.acacia', created: opts.created ?? now(), type, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object } };
}

export function checkoutSession(o: { orgId: string; price: string; subscription?: string; customer?: string; id?: string; status?: string }) {
  return {
    id: o.id ?? `cs_test_${rand()}`, object: 'checkout.session', mode: 'subscription', status: o.status ?? 'complete', payment_status: 'paid',
    client_reference_id: o.orgId, customer: o.customer ?? `cus_${rand(6)}`, subscription: o.subscription ?? `sub_${rand(6)}`,
    metadata: { orgId: o.orgId, priceId: o.price }, created: now(), url: null,
  };
}

export function subscription(o: { id: string; customer: string; price: string; orgId?: string; cancel?: boolean; periodEnd?: number; status?: string }) {
  const end = o.periodEnd ?? now() + 30 * 86_400;
  return {
    id: o.id, object: 'subscription', customer: o.customer, status: o.status ?? 'active', cancel_at_period_end: o.cancel ?? false,
    metadata: o.orgId ? { orgId: o.orgId } : {},
    items: { object: 'list', data: [{ id: `si_${rand(6)}`, object: 'subscription_item', price: { id: o.price, object: 'price' }, current_period_end: end }] },
  };
}

export function invoice(o: { customer: string; subscription: string; orgId?: string }) {
  return {
    id: `in_${rand(6)}`, object: 'invoice', customer: o.customer, status: 'open',
    parent: { type: 'subscription_details', subscription_details: { subscription: o.subscription, metadata: o.orgId ? { orgId: o.orgId } : {} } },
  };
}

/** Body and `payment-signature` header of an event (Stripe's t=...,v1=... format). */
/** The payment-signature header of any body, as Stripe signs it (the library's own test helper). */
export const signatureOf = (body: string, opts: { secret?: string; timestamp?: number } = {}) =>
  stripe.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? STRIPE_TEST.STRIPE_WEBHOOK_SECRET, timestamp: opts.timestamp });

export function signed(payload: object, opts: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(payload);
  return { body, header: signatureOf(body, opts) };
}

export const deliver = (app: App['app'], body: string, header?: string) => app.inject({
  method: 'POST', url: '/api/billing/webhook', payload: body,
  headers: { 'content-type': 'application/json', ...(header !== undefined ? { 'payment-signature': header } : {}) },
});

export async function send(app: App['app'], payload: object) {
  const { body, header } = signed(payload);
  return deliver(app, body, header);
}

/** The plan changes recorded for an organization (the audit trail's billing.plan_changed entries). */
export async function planChanges(b: App, orgId: string) {
  await b.ctx.audit.flush();
  return b.ctx.db.db.collection('audit_logs').find({ orgId, action: 'billing.plan_changed' }).sort({ timestamp: 1 }).toArray();
}

/** The ids of the events recorded as applied to an organization (billing_accounts.appliedEvents), in order. */
export async function appliedEvents(b: App, orgId: string): Promise<string[]> {
  const acc = await b.ctx.db.db.collection<{ _id: string; appliedEvents?: { id: string }[] }>('billing_accounts').findOne({ _id: orgId });
  return (acc?.appliedEvents ?? []).map((e) => e.id);
}
