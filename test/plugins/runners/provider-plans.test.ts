// A runner's heartbeat says whether it can run provider plans (issue 34): the binary and its
// version, or null. GET /api/runners and /:runnerId show what the latest heartbeat said (null
// when it has none or never said); a malformed or oversized value is a 400 naming the field.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';

t.test('heartbeat providerPlans: with, without, shown on the runner views, refused shapes', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const create = async (name: string) => (await app.inject({ method: 'POST', url: '/api/runners', headers: h, payload: { name } })).json().data as { _id: string; token: string; providerPlans: unknown };
  const runner = await create('planner');
  const quiet = await create('quiet');
  t.equal(runner.providerPlans, null, 'a new runner: null (never said)');
  const beat = (token: string, payload: unknown) => app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: { 'x-runner-token': token }, payload: payload as object });
  const view = async (id: string) => (await app.inject({ method: 'GET', url: `/api/runners/${id}`, headers: h })).json().data;
  const listed = async (id: string) => ((await app.inject({ method: 'GET', url: '/api/runners', headers: h })).json().data as { _id: string; providerPlans: unknown }[]).find((r) => r._id === id);

  const plans = { binary: 'terraform', version: '1.11.4' };
  t.equal((await beat(runner.token, { status: 'online', version: '1.0.0', providerPlans: plans })).statusCode, 200, 'a heartbeat with providerPlans');
  t.same((await view(runner._id)).providerPlans, plans, 'GET /api/runners/:runnerId shows it');
  t.same((await listed(runner._id))?.providerPlans, plans, 'and the list');

  t.equal((await beat(quiet.token, { status: 'online', version: '0.9.0' })).statusCode, 200, 'a heartbeat without it (an older agent)');
  t.equal((await view(quiet._id)).providerPlans, null, 'null: it never said');

  // Within the write throttle: a changed binary is written at once, like a changed status.
  t.equal((await beat(runner.token, { status: 'online', version: '1.0.0', providerPlans: { binary: 'tofu', version: '1.9.0' } })).statusCode, 200);
  t.same((await view(runner._id)).providerPlans, { binary: 'tofu', version: '1.9.0' }, 'a new binary replaces the old one straight away');
  t.equal((await beat(runner.token, { status: 'online', version: '1.0.0', providerPlans: null })).statusCode, 200, 'null: no binary any more');
  t.equal((await view(runner._id)).providerPlans, null, 'shown as null');
  await beat(runner.token, { status: 'online', version: '1.0.0', providerPlans: plans });
  t.equal((await beat(runner.token, { status: 'online', version: '1.0.0' })).statusCode, 200, 'the agent downgraded: no field');
  t.equal((await view(runner._id)).providerPlans, null, 'a heartbeat without it says nothing: null, not the old binary');

  for (const [why, bad, path] of [
    ['an unknown binary', { binary: 'pulumi', version: '3.0.0' }, 'body/providerPlans/binary'],
    ['an oversized version', { binary: 'terraform', version: '1'.repeat(51) }, 'body/providerPlans/version'],
    ['a version with spaces', { binary: 'terraform', version: '1.11.4 ; rm -rf' }, 'body/providerPlans/version'],
    ['an empty version', { binary: 'tofu', version: '' }, 'body/providerPlans/version'],
    ['no version', { binary: 'tofu' }, 'body/providerPlans'],
    ['a string', 'terraform 1.11.4', 'body/providerPlans'],
  ] as const) {
    const res = await beat(runner.token, { status: 'busy', providerPlans: bad });
    t.equal(res.statusCode, 400, `${why}: 400`);
    t.match(res.json(), { success: false, error: { code: 'validation_failed', message: new RegExp(`^${path.replace(/\//g, '\\/')}`) } }, `${why}: the error shape names ${path}`);
  }
  t.equal((await view(runner._id)).status, 'online', 'a refused heartbeat changed nothing');
  t.equal((await view(runner._id)).providerPlans, null);
});
