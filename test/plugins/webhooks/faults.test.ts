// Fault (issue 18 point 5, the part of issue 15): a webhook or chat receiver down. The
// deliveries are kept and retried on schedule, nothing is lost, and the service answers as usual.
import t from 'tap';
import { createServer } from 'node:https';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { receiverEnv, testCertificate } from './helper.ts';

t.test('a receiver down: deliveries kept and retried, none lost, the API unaffected', async (t) => {
  const b = await buildTestApp(t, { env: receiverEnv() });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  // The receiver's port stays ours the whole test (a port freed and taken again later can be
  // taken by another process meanwhile): while it is down, every connection is reset at once.
  let down = true;
  const got: { event: string; body: string }[] = [];
  const { key, cert } = testCertificate();
  const server = createServer({ key, cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => { got.push({ event: req.url ?? '', body }); res.writeHead(200).end('ok'); });
  });
  server.on('connection', (socket) => { if (down) socket.destroy(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  const port = (server.address() as { port: number }).port;
  const url = `https://127.0.0.1:${port}/hook`;
  const api = (method: 'GET' | 'PUT' | 'POST', path: string, payload?: object) => b.app.inject({ method, url: path, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  t.equal((await api('POST', '/api/webhooks', { url, events: ['scan.completed'] })).statusCode, 201);
  t.equal((await api('PUT', '/api/auth/chat', { webhookUrl: `${url}/chat`, events: ['scan_completed'] })).statusCode, 200);

  const base = { repositoryConfigId: 'b'.repeat(24), repositoryName: 'acme/infra', driftCount: 0, newDrifts: 0, resolvedDrifts: 0 };
  for (let i = 0; i < 5; i++) await b.ctx.bus.emit('scan.completed', owner.orgId, { ...base, scanId: String(i).repeat(24) });
  const t0 = Date.now() + 1000;
  const first = await b.services.webhooks!.runDue(new Date(t0));
  t.match(first, { attempts: 10, retried: 10, delivered: 0 }, 'ten deliveries (5 webhook, 5 chat) tried and kept for retry');
  await b.services.webhooks!.runDue(new Date(t0 + 60_000));
  t.equal((await api('GET', '/api/webhooks')).statusCode, 200, 'the API answers while the receiver is down');
  t.equal((await b.app.inject({ method: 'GET', url: '/health' })).statusCode, 200, 'health is unaffected');

  // The receiver comes back.
  down = false;
  const back = await b.services.webhooks!.runDue(new Date(t0 + 6 * 60_000));
  t.match(back, { delivered: 10 }, 'the 2nd retry delivers every one');
  t.equal(got.filter((g) => g.event === '/hook').length, 5, 'five webhook deliveries');
  t.equal(got.filter((g) => g.event === '/hook/chat').length, 5, 'five chat messages');
  t.equal(new Set(got.filter((g) => g.event === '/hook').map((g) => JSON.parse(g.body).data.scanId)).size, 5, 'none lost, none twice');
});
