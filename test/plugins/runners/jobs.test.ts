// Runner job routes: claim by labels, the job payload, status reports (idempotent, only the
// holder), jobsCompleted, config problems, and the jobs of a runner that goes offline.
import t from 'tap';
import { world } from '../../fixtures/world.ts';

type W = Awaited<ReturnType<typeof world>>;
const CREDS = { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret', region: 'eu-west-1' };

async function setup(t: Parameters<typeof world>[0]) {
  const w = await world(t);
  const labelled = async (name: string, fields: Record<string, unknown>) => {
    const id = await w.config(name);
    const res = await w.api('PUT', `/api/repo-configs/${id}`, fields);
    if (res.status !== 200) throw new Error(`could not set ${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
    return id;
  };
  const runner = async (name: string, labels: string[]) => (await w.api('POST', '/api/runners', { name, labels })).body.data as { _id: string; token: string };
  const agent = (token: string) => async (method: 'POST', url: string, payload: unknown = {}) => {
    const res = await w.app.inject({ method, url, headers: { 'x-runner-token': token }, payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  return { w, labelled, runner, agent };
}

const engineDrift = { resourceType: 'aws_security_group', resourceAddress: 'aws_security_group.web', changeType: 'changed', severity: 'critical', ruleId: 'sg-ingress-open-to-world',
  diff: [{ attribute: 'ingress', before: [], after: [{ cidr_blocks: ['0.0.0.0/0'] }] }] };
const tags = { resourceType: 'aws_instance', resourceAddress: 'aws_instance.tagged', changeType: 'changed', severity: 'low',
  diff: [{ attribute: 'tags', before: { 'kubernetes.io/role': 'a', $x: 1 }, after: { 'kubernetes.io/role': 'b', $x: 1 } }] };
const gone = { resourceType: 'aws_instance', resourceAddress: 'aws_instance.web', changeType: 'deleted', severity: 'high', diff: [{ attribute: 'id', before: 'i-1', after: null }] };

t.test('a runner claims the scans its labels match, reports, and counts its jobs', async (t) => {
  const { w, labelled, runner, agent } = await setup(t);
  t.equal((await w.api('POST', '/api/auth/cloud-a-credentials', CREDS)).status, 200, 'org cloud_a credentials stored');
  const forRunners = await labelled('acme/infra', { runnerLabels: ['linux', 'aws'], repositoryUrl: 'https://git.example.com/acme/infra.git', statePath: 's3://b/k' });
  const builtIn = await labelled('acme/other', { repositoryUrl: 'https://git.example.com/acme/other.git' });
  const r1 = await runner('r1', ['linux', 'aws', 'gpu']);
  const r2 = await runner('r2', ['linux']);
  const a1 = agent(r1.token);
  const a2 = agent(r2.token);

  t.same((await a1('POST', '/api/runners/jobs')).body, { success: true, data: { job: null } }, 'nothing pending: job null');
  const scan = await w.scans.trigger(w.owner.orgId, forRunners, null);
  await w.scans.trigger(w.owner.orgId, builtIn, null);

  t.equal((await a2('POST', '/api/runners/jobs')).body.data.job, null, 'a runner lacking one of the labels gets nothing');
  const claimed = await a1('POST', '/api/runners/jobs');
  t.equal(claimed.status, 200);
  t.same(claimed.body.data.job, {
    _id: scan._id, type: 'scan', repositoryConfig: forRunners, repositoryName: 'acme/infra', branch: 'main',
    scan: { source: { kind: 'git', url: 'https://git.example.com/acme/infra.git', branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDS, comparison: 'auto', statePath: 's3://b/k' },
  }, 'the job: the scan, where its sources are and the decrypted credentials');
  t.equal((await a1('POST', '/api/runners/jobs')).body.data.job?._id, scan._id, 'polling again while holding it: the same job (its first answer was lost)');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'running', 'the claimed scan is running');
  t.equal((await w.api('GET', `/api/runners/${r1._id}`)).body.data.status, 'busy', 'the runner is busy');

  const status = (body: Record<string, unknown>) => a1('POST', '/api/runners/jobs/status', { jobId: scan._id, ...body });
  t.equal((await a2('POST', '/api/runners/jobs/status', { jobId: scan._id, status: 'failed', error: 'x' })).status, 404, "another runner's job: 404");
  t.equal((await a1('POST', '/api/runners/jobs/status', { jobId: '0'.repeat(24), status: 'running' })).status, 404, 'an unknown job: 404');
  t.same((await status({ status: 'running' })).body.data, { jobId: scan._id, status: 'running' }, 'running again is idempotent');
  const bare = await status({ status: 'completed' });
  t.equal(bare.status, 400, 'completed without result.drifts: 400 (it would resolve every open drift)');
  // The engine's own stats (runner-agent ScanStats): the scan record keeps what it did not compare.
  const notCompared = [{ resourceType: 'aws_mq_broker', reason: 'no_reader', count: 2 }, { resourceType: 'aws_kms_key', reason: 'access_denied', count: 1 }];
  const done = await status({ status: 'completed', result: { drifts: [engineDrift, gone, tags], resourcesScanned: 12, stats: { mode: 'sdk', sdkCalls: 9, notCompared } } });
  t.same(done.body.data, { jobId: scan._id, status: 'completed' }, 'completed');
  t.same((await status({ status: 'completed', result: { drifts: [] } })).body.data, { jobId: scan._id, status: 'completed' }, 'a repeated report changes nothing');
  const scanNow = (await w.api('GET', `/api/scans/${scan._id}`)).body.data;
  t.match(scanNow, { status: 'completed', driftCount: 3, newDrifts: 3 }, 'the first report counted');
  t.same(scanNow.stats, { compared: 12, notCompared, comparedBy: null, providerPlan: null }, 'GET /api/scans/:id shows what the runner did not compare, and why');
  const drifts = (await w.api('GET', `/api/drifts/scan/${scan._id}`)).body.data as { resourceAddress: string; changeType: string; severity: string; diff: unknown }[];
  const sg = drifts.find((d) => d.resourceAddress === 'aws_security_group.web');
  t.same(sg?.diff, { changes: [{ attribute: 'ingress', before: [], after: [{ cidr_blocks: ['0.0.0.0/0'] }] }] }, 'diff: {changes: [{attribute, before, after}]}');
  t.match(sg, { severity: 'critical', changeType: 'changed' });
  t.same(drifts.find((d) => d.resourceAddress === 'aws_instance.tagged')?.diff, { changes: [{ attribute: 'tags', before: { 'kubernetes\uFF0Eio/role': 'a', '\uFF04x': 1 }, after: { 'kubernetes\uFF0Eio/role': 'b', '\uFF04x': 1 } }] },
    'keys the database refuses (dots, a leading $) are stored with full-width forms');
  t.match(drifts.find((d) => d.resourceAddress === 'aws_instance.web'), { changeType: 'removed', severity: 'high' }, "the engine's deleted is the record's removed");
  t.match((await w.api('GET', `/api/runners/${r1._id}`)).body.data, { jobsCompleted: 1, status: 'online' }, 'jobsCompleted counts the job once; the runner is online again');
  await w.ctx.audit.flush();
  const trail = await w.ctx.db.db.collection('audit_logs').find({ orgId: w.owner.orgId, action: 'runner.job_status' }).toArray();
  const completedBodies = trail.map((e) => e.body).filter((b) => b.status === 'completed').sort((a, b) => Object.keys(a).length - Object.keys(b).length);
  t.same(completedBodies, [{ jobId: scan._id, status: 'completed' }, { jobId: scan._id, status: 'completed', driftCount: 3 }],
    'the audit trail keeps the drift count, not every diff (the refused report without drifts too; the repeat is not recorded)');
  t.equal((await a1('POST', '/api/runners/jobs')).body.data.job, null, 'a config without runnerLabels is left to the built-in executor');

  t.equal((await a1('POST', '/api/runners/jobs/status', { jobId: scan._id, status: 'done' })).status, 400, 'an unknown status: 400');
});

t.test('config problems fail the scan at claim; a runner going offline hands its scan back', async (t) => {
  const { w, labelled, runner, agent } = await setup(t);
  const noUrl = await labelled('acme/nourl', { runnerLabels: ['linux'] });
  const r = await runner('edge-1', ['linux']);
  const a = agent(r.token);
  const bad = await w.scans.trigger(w.owner.orgId, noUrl, null);
  t.equal((await a('POST', '/api/runners/jobs')).body.data.job, null, 'no job handed out');
  t.match((await w.api('GET', `/api/scans/${bad._id}`)).body.data, { status: 'failed', error: /repositoryUrl is not set/ }, 'the scan failed saying what to set');

  const ok = await labelled('acme/ok', { runnerLabels: ['linux'], repositoryUrl: '/srv/repos/infra' });
  const scan = await w.scans.trigger(w.owner.orgId, ok, null);
  const job = (await a('POST', '/api/runners/jobs')).body.data.job;
  t.same(job.scan.source, { kind: 'path', path: '/srv/repos/infra' }, 'an absolute path is used in place');
  t.equal(job.scan.credentials, null, 'no credentials stored: null (the engine fails with no_credentials)');

  await w.ctx.db.db.collection('runners').updateOne({ _id: r._id as never }, { $set: { lastHeartbeat: new Date(Date.now() - 3600_000) } });
  const swept = await w.services.runners!.sweep();
  t.same(swept.map((s) => s._id), [r._id], 'the silent runner goes offline');
  t.match((await w.api('GET', `/api/scans/${scan._id}`)).body.data, { status: 'pending', startedAt: null }, 'its scan goes back to pending for another runner (lease.ts)');
  const late = await a('POST', '/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [] } });
  t.equal(late.status, 404, 'a late result of the silent runner is refused: the job is no longer its own');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', 'and changes nothing');
  t.equal((await w.services.runners!.sweep()).length, 0, 'a second sweep finds nothing');

  // A runner deleted while it holds a scan: the scan goes back to pending, its job records go.
  const r2 = await runner('edge-2', ['linux']);
  const a2 = agent(r2.token);
  t.equal((await a2('POST', '/api/runners/jobs')).body.data.job?._id, scan._id, 'edge-2 takes the handed-back scan');
  t.equal((await w.api('DELETE', `/api/runners/${r2._id}`)).status, 200, 'and is deleted');
  t.match((await w.api('GET', `/api/scans/${scan._id}`)).body.data, { status: 'pending' }, 'the scan is pending again');
  t.equal(await w.ctx.db.db.collection('runner_jobs').countDocuments({ orgId: w.owner.orgId, runnerId: r2._id }), 0, "the deleted runner's job records are gone");
});

t.test('setup-info, the install script and the package open only with the runner token', async (t) => {
  const { w, runner } = await setup(t);
  const r = await runner('build-1', ['linux']);
  const other = await runner('build-2', []);
  const info = (await w.api('GET', `/api/runners/${r._id}/setup-info`)).body.data;
  t.match(info, { runnerId: r._id, name: 'build-1', labels: ['linux'], token: r.token, apiUrl: /^http:\/\// }, 'setup data with the token');
  t.equal(info.setupUrl, `${info.apiUrl}/api/runners/${r._id}/setup?token=${r.token}`);
  t.match(info.installCommand, /^curl -fsSL '.+' \| sudo bash$/);
  t.notOk(JSON.stringify(await w.ctx.db.db.collection('runners').findOne({ _id: r._id as never })).includes(r.token), 'stored sealed, never in clear');

  const get = (url: string) => w.app.inject({ method: 'GET', url });
  const script = await get(`/api/runners/${r._id}/setup?token=${r.token}`);
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /^text\/x-shellscript/);
  t.match(script.body, /^#!\/usr\/bin\/env bash\n/);
  t.ok(script.body.includes(`RUNNER_TOKEN='${r.token}'`), 'the script carries the token');
  for (const url of [`/api/runners/${r._id}/setup`, `/api/runners/${r._id}/setup?token=${other.token}`, `/api/runners/${other._id}/setup?token=${r.token}`, `/api/runners/${r._id}/setup?token=rn_nope`]) {
    const res = await get(url);
    t.equal(res.statusCode, 401, `401: ${url.replace(/rn_[\w-]+/, 'rn_…')}`);
    // No token at all is no credential (unauthorized); a token that is not this runner's is invalid_token.
    t.equal(res.json().error.code, url.includes('token=') ? 'invalid_token' : 'unauthorized');
  }
  t.equal((await get('/api/runners/agent/package.tgz')).statusCode, 401, 'the package needs a token too');
  const pkg = await get(`/api/runners/agent/package.tgz?token=${r.token}`);
  t.equal(pkg.statusCode, 200);
  t.equal(pkg.headers['content-type'], 'application/gzip');
  t.same([...pkg.rawPayload.subarray(0, 2)], [0x1f, 0x8b], 'a gzip stream');

  const regen = (await w.api('POST', `/api/runners/${r._id}/regenerate-token`)).body.data;
  t.equal((await w.api('GET', `/api/runners/${r._id}/setup-info`)).body.data.token, regen.token, 'setup-info follows a regenerated token');
  t.equal((await get(`/api/runners/${r._id}/setup?token=${r.token}`)).statusCode, 401, 'the old token no longer opens the script');
});

t.test('a failure after the claim gives the claim back: the next poll claims the scan', async (t) => {
  const { w, labelled, runner, agent } = await setup(t);
  const id = await labelled('acme/flaky', { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/flaky.git' });
  const a = agent((await runner('r', ['linux'])).token);
  const scan = await w.scans.trigger(w.owner.orgId, id, null);
  // The step after the claim (reading the credentials for the job) fails once.
  const credentials = w.services.credentials!;
  const values = credentials.values;
  credentials.values = async () => { credentials.values = values; throw new Error('connection reset'); };
  t.equal((await a('POST', '/api/runners/jobs')).status, 500, 'the failing poll answers 500');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', 'the scan is still pending');
  const next = await a('POST', '/api/runners/jobs');
  t.equal(next.body.data.job?._id, scan._id, 'the next poll claims it');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'running', 'and it runs');
});
