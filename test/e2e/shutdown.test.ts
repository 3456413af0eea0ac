// Graceful shutdown of the real service process (core/shutdown.ts): SIGTERM in the middle of a
// burst of writes. Every write answered 2xx is stored; the others were refused (503
// shutting_down, or the connection was refused once the listener closed), never a 500; the
// process exits 0 within its bound; every answer carried a request id.
import t from 'tap';
import { Agent, request } from 'undici';
import { controlApp, startService, http } from './lib.ts';

t.test('SIGTERM during a burst of writes: every 2xx write is stored', async (t) => {
  const control = await controlApp(t);
  const svc = await startService(t, { E2E_DB: control.db, E2E_PREFIX: control.prefix, SHUTDOWN_TIMEOUT_MS: '10000' });
  const reg = await http(svc.url, 'POST', '/api/auth/register', undefined, { email: `shutdown-${Date.now()}@example.com`, password: 'correct horse battery' });
  t.equal(reg.status, 201);
  const token = reg.body.token as string;

  // Keep-alive connections, as a proxy or client library holds them.
  const agent = new Agent({ connections: 16, pipelining: 1 });
  t.teardown(() => agent.close());
  const stored: string[] = [];
  const outcomes = new Map<string, number>();
  const requestIds = new Set<string>();
  const unexpected: string[] = [];
  let sent = 0;
  let signalled = false;
  const signalAfter = 60;
  const write = async (i: number) => {
    try {
      const res = await request(`${svc.url}/api/workspaces`, {
        method: 'POST', dispatcher: agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `burst ${i}` }),
      });
      const text = await res.body.text();
      const id = res.headers['x-request-id'];
      if (typeof id === 'string') requestIds.add(id);
      const key = String(res.statusCode);
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (res.statusCode === 201) stored.push(JSON.parse(text).data._id);
      else if (res.statusCode !== 503 || JSON.parse(text).error.code !== 'shutting_down') unexpected.push(`${res.statusCode}: ${text.slice(0, 200)}`);
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'error';
      outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
    }
  };
  // 16 writers, each sending one write after another until the service is gone.
  const started = Date.now();
  let exitedAt = 0;
  void svc.exited.then(() => { exitedAt = Date.now(); });
  let signalledAt = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (!exitedAt && sent < 2000) {
      const i = sent++;
      if (i === signalAfter && !signalled) {
        signalled = true;
        signalledAt = Date.now();
        svc.child.kill('SIGTERM');
      }
      await write(i);
    }
  }));
  const code = await svc.exited;
  t.equal(code, 0, 'the process exits 0 after a graceful shutdown');
  t.same(unexpected, [], 'every other answer is 503 shutting_down (never a 500)');
  t.ok(signalled, 'SIGTERM was sent during the burst');
  t.ok(exitedAt - signalledAt < 10_000, `shut down within its bound (${exitedAt - signalledAt} ms)`);
  t.ok(stored.length >= signalAfter - 16, `writes before the signal succeeded (${stored.length} stored; outcomes ${JSON.stringify(Object.fromEntries(outcomes))})`);
  t.equal(requestIds.size, [...outcomes.entries()].filter(([k]) => /^\d+$/.test(k)).reduce((n, [, v]) => n + v, 0), 'every HTTP answer carried its own x-request-id');

  const found = await control.ctx.db.db.collection('workspaces').find({ _id: { $in: stored } as never }, { projection: { _id: 1 } }).toArray();
  t.equal(found.length, stored.length, 'every write answered 201 is in the database');
  t.ok(Date.now() - started < 60_000);
});
