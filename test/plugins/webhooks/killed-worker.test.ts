// Fault (issue 36 point 2): a delivery worker process killed (SIGKILL) in the middle of a batch.
// Nothing is lost, no attempt reaches a receiver twice, and the events delivered again (under the
// next attempt number, after the dead worker's claims go stale) are at most the batch it had in
// flight: the at-least-once contract of docs/integrations.md ("Delivery guarantee").
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ServerResponse } from 'node:http';
import { buildTestApp, register } from '../../helper.ts';
import { receiverEnv, testCertificate } from './helper.ts';
import { BATCH } from '../../../plugins/webhooks/outbox.ts';

const MIN = 60_000;
const RECEIVERS = 5;
const EVENTS = 100; // 500 deliveries: two and a half batches
const KILL_AT = BATCH + 50; // the 50th answer of the second batch

t.test('a worker killed mid-batch: every delivery arrives, re-sends no more than its batch', async (t) => {
  const b = await buildTestApp(t, { env: receiverEnv() });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const { key, cert, certFile } = testCertificate();
  const seen: { rx: number; id: string; attempt: string; header: string | undefined }[] = [];
  const held: ServerResponse[] = [];
  let killed = false;
  let kill = () => {};
  const servers: Server[] = [];
  for (let i = 0; i < RECEIVERS; i++) {
    const server = createServer({ key, cert }, (req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        seen.push({ rx: i, id: (JSON.parse(body) as { id: string }).id, attempt: String(req.headers['x-service-attempt']), header: req.headers['x-service-event-id'] as string | undefined });
        if (seen.length === KILL_AT) kill();
        // Until the kill, answers after the KILL_AT-th are held: the worker dies with them in flight.
        if (!killed && seen.length > KILL_AT) { held.push(res); return; }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
  }
  t.teardown(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });
  for (const s of servers) await b.services.webhooks!.create(owner.orgId, { url: `https://127.0.0.1:${(s.address() as { port: number }).port}/hook`, events: ['scan.completed'] });
  for (let i = 0; i < EVENTS; i++) {
    await b.ctx.bus.emit('scan.completed', owner.orgId, { scanId: i.toString(16).padStart(24, '0'), repositoryConfigId: 'b'.repeat(24), repositoryName: 'acme/infra', driftCount: 0, newDrifts: 0, resolvedDrifts: 0 });
  }

  // The worker: its own process on this test's database (scripts/bench/webhook-worker.ts).
  const worker = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../../scripts/bench/webhook-worker.ts')], {
    env: { ...process.env, BENCH_DB: b.ctx.config.MONGODB_DB, BENCH_PREFIX: b.ctx.config.REDIS_KEY_PREFIX, BENCH_CA_FILE: certFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => { worker.kill('SIGKILL'); });
  const exited = new Promise<void>((r) => worker.once('exit', () => r()));
  kill = () => { worker.kill('SIGKILL'); };
  createInterface({ input: worker.stdout! }).on('line', () => undefined);
  await exited;
  killed = true;
  t.equal(seen.length >= KILL_AT, true, `the worker was killed after ${KILL_AT} deliveries`);
  const sentByWorker = seen.length;

  // The survivors: the next runs (clock moved past the dead worker's claims' stale time and the retries).
  const webhooks = b.services.webhooks!;
  const first = await webhooks.runDue(new Date(Date.now() + 2 * MIN));
  t.ok(first.abandoned > 0 && first.abandoned <= BATCH, `the dead worker's unrecorded claims (${first.abandoned}) are at most one batch`);
  await webhooks.runDue(new Date(Date.now() + 5 * MIN));
  for (const r of held) r.destroy();

  const deliveries = await b.ctx.db.db.collection('webhook_deliveries').find({ orgId: owner.orgId }).toArray();
  t.equal(deliveries.length, EVENTS * RECEIVERS);
  t.equal(deliveries.filter((d) => d.status === 'delivered').length, EVENTS * RECEIVERS, 'every delivery ends delivered');
  const keys = seen.map((s) => `${s.rx}:${s.id}:${s.attempt}`);
  t.equal(new Set(keys).size, keys.length, 'no (event id, attempt) reached a receiver twice');
  t.ok(seen.every((s) => s.header === s.id), 'X-Service-Event-Id is the envelope id on every attempt');
  // A receiver that got an event under more than one attempt number got it again.
  const perEvent = new Map<string, Set<string>>();
  for (const s of seen) perEvent.set(`${s.rx}:${s.id}`, (perEvent.get(`${s.rx}:${s.id}`) ?? new Set()).add(s.attempt));
  const twice = [...perEvent.values()].filter((a) => a.size > 1).length;
  const retried = seen.filter((s) => s.attempt !== '0').length;
  t.ok(twice > 0, `deliveries the dead worker had sent arrive again (${twice}): at least once, not exactly once`);
  t.ok(twice <= retried && retried <= BATCH, `sent again: ${retried} attempts (${twice} already received), no more than the batch in flight (${BATCH}); the worker had sent ${sentByWorker}`);
  t.equal(new Set(deliveries.map((d) => `${d.eventId}:${d.targetId}`)).size, EVENTS * RECEIVERS, 'nothing missing');
});
