import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';
import { EXECUTE_JOB } from '../../../plugins/scans/service.ts';
import type { DomainEvent } from '../../../core/events.ts';

t.test('trigger, list shape, by repository, latest, get, details', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const trig = await w.api('POST', `/api/scans/trigger/${c}`);
  t.equal(trig.status, 201, 'trigger answers 201');
  const scan = trig.body.data;
  t.match(scan, { status: 'pending', triggeredBy: 'manual', repositoryConfig: c, repositoryName: 'acme/infra', driftCount: 0, startedAt: null }, 'a pending manual scan');
  const jobs = await w.ctx.db.db.collection('agenda_jobs').find({ name: EXECUTE_JOB, 'data.scanId': scan._id }).toArray();
  t.equal(jobs.length, 1, 'handed to the executor through an Agenda job');
  t.equal(trig.res.headers['ratelimit-limit'], '10', 'under the Scan rate limit');

  const second = (await w.api('POST', `/api/scans/trigger/${c}`)).body.data;
  await w.scans.recordScanResult(w.owner.orgId, second._id, { status: 'failed', error: 'boom' });
  const list = await w.api('GET', '/api/scans?limit=1');
  t.same(Object.keys(list.body).sort(), ['data', 'pagination', 'success'], '{success, data, pagination}');
  t.same(list.body.pagination, { page: 1, limit: 1, total: 2, pages: 2 }, 'pagination with page, limit, total, pages');
  t.equal(list.body.data[0]._id, second._id, 'newest first');
  const failed = await w.api('GET', '/api/scans?status=failed');
  t.same(failed.body.data.map((s: { _id: string }) => s._id), [second._id], 'status filter');
  t.equal((await w.api('GET', '/api/scans?status=nope')).status, 400, 'unknown status: 400');

  t.equal((await w.api('GET', `/api/scans/repository/${c}`)).body.data.length, 2, 'by repository');
  t.equal((await w.api('GET', `/api/scans/repository/${c}/latest`)).body.data._id, second._id, 'latest');
  const empty = await w.config('acme/empty');
  t.equal((await w.api('GET', `/api/scans/repository/${empty}/latest`)).body.data, null, 'latest of a config without scans is null');
  t.match((await w.api('GET', `/api/scans/${second._id}`)).body.data, { status: 'failed', error: 'boom' }, 'by id');

  await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'completed', drifts: [drift('bucket.a'), drift('role.b', 'critical')] });
  const details = await w.api('GET', `/api/scans/${scan._id}/details`);
  t.equal(details.body.data.driftCount, 2, 'details carry the count');
  t.same(details.body.data.drifts.map((d: { resourceAddress: string }) => d.resourceAddress).sort(), ['bucket.a', 'role.b'], 'and the drifts');
});

t.test('cancel from pending or running only; delete removes its drifts', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const pending = (await w.api('POST', `/api/scans/trigger/${c}`)).body.data;
  const cancel = await w.api('POST', `/api/scans/${pending._id}/cancel`);
  t.equal(cancel.status, 200, 'a pending scan can be cancelled');
  t.equal(cancel.body.data.status, 'cancelled');
  t.equal(await w.ctx.db.db.collection('agenda_jobs').countDocuments({ name: EXECUTE_JOB, 'data.scanId': pending._id }), 0, 'its executor job is removed');
  const again = await w.api('POST', `/api/scans/${pending._id}/cancel`);
  t.equal(again.status, 409, 'a cancelled scan cannot be cancelled again');
  t.notOk((await w.scans.recordScanResult(w.owner.orgId, pending._id, { status: 'completed', drifts: [drift('x.y')] })).changed, 'a result after cancel changes nothing');

  const running = await w.scans.trigger(w.owner.orgId, c, null);
  await w.scans.recordScanResult(w.owner.orgId, running._id, { status: 'running' });
  t.equal((await w.api('POST', `/api/scans/${running._id}/cancel`)).status, 200, 'a running scan can be cancelled');

  const done = await w.scanWith(c, [drift('bucket.a'), drift('bucket.b')]);
  const refused = await w.api('POST', `/api/scans/${done}/cancel`);
  t.equal(refused.status, 409, 'a completed scan cannot be cancelled');
  t.match(refused.body.error.message, /completed/);

  const busy = await w.scans.trigger(w.owner.orgId, c, null);
  t.equal((await w.api('DELETE', `/api/scans/${busy._id}`)).status, 409, 'a pending scan cannot be deleted (cancel it first)');
  const del = await w.api('DELETE', `/api/scans/${done}`);
  t.equal(del.status, 200, 'a completed scan is deleted');
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId, scan: done }), 0, 'with its drifts');
});

t.test('Free plan: 3 scans per day, exact under concurrency', async (t) => {
  const w = await world(t, 'free');
  const c = await w.config();
  const missing = await w.api('POST', '/api/scans/trigger/abcdefabcdefabcdefabcdef');
  t.equal(missing.status, 404, 'a trigger of an unknown config fails');
  const results = await Promise.all(Array.from({ length: 6 }, () => w.api('POST', `/api/scans/trigger/${c}`)));
  t.equal(results.filter((r) => r.status === 201).length, 3, 'six concurrent triggers: three scans (the failed one took none)');
  const refused = results.find((r) => r.status === 403)!;
  t.equal(refused.body.error.code, 'plan_limit');
  t.equal(refused.body.error.message, 'The Free plan allows 3 scans per day; try again tomorrow (UTC) or upgrade');
  t.same(refused.body.error.details, { limit: 'scansPerDay', plan: 'free', allowed: 3, used: 3 });
  const quota = await w.api('GET', '/api/auth/quota');
  t.equal(quota.body.usage.scansToday, 3, 'the quota counts scans today');
  t.same(quota.body.items.find((i: { limit: string }) => i.limit === 'scansPerDay'), { limit: 'scansPerDay', allowed: 3, used: 3, remaining: 0 });
  t.equal((await w.api('GET', `/api/scans/repository/${c}`)).status, 200, 'the scans stay readable');

  await w.ctx.tenancy.setPlan(w.owner.orgId, 'pro');
  t.equal((await w.api('POST', `/api/scans/trigger/${c}`)).status, 201, 'upgrading lifts the limit at once');
  await w.ctx.tenancy.setPlan(w.owner.orgId, 'free');
  t.equal((await w.api('POST', `/api/scans/trigger/${c}`)).status, 403, 'downgraded again: refused');
  t.equal((await w.api('PUT', `/api/repo-configs/${c}`, { scheduleCron: '0 * * * *' })).status, 200, 'the config stays updatable');
  const before = await w.ctx.db.db.collection('scans').countDocuments({ orgId: w.owner.orgId });
  t.equal(await w.scans.runScheduled(w.owner.orgId, c, new Date()), null, 'a scheduled scan is held to the same limit');
  t.equal(await w.ctx.db.db.collection('scans').countDocuments({ orgId: w.owner.orgId }), before, 'and stores nothing');
});

t.test('Scan rate limit: 10 per minute', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await w.api('POST', `/api/scans/trigger/${c}`)).status);
  t.same(statuses.slice(0, 10), Array(10).fill(201), 'ten triggers pass');
  t.equal(statuses[10], 429, 'the eleventh is rate limited');
});

t.test('dashboard', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const d = await w.config('acme/two');
  await w.scanWith(c, [drift('bucket.a'), drift('bucket.b')]);
  await w.scanWith(c, [drift('bucket.a')]);
  await w.scanWith(d, [drift('vm.x', 'critical')]);
  const res = await w.api('GET', '/api/scans/dashboard');
  const dash = res.body.data;
  t.match(dash, { totalScans: 3, totalDrifts: 3, resolvedDrifts: 1, activeRepositories: 2 }, 'totals');
  t.equal(dash.recentScans.length, 3, 'recent scans');
  t.equal(dash.driftTrend.length, 30, '30 days of trend');
  t.same(dash.driftTrend.at(-1), { date: new Date().toISOString().slice(0, 10), detected: 3, resolved: 1 }, 'today: 3 detected, 1 resolved');

  const token = await w.cli(['scans:read'], [d]);
  const limited = (await w.api('GET', '/api/scans/dashboard', undefined, token)).body.data;
  t.match(limited, { totalScans: 1, totalDrifts: 1, activeRepositories: 1 }, 'a limited CLI token sees its repositories only');
});

t.test('CLI tokens limited to some repositories: scans in lists and by id', async (t) => {
  const w = await world(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  const sa = await w.scanWith(a, [drift('x.a')]);
  const sb = await w.scanWith(b, [drift('x.b')]);
  const token = await w.cli(['scans:read', 'scans:trigger'], [a]);
  const list = await w.api('GET', '/api/scans', undefined, token);
  t.same(list.body.data.map((s: { _id: string }) => s._id), [sa], 'the list holds only its repository\'s scans');
  t.equal(list.body.pagination.total, 1, 'and counts only them');
  t.equal((await w.api('GET', `/api/scans/${sa}`, undefined, token)).status, 200, 'its scan by id');
  for (const [m, u] of [['GET', `/api/scans/${sb}`], ['GET', `/api/scans/${sb}/details`], ['POST', `/api/scans/${sb}/cancel`], ['DELETE', `/api/scans/${sb}`],
    ['POST', `/api/scans/trigger/${b}`], ['GET', `/api/scans/repository/${b}`], ['GET', `/api/scans/repository/${b}/latest`]] as const) {
    const r = await w.api(m, u, undefined, token);
    t.equal(r.status, 403, `${m} ${u.replace(/[a-f0-9]{24}/, ':id')}: 403`);
    t.equal(r.body.error.code, 'repository_denied');
  }
  t.equal((await w.api('POST', `/api/scans/trigger/${a}`, undefined, token)).status, 201, 'it may trigger its repository');
});
