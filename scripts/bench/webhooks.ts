// The webhooks issue's scenario (`npm run bench -- webhooks`): BENCH_WEBHOOK_EVENTS events
// (default 10,000) fanned out to 20 HTTPS receivers (20 webhooks of one organization).
//  a. Throughput: the events are emitted through the bus of an app in this process (the outbox
//     write), then a delivery worker — its own process (webhook-worker.ts) — sends them all;
//     deliveries per second from the worker's start to the last one received. Baseline in the
//     same run: the same bodies POSTed straight to the same receivers, 20 in flight, from this
//     process (no outbox, no records), just before and just after the worker (their mean: the
//     machine's load moves); the ratio says what the durable outbox costs.
//  b. Crash: as many events again; the worker is killed (SIGKILL) when about half have arrived
//     and a new one started. Every delivery must arrive, and none twice: the receivers count by
//     event id and attempt (X-Service-Attempt). An attempt the killed worker had claimed is
//     counted failed after its stale time and retried as the next attempt (retries set to 1 s).
// Phase a's clock starts when the worker prints "ready" (its app built): its start-up is shown
// apart, as is where the worker's time went per step (read, claim, targets, send, record, hooks).
// No timed assertion: the figures depend on the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { buildApp } from '../../core/app.ts';
import { loadConfig } from '../../core/config.ts';
import { serviceUrls, TEST_SECRETS } from '../../test/helper.ts';
import { testCertificate } from '../../test/plugins/webhooks/helper.ts';
import { fmt, REPO, table } from './lib.ts';

export interface WebhookBenchSettings { events: number; receivers: number }
export interface WebhookBenchResult {
  settings: WebhookBenchSettings;
  enqueue: { events: number; deliveries: number; seconds: number; eventsPerSecond: number };
  /** `seconds` from the worker's "ready" (its start-up, `startupSeconds`, not counted) to the last delivery received. */
  throughput: { deliveries: number; seconds: number; perSecond: number; baselinePerSecond: number; directBefore: number; directAfter: number; ratio: number; startupSeconds: number; withStartupPerSecond: number; steps: Steps };
  crash: { deliveries: number; killedAfter: number; arrived: number; missing: number; duplicateAttempts: number; eventsSentTwice: number; abandoned: number; seconds: number };
}

interface Rx { server: Server; port: number; seen: Map<string, number>; events: Set<string> }
let direct = 0;

async function receiver(): Promise<Rx> {
  const { key, cert } = testCertificate();
  const seen = new Map<string, number>();
  const events = new Set<string>();
  const server = createServer({ key, cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const id = (JSON.parse(body) as { id: string }).id;
      const attempt = req.headers['x-service-attempt'];
      if (attempt !== undefined) {
        const k = `${id}:${attempt}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
        events.add(id);
      } else direct += 1;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, seen, events };
}

type Steps = Record<string, number>;
/** Where the worker's time went (plugins/webhooks/outbox.ts RunStats.ms), summed over its runs. */
const profile: Steps = {};

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(REPO, 'scripts/bench/webhook-worker.ts')], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', () => { child.removeAllListeners('exit'); resolve(child); });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      for (const [k, v] of Object.entries((JSON.parse(line) as { ms: Steps }).ms)) profile[k] = (profile[k] ?? 0) + v;
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runWebhooks(set: WebhookBenchSettings, log: (line: string) => void): Promise<WebhookBenchResult> {
  const { mongoUri, redisUrl } = serviceUrls();
  const db = `bench_webhooks_${Date.now()}`;
  const prefix = `${db}:`;
  const caFile = testCertificate().certFile;
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: prefix, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_EXTRA_CA_FILE: caFile, WEBHOOK_WORKER: false,
  });
  config.operator = { plugins: {} };
  const { app, ctx, services } = await buildApp({ config, logger: false });
  const rxs = await Promise.all(Array.from({ length: set.receivers }, receiver));
  const workers = new Set<ChildProcess>();
  const workerEnv = { BENCH_DB: db, BENCH_PREFIX: prefix, BENCH_CA_FILE: caFile };
  const deliveries = ctx.db.db.collection('webhook_deliveries');
  try {
    const owner = await ctx.tenancy.createOrganization({ name: 'Bench org', ownerId: 'a'.repeat(24), plan: 'enterprise' });
    for (const rx of rxs) await services.webhooks!.create(owner._id, { url: `https://127.0.0.1:${rx.port}/hook`, events: ['scan.completed'], secret: 'bench-secret-0123' });
    const emit = async (n: number, tag: string) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        await ctx.bus.emit('scan.completed', owner._id, { scanId: i.toString(16).padStart(24, '0'), repositoryConfigId: 'b'.repeat(24), repositoryName: `bench/${tag}`, driftCount: i % 7, newDrifts: i % 3, resolvedDrifts: 0 });
      }
      return (performance.now() - started) / 1000;
    };
    const received = () => rxs.reduce((s, r) => s + [...r.seen.values()].reduce((a, b) => a + b, 0), 0);
    const waitFor = async (target: number, what: string, onTick?: (got: number) => Promise<boolean | void>) => {
      let last = -1;
      let still = 0;
      for (;;) {
        const got = received();
        if (got >= target) return;
        if (onTick && (await onTick(got))) return;
        if (got === last) { still += 1; if (still > 6000) throw new Error(`${what}: stuck at ${got}/${target}`); } else { still = 0; last = got; }
        await sleep(100);
      }
    };

    // a. throughput
    log(`a. emitting ${set.events} events to ${set.receivers} webhooks`);
    const enqueueSeconds = await emit(set.events, 'a');
    const total = set.events * set.receivers;
    log(`a. ${total} deliveries written in ${fmt(enqueueSeconds)} s; starting the worker`);
    // Baseline: the same bodies straight to the receivers, 20 in flight (capped at 5,000 posts),
    // measured just before and just after the worker's phase: on a shared machine whose load
    // moves, one measurement on one side of it would skew the ratio (the mean is the baseline).
    const sample = await deliveries.find({ orgId: owner._id }).limit(Math.min(set.events * set.receivers, 5000)).toArray();
    const hooks = new Map((await services.webhooks!.list(owner._id)).webhooks.map((h) => [h._id, h.url]));
    const directRate = async () => {
      const agent = new Agent({ connect: { ca: testCertificate().cert } });
      let next = 0;
      const b0 = performance.now();
      await Promise.all(Array.from({ length: 20 }, async () => {
        while (next < sample.length) {
          const d = sample[next++];
          const res = await request(hooks.get(d.targetId)!, { method: 'POST', body: d.body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
          await res.body.dump();
        }
      }));
      const rate = sample.length / ((performance.now() - b0) / 1000);
      await agent.close();
      return rate;
    };
    const directBefore = await directRate();
    const s0 = performance.now();
    const worker = await startWorker(workerEnv);
    const t0 = performance.now();
    workers.add(worker);
    await waitFor(total, 'throughput');
    const seconds = (performance.now() - t0) / 1000;
    const startupSeconds = (t0 - s0) / 1000;
    // Stopped once every outcome is recorded (and its run's profile printed), so phase b starts clean.
    await waitFor(Number.MAX_SAFE_INTEGER, 'throughput (records)', async () => (await deliveries.countDocuments({ status: 'pending' })) === 0);
    for (let i = 0; i < 100 && !Object.keys(profile).length; i++) await sleep(100);
    const steps = Object.fromEntries(Object.entries(profile).map(([k, v]) => [k, Math.round(v)]));
    worker.kill('SIGKILL');
    workers.delete(worker);
    const directAfter = await directRate();
    const baselinePerSecond = (directBefore + directAfter) / 2;

    // b. crash midway
    log(`b. emitting ${set.events} more events; the worker is killed midway`);
    await emit(set.events, 'b');
    const c0 = performance.now();
    let w = await startWorker(workerEnv);
    workers.add(w);
    let killedAfter = 0;
    await waitFor(total + Math.floor(total / 2), 'crash (first half)');
    w.kill('SIGKILL');
    killedAfter = received() - total;
    workers.delete(w);
    log(`b. worker killed after ${killedAfter} deliveries; a new worker starts`);
    w = await startWorker(workerEnv);
    workers.add(w);
    const pendingNow = () => deliveries.countDocuments({ status: 'pending' });
    await waitFor(Number.MAX_SAFE_INTEGER, 'crash (rest)', async () => (await pendingNow()) === 0);
    const crashSeconds = (performance.now() - c0) / 1000;
    w.kill('SIGKILL');
    workers.delete(w);
    // Every delivery of both phases: recorded delivered, and its event received by its webhook's receiver.
    const byUrl = new Map(rxs.map((r) => [`https://127.0.0.1:${r.port}/hook`, r]));
    const all = await deliveries.find({ orgId: owner._id }, { projection: { eventId: 1, targetId: 1, status: 1 } }).toArray();
    let missing = 0;
    for (const d of all) if (d.status !== 'delivered' || !byUrl.get(hooks.get(d.targetId)!)!.events.has(d.eventId)) missing += 1;
    let duplicateAttempts = 0;
    let eventsSentTwice = 0;
    for (const rx of rxs) {
      for (const n of rx.seen.values()) if (n > 1) duplicateAttempts += n - 1;
      const attemptsPerEvent = new Map<string, number>();
      for (const k of rx.seen.keys()) { const id = k.split(':')[0]; attemptsPerEvent.set(id, (attemptsPerEvent.get(id) ?? 0) + 1); }
      for (const n of attemptsPerEvent.values()) if (n > 1) eventsSentTwice += 1;
    }
    const abandoned = await ctx.db.db.collection('webhook_attempts').countDocuments({ _id: { $regex: ':abandoned$' } } as never);
    return {
      settings: set,
      enqueue: { events: set.events, deliveries: total, seconds: enqueueSeconds, eventsPerSecond: set.events / enqueueSeconds },
      throughput: { deliveries: total, seconds, perSecond: total / seconds, baselinePerSecond, directBefore, directAfter, ratio: (total / seconds) / baselinePerSecond, startupSeconds, withStartupPerSecond: total / (seconds + startupSeconds), steps },
      crash: { deliveries: all.length, killedAfter, arrived: rxs.reduce((s, r) => s + r.events.size, 0), missing, duplicateAttempts, eventsSentTwice, abandoned, seconds: crashSeconds },
    };
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await ctx.db.db.dropDatabase().catch(() => undefined);
    const keys = (await ctx.redis.main.keys('*').catch(() => [] as string[])).filter((k) => k.startsWith(prefix));
    if (keys.length) await ctx.redis.main.del(...keys.map((k) => k.slice(prefix.length))).catch(() => undefined);
    await app.close();
    for (const rx of rxs) { rx.server.closeAllConnections(); rx.server.close(); }
  }
}

export function webhooksReport(r: WebhookBenchResult): string {
  return [
    `Webhooks benchmark: ${r.settings.events} events x ${r.settings.receivers} HTTPS receivers = ${r.throughput.deliveries} deliveries per phase`,
    '',
    'a. Outbox write at the event, then one worker process sending (timed from its "ready"); baseline: the same bodies POSTed directly, 20 in flight, just before and just after (mean)',
    table(['events/s written', 'deliveries', 'seconds', 'deliveries/s', 'direct posts/s (before, after)', 'outbox/direct', 'worker start-up s', 'deliveries/s with start-up'],
      [[r.enqueue.eventsPerSecond, r.throughput.deliveries, r.throughput.seconds, r.throughput.perSecond, `${fmt(r.throughput.baselinePerSecond)} (${fmt(r.throughput.directBefore)}, ${fmt(r.throughput.directAfter)})`, r.throughput.ratio, r.throughput.startupSeconds, r.throughput.withStartupPerSecond]]),
    `worker time per step (ms, summed over its runs): ${Object.entries(r.throughput.steps).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    '',
    'b. Worker killed (SIGKILL) midway and restarted; checked over both phases (deliveries, events arrived = distinct event ids per receiver)',
    table(['deliveries', 'killed after', 'events arrived', 'missing', 'same attempt twice', 'events sent under 2 attempts', 'abandoned claims', 'seconds'],
      [[r.crash.deliveries, r.crash.killedAfter, r.crash.arrived, r.crash.missing, r.crash.duplicateAttempts, r.crash.eventsSentTwice, r.crash.abandoned, r.crash.seconds]]),
    `every delivery arrived: ${r.crash.missing === 0 ? 'yes' : 'NO'}; none twice (event id + attempt): ${r.crash.duplicateAttempts === 0 ? 'yes' : 'NO'}`,
  ].join('\n');
}
