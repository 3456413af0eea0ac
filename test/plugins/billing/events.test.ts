// The payment provider's events (issue 13 points 3 and 6): each event's effect read back through
// the API, exactly once per event id (also 20 deliveries at once), older events never overwriting
// newer state, the downgrade applied at period end by the job with the clock moved, and a
// tampered delivery refused with nothing changed.
import t from 'tap';
import { buildTestApp, register, bearer, serviceUrls, type Session } from '../../helper.ts';
import { stripeFront } from '../../stripe-front.ts';
import type { App } from '../../../core/app.ts';
import { appliedEvents, checkoutSession, deliver, event, invoice, now, PRICE, planChanges, send, signatureOf, signed, subscription } from './helper.ts';

async function planOf(app: App['app'], s: Session): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/orgs/${s.orgId}`, headers: bearer(s.token) });
  const body = res.json();
  return body.organization?.plan ?? body.plan;
}
const state = async (app: App['app'], s: Session) =>
  (await app.inject({ method: 'GET', url: '/api/billing/subscription', headers: { ...bearer(s.token), 'x-org-id': s.orgId } })).json();

/** An organization on Pro through a completed checkout: its subscription and customer ids. */
async function subscribed(b: App, s: Session, price: string = PRICE.pro) {
  const session = checkoutSession({ orgId: s.orgId, price });
  const res = await send(b.app, event('checkout.session.completed', session, { created: now() - 3600 }));
  if (res.statusCode !== 200) throw new Error(`checkout event: ${res.body}`);
  return { sub: session.subscription, customer: session.customer };
}

t.test('each event has the effect of the spec table', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const s = await register(app);
  const { sub, customer } = await subscribed(b, s);
  t.equal(await planOf(app, s), 'pro', 'checkout.session.completed: the plan of the session is set');
  t.match(await state(app, s), { subscriptionId: sub, status: 'active', plan: 'pro' }, 'and the subscription synced (details fetched from stripe-mock)');
  const [first] = await planChanges(b, s.orgId);
  t.match(first?.details, { from: 'free', to: 'pro', cause: 'checkout.session.completed' }, 'audited as billing.plan_changed {from, to, cause}');

  // No metadata from here on: the organization is found by the stored customer id.
  let at = now() - 1000;
  const updated = (price: string, extra: { cancel?: boolean; periodEnd?: number; status?: string } = {}) =>
    send(app, event('customer.subscription.updated', subscription({ id: sub, customer, price, ...extra }), { created: ++at }));

  await updated(PRICE.team);
  t.equal(await planOf(app, s), 'team', 'updated to a higher plan: effective at once');

  const periodEnd = now() + 7 * 86_400;
  await updated(PRICE.pro, { periodEnd });
  t.equal(await planOf(app, s), 'team', 'updated to a lower plan: the higher plan holds');
  t.match(await state(app, s), { pendingPlan: 'pro', pendingAt: new Date(periodEnd * 1000).toISOString() }, 'the downgrade waits for the period end');
  t.equal(await b.services.billing!.applyDue(new Date((periodEnd - 60) * 1000)), 0, 'the job a minute before the period end changes nothing');
  t.equal(await planOf(app, s), 'team', 'still Team');
  t.equal(await b.services.billing!.applyDue(new Date((periodEnd + 1) * 1000)), 1, 'the job after the period end applies it');
  t.equal(await planOf(app, s), 'pro', 'now Pro');
  t.equal(await b.services.billing!.applyDue(new Date((periodEnd + 120) * 1000)), 0, 'a second run of the job finds nothing due');
  t.match((await planChanges(b, s.orgId)).at(-1)?.details, { from: 'team', to: 'pro', cause: 'period_end.downgrade' });

  await updated(PRICE.pro, { cancel: true, periodEnd });
  t.equal(await planOf(app, s), 'pro', 'cancellation: active until the period end');
  t.match(await state(app, s), { pendingPlan: 'free', cancelAtPeriodEnd: true });
  await updated(PRICE.pro, { periodEnd });
  t.match(await state(app, s), { pendingPlan: null, cancelAtPeriodEnd: false }, 'a withdrawn cancellation clears the pending change');
  await updated(PRICE.pro, { cancel: true, periodEnd: periodEnd + 1000 });
  await b.services.billing!.applyDue(new Date((periodEnd + 1001) * 1000));
  t.equal(await planOf(app, s), 'free', 'then Free');

  await updated(PRICE.team);
  t.equal(await planOf(app, s), 'team', 'resubscribed (upgrade)');
  const failed = await send(app, event('invoice.payment_failed', invoice({ customer, subscription: sub }), { created: ++at }));
  t.equal(failed.statusCode, 200);
  t.match(await state(app, s), { status: 'past_due', plan: 'team' }, 'invoice.payment_failed: status past_due, the plan unchanged');
  await send(app, event('customer.subscription.deleted', { ...subscription({ id: sub, customer, price: PRICE.team, status: 'canceled' }) }, { created: ++at }));
  t.equal(await planOf(app, s), 'free', 'customer.subscription.deleted: reset to Free');
  t.match(await state(app, s), { status: 'canceled' });

  const orphan = await send(app, event('customer.subscription.deleted', subscription({ id: 'sub_nobody', customer: 'cus_nobody', price: PRICE.team })));
  t.equal(orphan.statusCode, 200, 'an event of no known organization is acknowledged');
  const causes = (await planChanges(b, s.orgId)).map((e) => e.details.cause);
  t.same(causes, ['checkout.session.completed', 'customer.subscription.updated', 'period_end.downgrade', 'period_end.cancellation', 'customer.subscription.updated', 'customer.subscription.deleted'], 'every plan change audited, with its cause');
});

t.test('exactly once per event id: twice in a row and 20 at once', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const s = await register(app);
  const checkout = event('checkout.session.completed', checkoutSession({ orgId: s.orgId, price: PRICE.team }));
  const first = signed(checkout);
  const answers = [await deliver(app, first.body, first.header), await deliver(app, first.body, first.header)];
  t.same(answers.map((r) => r.statusCode), [200, 200], 'both deliveries answered 200');
  t.equal((await planChanges(b, s.orgId)).length, 1, 'one plan change');
  // The plan change alone cannot show a second application (setting Team again writes nothing):
  // the account's record of applied events, written with each effect, can.
  t.same(await appliedEvents(b, s.orgId), [checkout.id], 'the event is recorded as applied once');

  const s2 = await register(app);
  const { sub, customer } = await subscribed(b, s2, PRICE.team);
  const upgrade = event('customer.subscription.updated', subscription({ id: sub, customer, price: PRICE.enterprise }));
  const once = signed(upgrade);
  const all = await Promise.all(Array.from({ length: 20 }, () => deliver(app, once.body, once.header)));
  t.ok(all.every((r) => r.statusCode === 200 && r.json().received === true), '20 concurrent deliveries answered 200 {received:true}');
  const changes = await planChanges(b, s2.orgId);
  t.same(changes.map((c) => c.details.to), ['team', 'enterprise'], 'one effect: checkout, then a single upgrade');
  const ids = await appliedEvents(b, s2.orgId);
  t.equal(ids.filter((id) => id === upgrade.id).length, 1, 'the 20 deliveries are one applied event');
  t.equal(ids.length, 2, 'checkout and the upgrade, nothing else');
});

t.test('a redelivered event never moves the period end back (events of the same second)', async (t) => {
  // Stripe stamps `created` in seconds: two updates of one subscription often share it, so the
  // ordering rule lets both apply in arrival order. A redelivery of the first, applied again,
  // would move the period end back to its value: the one visible effect of a second application.
  const b = await buildTestApp(t);
  const { app } = b;
  const s = await register(app);
  const { sub, customer } = await subscribed(b, s);
  const second = now();
  const endA = second + 10 * 86_400;
  const endB = second + 40 * 86_400;
  const a = signed(event('customer.subscription.updated', subscription({ id: sub, customer, price: PRICE.pro, periodEnd: endA }), { created: second }));
  const bEvent = event('customer.subscription.updated', subscription({ id: sub, customer, price: PRICE.pro, periodEnd: endB }), { created: second });
  t.equal((await deliver(app, a.body, a.header)).statusCode, 200);
  t.equal((await send(app, bEvent)).statusCode, 200);
  t.equal((await state(app, s)).currentPeriodEnd, new Date(endB * 1000).toISOString(), 'the later delivery of the same second is in force');
  const again = await Promise.all(Array.from({ length: 5 }, () => deliver(app, a.body, a.header)));
  t.ok(again.every((r) => r.statusCode === 200), 'the redeliveries are acknowledged');
  t.equal((await state(app, s)).currentPeriodEnd, new Date(endB * 1000).toISOString(), 'the period end was not moved back by the redeliveries');
  const ids = await appliedEvents(b, s.orgId);
  t.equal(ids.length, 3, 'checkout, A and B recorded once each');
  t.equal(ids.at(-1), bEvent.id, 'B is the last event applied');
});

t.test('an older event never overwrites newer state', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const s = await register(app);
  const { sub, customer } = await subscribed(b, s);
  const base = now();
  const newer = event('customer.subscription.updated', subscription({ id: sub, customer, price: PRICE.team }), { created: base + 10 });
  const older = event('customer.subscription.updated', subscription({ id: sub, customer, price: PRICE.enterprise }), { created: base });
  await send(app, newer);
  await send(app, older);
  t.equal(await planOf(app, s), 'team', 'the older upgrade, arriving late, is ignored');
  const oldDelete = event('customer.subscription.deleted', subscription({ id: sub, customer, price: PRICE.team }), { created: base + 5 });
  await send(app, oldDelete);
  t.equal(await planOf(app, s), 'team', 'so is an older deletion');

  // Many events of one subscription at once, in shuffled order, each delivered twice. The newest
  // is Enterprise, the highest plan: whatever order they were applied in, it ends in force with
  // nothing pending (an Enterprise applied early and a Team after it leaves Team pending, which
  // the newest withdraws), so the final state is exact.
  const s2 = await register(app);
  const two = await subscribed(b, s2);
  const prices = [PRICE.team, PRICE.enterprise, PRICE.team, PRICE.enterprise, PRICE.team, PRICE.enterprise, PRICE.team, PRICE.team, PRICE.team, PRICE.enterprise];
  const periodEnds = prices.map((_, i) => base + 86_400 * (i + 1));
  const payloads = prices.map((price, i) => event('customer.subscription.updated',
    subscription({ id: two.sub, customer: two.customer, price, periodEnd: periodEnds[i] }), { created: base + i }));
  const events = payloads.map((p) => signed(p));
  const shuffled = [...events, ...events].sort(() => Math.random() - 0.5);
  await Promise.all(shuffled.map((e) => deliver(app, e.body, e.header)));
  const final = await state(app, s2);
  t.equal(final.currentPeriodEnd, new Date(periodEnds.at(-1)! * 1000).toISOString(), 'the stored subscription is the newest event\'s');
  t.equal(await planOf(app, s2), 'enterprise', 'the newest event\'s plan is in force');
  t.equal(final.pendingPlan, null, 'nothing pending');
  t.equal(final.pendingAt, null);
  const ids = await appliedEvents(b, s2.orgId);
  t.equal(new Set(ids).size, ids.length, 'no event applied twice');
  t.equal(ids.at(-1), payloads.at(-1)!.id, 'the newest event is the last applied; none after it');
});

t.test('a tampered delivery is 400 Invalid signature and changes nothing', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const s = await register(app);
  const payload = event('checkout.session.completed', checkoutSession({ orgId: s.orgId, price: PRICE.enterprise }));
  const good = signed(payload);
  const flipped = good.body.replace('"checkout.session.completed"', '"checkout.session.completeD"');
  const cases: [string, string, string | undefined][] = [
    ['one byte of the body changed', flipped, good.header],
    ['signed with another secret', good.body, signed(payload, { secret: 'whsec_not_ours_000000' }).header],
    ['a timestamp older than 5 minutes', good.body, signed(payload, { timestamp: now() - 301 }).header],
    ['no payment-signature header', good.body, undefined],
    ['a header that is not a signature', good.body, 'sha256=deadbeef'],
  ];
  for (const [what, body, header] of cases) {
    const res = await deliver(app, body, header);
    t.equal(res.statusCode, 400, `${what}: 400`);
    t.equal(res.json().error?.message, 'Invalid signature', `${what}: Invalid signature`);
  }
  // The body reaches the signature check whatever it is (manifest rawBody): not JSON, another content type, none.
  const garbage = '{"id": "evt_1", trailing';
  const odd: [string, Record<string, string>, string | undefined][] = [
    ['a body that is not JSON, correctly signed', { 'content-type': 'application/json', 'payment-signature': signatureOf(garbage) }, garbage],
    ['a text/plain body with a forged signature', { 'content-type': 'text/plain', 'payment-signature': 't=1,v1=00' }, good.body],
    ['no body and no content type', {}, undefined],
  ];
  for (const [what, headers, payload] of odd) {
    const res = await app.inject({ method: 'POST', url: '/api/billing/webhook', headers, ...(payload === undefined ? {} : { payload }) });
    t.equal(res.statusCode, 400, `${what}: 400`);
    t.equal(res.json().error?.message, 'Invalid signature', `${what}: Invalid signature`);
  }
  t.equal(await planOf(app, s), 'free', 'the plan is unchanged');
  t.equal((await planChanges(b, s.orgId)).length, 0, 'no plan change recorded');
  t.equal((await deliver(app, good.body, good.header)).statusCode, 200, 'the untampered delivery is accepted (none of the above used up its id)');
  t.equal(await planOf(app, s), 'enterprise');
});

t.test('checkout.session.completed: a provider failure fetching the subscription never loses the plan change', async (t) => {
  const b = await buildTestApp(t);
  const s = await register(b.app);
  const front = await stripeFront(serviceUrls().stripeMockUrl);
  const session = checkoutSession({ orgId: s.orgId, price: PRICE.team });
  const before = front.calls.length;
  front.fail(`/v1/subscriptions/${session.subscription}`, 1);
  const res = await send(b.app, event('checkout.session.completed', session));
  t.equal(res.statusCode, 200, 'acknowledged');
  t.ok(front.calls.slice(before).some((c) => c.path.startsWith(`/v1/subscriptions/${session.subscription}`)), 'the subscription was asked for, and the provider failed');
  t.equal(await planOf(b.app, s), 'team', 'the plan comes from the session itself');
  t.match(await state(b.app, s), { subscriptionId: session.subscription, plan: 'team' });
  t.match((await planChanges(b, s.orgId))[0]?.details, { from: 'free', to: 'team', cause: 'checkout.session.completed' }, 'and is audited');
});
