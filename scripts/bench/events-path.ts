// `npm run bench -- events-path` (issue 37 point 4): the time from a CloudTrail event to its drift
// through the real path, against the figure with the debounce at 0. For each setting, the service
// runs as its own process, as `npm start` runs it (core/server.ts main: HTTP, its own Agenda job
// loop at the default 5 s poll, the built-in executor), on the shared services and moto
// (.data/services.json), each setting with its own database:
//   default: CLOUD_EVENTS_DEBOUNCE_SECONDS unset (60);   zero: CLOUD_EVENTS_DEBOUNCE_SECONDS=0.
// Over HTTP: an organization (plan set through a joined app: no route sets plans), cloud
// credentials for moto, a repository config whose state declares BENCH_EVENTS_PATH_N + 2 security
// groups (events-estate.ts), a first full scan. Then, per group: a rule opened out of band in moto
// with the SDK, its CloudTrail record POSTed as EventBridge delivers it with a `ce_` token, and
// the time from the POST to the drift being listed by GET /api/drifts (polled every 250 ms).
// Default debounce: the events are BENCH_EVENTS_PATH_STAGGER (15) s apart (one at a time would
// take N minutes); zero: one at a time. Each sample also gets its scan's times (when the check
// job made the scan, when the executor started and finished it). No timed assertion.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { fmt, REPO, table } from './lib.ts';
import { freePort } from './private-moto.ts';
import { createEstate, type Estate } from './events-estate.ts';

const N = Math.max(1, Number(process.env.BENCH_EVENTS_PATH_N ?? 5));
const STAGGER_S = Number(process.env.BENCH_EVENTS_PATH_STAGGER ?? 15);
const POLL_MS = 250;
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const log = (s: string) => process.stderr.write(`bench events-path: ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Setting { label: string; debounce: string | undefined; seconds: number }
const SETTINGS: Setting[] = [
  { label: 'default (unset)', debounce: undefined, seconds: 60 },
  { label: '0', debounce: '0', seconds: 0 },
];

interface Sample {
  resourceId: string; postMs: number; visibleMs: number; scanId: string; causeEvent: string | null;
  scan: { triggeredBy: string; resourcesInCheck: number; checkJobMs: number; executorPickupMs: number; runMs: number; listedAfterMs: number };
}

// ---- the service process -----------------------------------------------------------------------

async function service(): Promise<void> {
  const { main } = await import('../../core/server.ts');
  const { closeOnSignals } = await import('../../core/shutdown.ts');
  const s = await main();
  closeOnSignals(s.app, { timeoutMs: s.config.SHUTDOWN_TIMEOUT_MS });
}

async function startService(setting: Setting, db: string, moto: string): Promise<{ url: string; stop(): Promise<void> }> {
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl, postgresUrl } = serviceUrls();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env, MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: `${db}:`, PORT: String(port), HOST: '127.0.0.1',
    NODE_ENV: 'production', LOG_LEVEL: 'warn', DRIFT_CLOUD_A_ENDPOINT: moto, EXECUTOR_LOCAL_SOURCES: 'true',
    MAIL_OUTBOX_DIR: path.join(DATA, 'bench', 'outbox', db), ...TEST_SECRETS, ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}),
  };
  delete env.CLOUD_EVENTS_DEBOUNCE_SECONDS;
  if (setting.debounce !== undefined) env.CLOUD_EVENTS_DEBOUNCE_SECONDS = setting.debounce;
  mkdirSync(path.join(DATA, 'logs'), { recursive: true });
  const out = createWriteStream(path.join(DATA, 'logs', `bench-events-path-${setting.seconds}.log`));
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(import.meta.url), 'service'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service (${setting.label}) exited ${child.exitCode}; see .data/logs/bench-events-path-${setting.seconds}.log`);
    const ok = await request(`${url}/health`).then((r) => r.body.text().then(() => r.statusCode === 200), () => false);
    if (ok) return { url, stop };
    if (Date.now() > deadline) { await stop(); throw new Error(`the service (${setting.label}) did not answer /health`); }
    await sleep(500);
  }
}

/** JSON over HTTP; throws unless 2xx. */
function client(url: string) {
  let auth = ''; let orgId = '';
  const send = async (method: 'GET' | 'POST', pathname: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (token ?? auth) headers.authorization = `Bearer ${token ?? auth}`;
    if (orgId && !token) headers['x-org-id'] = orgId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(url + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${pathname}: ${res.statusCode} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  return { send, login(token: string, org: string) { auth = token; orgId = org; } };
}

// ---- one setting ---------------------------------------------------------------------------------

async function runSetting(setting: Setting, moto: string): Promise<{ setting: Setting; fullScanMs: number; samples: Sample[] }> {
  const db = `bench_evpath_${Date.now()}_${setting.seconds}`;
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { bridge, trail, ALICE } = await import('../../test/plugins/cloud-events/records.ts');
  const { CREDENTIALS } = await import('../../test/engine/world.ts');
  let estate: Estate | null = null;
  const svc = await startService(setting, db, moto);
  // Joined on the service's database and Redis prefix, only to set the plan (its cache is
  // invalidated in the service over Redis) and to drop the database at the end. No job loop.
  const { mongoUri, redisUrl } = serviceUrls();
  const admin = await buildApp({ config: { ...loadConfig({}, { MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: `${db}:`, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS }), operator: { plugins: {} } }, logger: false });
  try {
    log(`${setting.label}: service up at ${svc.url}`);
    estate = await createEstate(moto, `d${setting.seconds}`, N + 2);
    const api = client(svc.url);
    const reg = await api.send('POST', '/api/auth/register', { email: `events-path-${db}@example.com`, password: 'correct horse battery staple' });
    const orgId = (await api.send('GET', '/api/auth/me', undefined, reg.token)).defaultOrgId as string;
    api.login(reg.token, orgId);
    await admin.ctx.tenancy.setPlan(orgId, 'team');
    await api.send('POST', '/api/auth/cloud-a-credentials', CREDENTIALS);
    const configId = (await api.send('POST', '/api/repo-configs', { repositoryName: 'bench/events-path', branch: 'main', provider: 'cloud_a', repositoryUrl: estate.repoUrl, statePath: estate.statePath })).data._id as string;
    const scanDone = async (scanId: string, within: number) => {
      for (const end = Date.now() + within; Date.now() < end; await sleep(POLL_MS)) {
        const s = (await api.send('GET', `/api/scans/${scanId}`)).data;
        if (['completed', 'failed', 'cancelled'].includes(s.status)) return s;
      }
      throw new Error(`scan ${scanId} not finished within ${within / 1000}s`);
    };
    const t0 = performance.now();
    const first = await scanDone((await api.send('POST', `/api/scans/trigger/${configId}`)).data._id, 120_000);
    const fullScanMs = performance.now() - t0;
    if (first.status !== 'completed' || first.driftCount !== 0) throw new Error(`first full scan: ${first.status} ${first.driftCount} drifts ${first.error ?? ''}`);
    log(`${setting.label}: first full scan ${(fullScanMs / 1000).toFixed(1)}s through the job loop, 0 drifts`);
    const token = (await api.send('POST', '/api/cloud-events/tokens', { name: 'bench' })).data.token as string;

    // One poller over HTTP for every event still waiting for its drift.
    type Waiting = { t0: number; postedAt: number; postMs: number; resolve(d: { scan: string; cause: { eventName: string } | null }, at: number): void };
    const waiting = new Map<string, Waiting>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        if (waiting.size) {
          const list = (await api.send('GET', '/api/drifts?status=detected&limit=100')).data as { resourceId: string; scan: string; cause: { eventName: string } | null }[];
          const at = performance.now();
          for (const d of list) {
            const w = waiting.get(d.resourceId);
            if (w) { waiting.delete(d.resourceId); w.resolve(d, at); }
          }
        }
        await sleep(POLL_MS);
      }
    })();
    const seen: Promise<{ resourceId: string; w: Waiting; drift: { scan: string; cause: { eventName: string } | null }; at: number; visibleAt: number }>[] = [];
    const start = performance.now();
    for (let i = 0; i < N; i++) {
      const sg = estate.groupIds[i];
      if (setting.seconds > 0) await sleep(start + i * STAGGER_S * 1000 - performance.now());
      await estate.open(sg, 9000 + i);
      const record = bridge(trail.authorizeIngress(sg, 9000 + i, '0.0.0.0/0', { arn: ALICE }));
      const postedAt = Date.now();
      const tPost = performance.now();
      const res = await api.send('POST', '/api/cloud-events', record, token);
      if (res.accepted !== 1) throw new Error(`event ${i}: ${JSON.stringify(res)}`);
      const postMs = performance.now() - tPost;
      const p = new Promise<Awaited<(typeof seen)[number]>>((resolve) => {
        const w: Waiting = { t0: tPost, postedAt, postMs, resolve: (drift, at) => resolve({ resourceId: sg, w, drift, at, visibleAt: postedAt + (at - tPost) }) };
        waiting.set(sg, w);
      });
      seen.push(p);
      log(`${setting.label}: event ${i + 1}/${N} posted (${sg}, ${postMs.toFixed(0)} ms)`);
      if (setting.seconds === 0) await bounded(p, 120_000, `drift of ${sg}`);
    }
    const found = await bounded(Promise.all(seen), (setting.seconds + 120) * 1000, 'drifts');
    polling = false;
    await poller;

    const samples: Sample[] = [];
    for (const f of found) {
      const s = (await api.send('GET', `/api/scans/${f.drift.scan}`)).data;
      const ms = (iso: string | null) => (iso ? Date.parse(iso) : Number.NaN);
      samples.push({
        resourceId: f.resourceId, postMs: f.w.postMs, visibleMs: f.at - f.w.t0, scanId: f.drift.scan, causeEvent: f.drift.cause?.eventName ?? null,
        scan: {
          triggeredBy: s.triggeredBy, resourcesInCheck: s.trigger?.resourceIds?.length ?? 0,
          checkJobMs: ms(s.createdAt) - f.w.postedAt, executorPickupMs: ms(s.startedAt) - ms(s.createdAt),
          runMs: ms(s.completedAt) - ms(s.startedAt), listedAfterMs: f.visibleAt - ms(s.completedAt),
        },
      });
      log(`${setting.label}: ${f.resourceId} drift listed after ${((f.at - f.w.t0) / 1000).toFixed(2)}s (scan ${s.triggeredBy}, cause ${f.drift.cause?.eventName ?? 'none'})`);
    }
    return { setting, fullScanMs, samples };
  } finally {
    await svc.stop();
    await estate?.cleanup().catch(() => undefined);
    await admin.ctx.db.db.dropDatabase().catch(() => undefined);
    const prefix = `${db}:`;
    const keys = (await admin.ctx.redis.main.keys('*').catch(() => [] as string[])).filter((k) => k.startsWith(prefix));
    if (keys.length) await admin.ctx.redis.main.del(...keys.map((k) => k.slice(prefix.length))).catch(() => undefined);
    await admin.app.close();
  }
}

function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not visible within ${ms / 1000}s`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

// ---- report --------------------------------------------------------------------------------------

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const sec = (ms: number) => fmt(ms / 1000);

async function main(): Promise<void> {
  const { motoUrl } = await import('../../test/engine/world.ts');
  const moto = motoUrl();
  const t0 = performance.now();
  const runs = [];
  for (const s of SETTINGS) runs.push(await runSetting(s, moto));
  const summary = runs.map((r) => {
    const v = r.samples.map((x) => x.visibleMs);
    const p50 = median(v); const max = Math.max(...v);
    return {
      setting: r.setting.label, debounceSeconds: r.setting.seconds, events: r.samples.length, p50Ms: p50, maxMs: max,
      p50ToDebounce: r.setting.seconds ? p50 / (r.setting.seconds * 1000) : null, p50BeyondDebounceMs: p50 - r.setting.seconds * 1000,
      checkJobBeyondDebounceP50Ms: median(r.samples.map((x) => x.scan.checkJobMs)) - r.setting.seconds * 1000,
      executorPickupP50Ms: median(r.samples.map((x) => x.scan.executorPickupMs)), runP50Ms: median(r.samples.map((x) => x.scan.runMs)),
      postP50Ms: median(r.samples.map((x) => x.postMs)), fullScanMs: r.fullScanMs,
      causeNamed: r.samples.filter((x) => x.causeEvent === 'AuthorizeSecurityGroupIngress').length,
      alone: r.samples.filter((x) => x.scan.triggeredBy === 'event' && x.scan.resourcesInCheck === 1).length,
    };
  });
  const [dflt, zero] = summary;
  const totalS = (performance.now() - t0) / 1000;
  const dir = path.join(DATA, 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `events-path-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAvg: os.loadavg(),
    settings: { events: N, staggerSeconds: STAGGER_S, pollMs: POLL_MS, jobPollMs: 5000 }, totalSeconds: totalS, summary, runs }, null, 2)}\n`);
  console.log([
    `Cloud events, real path: the service as its own process (HTTP, its Agenda loop polling every 5 s, built-in executor), shared moto; node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `${N} events per setting (default: ${STAGGER_S} s apart; 0: one at a time); event POST -> drift listed by GET /api/drifts, polled every ${POLL_MS} ms`,
    '',
    table(['debounce', 'events', 'p50 s', 'max s', 'p50 / debounce', 'p50 beyond debounce s', 'check job beyond debounce p50 s', 'executor pickup p50 s', 're-check run p50 s', 'POST p50 ms', 'alone in its re-check', 'cause named'],
      summary.map((s) => [`${s.setting} = ${s.debounceSeconds} s`, s.events, sec(s.p50Ms), sec(s.maxMs), s.p50ToDebounce === null ? 'n/a' : s.p50ToDebounce.toFixed(3),
        sec(s.p50BeyondDebounceMs), sec(s.checkJobBeyondDebounceP50Ms), sec(s.executorPickupP50Ms), sec(s.runP50Ms), fmt(s.postP50Ms), `${s.alone}/${s.events}`, `${s.causeNamed}/${s.events}`])),
    '',
    `event to drift: p50 ${sec(dflt.p50Ms)} s (max ${sec(dflt.maxMs)} s) with the default ${dflt.debounceSeconds} s debounce, ${dflt.p50ToDebounce?.toFixed(3)} x the debounce; `
      + `p50 ${sec(zero.p50Ms)} s (max ${sec(zero.maxMs)} s) with the debounce at 0`,
    '',
    table(['debounce', 'resource', 'POST -> listed s', 'POST -> check scan s', 'executor pickup s', 'run s', 'listed after completed s', 'resources in re-check', 'cause'],
      runs.flatMap((r) => r.samples.map((x) => [String(r.setting.seconds), x.resourceId, sec(x.visibleMs), sec(x.scan.checkJobMs), sec(x.scan.executorPickupMs), sec(x.scan.runMs),
        sec(x.scan.listedAfterMs), x.scan.resourcesInCheck, x.causeEvent ?? 'none']))),
    `first full scans (trigger -> completed, through the job loop): ${runs.map((r) => `${sec(r.fullScanMs)} s`).join(', ')}; whole bench ${fmt(totalS)} s`,
    '',
    `data: ${path.relative(REPO, file)}`,
  ].join('\n'));
}

if (process.argv[2] === 'service') {
  service().catch((e: unknown) => { console.error(e); process.exit(1); });
} else {
  main().then(() => process.exit(0), (e: unknown) => {
    console.error(`bench events-path: ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  });
}
