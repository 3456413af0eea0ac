// Fault: the database stops in the middle of requests (a TCP proxy in front of the shared
// FerretDB is cut while writes are in flight: open connections drop, the port refuses) and
// comes back, with the app running all along (docs/faults.md):
//   - every answer is a 2xx or a 503 in the error shape with a clear message, never a 500;
//   - no request hangs past a bound (the driver's server selection timeout, 5 s, plus slack);
//   - every write that answered 2xx is stored;
//   - once the database is back, requests succeed again without a restart.
import t from 'tap';
import { MongoClient } from 'mongodb';
import { bearer, buildTestApp, register, serviceUrls } from '../helper.ts';
import { startProxy } from './proxy.ts';
import { until } from '../e2e/lib.ts';

const BOUND_MS = 15_000;

t.test('database stopped mid-request, then back', async (t) => {
  const { mongoUri } = serviceUrls();
  const proxy = await startProxy(mongoUri);
  t.teardown(() => proxy.close());
  const { app, ctx } = await buildTestApp(t, { env: { MONGODB_URI: `${proxy.url('mongodb')}/` } });
  // The test's teardown drops the database through the app's client: restore the proxy first.
  t.teardown(async () => { proxy.delayMs = 0; await proxy.restore(); });
  const direct = await new MongoClient(mongoUri).connect();
  t.teardown(() => direct.close());
  const projects = direct.db(ctx.db.db.databaseName).collection('projects');

  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const h = bearer(s.token);
  t.equal((await app.inject({ method: 'GET', url: '/api/projects', headers: h })).statusCode, 200, 'up: reads work');

  // A burst of writes, each held 300 ms in the proxy, cut while they are in flight.
  proxy.delayMs = 300;
  const write = async (i: number) => {
    const started = Date.now();
    const res = await app.inject({ method: 'POST', url: '/api/projects', headers: h, payload: { name: `p${i}`, provider: 'cloud_a' } });
    return { res, ms: Date.now() - started };
  };
  const burst = Array.from({ length: 12 }, (_, i) => write(i));
  await new Promise((r) => setTimeout(r, 150));
  await proxy.cut();
  const answers = await Promise.all(burst);
  const statuses = answers.map((a) => a.res.statusCode);
  t.ok(statuses.every((c) => c === 201 || c === 503), `every write answered 201 or 503 (${statuses.join(' ')})`);
  t.ok(statuses.includes(503), 'the cut reached writes in flight');
  const slowest = Math.max(...answers.map((a) => a.ms));
  t.ok(slowest < BOUND_MS, `none waited past ${BOUND_MS} ms (slowest ${slowest} ms)`);
  for (const a of answers.filter((x) => x.res.statusCode === 503)) {
    t.match(a.res.json(), { success: false, error: { code: 'store_unavailable', message: /database is unavailable/ } }, 'a 503 says the database is unavailable');
  }
  const stored = answers.filter((a) => a.res.statusCode === 201).map((a) => a.res.json().data._id as string);

  // While down: new requests answer 503 within the bound (no hang).
  const t0 = Date.now();
  const down = await app.inject({ method: 'GET', url: '/api/projects', headers: h });
  t.equal(down.statusCode, 503, 'a read while down: 503');
  t.match(down.json().error.message, /database is unavailable/, `clear message (${down.json().error.message})`);
  t.ok(Date.now() - t0 < BOUND_MS, `answered in ${Date.now() - t0} ms`);
  const health = await app.inject({ method: 'GET', url: '/health' });
  t.equal(health.statusCode, 503, '/health: 503');
  t.match(JSON.stringify(health.json()), /database/, 'naming the database');

  proxy.delayMs = 0;
  await proxy.restore();
  let last = '';
  // Within the bound the driver's connectTimeoutMS sets, plus the heartbeat watchdog's margin
  // (core/db-watchdog.ts: the driver's monitor can stick in a heartbeat started on a socket the
  // cut had just ended; the watchdog fails that heartbeat so the driver reconnects).
  await until('reads to work again', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/projects', headers: h });
    last = `${res.statusCode} ${res.body.slice(0, 300)}`;
    return res.statusCode === 200;
  }, 30_000).catch((err: Error) => { throw new Error(`${err.message}; last answer: ${last}`); });
  t.pass('recovered without a restart');
  const after = await app.inject({ method: 'POST', url: '/api/projects', headers: h, payload: { name: 'after', provider: 'cloud_a' } });
  t.equal(after.statusCode, 201, 'writes work again');
  stored.push(after.json().data._id);
  for (const id of stored) t.ok(await projects.findOne({ _id: id as never, orgId: s.orgId }), `2xx write ${id} is stored`);
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200, '/health: 200 again');
});
