// Outbound webhooks (issue 15 points 1 to 3, 7, 8): the outbox, the envelope and signature,
// the retry schedule with the clock moved (not waited), deactivation after 10 failed
// deliveries, exactly-once attempts under concurrent workers, the test route.
import t, { type Test } from 'tap';
import { createHmac } from 'node:crypto';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { receiver, receiverEnv } from './helper.ts';

const MIN = 60_000;
const SCAN = (repo = 'acme/infra') => ({ scanId: 'a'.repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: repo, driftCount: 3, newDrifts: 2, resolvedDrifts: 1 });

async function setup(t: Test, env: Record<string, unknown> = {}) {
  const b = await buildTestApp(t, { env: { ...receiverEnv(), ...env } });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    b.app.inject({ method, url, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  const deliveries = async (filter: { status?: string } = {}) => (await b.ctx.db.db.collection('webhook_deliveries').find({ orgId: owner.orgId }).toArray())
    .filter((d) => !filter.status || d.status === filter.status);
  return { b, owner, api, deliveries, webhooks: b.services.webhooks! };
}

t.test('envelope, signature, retries after 1, 5 and 30 minutes, then delivered; 1 KB of answer kept', async (t) => {
  const { b, owner, api, deliveries, webhooks } = await setup(t);
  const rx = await receiver(t, { failTimes: 3 });
  const created = await api('POST', '/api/webhooks', { url: rx.url, events: ['scan.completed'], secret: 'whsec_0123456789abcdef' });
  t.equal(created.statusCode, 201);
  t.match(created.json(), { url: rx.url, events: ['scan.completed'], active: true, secret: '********cdef', lastDelivery: null });

  await b.ctx.bus.emit('scan.started', owner.orgId, { scanId: 'a'.repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: 'x/y', triggeredBy: 'manual' });
  t.equal((await deliveries()).length, 0, 'an event the webhook did not subscribe to: no delivery');
  await b.ctx.bus.emit('scan.completed', owner.orgId, SCAN());
  const [queued] = await deliveries();
  t.match(queued, { status: 'pending', attempts: 0, event: 'scan.completed' }, 'the delivery is recorded when the event happens, before any send');
  t.equal(rx.received.length, 0, 'nothing sent yet');

  const t0 = queued.createdAt.getTime();
  let stats = await webhooks.runDue(new Date(t0));
  t.match(stats, { attempts: 1, retried: 1 });
  let [d] = await deliveries();
  t.equal(d.nextAt.getTime(), t0 + 1 * MIN, '1st retry after 1 minute');
  t.equal(d.lastStatusCode, 500);
  t.equal(d.lastResponse.length, 1024, 'the 5,000-character answer is kept to 1 KB');
  t.equal((await webhooks.runDue(new Date(t0 + MIN - 1000))).attempts, 0, 'not before its time');
  await webhooks.runDue(new Date(t0 + MIN));
  [d] = await deliveries();
  t.equal(d.nextAt.getTime(), t0 + 6 * MIN, '2nd retry 5 minutes after the 1st');
  await webhooks.runDue(new Date(t0 + 6 * MIN));
  [d] = await deliveries();
  t.equal(d.nextAt.getTime(), t0 + 36 * MIN, '3rd retry 30 minutes after the 2nd');
  stats = await webhooks.runDue(new Date(t0 + 36 * MIN));
  t.match(stats, { attempts: 1, delivered: 1 });
  [d] = await deliveries();
  t.match(d, { status: 'delivered', attempts: 4, lastStatusCode: 200, lastResponse: 'ok' });

  t.equal(rx.received.length, 4, 'four requests: three failures and the success');
  const bodies = rx.received.map((r) => JSON.parse(r.body));
  t.ok(bodies.every((x) => x.id === bodies[0].id), 'every attempt carries the same event id');
  t.ok(rx.received.every((r) => r.headers['x-service-event-id'] === bodies[0].id), 'and X-Service-Event-Id, the id receivers deduplicate by');
  t.match(bodies[0], { id: /^evt_/, event: 'scan.completed', timestamp: String, organization: { id: owner.orgId, name: String }, data: SCAN() });
  t.same(rx.received.map((r) => r.headers['x-service-attempt']), ['0', '1', '2', '3']);
  for (const r of rx.received) {
    const expected = `sha256=${createHmac('sha256', 'whsec_0123456789abcdef').update(r.body).digest('hex')}`;
    t.equal(r.headers['x-service-signature'], expected, 'X-Service-Signature is the HMAC-SHA256 of the raw body');
    t.equal(r.headers['content-type'], 'application/json');
  }
  const list = (await api('GET', '/api/webhooks')).json();
  t.match(list.webhooks[0].lastDelivery, { status: 'delivered', timestamp: new Date(t0 + 36 * MIN).toISOString() }, 'lastDelivery kept');
  t.notOk(JSON.stringify(list).includes('whsec_0123456789abcdef'), 'the secret is never returned');
  const stored = await b.ctx.db.db.collection('webhooks').findOne({ orgId: owner.orgId });
  t.notOk(JSON.stringify(stored).includes('whsec_0123456789abcdef'), 'the secret is stored encrypted');
});

t.test('failed after the 4th failed retry (2 hours); 10 consecutive failed deliveries deactivate the webhook, audited', async (t) => {
  const { b, owner, api, deliveries, webhooks } = await setup(t);
  const rx = await receiver(t, { status: 503 });
  const hook = (await api('POST', '/api/webhooks', { url: rx.url, events: ['drift.detected'] })).json();
  const drift = { scanId: 'a'.repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: 'acme/infra', count: 1, drifts: [{ _id: 'c'.repeat(24), resourceAddress: 'aws_s3_bucket.logs', severity: 'high' as const }] };
  const runSchedule = async (t0: number) => {
    for (const at of [0, 1, 6, 36]) await webhooks.runDue(new Date(t0 + at * MIN));
    await webhooks.runDue(new Date(t0 + 156 * MIN - 1000));
    return webhooks.runDue(new Date(t0 + 156 * MIN));
  };
  for (let i = 0; i < 9; i++) await b.ctx.bus.emit('drift.detected', owner.orgId, drift);
  const t0 = Date.now();
  const last = await runSchedule(t0);
  t.equal(last.failed, 9, 'the 4th retry, 2 hours after the 3rd, fails: each delivery is failed');
  t.equal(rx.received.length, 45, 'five attempts per delivery, no more');
  t.equal((await api('GET', '/api/webhooks')).json().webhooks[0].active, true, 'nine failed deliveries: still active');

  await b.ctx.bus.emit('drift.detected', owner.orgId, drift);
  const t1 = t0 + 200 * MIN;
  await runSchedule(t1);
  t.equal((await deliveries({ status: 'failed' })).length, 10);
  const after = (await api('GET', '/api/webhooks')).json().webhooks[0];
  t.match(after, { _id: hook._id, active: false, lastDelivery: { status: 'failed' } }, 'the 10th failed delivery deactivates it');
  await b.ctx.audit.flush();
  const audit = await b.ctx.db.db.collection('audit_logs').find({ orgId: owner.orgId, action: 'webhook.deactivated' }).toArray();
  t.equal(audit.length, 1, 'the deactivation is audited once');
  t.equal(audit[0].resourceId, hook._id);

  await b.ctx.bus.emit('drift.detected', owner.orgId, drift);
  t.equal((await deliveries()).length, 10, 'an inactive webhook gets no new delivery');
  const back = await api('PUT', `/api/webhooks/${hook._id}`, { active: true });
  t.equal(back.json().active, true, 're-activated by its owner');
  await b.ctx.bus.emit('drift.detected', owner.orgId, drift);
  await runSchedule(t1 + 200 * MIN);
  t.equal((await api('GET', '/api/webhooks')).json().webhooks[0].active, true, 'failures before the re-activation do not count again');
});

t.test('each attempt is sent once with several workers racing', async (t) => {
  const { b, owner, api, webhooks } = await setup(t);
  const rx = await receiver(t, { answer: (n) => ({ status: n % 3 === 0 ? 500 : 200 }) });
  await api('POST', '/api/webhooks', { url: rx.url, events: ['scan.completed', 'scan.failed'] });
  for (let i = 0; i < 30; i++) await b.ctx.bus.emit('scan.completed', owner.orgId, SCAN(`acme/r${i}`));
  const now = new Date(Date.now() + 1000);
  await Promise.all(Array.from({ length: 6 }, () => webhooks.runDue(now)));
  const keys = rx.received.map((r) => `${JSON.parse(r.body).id}:${r.headers['x-service-attempt']}`);
  t.equal(keys.length, 30, 'thirty first attempts sent');
  t.equal(new Set(keys).size, 30, 'none twice');
  await Promise.all(Array.from({ length: 6 }, () => webhooks.runDue(new Date(now.getTime() + MIN))));
  const all = rx.received.map((r) => `${JSON.parse(r.body).id}:${r.headers['x-service-attempt']}`);
  t.equal(all.length, 40, 'the ten failed ones retried once each');
  t.equal(new Set(all).size, 40, 'none twice');
});

t.test('an attempt whose worker died is counted failed and retried on schedule, never sent twice', async (t) => {
  const { b, owner, api, deliveries, webhooks } = await setup(t);
  const rx = await receiver(t);
  await api('POST', '/api/webhooks', { url: rx.url, events: ['scan.completed'] });
  await b.ctx.bus.emit('scan.completed', owner.orgId, SCAN());
  const [d] = await deliveries();
  // A worker claimed attempt 0 and died before sending or recording it.
  await b.ctx.db.db.collection('webhook_attempts').insertOne({ _id: `${d._id}:0` as never, orgId: owner.orgId, deliveryId: d._id, attempt: 0, claimedAt: d.createdAt });
  t.equal((await webhooks.runDue(new Date(d.createdAt.getTime() + 1000))).attempts, 0, 'a fresh claim of another worker is left alone');
  const stats = await webhooks.runDue(new Date(d.createdAt.getTime() + 2 * MIN));
  t.equal(stats.abandoned, 1, 'a stale claim without an outcome is given up');
  const [after] = await deliveries();
  t.match(after, { status: 'pending', attempts: 1 });
  await webhooks.runDue(new Date(after.nextAt.getTime()));
  t.equal(rx.received.length, 1);
  t.equal(rx.received[0].headers['x-service-attempt'], '1', 'attempt 1 is sent; attempt 0 never is');
  t.equal((await deliveries())[0].status, 'delivered');
});

t.test('POST /:id/test answers success, or success false with the reason, never a 5xx', async (t) => {
  const { b, owner, api } = await setup(t, { WEBHOOK_TIMEOUT_MS: 400 });
  const ok = await receiver(t);
  const slow = await receiver(t, { answer: () => ({ status: 200, delayMs: 1500 }) });
  const teapot = await receiver(t, { status: 418 });
  const hook = async (url: string, secret?: string) => (await api('POST', '/api/webhooks', { url, events: ['member.invited'], ...(secret ? { secret } : {}) })).json()._id as string;
  const okId = await hook(ok.url, 'sekret-123456');
  const res = await api('POST', `/api/webhooks/${okId}/test`);
  t.equal(res.statusCode, 200);
  t.match(res.json(), { success: true, statusCode: 200, responseTime: Number, message: String });
  const sent = JSON.parse(ok.received[0].body);
  t.match(sent, { id: /^evt_/, event: 'webhook.test', organization: { id: owner.orgId } });
  t.equal(ok.received[0].headers['x-service-signature'], `sha256=${createHmac('sha256', 'sekret-123456').update(ok.received[0].body).digest('hex')}`);

  const timeout = (await api('POST', `/api/webhooks/${await hook(slow.url)}/test`)).json();
  t.match(timeout, { success: false, error: /Timed out/ }, 'timeout');
  const refused = (await api('POST', `/api/webhooks/${await hook(teapot.url)}/test`)).json();
  t.match(refused, { success: false, statusCode: 418, error: /418/ }, 'non-2xx answer');
  const closedPort = (await api('POST', `/api/webhooks/${await hook('https://127.0.0.1:1/hook')}/test`)).json();
  t.match(closedPort, { success: false, statusCode: null, error: /Unreachable/ }, 'unreachable');
  // A webhook saved before the address became private (or the allow-list changed): refused at send.
  const id = await hook(ok.url);
  await b.ctx.db.db.collection('webhooks').updateOne({ _id: id as never }, { $set: { url: 'https://10.1.2.3/hook' } });
  t.match((await api('POST', `/api/webhooks/${id}/test`)).json(), { success: false, error: /Refused/ }, 'refused by the SSRF guard at send time');
});

t.test('routes: https only, events from the list, update, delete 204, Enterprise only, another org 404', async (t) => {
  const { b, api } = await setup(t);
  const rx = await receiver(t);
  t.equal((await api('POST', '/api/webhooks', { url: 'http://127.0.0.1/x', events: ['scan.completed'] })).statusCode, 400, 'http: 400');
  t.equal((await api('POST', '/api/webhooks', { url: rx.url, events: ['scan.exploded'] })).statusCode, 400, 'unknown event: 400');
  t.equal((await api('POST', '/api/webhooks', { url: rx.url, events: [] })).statusCode, 400, 'no event: 400');
  const id = (await api('POST', '/api/webhooks', { url: rx.url, events: ['scan.completed'], active: false })).json()._id;
  const upd = await api('PUT', `/api/webhooks/${id}`, { events: ['drift.detected', 'guardrail.violated'], secret: 'another-secret-99', active: true });
  t.match(upd.json(), { events: ['drift.detected', 'guardrail.violated'], secret: '********t-99', active: true });
  t.equal((await api('PUT', `/api/webhooks/${id}`, { secret: null })).json().secret, null, 'secret removed');
  const other = await register(b.app);
  await b.ctx.tenancy.setPlan(other.orgId, 'enterprise');
  t.equal((await b.app.inject({ method: 'PUT', url: `/api/webhooks/${id}`, headers: bearer(other.token), payload: { active: false } })).statusCode, 404, "another organization's webhook: 404");
  const free = await register(b.app);
  t.equal((await b.app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(free.token) })).statusCode, 403, 'Free plan: 403');
  t.equal((await api('DELETE', `/api/webhooks/${id}`)).statusCode, 204);
  t.equal((await api('DELETE', `/api/webhooks/${id}`)).statusCode, 404);
});

t.test('member.invited and member.removed reach a subscribed webhook', async (t) => {
  const { b, owner, api, webhooks } = await setup(t);
  const rx = await receiver(t);
  await api('POST', '/api/webhooks', { url: rx.url, events: ['member.invited', 'member.removed'] });
  const inv = await api('POST', `/api/orgs/${owner.orgId}/invitations/link`, { role: 'member' });
  t.equal(inv.statusCode, 201);
  const member = await register(b.app);
  const token = new URL(inv.json().link).searchParams.get('token');
  t.equal((await b.app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(member.token), payload: { token } })).statusCode, 200);
  t.equal((await api('DELETE', `/api/orgs/${owner.orgId}/members/${member.userId}`)).statusCode, 204);
  await webhooks.runDue(new Date(Date.now() + 1000));
  const events = rx.received.map((r) => JSON.parse(r.body));
  t.match(events.find((e) => e.event === 'member.invited'), { data: { invitationId: inv.json()._id, role: 'member', invitedBy: { id: owner.userId } } });
  t.match(events.find((e) => e.event === 'member.removed'), { data: { userId: member.userId, email: member.email, role: 'member', removedBy: { id: owner.userId } } });
});
