// Issue #24 points 3 and 4 through the drifts plugin's reconcile (scans' result recording) (the executor's report,
// without a cloud): the cause of each new drift (the call that changes the drifted attribute
// preferred, the window since the previous scan, both null reasons), the actor filter and CSV
// columns, drift.detected carrying the cause; an attribute flipping with no event learned as
// noise after 3 observations and its drift suppressed (left out of lists, counts, dashboards
// and events, shown under suppressed=true) until the rule is disabled; critical attributes never;
// and a targeted scan that never resolves an address it did not read.
import t from 'tap';
import type { DomainEvent } from '../../../core/events.ts';
import type { ReportedDrift } from '../../../plugins/scans/schemas.ts';
import { world } from '../../fixtures/world.ts';
import { chatMessage } from '../../../plugins/webhooks/chat.ts';
import { ALICE, DEPLOYER, trail } from './records.ts';

const changed = (address: string, resourceId: string, attribute: string, after: unknown, severity: ReportedDrift['severity'] = 'low'): ReportedDrift => ({
  resourceType: address.split('.')[0], resourceAddress: address, severity, changeType: 'changed', resourceId,
  diff: { changes: [{ attribute, before: null, after }] },
});

t.test('cause, noise and targeted recording', async (t) => {
  const w = await world(t, 'pro');
  const { app, ctx, owner, api, scans } = w;
  const events: DomainEvent<'drift.detected'>[] = [];
  ctx.bus.on('drift.detected', (e) => { events.push(e); });
  const token = (await api('POST', '/api/cloud-events/tokens', { name: 'bridge' })).body.data.token as string;
  const ingest = async (records: unknown) => {
    const res = await app.inject({ method: 'POST', url: '/api/cloud-events', headers: { authorization: `Bearer ${token}` }, payload: records as object });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json();
  };
  const config = await w.config();
  const drifts = async (query = '') => (await api('GET', `/api/drifts${query}`)).body;

  // A first scan with nothing: the window of the next one starts here.
  await w.scanWith(config, []);
  const t0 = Date.now();
  await ingest([
    trail.modifyInstanceAttribute('i-0api', { at: new Date(t0 + 1000), arn: ALICE }),
    // Later, on the same instance, but a call that changes tags only.
    trail.createTags('i-0api', 'Owner', 'bob', { at: new Date(t0 + 2000), identity: 'role' }),
    trail.putBucketVersioning('acme-logs', 'Suspended', { at: new Date(t0 + 1500), identity: 'role' }),
  ]);
  const first = await w.scanWith(config, [
    changed('aws_instance.api', 'i-0api', 'disable_api_termination', true, 'medium'),
    changed('aws_s3_bucket_versioning.logs', 'acme-logs', 'versioning_configuration.0.status', 'Suspended', 'medium'),
    changed('aws_iam_role.untouched', 'role-untouched', 'description', 'x', 'low'),
  ]);
  const byAddress = Object.fromEntries((await drifts()).data.map((d: { resourceAddress: string }) => [d.resourceAddress, d]));
  t.match(byAddress['aws_instance.api'].cause, { eventName: 'ModifyInstanceAttribute', actor: ALICE, actorType: 'IAMUser', sourceIPAddress: '192.0.2.1' },
    'the call that changes the drifted attribute, not the later CreateTags');
  t.match(byAddress['aws_s3_bucket_versioning.logs'], { cause: { eventName: 'PutBucketVersioning', actor: DEPLOYER, actorType: 'AssumedRole' }, causeReason: null }, 'the bucket: PutBucketVersioning');
  t.match(byAddress['aws_iam_role.untouched'], { cause: null, causeReason: 'no_matching_event' }, 'events were received, none for this resource');
  const detected = events.find((e) => e.data.scanId === first)!;
  t.match(detected.data.drifts.find((d) => d.resourceAddress === 'aws_instance.api'), { cause: { eventName: 'ModifyInstanceAttribute', actor: ALICE } }, 'drift.detected carries the cause');
  const chat = chatMessage('drift.detected', detected.data, 'https://app.example', null)!;
  t.match(chat.text, `aws_instance.api: ModifyInstanceAttribute by ${ALICE}`, 'the chat message names the call and the actor');
  t.match(JSON.stringify(chat.blocks), '*Cause*', 'in a Cause section');

  // The actor filter on the list, /query and the export; the CSV columns.
  t.same((await drifts('?actor=user/alice')).data.map((d: { resourceAddress: string }) => d.resourceAddress), ['aws_instance.api'], 'GET /api/drifts?actor');
  t.equal((await api('GET', '/api/drifts/query?actor=assumed-role%2Fdeployer')).body.data.length, 1, '/query?actor');
  const csv = (await app.inject({ method: 'GET', url: '/api/drifts/export?actor=alice', headers: { authorization: `Bearer ${owner.token}` } })).body.trim().split('\n');
  t.match(csv[0], /cause_actor,cause_event,cause_time/, 'CSV columns cause_actor, cause_event, cause_time');
  t.equal(csv.length, 2, 'the export filtered by actor');
  t.match(csv[1], new RegExp(`${ALICE},ModifyInstanceAttribute,\\d{4}-`), 'with the actor, the call and its time');

  // A second config in an organization that sends no events: no_events_received.
  const quiet = await w.register();
  await ctx.tenancy.setPlan(quiet.orgId, 'pro');
  const quietConfig = await w.config('acme/quiet', {}, quiet);
  await w.scanWith(quietConfig, [changed('aws_instance.q', 'i-0q', 'instance_type', 't3.large')], quiet.orgId);
  const quietDrift = (await api('GET', '/api/drifts', undefined, quiet)).body.data[0];
  t.match(quietDrift, { cause: null, causeReason: 'no_events_received' }, 'no events sent: no_events_received');

  // Noise (on a config of its own): tags_all.flip changes with no event, goes back, changes again.
  const noisy = await w.config('acme/noisy');
  const flip = (value: string) => changed('aws_instance.web', 'i-0web', 'tags_all.flip', value);
  const before = events.length;
  await w.scanWith(noisy, [flip('a')]);
  await w.scanWith(noisy, []);
  const third = await w.scanWith(noisy, [flip('b')]);
  const rules = (await api('GET', '/api/drifts/noise-rules')).body.data;
  t.match(rules, [{ resourceType: 'aws_instance', attribute: 'tags_all.flip', observations: 3, enabled: true }], 'learned after 3 quiet observations (changed, reverted, changed)');
  t.ok(rules[0].learnedAt, 'with learnedAt');
  t.notOk((await drifts()).data.some((d: { resourceAddress: string; status: string }) => d.resourceAddress === 'aws_instance.web' && d.status === 'detected'), 'the suppressed drift is left out of the default list (the first flip, resolved, is there)');
  const shown = (await drifts('?suppressed=true')).data.find((d: { resourceAddress: string }) => d.resourceAddress === 'aws_instance.web');
  t.match(shown, { suppressed: true, suppressedReason: 'noise:aws_instance:tags_all.flip', status: 'detected' }, 'and shown under suppressed=true, never dropped');
  t.equal((await api('GET', '/api/drifts/query?suppressed=true&status=detected&q=aws_instance.web')).body.data.length, 1, '/query?suppressed=true too');
  t.equal((await api('GET', '/api/drifts/query?status=detected&q=aws_instance.web')).body.data.length, 0, 'and not without it');
  t.equal((await api('GET', '/api/drifts/aggregations')).body.data.total, 4, 'left out of aggregations (three open, one resolved)');
  t.equal((await api('GET', '/api/scans/dashboard')).body.data.totalDrifts, 4, 'and of the dashboard total');
  t.match((await api('GET', `/api/scans/${third}`)).body.data, { driftCount: 0, newDrifts: 0 }, "and of the scan's counts");
  t.equal(events.filter((e) => e.data.scanId === third).length, 0, 'no drift.detected for it (webhooks, chat, notifications)');
  t.equal(events.length - before, 1, 'only the first, unlearned flip was announced');

  // Disabled: its drift shows again at the next scan.
  const patched = await api('PATCH', `/api/drifts/noise-rules/${rules[0].id}`, { enabled: false });
  t.match(patched.body.data, { id: rules[0].id, enabled: false });
  await w.scanWith(noisy, [flip('b')]);
  t.match((await drifts()).data.find((d: { resourceAddress: string }) => d.resourceAddress === 'aws_instance.web'), { suppressed: false, suppressedReason: null }, 'shown again after the rule is disabled');
  t.equal((await api('PATCH', `/api/drifts/noise-rules/${'f'.repeat(24)}`, { enabled: true })).status, 404, 'unknown rule: 404');

  // Critical: an ingress open to the world flipping with no event is never learned nor suppressed.
  const openTo = (cidr: string) => changed('aws_security_group.web', 'sg-0web', 'ingress.0.cidr_blocks.0', cidr, 'critical');
  for (let i = 0; i < 3; i++) { await w.scanWith(noisy, [openTo('0.0.0.0/0')]); await w.scanWith(noisy, []); }
  t.notOk((await api('GET', '/api/drifts/noise-rules')).body.data.some((r: { resourceType: string }) => r.resourceType === 'aws_security_group'), 'a critical attribute is never learned');
  const store = (await import('../../../plugins/cloud-events/store.ts')).createCloudEventStore(ctx.db);
  await store.upsertRule(owner.orgId, 'aws_security_group', 'ingress.0.cidr_blocks.0', { observations: 9, updatedAt: new Date(), learnedAt: new Date() }, 'a'.repeat(24));
  await w.scanWith(noisy, [openTo('0.0.0.0/0')]);
  t.match((await drifts()).data.find((d: { resourceAddress: string }) => d.resourceAddress === 'aws_security_group.web'), { suppressed: false, severity: 'critical' }, 'nor suppressed, even under a rule for its attribute');

  // A targeted re-check records its own addresses only.
  const openBefore = (await drifts('?status=detected&limit=100')).pagination.total;
  const targeted = await scans.triggerEvent(owner.orgId, config, { eventId: 'evt-1', resourceIds: ['i-0api'], addresses: ['aws_instance.api'] });
  if (!('scan' in targeted)) throw new Error(JSON.stringify(targeted));
  t.match(targeted.scan, { triggeredBy: 'event', trigger: { eventId: 'evt-1', resourceIds: ['i-0api'], addresses: ['aws_instance.api'] }, status: 'pending' }, 'triggeredBy event, with its trigger');
  await scans.recordScanResult(owner.orgId, targeted.scan._id, { status: 'running' });
  // A runner reporting an address it was not asked for: not this scan's to record.
  await scans.recordScanResult(owner.orgId, targeted.scan._id, { status: 'completed', drifts: [changed('aws_iam_role.other', 'r', 'description', 'y')] });
  const after = await drifts('?status=detected&limit=100');
  t.equal(after.pagination.total, openBefore - 1, 'it resolved only the drift of the address it read (aws_instance.api)');
  t.notOk(after.data.some((d: { resourceAddress: string }) => d.resourceAddress === 'aws_iam_role.other'), 'an address it did not read is never detected by it');
  t.ok(after.data.some((d: { resourceAddress: string }) => d.resourceAddress === 'aws_s3_bucket_versioning.logs'), 'the others stay open');
  t.match((await api('GET', `/api/scans/${targeted.scan._id}`)).body.data, { status: 'completed', driftCount: 0, resolvedDrifts: 1 }, 'its counts are of its addresses');

  // The annotator plugs into the drifts plugin at boot (its hook): once the service started the
  // hook is closed, so no code path can add or swap an annotator while results are recorded.
  t.throws(() => w.services.drifts!.attachAnnotator(async () => new Map()), /annotators attach while the plugins are built/, 'the annotator hook is closed after boot');
});
