// The billing issue's scenario (`npm run bench -- billing`): 500 distinct signed payment-provider
// events (checkout.session.completed, one per organization, Free -> Pro), each posted twice,
// 20 requests in flight at a time (a pair's two copies are in the same window, so duplicates race).
// Then one customer.subscription.updated per organization (the period end moved 30 days), each
// posted twice the same way: the checkout has a second guard (once per session), the update only
// its event id, so this phase is where a lost event-id guard shows.
// Reports events per second and proves none was applied twice: every event id is recorded on its
// organization's account (billing_accounts.appliedEvents, pushed in the same write as the effect)
// exactly once: a second application would push it again (the plan change alone could not show
// it: setting Pro on an organization already on Pro writes nothing). Also: the plan changes in the
// audit trail (billing.plan_changed) equal the distinct events, and every organization is on Pro.
// The server is its own process on stripe-mock (subscription details are fetched per event).
// Baseline in the same run: the same deliveries signed with another secret, each refused with
// 400 after the signature check (the route's fixed cost: HTTP, body, HMAC). The ratio says how
// much slower applying an event is. No timed assertion: the figures depend on the machine.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import Stripe from 'stripe';
import { request } from 'undici';
import { serviceUrls, STRIPE_TEST } from '../../test/helper.ts';
import type { Start } from './orgs.ts';
import { fmt, table } from './lib.ts';

export interface BillingSettings { events: number; concurrency: number; copies: number }
export interface BillingResult {
  settings: BillingSettings; seconds: number; deliveries: number; eventsPerSecond: number; deliveriesPerSecond: number;
  statuses: Record<string, number>; planChanges: number; orgsOnPro: number; meanMs: number; p99Ms: number;
  /** Entries in the accounts' appliedEvents, distinct ids among them, and ids recorded more than once. */
  appliedRecords: number; appliedDistinct: number; appliedTwice: number;
  /** The second phase (one subscription update per organization, posted `copies` times): accounts whose period end it moved. */
  updates: { deliveries: number; seconds: number; statuses: Record<string, number> }; periodEndsMoved: number;
  /** Deliveries/s of the same bodies refused at the signature check, and applied/refused. */
  baselinePerSecond: number; baselineStatuses: Record<string, number>; ratio: number;
}

const hex = (n = 12) => randomBytes(n).toString('hex');

export async function runBilling(start: Start, set: BillingSettings, log: (line: string) => void): Promise<BillingResult> {
  const db = `bench_billing_${Date.now()}`;
  const target = await start('billing', 'app', { BENCH_DB: db, BENCH_STRIPE: '1' });
  const mongo = new MongoClient(serviceUrls().mongoUri);
  await mongo.connect();
  try {
    const store = mongo.db(db);
    // Organizations written straight to the database: registration is not what is measured.
    const orgIds = Array.from({ length: set.events }, () => hex());
    await store.collection('organizations').insertMany(orgIds.map((_id, i) => ({ _id: _id as never, name: `bench ${i}`, plan: 'free', ownerId: hex(), createdAt: new Date() })));
    log(`${set.events} organizations seeded in ${db}`);

    const stripe = new Stripe('sk_test_signing_only');
    const created = Math.floor(Date.now() / 1000);
    const sign = (payload: object) => {
      const body = JSON.stringify(payload);
      return { body, header: stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_TEST.STRIPE_WEBHOOK_SECRET }) };
    };
    const subs = orgIds.map((orgId) => ({ orgId, sub: `sub_${hex(6)}`, customer: `cus_${hex(6)}` }));
    const signedEvents = subs.map(({ orgId, sub, customer }) => sign({
      id: `evt_${hex()}`, object: 'event', type: 'checkout.session.completed', created, livemode: false,
      data: { object: {
        id: `cs_test_${hex()}`, object: 'checkout.session', mode: 'subscription', status: 'complete', client_reference_id: orgId,
        customer, subscription: sub, metadata: { orgId, priceId: STRIPE_TEST.STRIPE_PRICE_PRO },
      } },
    }));
    const movedEnd = created + 30 * 86_400;
    const updates = subs.map(({ orgId, sub, customer }) => sign({
      id: `evt_${hex()}`, object: 'event', type: 'customer.subscription.updated', created: created + 1, livemode: false,
      data: { object: {
        id: sub, object: 'subscription', customer, status: 'active', cancel_at_period_end: false, metadata: { orgId },
        items: { object: 'list', data: [{ id: `si_${hex(6)}`, object: 'subscription_item', price: { id: STRIPE_TEST.STRIPE_PRICE_PRO, object: 'price' }, current_period_end: movedEnd }] },
      } },
    }));
    const copies = (list: { body: string; header: string }[]) => list.flatMap((e) => Array.from({ length: set.copies }, () => e));
    const deliveries = copies(signedEvents);

    const post = async (list: { body: string; header: string }[]) => {
      const statuses: Record<string, number> = {};
      const latencies: number[] = [];
      let next = 0;
      const worker = async () => {
        while (next < list.length) {
          const d = list[next++];
          const t0 = performance.now();
          const res = await request(`${target.url}/api/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': d.header }, body: d.body });
          await res.body.text();
          latencies.push(performance.now() - t0);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: set.concurrency }, worker));
      return { seconds: (performance.now() - t0) / 1000, statuses, latencies };
    };
    const forged = deliveries.map((d) => ({ body: d.body, header: stripe.webhooks.generateTestHeaderString({ payload: d.body, secret: 'whsec_not_the_endpoints_secret' }) }));
    const baseline = await post(forged);
    log(`baseline: ${forged.length} forged deliveries refused in ${fmt(baseline.seconds)}s`);
    const { seconds, statuses, latencies } = await post(deliveries);
    log(`${deliveries.length} deliveries in ${fmt(seconds)}s`);
    const second = await post(copies(updates));
    log(`${updates.length * set.copies} subscription updates in ${fmt(second.seconds)}s`);

    // The audit trail is written after the answer: wait until the count stops moving.
    const audit = store.collection('audit_logs');
    let planChanges = -1;
    for (let i = 0; i < 40; i++) {
      const n = await audit.countDocuments({ action: 'billing.plan_changed' });
      if (n === planChanges && n >= set.events) break;
      planChanges = n;
      await new Promise((r) => setTimeout(r, 250));
    }
    const orgsOnPro = await store.collection('organizations').countDocuments({ plan: 'pro' });
    const accounts = await store.collection<{ appliedEvents?: { id: string }[] }>('billing_accounts').find({}, { projection: { appliedEvents: 1 } }).toArray();
    const seen = new Map<string, number>();
    for (const a of accounts) for (const e of a.appliedEvents ?? []) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
    const appliedRecords = [...seen.values()].reduce((a, b) => a + b, 0);
    const appliedTwice = [...seen.values()].filter((n) => n > 1).length;
    const periodEndsMoved = await store.collection('billing_accounts').countDocuments({ currentPeriodEnd: new Date(movedEnd * 1000) });
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      settings: set, seconds, deliveries: deliveries.length, eventsPerSecond: set.events / seconds, deliveriesPerSecond: deliveries.length / seconds,
      statuses, planChanges, orgsOnPro, appliedRecords, appliedDistinct: seen.size, appliedTwice, periodEndsMoved,
      updates: { deliveries: updates.length * set.copies, seconds: second.seconds, statuses: second.statuses }, meanMs: latencies.reduce((a, b) => a + b, 0) / latencies.length, p99Ms: sorted[Math.floor(sorted.length * 0.99)],
      baselinePerSecond: forged.length / baseline.seconds, baselineStatuses: baseline.statuses,
      ratio: (deliveries.length / seconds) / (forged.length / baseline.seconds),
    };
  } finally {
    await mongo.close();
    await target.stop();
  }
}

export function billingReport(r: BillingResult): string {
  // Both phases: a checkout and an update per organization, each recorded exactly once.
  const ok = r.appliedRecords === 2 * r.settings.events && r.appliedDistinct === 2 * r.settings.events && r.appliedTwice === 0
    && r.periodEndsMoved === r.settings.events
    && r.planChanges === r.settings.events && r.orgsOnPro === r.settings.events;
  return [
    `Billing benchmark: ${r.settings.events} distinct signed events (checkout.session.completed), each posted ${r.settings.copies} times, ${r.settings.concurrency} in flight`,
    table(['deliveries', 'seconds', 'events/s', 'deliveries/s', 'mean ms', 'p99 ms', 'statuses'],
      [[r.deliveries, r.seconds, r.eventsPerSecond, r.deliveriesPerSecond, r.meanMs, r.p99Ms, Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(' ')]]),
    `baseline (same bodies, forged signature, refused): ${fmt(r.baselinePerSecond)} deliveries/s (${Object.entries(r.baselineStatuses).map(([k, v]) => `${k}:${v}`).join(' ')}); applied/refused ratio ${fmt(r.ratio)}`,
    `plan changes recorded (billing.plan_changed): ${r.planChanges} for ${r.settings.events} distinct events; organizations on Pro: ${r.orgsOnPro}`,
    `then ${r.updates.deliveries} deliveries of ${r.settings.events} customer.subscription.updated (period end moved) in ${fmt(r.updates.seconds)}s (${Object.entries(r.updates.statuses).map(([k, v]) => `${k}:${v}`).join(' ')}); period ends moved: ${r.periodEndsMoved}`,
    `applied events recorded (billing_accounts.appliedEvents, both phases): ${r.appliedRecords} entries, ${r.appliedDistinct} distinct ids, ${r.appliedTwice} recorded more than once`,
    `none applied twice: ${ok ? 'met' : 'NOT met'}`,
  ].join('\n');
}
