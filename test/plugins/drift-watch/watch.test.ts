// Drift Watch: every route of a watch (create, list, get, patch, bulk-update, delete: validation,
// tenancy and the run job) and of templates. Runs, snooze and the baseline: watch-runs.test.ts;
// watch-moto.test.ts runs the built-in executor against moto.
import t from 'tap';
import { register, bearer } from '../../helper.ts';
import { cronOf } from '../../../plugins/drift-watch/service.ts';
import { cronTickAtOrBefore } from '../../../plugins/scans/service.ts';
import { setup } from './watch-setup.ts';

t.test('create, list, get, patch, bulk-update, delete; validation, tenancy and the run job', async (t) => {
  const { w, create, audit } = await setup(t);
  // A watch's next run: the minute it is due (the due scan sweeps it), on the cron of its interval.
  const due = async (id: string) => (await w.ctx.db.db.collection('drift_watches').findOne({ _id: id as never }))?.dueMinute as number | null | undefined;
  const onCron = async (id: string, interval: '1h' | '6h' | '12h' | '24h') => {
    const m = await due(id);
    const at = new Date((m ?? 0) * 60_000);
    return typeof m === 'number' && at.getTime() > Date.now() && cronTickAtOrBefore(cronOf(id, interval), at).getTime() === at.getTime()
      && at.getTime() - Date.now() <= { '1h': 1, '6h': 6, '12h': 12, '24h': 24 }[interval] * 3_600_000;
  };
  const c1 = await w.config('acme/one');
  const c2 = await w.config('acme/two');

  const a = await create({ name: 'A', repositoryId: c1, interval: '6h' });
  t.match(a, { name: 'A', repositoryId: c1, workspace: 'default', status: 'active', interval: '6h', notifyOn: 'drift', filters: {}, lastRun: null, driftCount: 0 }, 'defaults');
  t.ok(await onCron(a._id, '6h'), 'due at the next fire of the interval cron');
  t.match(cronOf(a._id, '6h'), /^\d+ \*\/6 \* \* \*$/, '6h: every sixth hour at the watch minute');

  for (const [body, why] of [
    [{ name: 'x', repositoryId: c1 }, 'interval required'],
    [{ name: 'x', repositoryId: c1, interval: '2h' }, 'interval enum'],
    [{ name: 'x', repositoryId: c1, interval: '1h', notifyOn: 'sometimes' }, 'notifyOn enum'],
    [{ repositoryId: c1, interval: '1h' }, 'name required'],
    [{ name: 'x', interval: '1h' }, 'repositoryId required'],
    [{ name: 'x', repositoryId: c1, interval: '1h', filters: { severity: ['urgent'] } }, 'filters checked'],
  ] as const) t.equal((await w.api('POST', '/api/drift-watch', body)).status, 400, why);
  const unknown = await w.api('POST', '/api/drift-watch', { name: 'x', repositoryId: 'f'.repeat(24), interval: '1h' });
  t.match(unknown, { status: 404, body: { error: { code: 'not_found', message: 'Repository config not found' } } }, 'an unknown repositoryId is 404');
  const other = await register(w.app);
  await w.ctx.tenancy.setPlan(other.orgId, 'pro');
  const otherConfig = await w.config('other/repo', {}, other);
  t.equal((await w.api('POST', '/api/drift-watch', { name: 'x', repositoryId: otherConfig, interval: '1h' })).status, 404, "another organization's config is 404");

  const b = await create({ name: 'B', repositoryId: c2, interval: '1h', workspace: 'prod', notifyOn: 'all', filters: { severity: ['critical', 'high'] } });
  const list = (await w.api('GET', '/api/drift-watch')).body;
  t.match(list, { total: 2, page: 1, pages: 1 }, 'page 1 by default');
  t.same(list.watches.map((x: { name: string }) => x.name), ['B', 'A'], 'newest first');
  t.same((await w.api('GET', `/api/drift-watch?repositoryId=${c1}`)).body.watches.map((x: { _id: string }) => x._id), [a._id], 'filter repositoryId');
  t.match((await w.api('GET', '/api/drift-watch?limit=1&page=2')).body, { total: 2, page: 2, pages: 2, watches: [{ name: 'A' }] }, 'paging');
  t.equal((await w.api('GET', '/api/drift-watch?status=sleeping')).status, 400, 'status enum');
  t.match((await w.api('GET', `/api/drift-watch/${b._id}`)).body, { name: 'B', workspace: 'prod', notifyOn: 'all', filters: { severity: ['critical', 'high'] } });
  t.equal((await w.api('GET', `/api/drift-watch/${'a'.repeat(24)}`)).status, 404);

  const renamed = (await w.api('PATCH', `/api/drift-watch/${b._id}`, { name: 'B2' })).body;
  t.match(renamed, { name: 'B2', workspace: 'prod', notifyOn: 'all', interval: '1h', filters: { severity: ['critical', 'high'] } }, 'PATCH changes only the fields given');
  t.equal((await w.api('PATCH', `/api/drift-watch/${b._id}`, { status: 'snoozed' })).status, 400, 'snoozed is set by snooze only');
  t.equal((await w.api('PATCH', `/api/drift-watch/${b._id}`, { repositoryId: otherConfig })).status, 404, "PATCH refuses another organization's config");
  t.equal((await w.api('PATCH', `/api/drift-watch/${b._id}`, { status: 'paused' })).body.status, 'paused', 'paused through PATCH');
  t.equal(await due(b._id), null, 'a paused watch is not due');
  t.match(await w.services['drift-watch']!.tick(w.owner.orgId, b._id, new Date()), { ran: false, reason: 'paused' }, 'a paused watch does not run');
  await w.api('PATCH', `/api/drift-watch/${b._id}`, { status: 'active', interval: '12h' });
  t.ok(await onCron(b._id, '12h'), 'resumed on the new interval');

  const otherWatch = (await w.api('POST', '/api/drift-watch', { name: 'O', repositoryId: otherConfig, interval: '1h' }, other)).body;
  const bulk = await w.api('PATCH', '/api/drift-watch/bulk-update', { ids: [a._id, b._id, otherWatch._id], updates: { notifyOn: 'none', interval: '24h', status: 'paused' } });
  t.same(bulk.body, { updated: 2 }, "bulk-update changes the caller's watches only, and says how many");
  t.match((await w.api('GET', `/api/drift-watch/${a._id}`)).body, { notifyOn: 'none', interval: '24h', status: 'active' }, 'create fields only (status is not one)');
  t.ok(await onCron(a._id, '24h'), 'rescheduled');
  t.match((await w.api('GET', `/api/drift-watch/${otherWatch._id}`, undefined, other)).body, { notifyOn: 'drift', interval: '1h' }, "the other organization's watch is untouched");
  t.equal((await w.api('PATCH', '/api/drift-watch/bulk-update', { ids: [a._id], updates: { status: 'paused' } })).status, 400, 'updates without a create field: 400');
  t.equal((await w.api('PATCH', '/api/drift-watch/bulk-update', { ids: [a._id], updates: { repositoryId: otherConfig } })).status, 404, 'bulk repositoryId checked');

  t.equal((await w.api('DELETE', `/api/drift-watch/${a._id}`)).status, 204);
  t.equal((await w.api('GET', `/api/drift-watch/${a._id}`)).status, 404, 'gone');
  t.equal((await w.api('DELETE', `/api/drift-watch/${otherWatch._id}`)).status, 404, "another organization's watch is 404");

  for (const action of ['drift_watch.created', 'drift_watch.updated', 'drift_watch.bulk_updated', 'drift_watch.removed']) t.ok((await audit(action)).length >= 1, `audited as ${action}`);
  // Refused creates are audited too; a reused database keeps no insertion order, so pick the 201.
  t.match((await audit('drift_watch.created')).find((e) => e.statusCode === 201), { details: { target: { type: 'drift_watch' } } });

  // The repository config's deletion takes its watches.
  await w.api('DELETE', `/api/repo-configs/${c2}`);
  t.equal((await w.api('GET', `/api/drift-watch/${b._id}`)).status, 404, "a deleted config's watches go with it");

  const free = await register(w.app);
  t.match(await w.api('GET', '/api/drift-watch', undefined, free), { status: 403, body: { error: { code: 'plan_required' } } }, 'Free: 403 plan_required');
  t.equal((await w.app.inject({ method: 'GET', url: '/api/drift-watch', headers: bearer(await w.cli(['drifts:read'], [c1])) })).statusCode, 403, 'a CLI token limited to some repositories is refused');
  t.equal((await w.app.inject({ method: 'GET', url: '/api/drift-watch', headers: bearer(await w.cli(['drifts:read'])) })).statusCode, 200, 'a CLI token for every repository with drifts:read reads');
});

t.test('templates: create, list, run with overrides validated as a create, delete', async (t) => {
  const { w, audit } = await setup(t);
  const c = await w.config('acme/tpl');
  t.equal((await w.api('POST', '/api/drift-watch/templates', { name: 'No config' })).status, 400, 'config required');
  t.equal((await w.api('POST', '/api/drift-watch/templates', { name: 'Bad', config: { interval: '3h' } })).status, 400, 'config checked');
  const tpl = await w.api('POST', '/api/drift-watch/templates', { name: 'Hourly', description: 'every hour', config: { interval: '1h', notifyOn: 'all', workspace: 'ops' } });
  t.match(tpl, { status: 201, body: { name: 'Hourly', description: 'every hour', config: { interval: '1h', notifyOn: 'all', workspace: 'ops' } } });
  const bare = (await w.api('POST', '/api/drift-watch/templates', { name: 'Bare', config: {} })).body;
  t.same((await w.api('GET', '/api/drift-watch/templates')).body.templates.map((x: { name: string }) => x.name), ['Bare', 'Hourly'], 'listed newest first');

  const made = await w.api('POST', `/api/drift-watch/templates/${tpl.body._id}/run`, { name: 'From template', repositoryId: c, overrides: { notifyOn: 'none' } });
  t.match(made, { status: 201, body: { name: 'From template', repositoryId: c, interval: '1h', workspace: 'ops', notifyOn: 'none', status: 'active' } }, 'the template with the overrides over it');
  t.equal((await w.api('POST', `/api/drift-watch/templates/${tpl.body._id}/run`, { name: 'x', repositoryId: c, overrides: { interval: '5h' } })).status, 400, 'overrides checked');
  const noInterval = await w.api('POST', `/api/drift-watch/templates/${bare._id}/run`, { name: 'x', repositoryId: c });
  t.match(noInterval, { status: 400, body: { error: { code: 'validation_failed' } } }, 'a watch without interval is refused as a create would be');
  t.equal((await w.api('POST', `/api/drift-watch/templates/${bare._id}/run`, { name: 'x', repositoryId: c, overrides: { interval: '24h' } })).status, 201, 'the overrides complete it');
  t.equal((await w.api('POST', `/api/drift-watch/templates/${tpl.body._id}/run`, { name: 'x', repositoryId: 'e'.repeat(24) })).status, 404, 'unknown repository 404');
  t.equal((await w.api('DELETE', `/api/drift-watch/templates/${tpl.body._id}`)).status, 204);
  t.equal((await w.api('POST', `/api/drift-watch/templates/${tpl.body._id}/run`, { name: 'x', repositoryId: c })).status, 404, 'a deleted template is 404');
  t.equal((await w.api('DELETE', `/api/drift-watch/templates/${tpl.body._id}`)).status, 404);
  for (const action of ['drift_watch.template_created', 'drift_watch.template_deleted']) t.equal((await audit(action)).length >= 1, true, `audited as ${action}`);
  // Two watches came from templates (Hourly and Bare), and reads come back in no set order.
  const fromTemplates = (await audit('drift_watch.created')).map((e) => (e.details as { templateId?: string } | undefined)?.templateId).filter(Boolean);
  t.ok(fromTemplates.includes(tpl.body._id), `a watch from a template names it (${fromTemplates.join(', ')})`);
});
