// Retention (issue 36 point 2): ended deliveries and attempt keys are purged WEBHOOK_RETENTION_DAYS
// after the day they ended or were claimed; a pending delivery is never purged and still goes out.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { receiver, receiverEnv } from './helper.ts';

const DAY = 24 * 60 * 60 * 1000;

t.test('delivered records and attempt keys purged after the retention, pending ones kept', async (t) => {
  const b = await buildTestApp(t, { env: { ...receiverEnv(), WEBHOOK_RETENTION_DAYS: 7 } });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  // One delivery is answered 200, the other 500 (it stays pending for a retry).
  const rx = await receiver(t, { answer: (n) => ({ status: n === 2 ? 500 : 200 }) });
  const hook = await b.app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { url: rx.url, events: ['scan.completed'] } });
  t.equal(hook.statusCode, 201);
  const scan = (i: number) => ({ scanId: String(i).repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: 'acme/infra', driftCount: 0, newDrifts: 0, resolvedDrifts: 0 });
  await b.ctx.bus.emit('scan.completed', owner.orgId, scan(1));
  await b.ctx.bus.emit('scan.completed', owner.orgId, scan(2));
  const webhooks = b.services.webhooks!;
  const t0 = Date.now() + 1000;
  t.match(await webhooks.runDue(new Date(t0)), { delivered: 1, retried: 1 });
  const deliveries = b.ctx.db.db.collection('webhook_deliveries');
  const attempts = b.ctx.db.db.collection('webhook_attempts');
  t.equal(await deliveries.countDocuments({ orgId: owner.orgId }), 2);
  t.equal(await attempts.countDocuments({ orgId: owner.orgId }), 2);

  t.same(await webhooks.purge(new Date(t0 + 7 * DAY)), { deliveries: 0, attempts: 0 }, '7 days later: everything kept');
  t.same(await webhooks.purge(new Date(t0 + 8 * DAY)), { deliveries: 1, attempts: 2 }, '8 days later: the delivered record and both attempt keys deleted');
  const left = await deliveries.find({ orgId: owner.orgId }).toArray();
  t.match(left, [{ status: 'pending', attempts: 1 }], 'the pending delivery is kept');
  t.same(await webhooks.purge(new Date(t0 + 8 * DAY)), { deliveries: 0, attempts: 0 }, 'a second purge deletes nothing more');

  // The pending one still goes out on its schedule (its next attempt has its own key).
  t.match(await webhooks.runDue(new Date(left[0].nextAt.getTime())), { delivered: 1 });
  t.equal(rx.received.length, 3);
});

t.test('records written before the day fields are purged by their dates, younger ones when their time comes', async (t) => {
  const b = await buildTestApp(t, { env: { ...receiverEnv(), WEBHOOK_RETENTION_DAYS: 7 } });
  const owner = await register(b.app);
  type Row = { _id: string } & Record<string, unknown>;
  const deliveries = b.ctx.db.db.collection<Row>('webhook_deliveries');
  const attempts = b.ctx.db.db.collection<Row>('webhook_attempts');
  const now = Date.parse('2026-06-20T12:00:00Z');
  const at = (days: number) => new Date(now - days * DAY);
  // As the outbox wrote them before the retention change: no completedDay, no claimedDay.
  const delivery = (id: string, status: string, completedAt: Date | null) => ({
    _id: id, orgId: owner.orgId, target: 'webhook', targetId: 'w'.repeat(24), eventId: `evt_${id}`, event: 'scan.completed', body: '{}',
    status, attempts: 1, nextAt: at(40), lastStatusCode: null, lastError: null, lastResponse: null, lastResponseTime: null,
    createdAt: at(40), completedAt,
  });
  await deliveries.insertMany([
    delivery('old-delivered', 'delivered', at(40)), delivery('old-failed', 'failed', at(9)),
    delivery('young-delivered', 'delivered', at(3)), delivery('old-pending', 'pending', null),
  ]);
  await attempts.insertMany([
    { _id: 'old-delivered:0', orgId: owner.orgId, deliveryId: 'old-delivered', attempt: 0, claimedAt: at(40) },
    { _id: 'young-delivered:0', orgId: owner.orgId, deliveryId: 'young-delivered', attempt: 0, claimedAt: at(3) },
  ]);
  const webhooks = b.services.webhooks!;
  t.same(await webhooks.purge(new Date(now)), { deliveries: 2, attempts: 1 }, 'the undated records older than the retention are deleted');
  t.same((await deliveries.find({ orgId: owner.orgId }).toArray()).map((d) => d._id).sort(), ['old-pending', 'young-delivered'], 'the younger one and the pending one are kept');
  t.same(await webhooks.purge(new Date(now)), { deliveries: 0, attempts: 0 }, 'idempotent');
  t.same(await webhooks.purge(new Date(now + 5 * DAY)), { deliveries: 1, attempts: 1 }, 'the younger one goes once its retention has passed');
  t.same((await deliveries.find({ orgId: owner.orgId }).toArray()).map((d) => d._id), ['old-pending'], 'a pending delivery is never purged');
  t.equal(await attempts.countDocuments({ orgId: owner.orgId }), 0);
});
