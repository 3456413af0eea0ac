// The organization's cloud API rates through the API (GET/PUT /api/scans/api-budget), and the
// built-in executor running two scans of one account through a throttling proxy in front of
// moto with them: the Redis budget keeps both under the proxy's rate, and each scan's stats
// show throttledCalls and waitedMs. Abuse cases: a member of another organization can neither
// read nor change these rates, not even naming the organization in x-org-id; a plain member
// cannot change them.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { CREDENTIALS } from '../../engine/world.ts';
import { budgetWorld } from '../../engine/budget-world.ts';

const ROLES = 12;
const w = await budgetWorld(ROLES, { perSecond: 10, capacity: 20 });
t.teardown(() => w.cleanup());

t.test('rates: set by an admin of the organization, read by its members, nobody else', async (t) => {
  const { app } = await buildTestApp(t);
  const owner = await register(app);
  const other = await register(app);
  const put = (token: string, payload: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'PUT', url: '/api/scans/api-budget', headers: { ...bearer(token), ...headers }, payload });
  const get = async (token: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/scans/api-budget', headers: { ...bearer(token), ...headers } });

  t.same((await get(owner.token)).json(), { success: true, data: { apiRates: {} } }, 'none set: {} (the defaults apply)');
  const set = await put(owner.token, { apiRates: { 'aws:iam': 8, 'azure:Microsoft.Network': 2 } });
  t.equal(set.statusCode, 200);
  t.same(set.json().data, { apiRates: { 'aws:iam': 8, 'azure:Microsoft.Network': 2 } }, 'saved (a service name with dots too)');
  t.same((await get(owner.token)).json().data, { apiRates: { 'aws:iam': 8, 'azure:Microsoft.Network': 2 } }, 'read back');

  const bad = await put(owner.token, { apiRates: { 'gcp:compute': 3 } });
  t.equal(bad.statusCode, 400, 'an unknown cloud: 400');
  t.match(bad.json(), { success: false, error: { code: 'bad_request', message: /"gcp:compute"/ } });
  t.equal((await put(owner.token, { apiRates: { 'aws:ec2': 0 } })).statusCode, 400, 'a rate of 0: 400');
  t.equal((await put(owner.token, { apiRates: { 'aws:ec2': 'fast' } })).statusCode, 400, 'not a number: 400');

  // Another organization's user: its own rates, never the owner's, whatever org it names.
  t.same((await get(other.token)).json().data, { apiRates: {} }, "another organization reads its own (empty) rates");
  const intruder = await put(other.token, { apiRates: { 'aws:iam': 0.1 } }, { 'x-org-id': owner.orgId });
  t.ok([403, 404].includes(intruder.statusCode), `naming the owner's organization in x-org-id is refused (${intruder.statusCode})`);
  t.equal((await get(other.token, { 'x-org-id': owner.orgId })).statusCode >= 400, true, 'and reading them too');
  t.same((await get(owner.token)).json().data.apiRates['aws:iam'], 8, "the owner's rates are unchanged");
});

t.test('the built-in executor: two scans of one account share the Redis budget; stats show throttledCalls and waitedMs', async (t) => {
  const { app, ctx } = await buildTestApp(t, { runJobs: true, env: { DRIFT_CLOUD_A_ENDPOINT: w.proxy.url, EXECUTOR_CONCURRENCY: 2 } });
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => app.inject({ method, url, headers: bearer(s.token), ...(payload ? { payload } : {}) });
  t.equal((await api('POST', '/api/auth/cloud-a-credentials', CREDENTIALS)).statusCode, 200);
  t.equal((await api('PUT', '/api/scans/api-budget', { apiRates: { 'aws:iam': 8 } })).statusCode, 200);
  const configs = [];
  for (const name of ['acme/budget-a', 'acme/budget-b']) {
    const res = await api('POST', '/api/repo-configs', { repositoryName: name, branch: 'main', provider: 'cloud_a', repositoryUrl: w.dir, comparison: 'native' });
    t.equal(res.statusCode, 201, `config ${name}`);
    configs.push(res.json().data._id as string);
  }
  w.proxy.reset();
  const scans = await Promise.all(configs.map(async (c) => (await api('POST', `/api/scans/trigger/${c}`)).json().data._id as string));
  const done = await Promise.all(scans.map(async (id) => {
    for (let i = 0; i < 240; i++) {
      const scan = (await api('GET', `/api/scans/${id}`)).json().data;
      if (scan.status === 'completed' || scan.status === 'failed') return scan;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`scan ${id} did not finish`);
  }));
  const iam = w.proxy.log.filter((l) => l.service === 'iam');
  t.comment(`executor, budget 8/s: ${iam.length} IAM calls, peak ${w.proxy.peakPerSecond('iam')}/s, ${iam.filter((l) => l.throttled).length} throttled; waitedMs ${done.map((d) => d.stats?.waitedMs).join(', ')}`);
  t.same(done.map((d) => d.status), ['completed', 'completed'], `both scans completed (${done.map((d) => d.error ?? 'ok').join(', ')})`);
  t.equal(iam.filter((l) => l.throttled).length, 0, 'the proxy throttled no call');
  t.ok(w.proxy.peakPerSecond('iam') <= 16 + 8, 'never more than the budget\'s burst and refill within a second');
  for (const d of done) {
    t.equal(d.stats.compared, ROLES, 'every role compared');
    t.equal(d.stats.throttledCalls, 0, 'stats.throttledCalls shown');
    t.ok(Number.isInteger(d.stats.waitedMs) && d.stats.waitedMs >= 0, `stats.waitedMs shown (${d.stats.waitedMs})`);
  }
  t.ok(done.some((d) => d.stats.waitedMs > 0), 'the scans waited for the shared budget');
});
