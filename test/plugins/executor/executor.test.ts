// The built-in executor: configuration checks, which scans it takes, idempotence under a
// job run twice, user-actionable failures, and the Agenda job wiring. Real scans against moto
// are in test/e2e/scan.test.ts.
import t from 'tap';
import { buildTestApp, register, bearer, TEST_SECRETS } from '../../helper.ts';
import { world } from '../../fixtures/world.ts';
import { loadConfig } from '../../../core/config.ts';
import { createExecutor } from '../../../plugins/executor/service.ts';
import type { ScanInput } from '../../../runner-agent/src/engine/index.ts';

t.test('EXECUTOR_CONCURRENCY, DRIFT_CLOUD_A_ENDPOINT, EXECUTOR_LOCAL_SOURCES and SCAN_TIMEOUT_MINUTES are checked at boot', async (t) => {
  const base = { MONGODB_URI: 'mongodb://x', REDIS_URL: 'redis://x', ...TEST_SECRETS };
  const cfg = loadConfig({}, base);
  t.match(cfg, { EXECUTOR_CONCURRENCY: 2, EXECUTOR_LOCAL_SOURCES: false, SCAN_TIMEOUT_MINUTES: 60 }, 'defaults: 2 at once, no local sources, 60 minutes');
  t.equal(cfg.DRIFT_CLOUD_A_ENDPOINT, undefined, 'no endpoint override by default');
  const set = loadConfig({ EXECUTOR_CONCURRENCY: '5', DRIFT_CLOUD_A_ENDPOINT: 'http://127.0.0.1:5055/', EXECUTOR_LOCAL_SOURCES: 'true', SCAN_TIMEOUT_MINUTES: '0.5' }, base);
  t.match(set, { EXECUTOR_CONCURRENCY: 5, DRIFT_CLOUD_A_ENDPOINT: 'http://127.0.0.1:5055', EXECUTOR_LOCAL_SOURCES: true, SCAN_TIMEOUT_MINUTES: 0.5 });
  for (const bad of ['0', '21', '1.5', 'two']) t.throws(() => loadConfig({ EXECUTOR_CONCURRENCY: bad }, base), /Configuration error: EXECUTOR_CONCURRENCY is invalid/, `refuses EXECUTOR_CONCURRENCY="${bad}"`);
  t.throws(() => loadConfig({ DRIFT_CLOUD_A_ENDPOINT: 'localhost:5055' }, base), /Configuration error: DRIFT_CLOUD_A_ENDPOINT is invalid/);
  for (const bad of ['0', '-1', 'soon']) t.throws(() => loadConfig({ SCAN_TIMEOUT_MINUTES: bad }, base), /Configuration error: SCAN_TIMEOUT_MINUTES is invalid/, `refuses SCAN_TIMEOUT_MINUTES="${bad}"`);
});

t.test("without EXECUTOR_LOCAL_SOURCES the executor does not read this host's files", async (t) => {
  const { app, ctx, services } = await buildTestApp(t, { env: { EXECUTOR_LOCAL_SOURCES: false } });
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const executor = services.executor!;
  for (const repositoryUrl of ['/etc', 'file:///srv/other-tenant.git']) {
    const cfg = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(s.token), payload: { repositoryName: `acme/local${repositoryUrl.length}`, branch: 'main', provider: 'cloud_a', repositoryUrl } })).json().data;
    const scan = (await app.inject({ method: 'POST', url: `/api/scans/trigger/${cfg._id}`, headers: bearer(s.token) })).json().data;
    t.equal(await executor.execute(s.orgId, scan._id), 'failed', `${repositoryUrl}: the scan fails`);
    const after = (await app.inject({ method: 'GET', url: `/api/scans/${scan._id}`, headers: bearer(s.token) })).json().data;
    t.match(after, { status: 'failed', error: /^repositoryUrl points at a local path, which the built-in executor does not read/ }, 'saying why and what to do');
  }
});

t.test('which scans it runs, once, and the messages it leaves', async (t) => {
  const w = await world(t);
  const executor = w.services.executor!;
  const set = (id: string, fields: Record<string, unknown>) => w.ctx.db.db.collection('repo_configs').updateOne({ _id: id as never }, { $set: fields });
  const scanOf = async (id: string) => (await w.api('GET', `/api/scans/${id}`)).body.data;

  const noUrl = await w.config('acme/nourl');
  const s1 = await w.scans.trigger(w.owner.orgId, noUrl, null);
  t.equal(await executor.execute(w.owner.orgId, s1._id), 'failed');
  t.match(await scanOf(s1._id), { status: 'failed', error: /^repositoryUrl is not set on repository config acme\/nourl/ }, 'a config without repositoryUrl fails saying so');

  const forRunners = await w.config('acme/runners');
  await set(forRunners, { runnerLabels: ['gpu'], repositoryUrl: 'file:///nowhere' });
  const s2 = await w.scans.trigger(w.owner.orgId, forRunners, null);
  t.equal(await executor.execute(w.owner.orgId, s2._id), 'skipped:runners', 'a config with runnerLabels is left to runners');
  t.equal((await scanOf(s2._id)).status, 'pending', 'and stays pending');

  const plain = await w.config('acme/plain');
  await set(plain, { repositoryUrl: 'file:///nowhere', runnerLabels: [] });
  const s3 = await w.scans.trigger(w.owner.orgId, plain, null);
  const twice = await Promise.all([executor.execute(w.owner.orgId, s3._id), executor.execute(w.owner.orgId, s3._id), executor.execute(w.owner.orgId, s3._id)]);
  t.equal(twice.filter((o) => o === 'failed').length, 1, `three concurrent runs of the job: one runs the scan (${twice.join(', ')})`);
  t.match(await scanOf(s3._id), { status: 'failed', error: /^No cloud_a credentials: add them to the organization or the project/ }, "the engine's message reaches the scan");
  t.equal(await executor.execute(w.owner.orgId, s3._id), 'skipped:not-pending', 'a later run skips a finished scan');
  t.equal(await executor.execute(w.owner.orgId, '0'.repeat(24)), 'skipped:gone', 'an unknown scan is skipped');
});

t.test("the scans plugin's job reaches the executor", async (t) => {
  const { app, ctx } = await buildTestApp(t, { runJobs: true });
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const cfg = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(s.token), payload: { repositoryName: 'acme/job', branch: 'main', provider: 'cloud_a' } })).json().data;
  await ctx.db.db.collection('repo_configs').updateOne({ _id: cfg._id }, { $set: { repositoryUrl: 'file:///does/not/exist' } });
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(s.token), payload: { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret', region: 'us-east-1' } });
  const scan = (await app.inject({ method: 'POST', url: `/api/scans/trigger/${cfg._id}`, headers: bearer(s.token) })).json().data;
  let now = scan;
  for (let i = 0; i < 100 && (now.status === 'pending' || now.status === 'running'); i++) {
    await new Promise((r) => setTimeout(r, 200));
    now = (await app.inject({ method: 'GET', url: `/api/scans/${scan._id}`, headers: bearer(s.token) })).json().data;
  }
  t.match(now, { status: 'failed', error: /^Could not clone branch "main" of file:\/\/\/does\/not\/exist/ }, 'the job ran the engine; the clone failure is the message');
});

t.test('a failure after the claim gives the claim back: the next run claims and runs the scan', async (t) => {
  const w = await world(t);
  const credentials = w.services.credentials!;
  const executor = createExecutor(w.ctx, w.services.scans!, {
    concurrency: 1, endpoint: undefined, localSources: true, timeoutMs: 60_000, providerPlans: false, allowPlanPrograms: false,
    detect: async () => ({ drifts: [], resourcesScanned: 0, stats: { durationMs: 1, notCompared: [{ resourceType: 'aws_eks_cluster', reason: 'no_reader', count: 2 }] } }) as never,
  });
  const id = await w.config('acme/flaky');
  await w.ctx.db.db.collection('repo_configs').updateOne({ _id: id as never }, { $set: { repositoryUrl: 'file:///nowhere' } });
  const scan = await w.scans.trigger(w.owner.orgId, id, null);
  // The step after the claim (reading the credentials for the input) fails once.
  const values = credentials.values;
  credentials.values = async () => { credentials.values = values; throw new Error('connection reset'); };
  await t.rejects(executor.execute(w.owner.orgId, scan._id), /connection reset/, 'the failure reaches the job');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', 'the scan is still pending');
  t.equal(await executor.execute(w.owner.orgId, scan._id), 'ran', 'the next run claims it again and runs it');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'completed');
  t.same((await w.api('GET', `/api/scans/${scan._id}`)).body.data.stats, {
    compared: 0, notCompared: [{ resourceType: 'aws_eks_cluster', reason: 'no_reader', count: 2 }], comparedBy: null, providerPlan: null,
  },
    "the engine's notCompared is on the scan record");
});

t.test('provider plans on the built-in executor: off by default; the engine input carries the settings and the config comparison', async (t) => {
  const base = { MONGODB_URI: 'mongodb://x', REDIS_URL: 'redis://x', ...TEST_SECRETS };
  t.match(loadConfig({}, base), { EXECUTOR_PROVIDER_PLANS: false, EXECUTOR_PLAN_PROGRAMS: false }, 'both off unless the operator turns them on');
  t.match(loadConfig({ EXECUTOR_PROVIDER_PLANS: 'true', EXECUTOR_PLAN_PROGRAMS: '1' }, base), { EXECUTOR_PROVIDER_PLANS: true, EXECUTOR_PLAN_PROGRAMS: true });
  const w = await world(t);
  const seen: ScanInput[] = [];
  const make = (providerPlans: boolean, allowPlanPrograms: boolean) => createExecutor(w.ctx, w.services.scans!, {
    concurrency: 1, endpoint: undefined, localSources: true, timeoutMs: 60_000, providerPlans, allowPlanPrograms,
    detect: async (input) => { seen.push(input); return { drifts: [], resourcesScanned: 0, inventory: [], stats: { durationMs: 1 } as never }; },
  });
  const id = await w.config('acme/hybrid');
  t.equal((await w.api('PUT', `/api/repo-configs/${id}`, { repositoryUrl: 'file:///nowhere', comparison: 'provider' })).status, 200);
  for (const [plans, programs] of [[true, false], [false, false], [true, true]] as const) {
    const scan = await w.scans.trigger(w.owner.orgId, id, null);
    t.equal(await make(plans, programs).execute(w.owner.orgId, scan._id), 'ran');
  }
  t.match(seen, [
    { comparison: 'provider', providerPlans: true, allowPlanPrograms: false, confined: true },
    { comparison: 'provider', providerPlans: false, allowPlanPrograms: false, confined: true },
    { comparison: 'provider', providerPlans: true, allowPlanPrograms: true, confined: true },
  ], 'each run: the operator settings, confined, and the config comparison');
});
