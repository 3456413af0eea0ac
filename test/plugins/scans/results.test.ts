import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';
import { EXECUTE_JOB } from '../../../plugins/scans/service.ts';
import type { DomainEvent } from '../../../core/events.ts';
import { createRecorder } from '../../../plugins/scans/record.ts';
import { createScanStore } from '../../../plugins/scans/store.ts';
import { createManagedStore } from '../../../plugins/scans/managed-store.ts';
import { createAnnotators } from '../../../plugins/drifts/annotators.ts';
import { createLifecycleStore } from '../../../plugins/drifts/lifecycle-store.ts';
import { createReconciler } from '../../../plugins/drifts/reconcile.ts';

t.test('result recording: life cycle, events, idempotent, concurrent double report', async (t) => {
  const w = await world(t);
  const events: DomainEvent[] = [];
  for (const type of ['scan.started', 'scan.completed', 'scan.failed', 'drift.detected', 'drift.resolved'] as const) w.ctx.bus.on(type, (e) => { events.push(e); });
  const c = await w.config();
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  const running = await Promise.all(Array.from({ length: 5 }, () => w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'running' })));
  t.equal(running.filter((r) => r.changed).length, 1, 'five concurrent running reports: one changes the scan');
  t.equal(events.filter((e) => e.type === 'scan.started').length, 1, 'scan.started emitted once');

  const result = { status: 'completed' as const, drifts: [drift('bucket.a'), drift('bucket.b', 'low'), drift('role.c', 'critical')] };
  const outcomes = await Promise.all(Array.from({ length: 10 }, () => w.scans.recordScanResult(w.owner.orgId, scan._id, result)));
  t.equal(outcomes.filter((o) => o.changed).length, 1, 'ten concurrent identical results: one is recorded');
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId }), 3, 'one set of drifts');
  const again = await w.scans.recordScanResult(w.owner.orgId, scan._id, result);
  t.notOk(again.changed, 'reporting it again later changes nothing');
  const failedLate = await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'failed', error: 'late' });
  t.notOk(failedLate.changed, 'nor does a failure after completion');
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId }), 3, 'still one set of drifts');
  const stored = (await w.api('GET', `/api/scans/${scan._id}`)).body.data;
  t.match(stored, { status: 'completed', driftCount: 3, newDrifts: 3, resolvedDrifts: 0 }, 'the scan is completed with its counts');
  t.ok(stored.startedAt && stored.completedAt, 'with startedAt and completedAt');
  t.same(events.map((e) => e.type), ['scan.started', 'scan.completed', 'drift.detected'], 'events: started, completed, detected, once each');
  t.match(events[2].data, { scanId: scan._id, repositoryConfigId: c, repositoryName: 'acme/infra', count: 3 }, 'drift.detected names the scan and counts');

  await t.rejects(w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'completed', drifts: [{ resourceType: 'x' }] } as never), { statusCode: 400 } as never, 'a malformed result is refused');
  await t.rejects(w.scans.recordScanResult(w.owner.orgId, 'f'.repeat(24), { status: 'running' }), { statusCode: 404 } as never, 'an unknown scan is a 404');
});

t.test('dedupe by config and address, auto-resolve, ignored stays', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const first = await w.scanWith(c, [drift('bucket.a'), drift('bucket.b'), drift('role.c'), drift('role.d')]);
  const byAddr = async () => Object.fromEntries((await w.ctx.db.db.collection('drifts').find({ orgId: w.owner.orgId }).toArray()).map((d) => [d.resourceAddress + (d.status === 'resolved' ? ':resolved' : ''), d]));
  const before = await byAddr();
  await w.api('PATCH', `/api/drifts/${before['role.d']._id}/status`, { status: 'ignored' });

  const second = await w.scanWith(c, [{ ...drift('bucket.a', 'critical'), diff: { changes: [{ attribute: 'acl', before: 'private', after: 'public-read' }] } }, drift('bucket.e')]);
  const after = await byAddr();
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId }), 5, 'a drift found again is not duplicated');
  t.equal(after['bucket.a']._id, before['bucket.a']._id, 'bucket.a keeps its record');
  t.match(after['bucket.a'], { status: 'detected', severity: 'critical', scan: first, lastScan: second }, 'updated: severity, lastScan');
  t.same(after['bucket.a'].diff, { changes: [{ attribute: 'acl', before: 'private', after: 'public-read' }] }, 'and the diff: the latest scan says how it differs now');
  t.match(after['bucket.b:resolved'], { status: 'resolved', resolvedBy: 'scan' }, 'bucket.b, not found again, resolved on its own');
  t.match(after['role.c:resolved'], { status: 'resolved' }, 'role.c too');
  t.match(after['role.d'], { status: 'ignored' }, 'an ignored drift stays ignored');
  t.match(after['bucket.e'], { status: 'detected', scan: second }, 'a new drift is new');
  t.match((await w.api('GET', `/api/scans/${second}`)).body.data, { driftCount: 2, newDrifts: 1, resolvedDrifts: 2 });

  await w.scanWith(c, [drift('bucket.b')]);
  const bs = (await w.ctx.db.db.collection('drifts').find({ orgId: w.owner.orgId }).toArray()).filter((d) => d.resourceAddress === 'bucket.b');
  t.equal(bs.length, 2, 'a resolved drift that comes back is a new record');

  const other = await w.config('acme/other');
  await w.scanWith(other, [drift('bucket.a')]);
  t.equal((await w.ctx.db.db.collection('drifts').find({ orgId: w.owner.orgId }).toArray()).filter((d) => d.resourceAddress === 'bucket.a').length, 2, 'the same address in another config is another drift');
});

t.test('recording a result costs a handful of statements whatever N is', async (t) => {
  const w = await world(t);
  const measure = async (configId: string, drifts: ReturnType<typeof drift>[]) => {
    const scan = await w.scans.trigger(w.owner.orgId, configId, null);
    const before = w.ctx.db.commandCount();
    await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'completed', drifts });
    return w.ctx.db.commandCount() - before;
  };
  const many = (n: number, severity: 'high' | 'low' = 'high') => Array.from({ length: n }, (_, i) => drift(`res.r${i}`, i % 2 ? severity : 'high'));
  const ten = await measure(await w.config('acme/ten'), many(10));
  const big = await w.config('acme/big');
  const fiveHundred = await measure(big, many(500));
  // Every command counted, bus subscribers included: notifications, and the webhook outbox's
  // two reads per event (the org's subscribed webhooks and its chat settings); and the
  // cloud-events notes (issue #24): the previous scan (the window), whether the organization sent
  // events in it, and the noise rules (the events touching the drifts' ids when they carry ids);
  // and Cloud Discovery's reclassification on scan.completed (issue #21; one read when the
  // organization has discovered nothing).
  t.ok(ten <= 22, `N=10, all new: ${ten} commands`);
  t.equal(fiveHundred, ten, `N=500, all new: ${fiveHundred} commands, the same`);
  const again = await measure(big, many(400, 'low'));
  t.ok(again <= ten + 4, `N=400 found again (two severities), 100 resolved: ${again} commands`);
  const rows = await w.ctx.db.db.collection('drifts').aggregate([{ $match: { orgId: w.owner.orgId, repositoryConfig: big } }, { $group: { _id: { status: '$status', severity: '$severity' }, n: { $sum: 1 } } }]).toArray();
  const n = (status: string, severity: string) => rows.find((r) => r._id.status === status && r._id.severity === severity)?.n ?? 0;
  t.same([n('detected', 'high'), n('detected', 'low'), n('resolved', 'high')], [200, 200, 100], 'with the right outcome: 200 high, 200 now low, 100 resolved');
});

t.test('timeout: a scan pending or running too long fails once', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  t.equal(await w.scans.expire(w.owner.orgId, scan._id, new Date()), null, 'not yet due: nothing');
  const later = new Date(Date.now() + 61 * 60 * 1000);
  const outcomes = await Promise.all([1, 2, 3].map(() => w.scans.expire(w.owner.orgId, scan._id, later)));
  t.equal(outcomes.filter((o) => o?.changed).length, 1, 'three timeout runs fail it once');
  t.match((await w.api('GET', `/api/scans/${scan._id}`)).body.data, { status: 'failed', error: 'No executor picked up the scan within 60 minutes' });

  const run = await w.scans.trigger(w.owner.orgId, c, null);
  await w.scans.recordScanResult(w.owner.orgId, run._id, { status: 'running' });
  await w.scans.expire(w.owner.orgId, run._id, later);
  t.match((await w.api('GET', `/api/scans/${run._id}`)).body.data, { status: 'failed', error: 'The scan did not finish within 60 minutes' });
  const timeoutJobs = await w.ctx.db.db.collection('agenda_jobs').countDocuments({ name: 'scans.timeout', 'data.scanId': run._id });
  t.ok(timeoutJobs >= 1, 'timeout jobs are scheduled in Agenda');

  // The job planned at trigger time finds the scan running but not yet due: it plans another
  // for when it is (in case the one planned on start was never written).
  const slow = await w.scans.trigger(w.owner.orgId, c, null);
  await w.scans.recordScanResult(w.owner.orgId, slow._id, { status: 'running' });
  const jobs = w.ctx.db.db.collection('agenda_jobs');
  await jobs.deleteMany({ name: 'scans.timeout', 'data.scanId': slow._id });
  t.equal(await w.scans.expire(w.owner.orgId, slow._id, new Date()), null, 'running, not due: nothing yet');
  t.equal(await jobs.countDocuments({ name: 'scans.timeout', 'data.scanId': slow._id }), 1, 'but a timeout job is planned for when it is due');
});

t.test('a result whose writes fail is recorded by the retry; a claim left by a dead process is taken over', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const configs = w.services['repo-configs']!;
  let failNext = true;
  // The real stores, with one fault: the last write of a result (the config's lastScan) fails once.
  const recorder = createRecorder(w.ctx, {
    scans: createScanStore(w.ctx.db), managed: createManagedStore(w.ctx.db), drifts: w.services.drifts!, onRunning: async () => undefined,
    configs: { async recordScan(...args: Parameters<typeof configs.recordScan>) {
      if (failNext) { failNext = false; throw new Error('connection reset'); }
      return configs.recordScan(...args);
    } },
  });
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  const result = { status: 'completed' as const, drifts: [drift('bucket.a'), drift('bucket.b')] };
  await t.rejects(recorder.recordScanResult(w.owner.orgId, scan._id, result), /connection reset/, 'the failed write reaches the caller');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', 'the scan is not final yet');
  const retried = await recorder.recordScanResult(w.owner.orgId, scan._id, result);
  t.ok(retried.changed, 'the retry records the result');
  t.match(retried.scan, { status: 'completed', driftCount: 2, newDrifts: 2, resolvedDrifts: 0 }, 'counting the drifts the failed attempt inserted as new');
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId }), 2, 'each drift once');
  t.notOk((await recorder.recordScanResult(w.owner.orgId, scan._id, result)).changed, 'a third report changes nothing');

  // A process that claimed the result and died: its claim is stale after ten minutes.
  const orphan = await w.scans.trigger(w.owner.orgId, c, null);
  const claims = w.ctx.db.db.collection<{ _id: string; at: Date; orgId: string }>('once_keys');
  await claims.insertOne({ _id: `scan:${orphan._id}:final`, at: new Date(), orgId: w.owner.orgId });
  t.notOk((await recorder.recordScanResult(w.owner.orgId, orphan._id, { status: 'failed', error: 'x' })).changed, 'a fresh claim held elsewhere wins');
  await claims.updateOne({ _id: `scan:${orphan._id}:final` }, { $set: { at: new Date(Date.now() - 11 * 60_000) } });
  const taken = await Promise.all(Array.from({ length: 5 }, () => recorder.recordScanResult(w.owner.orgId, orphan._id, { status: 'failed', error: 'runner lost' })));
  t.equal(taken.filter((o) => o.changed).length, 1, 'a stale one is taken over by one of five concurrent reports');
  t.match((await w.api('GET', `/api/scans/${orphan._id}`)).body.data, { status: 'failed', error: 'runner lost' });
});

t.test('a scan resolves only the open drifts it read, not one a concurrent scan of the config inserted', async (t) => {
  const w = await world(t);
  const c = await w.config();
  await w.scanWith(c, [drift('bucket.old')]);
  const drifts = createLifecycleStore(w.ctx.db);
  const b = await w.scans.trigger(w.owner.orgId, c, null);
  // Scan A reads the open drifts; scan B completes right then, finding bucket.new.
  const recorder = createRecorder(w.ctx, {
    scans: createScanStore(w.ctx.db), managed: createManagedStore(w.ctx.db), configs: w.services['repo-configs']!, onRunning: async () => undefined,
    drifts: { reconcile: createReconciler({ annotators: createAnnotators(), store: { ...drifts, async openOf(orgId: string, configId: string) {
      const open = await drifts.openOf(orgId, configId);
      await w.scans.recordScanResult(orgId, b._id, { status: 'completed', drifts: [drift('bucket.old'), drift('bucket.new')] });
      return open;
    } } }) },
  });
  const a = await w.scans.trigger(w.owner.orgId, c, null);
  const outcome = await recorder.recordScanResult(w.owner.orgId, a._id, { status: 'completed', drifts: [] });
  t.match(outcome.scan, { status: 'completed', resolvedDrifts: 1 }, 'scan A resolves the one open drift it read');
  const rows = await w.ctx.db.db.collection('drifts').find({ orgId: w.owner.orgId }).toArray();
  t.match(rows.find((r) => r.resourceAddress === 'bucket.old'), { status: 'resolved', resolvedBy: 'scan' });
  t.match(rows.find((r) => r.resourceAddress === 'bucket.new'), { status: 'detected', scan: b._id }, "and leaves the one scan B inserted meanwhile");
});
