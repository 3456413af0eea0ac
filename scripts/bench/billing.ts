// The billing issue's scenario (`npm run bench -- billing`): 500 distinct signed payment-provider
// events (checkout.session.completed, one per organization, Free -> Pro), each posted twice,
// 20 requests in flight at a time (a pair's two copies are in the same window, so duplicates race).
// Reports events per second and proves none was applied twice: the plan changes recorded in the
// audit trail (billing.plan_changed) must equal the distinct events, and every organization is on Pro.
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
    const signedEvents = orgIds.map((orgId) => {
      const body = JSON.stringify({
        id: `evt_${hex()}`, object: 'event', type: 'checkout.session.completed', created, livemode: false,
        data: { object: {
          id: `cs_test_${hex()}`, object: 'checkout.session', mode: 'subscription', status: 'complete', client_reference_id: orgId,
          customer: `cus_${hex(6)}`, subscription: `sub_${hex(6)}`, metadata: { orgId, priceId: STRIPE_TEST.STRIPE_PRICE_PRO },
        } },
      });
      return { body, header: stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_TEST.STRIPE_WEBHOOK_SECRET }) };
    });
    const deliveries = signedEvents.flatMap((e) => Array.from({ length: set.copies }, () => e));

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
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      settings: set, seconds, deliveries: deliveries.length, eventsPerSecond: set.events / seconds, deliveriesPerSecond: deliveries.length / seconds,
      statuses, planChanges, orgsOnPro, meanMs: latencies.reduce((a, b) => a + b, 0) / latencies.length, p99Ms: sorted[Math.floor(sorted.length * 0.99)],
      baselinePerSecond: forged.length / baseline.seconds, baselineStatuses: baseline.statuses,
      ratio: (deliveries.length / seconds) / (forged.length / baseline.seconds),
    };
  } finally {
    await mongo.close();
    await target.stop();
  }
}

export function billingReport(r: BillingResult): string {
  const ok = r.planChanges === r.settings.events && r.orgsOnPro === r.settings.events;
  return [
    `Billing benchmark: ${r.settings.events} distinct signed events (checkout.session.completed), each posted ${r.settings.copies} times, ${r.settings.concurrency} in flight`,
    table(['deliveries', 'seconds', 'events/s', 'deliveries/s', 'mean ms', 'p99 ms', 'statuses'],
      [[r.deliveries, r.seconds, r.eventsPerSecond, r.deliveriesPerSecond, r.meanMs, r.p99Ms, Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(' ')]]),
    `baseline (same bodies, forged signature, refused): ${fmt(r.baselinePerSecond)} deliveries/s (${Object.entries(r.baselineStatuses).map(([k, v]) => `${k}:${v}`).join(' ')}); applied/refused ratio ${fmt(r.ratio)}`,
    `plan changes recorded (billing.plan_changed): ${r.planChanges} for ${r.settings.events} distinct events; organizations on Pro: ${r.orgsOnPro}`,
    `none applied twice: ${ok ? 'met' : 'NOT met'}`,
  ].join('\n');
}
