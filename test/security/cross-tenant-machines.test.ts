// Issue 32 point 9: the machine credentials (runner tokens `rn_` in X-Runner-Token and in a
// runner link's ?token=, cloud-event tokens `ce_`) played by an attacker from another
// organization. Each case also runs the legitimate call, so a check that refused everything
// would fail here. docs/security.md cites these tests by name.
import t from 'tap';
import { world } from '../fixtures/world.ts';
import { bearer } from '../helper.ts';
import { trail } from '../plugins/cloud-events/records.ts';

const CREDS = { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret', region: 'eu-west-1' };

t.test("runner token: org B's runner never claims, reports on or links to org A's scans and runners", async (t) => {
  const w = await world(t);
  const a = w.owner;
  const b = await w.register();
  await w.ctx.tenancy.setPlan(b.orgId, 'enterprise');
  t.equal((await w.api('POST', '/api/auth/cloud-a-credentials', CREDS)).status, 200);
  const configA = await w.config('a/infra', {});
  t.equal((await w.api('PUT', `/api/repo-configs/${configA}`, { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/a/infra.git' })).status, 200);
  const runner = async (who: typeof a) => (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] }, who)).body.data as { _id: string; token: string };
  const runnerA = await runner(a);
  const runnerB = await runner(b);
  const agent = (token: string) => async (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
    w.app.inject({ method: 'POST', url, headers: { 'x-runner-token': token, ...headers }, payload });
  const asB = agent(runnerB.token);
  const asA = agent(runnerA.token);
  const scan = await w.scans.trigger(a.orgId, configA, null);

  const claim = await asB('/api/runners/jobs', {}, { 'x-org-id': a.orgId });
  t.equal(claim.statusCode, 200);
  t.equal(claim.json().data.job, null, "org B's runner (same labels, x-org-id of org A) claims nothing of org A");
  for (const status of ['running', 'failed'] as const) {
    const res = await asB('/api/runners/jobs/status', { jobId: scan._id, status, error: 'x' });
    t.equal(res.statusCode, 404, `org B's runner reporting ${status} on org A's scan: 404`);
  }
  const completed = await asB('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [] } });
  t.equal(completed.statusCode, 404, "org B's runner reporting a result for org A's scan: 404");
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', "org A's scan is untouched");
  t.equal((await asB('/api/runners/heartbeat', { status: 'busy' }, { 'x-org-id': a.orgId })).statusCode, 200, "org B's heartbeat (naming org A) is its own runner's");
  t.equal((await w.api('GET', `/api/runners/${runnerA._id}`)).body.data.lastHeartbeat, null, "org A's runner has no heartbeat from it");
  const link = await w.app.inject({ method: 'GET', url: `/api/runners/${runnerA._id}/setup?token=${runnerB.token}` });
  t.equal(link.statusCode, 401, "org A's runner setup link opened with org B's runner token: 401");
  t.equal((await w.api('GET', `/api/runners/${runnerA._id}/setup-info`, undefined, b)).status, 404, "org B's owner asking for org A's runner setup info: 404");

  // Controls: the same calls with org A's own runner.
  const mine = await asA('/api/runners/jobs');
  t.equal(mine.json().data.job?._id, scan._id, "control: org A's runner claims the scan");
  const done = await asA('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [] } });
  t.equal(done.json().data.status, 'completed', "control: and reports it");
  t.equal((await w.app.inject({ method: 'GET', url: `/api/runners/${runnerA._id}/setup?token=${runnerA.token}` })).statusCode, 200, "control: its own link opens");
});

t.test("cloud-event token: org B's events naming org A's account and resources never reach org A", async (t) => {
  const w = await world(t, 'pro');
  const a = w.owner;
  const b = await w.register();
  await w.ctx.tenancy.setPlan(b.orgId, 'pro');
  const tokenOf = async (who: typeof a) => (await w.api('POST', '/api/cloud-events/tokens', { name: 'bridge' }, who)).body.data.token as string;
  const ingest = (token: string, records: unknown, headers: Record<string, string> = {}) =>
    w.app.inject({ method: 'POST', url: '/api/cloud-events', headers: { ...bearer(token), ...headers }, payload: records as object });
  const tokenA = await tokenOf(a);
  const tokenB = await tokenOf(b);
  // Org A manages i-0shared (its scan's inventory) and the first scan opens the event window.
  const configA = await w.config('a/infra');
  const inventory = [{ address: 'aws_instance.api', type: 'aws_instance', resourceId: 'i-0shared', region: 'eu-west-1', account: '123456789012' }];
  const first = await w.scans.trigger(a.orgId, configA, null);
  await w.scans.recordScanResult(a.orgId, first._id, { status: 'running' });
  await w.scans.recordScanResult(a.orgId, first._id, { status: 'completed', drifts: [], inventory });
  const checksOf = (orgId: string) => w.ctx.db.db.collection('cloud_event_checks').countDocuments({ orgId });

  // The record names org A's account (recipientAccountId, the ARN) and org A's instance.
  const record = trail.modifyInstanceAttribute('i-0shared', { at: new Date(Date.now() + 1000) });
  t.equal((await ingest(tokenB, record, { 'x-org-id': a.orgId })).statusCode, 404, "org B's token with x-org-id of org A: 404");
  const own = await ingest(tokenB, record);
  t.equal(own.statusCode, 200);
  t.equal(own.json().accepted, 1, 'stored in org B, its own organization');
  t.equal((await w.api('GET', '/api/cloud-events')).body.pagination.total, 0, "org A's event list: nothing");
  t.equal(await checksOf(a.orgId), 0, 'no targeted re-check queued in org A');
  await w.scanWith(configA, [{ resourceType: 'aws_instance', resourceAddress: 'aws_instance.api', resourceId: 'i-0shared', severity: 'medium', changeType: 'changed',
    diff: { changes: [{ attribute: 'disable_api_termination', before: null, after: true }] } }]);
  const drift = (await w.api('GET', '/api/drifts')).body.data[0];
  t.match(drift, { cause: null, causeReason: 'no_events_received' }, "org A's drift is not attributed to org B's claim");

  // Control: org A's own token and the same record (a new event id) do reach org A.
  t.equal((await ingest(tokenA, trail.modifyInstanceAttribute('i-0shared', { at: new Date() }))).json().accepted, 1, "control: org A's token");
  t.equal(await checksOf(a.orgId), 1, 'control: one targeted re-check queued in org A');
});
