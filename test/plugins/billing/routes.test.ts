// The billing routes (issue 13 points 1 and 2): owner only, the spec's exact errors, stripe-mock
// as the provider, and the loopback front (test/stripe-front.ts) for what stripe-mock cannot answer.
import t from 'tap';
import { buildTestApp, register, bearer, serviceUrls } from '../../helper.ts';
import { stripeFront } from '../../stripe-front.ts';
import { addMember } from '../orgs/helper.ts';
import { checkoutSession, event, PRICE, send } from './helper.ts';

const msg = (res: { json(): { error: { message: string } } }) => res.json().error.message;

t.test('owner only: the role matrix on the four routes', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const owner = await register(app);
  const stranger = await register(app);
  const front = await stripeFront(serviceUrls().stripeMockUrl);
  const session = checkoutSession({ orgId: owner.orgId, price: PRICE.pro });
  front.sessions.set(session.id, session);
  const calls = {
    checkout: (token: string) => app.inject({ method: 'POST', url: '/api/billing/checkout-session', headers: { ...bearer(token), 'x-org-id': owner.orgId }, payload: { priceId: PRICE.pro } }),
    portal: (token: string) => app.inject({ method: 'POST', url: '/api/billing/portal-session', headers: { ...bearer(token), 'x-org-id': owner.orgId } }),
    verify: (token: string) => app.inject({ method: 'POST', url: '/api/billing/verify-session', headers: { ...bearer(token), 'x-org-id': owner.orgId }, payload: { sessionId: session.id } }),
    subscription: (token: string) => app.inject({ method: 'GET', url: '/api/billing/subscription', headers: { ...bearer(token), 'x-org-id': owner.orgId } }),
  };
  for (const role of ['admin', 'member', 'viewer']) {
    const m = await addMember(b, owner.orgId, role);
    for (const [name, call] of Object.entries(calls)) {
      const res = await call(m.token);
      t.equal(res.statusCode, 403, `${role}: ${name} is 403`);
    }
  }
  for (const [name, call] of Object.entries(calls)) {
    t.equal((await call(stranger.token)).statusCode, 404, `a non-member: ${name} is 404`);
  }
  const checkout = await calls.checkout(owner.token);
  t.equal(checkout.statusCode, 200, 'owner: checkout');
  t.match(checkout.json(), { url: /^https:\/\// }, 'answers the hosted page url');
  t.equal((await calls.portal(owner.token)).statusCode, 200, 'owner: portal (the customer exists since the checkout)');
  const verified = await calls.verify(owner.token);
  t.equal(verified.statusCode, 200, 'owner: verify');
  t.same(verified.json(), { success: true, plan: 'pro' }, 'the completed session of this organization gives its plan');
  const org = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(owner.token) });
  t.equal(org.json().organization?.plan ?? org.json().plan, 'pro', 'and the organization is on it');
  t.equal((await calls.subscription(owner.token)).json().plan, 'pro', 'owner: subscription');
  const hook = await send(app, event('customer.created', { id: 'cus_x', object: 'customer' }));
  t.equal(hook.statusCode, 200, 'webhook: no bearer token, a valid signature is enough');
  t.same(hook.json(), { received: true }, 'an event type not handled is acknowledged');
});

t.test('checkout-session: the session, one customer per organization, the spec errors', async (t) => {
  const { app } = await buildTestApp(t);
  const owner = await register(app);
  const front = await stripeFront(serviceUrls().stripeMockUrl);
  const h = { ...bearer(owner.token), 'x-org-id': owner.orgId };
  const checkout = (priceId: string) => app.inject({ method: 'POST', url: '/api/billing/checkout-session', headers: h, payload: { priceId } });

  const unknown = await checkout('price_unknown');
  t.equal(unknown.statusCode, 400, 'an unknown price is 400');
  t.equal(msg(unknown), 'Invalid price ID');

  const from = front.calls.length;
  t.equal((await checkout(PRICE.pro)).statusCode, 200, 'first checkout');
  t.equal((await checkout(PRICE.team)).statusCode, 200, 'second checkout');
  const seen = front.calls.slice(from);
  t.equal(seen.filter((c) => c.method === 'POST' && c.path === '/v1/customers').length, 1, 'one customer created for the organization, reused by the second session');
  const created = seen.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions').map((c) => new URLSearchParams(c.body));
  t.equal(created.length, 2, 'two Checkout Sessions');
  t.equal(created[0].get('mode'), 'subscription', 'in subscription mode');
  t.equal(created[0].get('client_reference_id'), owner.orgId, 'client_reference_id is the organization');
  t.equal(created[0].get('metadata[orgId]'), owner.orgId, 'metadata.orgId too');
  t.equal(created[0].get('metadata[priceId]'), PRICE.pro, 'and metadata.priceId, which the event reads the plan from');
  t.equal(created[0].get('customer'), created[1].get('customer'), 'both sessions on the same customer');

  front.fail('/v1/checkout/sessions');
  const failed = await checkout(PRICE.pro);
  t.equal(failed.statusCode, 500, 'a provider failure is the spec 500');
  t.equal(msg(failed), 'Failed to create checkout session');
});

t.test('portal-session and verify-session errors', async (t) => {
  const { app } = await buildTestApp(t);
  const owner = await register(app);
  const other = await register(app);
  const front = await stripeFront(serviceUrls().stripeMockUrl);
  const h = { ...bearer(owner.token), 'x-org-id': owner.orgId };
  const portal = () => app.inject({ method: 'POST', url: '/api/billing/portal-session', headers: h });
  const verify = (payload: object) => app.inject({ method: 'POST', url: '/api/billing/verify-session', headers: h, payload });

  const from = front.calls.length;
  const first = await portal();
  t.equal(first.statusCode, 200, 'no customer on file yet: the customer is created, then the portal');
  t.equal(front.calls.slice(from).filter((c) => c.path === '/v1/customers').length, 1, 'one customer created');
  await app.inject({ method: 'POST', url: '/api/billing/checkout-session', headers: h, payload: { priceId: PRICE.pro } });
  t.equal(front.calls.slice(from).filter((c) => c.path === '/v1/customers').length, 1, 'and reused by the checkout');
  front.fail('/v1/billing_portal/sessions');
  const failed = await portal();
  t.equal(failed.statusCode, 500, 'a provider failure: 500');
  t.equal(msg(failed), 'Failed to create portal session');
  t.match((await portal()).json(), { url: /^https:\/\// }, 'then the portal url');

  for (const payload of [{}, { sessionId: '' }, { sessionId: '  ' }]) {
    const res = await verify(payload);
    t.equal(res.statusCode, 400, `${JSON.stringify(payload)}: 400`);
    t.equal(msg(res), 'Session ID is required');
  }
  const missing = 'cs_test_missing_one';
  front.missing.add(missing);
  const theirs = checkoutSession({ orgId: other.orgId, price: PRICE.team });
  const open = checkoutSession({ orgId: owner.orgId, price: PRICE.pro, status: 'open' });
  const noSub = { ...checkoutSession({ orgId: owner.orgId, price: PRICE.pro }), subscription: null };
  for (const s of [theirs, open, noSub]) front.sessions.set(s.id, s);
  const cases: [string, string, string][] = [
    [missing, 'Invalid session', 'a session the provider does not know'],
    [theirs.id, 'Invalid session', "another organization's session"],
    ['cs_test_stripe_mock_fixture', 'Invalid session', "stripe-mock's fixture session, which names no organization"],
    ['../customers/cus_x', 'Invalid session', 'an id that is not a session id never reaches the provider'],
    [open.id, 'Session not completed', 'an open session'],
    [noSub.id, 'Session not completed', 'a session without a subscription'],
  ];
  for (const [sessionId, message, what] of cases) {
    const res = await verify({ sessionId });
    t.equal(res.statusCode, 400, `${what}: 400`);
    t.equal(msg(res), message, `${what}: ${message}`);
  }
  front.fail('/v1/checkout/sessions/');
  const broken = await verify({ sessionId: theirs.id });
  t.equal(broken.statusCode, 500, 'a provider failure: 500');
  t.equal(msg(broken), 'Failed to verify session');
  t.equal((await app.inject({ method: 'GET', url: '/api/billing/subscription', headers: h })).json().plan, 'free', 'nothing changed the plan');
});

t.test('without STRIPE_SECRET_KEY the service runs and billing answers 503', async (t) => {
  const { app } = await buildTestApp(t, { env: { STRIPE_SECRET_KEY: undefined } });
  const owner = await register(app);
  const h = { ...bearer(owner.token), 'x-org-id': owner.orgId };
  const unknown = await app.inject({ method: 'POST', url: '/api/billing/checkout-session', headers: h, payload: { priceId: 'price_nope' } });
  t.equal(unknown.statusCode, 400, 'an unknown price is still 400 (the price map first)');
  t.equal(msg(unknown), 'Invalid price ID');
  for (const [url, payload] of [['/api/billing/checkout-session', { priceId: PRICE.pro }], ['/api/billing/portal-session', undefined], ['/api/billing/verify-session', { sessionId: 'cs_test_x' }]] as const) {
    const res = await app.inject({ method: 'POST', url, headers: h, ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 503, `${url}: 503`);
    t.equal(msg(res), 'Billing is not configured');
  }
  const hook = await send(app, event('checkout.session.completed', checkoutSession({ orgId: owner.orgId, price: PRICE.team })));
  t.equal(hook.statusCode, 200, 'the webhook works with STRIPE_WEBHOOK_SECRET alone');
  const org = await app.inject({ method: 'GET', url: '/api/billing/subscription', headers: h });
  t.equal(org.json().plan, 'team', 'and applies the plan from the session (no subscription details to fetch)');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(owner.token) })).statusCode, 200, 'the rest of the service works');

  const bare = await buildTestApp(t, { env: { STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined } });
  const res = await send(bare.app, event('invoice.payment_failed', {}));
  t.equal(res.statusCode, 503, 'without STRIPE_WEBHOOK_SECRET the webhook is 503');
  t.equal(msg(res), 'Billing is not configured');
});
