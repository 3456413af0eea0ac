import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';

t.test('runner lifecycle: token once, heartbeat, regenerate, offline, delete', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const created = await app.inject({ method: 'POST', url: '/api/runners', headers: h, payload: { name: 'build-1', labels: ['linux', 'aws'] } });
  t.equal(created.statusCode, 201);
  const runner = created.json().data;
  t.match(runner.token, /^rn_/, 'the token is shown at creation');
  t.equal(runner.status, 'offline', 'a new runner is offline');
  t.notOk(JSON.stringify(await ctx.db.db.collection('runners').findOne({ _id: runner._id })).includes(runner.token), 'stored as a hash only');

  const list = await app.inject({ method: 'GET', url: '/api/runners', headers: h });
  t.equal(list.json().data.length, 1);
  t.notOk(list.body.includes(runner.token), 'never listed with its token');

  const agent = { 'x-runner-token': runner.token };
  const beat = await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'online', version: '0.1.0', systemInfo: { cpu: { cores: 2 }, memory: { totalBytes: 1024 }, disk: { freeBytes: 10 } } } });
  t.equal(beat.statusCode, 200);
  t.equal(beat.headers['ratelimit-limit'], '120', 'the Runner limit applies');
  const seen = (await app.inject({ method: 'GET', url: `/api/runners/${runner._id}`, headers: h })).json().data;
  t.equal(seen.status, 'online');
  t.equal(seen.version, '0.1.0');
  t.same(seen.systemInfo.cpu, { cores: 2 });
  t.ok(seen.lastHeartbeat, 'lastHeartbeat recorded');

  const before = ctx.db.commandCount();
  for (let i = 0; i < 5; i++) await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'online' } });
  t.ok(ctx.db.commandCount() - before <= 2, 'repeated unchanged heartbeats are not each written');
  // The agent sends systemInfo with every beat, and it changes every time (load, free memory).
  const withInfo = ctx.db.commandCount();
  for (let i = 0; i < 5; i++) await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'online', version: '0.1.0', systemInfo: { cpu: { cores: 2, loadAverage: [i, 0, 0] }, memory: { totalBytes: 1024, freeBytes: 100 + i } } } });
  t.ok(ctx.db.commandCount() - withInfo <= 2, 'nor are beats whose only news is systemInfo (refreshed with the next write)');
  const busy = await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'busy' } });
  t.equal(busy.json().data.status, 'busy');
  t.equal((await app.inject({ method: 'GET', url: `/api/runners/${runner._id}`, headers: h })).json().data.status, 'busy', 'a status change is written at once');

  const bad = await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: { 'x-runner-token': 'rn_forged' }, payload: { status: 'online' } });
  t.equal(bad.statusCode, 401);
  const badStatus = await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'offline' } });
  t.equal(badStatus.statusCode, 400, 'a runner reports online or busy only');

  const regen = await app.inject({ method: 'POST', url: `/api/runners/${runner._id}/regenerate-token`, headers: h });
  t.equal(regen.statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: { status: 'online' } })).statusCode, 401, 'the old token stops working at once');
  const agent2 = { 'x-runner-token': regen.json().data.token };
  t.equal((await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent2, payload: { status: 'online' } })).statusCode, 200, 'the new one works');

  const offline = await app.inject({ method: 'POST', url: `/api/runners/${runner._id}/mark-offline`, headers: h });
  t.equal(offline.json().data.status, 'offline');

  const renamed = await app.inject({ method: 'PUT', url: `/api/runners/${runner._id}`, headers: h, payload: { labels: ['gpu'] } });
  t.same(renamed.json().data.labels, ['gpu']);

  const del = await app.inject({ method: 'DELETE', url: `/api/runners/${runner._id}`, headers: h });
  t.equal(del.statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent2, payload: { status: 'online' } })).statusCode, 401, "a deleted runner's token stops working");
});

t.test('runners not heard from go offline by themselves', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const s = await register(app);
  const mk = async (name: string) => (await app.inject({ method: 'POST', url: '/api/runners', headers: bearer(s.token), payload: { name } })).json().data;
  const quiet = await mk('quiet');
  const alive = await mk('alive');
  for (const r of [quiet, alive]) await app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: { 'x-runner-token': r.token }, payload: { status: 'online' } });
  await ctx.db.db.collection('runners').updateOne({ _id: quiet._id }, { $set: { lastHeartbeat: new Date(Date.now() - 10 * 60_000) } });
  const runners = services.runners!;
  t.equal((await runners.sweep()).length, 1, 'one stale runner found');
  const get = async (id: string) => (await app.inject({ method: 'GET', url: `/api/runners/${id}`, headers: bearer(s.token) })).json().data.status;
  t.equal(await get(quiet._id), 'offline');
  t.equal(await get(alive._id), 'online');
  t.equal((await runners.sweep()).length, 0, 'sweeping again changes nothing');
});

t.test('the Strict limit: 5 regenerations per hour', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const r = (await app.inject({ method: 'POST', url: '/api/runners', headers: bearer(s.token), payload: { name: 'r' } })).json().data;
  const codes = [];
  for (let i = 0; i < 6; i++) codes.push((await app.inject({ method: 'POST', url: `/api/runners/${r._id}/regenerate-token`, headers: bearer(s.token) })).statusCode);
  t.same(codes, [200, 200, 200, 200, 200, 429]);
});
