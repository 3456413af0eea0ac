// Drift Watch runs: one per tick, events from the scan's result, failed scans, notifyOn; snooze
// and its expiry; the accepted baseline. Scan results are recorded through the scans service here;
// watch-moto.test.ts runs the built-in executor against moto. Routes and templates: watch.test.ts.
import t from 'tap';
import { drift } from '../../fixtures/world.ts';
import type { ReportedDrift } from '../../../plugins/scans/schemas.ts';
import { SNOOZE_JOB } from '../../../plugins/drift-watch/service.ts';
import { setup, HOUR } from './watch-setup.ts';

t.test('runs: one per tick, detected then resolved then passed, failed scans, notifyOn', async (t) => {
  const { w, watch, emitted, create, run, events, notifications, audit } = await setup(t);
  const c = await w.config('acme/run');
  const x = await create({ name: 'Nightly', repositoryId: c, interval: '1h' });

  // The same tick in five processes: one scan.
  const at = new Date();
  const ticks = await Promise.all(Array.from({ length: 5 }, () => watch.tick(w.owner.orgId, x._id, at)));
  t.equal(ticks.filter((r) => r.ran).length, 1, 'one of five concurrent runs of the tick starts a scan');
  const first = ticks.find((r) => r.ran)!;
  t.match(await watch.tick(w.owner.orgId, x._id, new Date(at.getTime() + 1000)), { ran: false }, 'a second run within the same fire minute does nothing');
  t.match((await w.api('GET', `/api/scans/${first.scanId}`)).body.data, { status: 'pending', triggeredBy: 'schedule', repositoryConfig: c }, 'the run started a scheduled scan of the config');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { lastRunStatus: 'running', lastScanId: first.scanId }, 'running until its scan ends');
  await w.scans.recordScanResult(w.owner.orgId, first.scanId!, { status: 'completed', drifts: [drift('bucket.a', 'high'), drift('role.b', 'low')] });

  const drifts = await w.ctx.db.db.collection('drifts').find({ orgId: w.owner.orgId, repositoryConfig: c }).toArray();
  const detected = (await events('?type=drift_detected')).events;
  t.equal(detected.length, 2, 'drift_detected for each new drift');
  t.same(detected.map((e: { driftId: string }) => e.driftId).sort(), drifts.map((d) => String(d._id)).sort(), 'naming each drift');
  t.match(detected[0], { watchId: x._id, watchName: 'Nightly', repositoryId: c, scanId: first.scanId });
  const after1 = (await w.api('GET', `/api/drift-watch/${x._id}`)).body;
  t.match(after1, { driftCount: 2, lastRunStatus: 'drift' }, 'driftCount and status');
  t.ok(after1.lastRun, 'lastRun set');
  t.equal(emitted.length, 1, 'notifyOn drift: watch.drift_detected on new drift');
  t.match(emitted[0].data, { watchId: x._id, newDriftCount: 2, driftCount: 2, scanId: first.scanId });
  t.equal(emitted[0].data.driftIds.length, 2);
  t.equal((await notifications()).length, 1, 'and one in-app notification');

  // The same drifts again: nothing new, no notification under notifyOn drift.
  await run(x._id, { drifts: [drift('bucket.a', 'high'), drift('role.b', 'low')] });
  t.equal((await events()).total, 2, 'no event for drifts found again');
  t.equal(emitted.length, 1, 'no new drift: no event under notifyOn drift');

  // One resolved.
  await run(x._id, { drifts: [drift('bucket.a', 'high')] });
  const resolved = (await events('?type=drift_resolved')).events;
  t.equal(resolved.length, 1, 'drift_resolved for the drift gone');
  t.equal(resolved[0].resourceAddress, 'role.b');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { driftCount: 1, lastRunStatus: 'drift' });

  // A failed scan: recorded, not a pass.
  await run(x._id, { error: 'clone failed' });
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { lastRunStatus: 'failed', lastError: 'clone failed', driftCount: 1 }, 'a failed scan is recorded as failed');
  t.equal((await events('?type=check_passed')).total, 0, 'and is no pass');
  t.ok((await audit('drift_watch.check_failed')).length === 1, 'check results are audited');

  // None left: resolved, then passed.
  await run(x._id, { drifts: [] });
  t.equal((await events('?type=drift_resolved')).total, 2);
  t.equal((await events('?type=check_passed')).total, 1, 'check_passed when none is left');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { driftCount: 0, lastRunStatus: 'passed', lastError: null });
  await run(x._id, { drifts: [] });
  t.equal((await events('?type=check_passed')).total, 2, 'passed again');

  // notifyOn all: every run; none: never.
  await w.api('PATCH', `/api/drift-watch/${x._id}`, { notifyOn: 'all' });
  await run(x._id, { drifts: [] });
  t.match(emitted.at(-1)?.data, { newDriftCount: 0, driftCount: 0 }, 'notifyOn all: every run');
  t.equal((await notifications()).length, 2);
  await w.api('PATCH', `/api/drift-watch/${x._id}`, { notifyOn: 'none' });
  const before = emitted.length;
  await run(x._id, { drifts: [drift('bucket.z', 'critical')] });
  t.equal(emitted.length, before, 'notifyOn none: never');
  t.equal((await events('?type=drift_detected')).total, 3, 'events are written whatever notifyOn says');

  // Filters: a watch of critical drifts only.
  await w.api('PATCH', `/api/drift-watch/${x._id}`, { filters: { severity: ['critical'] } });
  await run(x._id, { drifts: [drift('bucket.z', 'critical'), drift('role.low', 'low')] });
  t.equal((await events('?type=drift_detected')).total, 3, 'a low drift is not a critical watch\'s event');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { driftCount: 1 }, 'nor counted');

  // Paging and filters of the event list.
  const all = await events('?limit=2');
  t.match(all, { page: 1, pages: Math.ceil(all.total / 2) });
  t.equal(all.events.length, 2);
  t.equal((await events(`?watchId=${'b'.repeat(24)}`)).total, 0, 'watchId filter');
  t.equal((await events(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total, 0, 'from filter');
  t.equal((await events(`?to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total, all.total, 'to filter');
  t.equal((await w.api('GET', '/api/drift-watch/events?type=exploded')).status, 400, 'type enum');
  t.equal((await w.api('GET', '/api/drift-watch/events?from=yesterday')).status, 400, 'from is a date-time');

  const summary = (await w.api('GET', '/api/drift-watch/events/summary')).body;
  t.same(summary, { totalEvents: all.total, driftDetected: 3, driftResolved: 2, checksPassed: 3, activeWatches: 1, snoozedWatches: 0 }, 'summary counts');

  const analyticsRes = await w.api('GET', '/api/drift-watch/analytics?period=7d');
  t.equal(analyticsRes.status, 200, JSON.stringify(analyticsRes.body).slice(0, 300));
  const analytics = analyticsRes.body;
  t.equal(analytics.days.length, 7, 'one row per UTC day of the period');
  t.match(analytics.days.at(-1), { detected: 3, resolved: 2, checksPassed: 3 }, "today's row");
  t.match(analytics.totals, { detected: 3, resolved: 2 });
  t.type(analytics.meanTimeToResolveHours, 'number', 'mean time to resolve');
  t.same(analytics.mostDriftingResources.map((r: { resourceAddress: string }) => r.resourceAddress).sort(), ['bucket.a', 'bucket.z', 'role.b']);
  t.match(analytics.mostDriftingWatches, [{ watchId: x._id, name: 'Nightly', detections: 3 }]);
  t.equal((await w.api('GET', '/api/drift-watch/analytics')).body.days.length, 30, 'period 30d by default');
  t.equal((await w.api('GET', '/api/drift-watch/analytics?period=90d')).body.days.length, 90);
  t.equal((await w.api('GET', '/api/drift-watch/analytics?period=1y')).status, 400, 'period enum');
});

t.test('snooze: events go on, notifications stop; unsnooze; expiry with the clock moved', async (t) => {
  const { w, watch, emitted, create, run, events, notifications, jobs, audit } = await setup(t);
  const c = await w.config('acme/snooze');
  const x = await create({ name: 'Loud', repositoryId: c, interval: '1h', notifyOn: 'all' });

  t.equal((await w.api('POST', `/api/drift-watch/${x._id}/snooze`, { duration: '2d' })).status, 400, 'duration enum');
  t.equal((await w.api('POST', `/api/drift-watch/${x._id}/snooze`, {})).status, 400, 'duration required');
  const before = Date.now();
  const snoozed = (await w.api('POST', `/api/drift-watch/${x._id}/snooze`, { duration: '7d', reason: 'maintenance window' })).body;
  t.match(snoozed, { status: 'snoozed', snoozeReason: 'maintenance window' });
  const until = new Date(snoozed.snoozedUntil).getTime();
  t.ok(until >= before + 7 * 24 * HOUR && until <= Date.now() + 7 * 24 * HOUR, 'snoozedUntil seven days on');
  const [expiry] = await jobs(SNOOZE_JOB, x._id);
  t.equal(new Date(expiry?.nextRunAt).getTime(), until, 'the expiry job is due then');

  await run(x._id, { drifts: [drift('bucket.a')] });
  t.equal((await events('?type=drift_detected')).total, 1, 'a snoozed watch still runs and writes events');
  t.equal(emitted.length, 0, 'no watch.drift_detected while snoozed');
  t.equal((await notifications()).length, 0, 'no notification while snoozed');
  t.equal((await w.api('GET', '/api/drift-watch/events/summary')).body.snoozedWatches, 1);

  t.equal((await w.api('POST', `/api/drift-watch/${x._id}/unsnooze`)).body.status, 'active', 'unsnooze');
  t.equal((await w.api('POST', `/api/drift-watch/${x._id}/unsnooze`)).status, 409, 'unsnoozing an active watch is 409');
  await run(x._id, { drifts: [drift('bucket.a'), drift('bucket.b')] });
  t.equal(emitted.length, 1, 'monitoring with notifications resumes');
  t.equal((await notifications()).length, 1);

  // Expiry: the job finds the snooze over only once its time has come.
  const again = (await w.api('POST', `/api/drift-watch/${x._id}/snooze`, { duration: '1h' })).body;
  const end = new Date(again.snoozedUntil).getTime();
  t.equal((await watch.expireSnooze(w.owner.orgId, x._id, new Date(end - 1000)))?.status, 'snoozed', 'not before snoozedUntil');
  t.equal((await watch.expireSnooze(w.owner.orgId, x._id, new Date(end + 1000)))?.status, 'active', 'active once it has passed');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { status: 'active', snoozedUntil: null, snoozeReason: null });

  // A run after snoozedUntil, before the expiry job: the watch is active again and notifies.
  const third = (await w.api('POST', `/api/drift-watch/${x._id}/snooze`, { duration: '1h' })).body;
  const out = await watch.tick(w.owner.orgId, x._id, new Date(new Date(third.snoozedUntil).getTime() + 5 * 60_000));
  if (!out.ran || !out.scanId) throw new Error(`no run: ${JSON.stringify(out)}`);
  t.pass('a tick after the snooze ran out runs');
  await w.scans.recordScanResult(w.owner.orgId, out.scanId, { status: 'completed', drifts: [] });
  t.equal((await w.api('GET', `/api/drift-watch/${x._id}`)).body.status, 'active', 'and ends the snooze');
  t.equal(emitted.length, 2, 'notifying again');
  for (const action of ['drift_watch.snoozed', 'drift_watch.unsnoozed']) t.equal((await audit(action)).length >= 1, true, `audited as ${action}`);
});

t.test('accept: the baseline is not reported again until its value changes', async (t) => {
  const { w, create, run, events, emitted, audit } = await setup(t);
  const c = await w.config('acme/accept');
  const x = await create({ name: 'Baseline', repositoryId: c, interval: '24h' });
  const tagged = (actual: string): ReportedDrift => ({ ...drift('bucket.a', 'high'), diff: { changes: [{ attribute: 'tags.env', before: 'prod', after: actual }] } });

  await run(x._id, { drifts: [tagged('staging'), drift('role.r', 'low')] });
  t.equal((await events('?type=drift_detected')).total, 2);
  const ack = await w.ctx.db.db.collection('drifts').findOne({ orgId: w.owner.orgId, repositoryConfig: c, openKey: 'open', resourceAddress: 'role.r' });
  await w.api('PATCH', `/api/drifts/${ack!._id}/status`, { status: 'acknowledged' });

  const accepted = await w.api('POST', `/api/drift-watch/${x._id}/accept`);
  t.match(accepted, { status: 200, body: { accepted: 2 } }, 'both open drifts accepted');
  const bucket = await w.ctx.db.db.collection('drifts').findOne({ orgId: w.owner.orgId, repositoryConfig: c, openKey: 'open', resourceAddress: 'bucket.a' });
  const view = (await w.api('GET', `/api/drifts/${bucket!._id}`)).body.data;
  t.match(view, { status: 'detected', accepted: { by: w.owner.userId, diff: { changes: [{ after: 'staging' }] } } }, 'it keeps its status, marked accepted by whom with the diff');
  t.ok(view.accepted.at, 'and when');
  t.equal((await w.api('GET', `/api/drifts/${ack!._id}`)).body.data.status, 'acknowledged', 'an acknowledged drift stays acknowledged');
  t.match((await audit('drift_watch.baseline_accepted'))[0], { details: { watchId: x._id, accepted: 2 } }, 'audited as drift_watch.baseline_accepted');

  const seen = emitted.length;
  await run(x._id, { drifts: [tagged('staging'), drift('role.r', 'low')] });
  t.equal((await events('?type=drift_detected')).total, 2, 'the same values: not reported again');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { driftCount: 0, lastRunStatus: 'passed' }, 'accepted drifts are not counted');
  t.equal(emitted.length, seen, 'no notification');

  await run(x._id, { drifts: [tagged('dev'), drift('role.r', 'low')] });
  const detected = (await events('?type=drift_detected')).events;
  t.equal(detected.length, 3, 'another value: reported again');
  t.equal(detected[0].driftId, String(bucket!._id), 'as the same drift');
  t.match((await w.api('GET', `/api/drifts/${bucket!._id}`)).body.data, { accepted: null, status: 'detected', diff: { changes: [{ after: 'dev' }] } }, 'no longer accepted');
  t.match((await w.api('GET', `/api/drift-watch/${x._id}`)).body, { driftCount: 1, lastRunStatus: 'drift' });
  t.match(emitted.at(-1)?.data, { newDriftCount: 1, driftIds: [String(bucket!._id)] }, 'and notified');
  const scan = (await w.api('GET', `/api/drift-watch/${x._id}`)).body.lastScanId;
  t.match((await w.api('GET', `/api/scans/${scan}`)).body.data, { newDrifts: 1 }, 'the scan counts it among its new drifts');
});

