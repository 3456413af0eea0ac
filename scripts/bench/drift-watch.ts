// The Drift Watch issue's scenario (`npm run bench -- drift-watch`): BENCH_WATCHES (1,000)
// watches of one organization whose jobs fall due in the same minute, run by two service
// processes sharing the database (each with its Agenda loop). The built-in executor is off in
// them: a run's scan stays pending, so the figures are the run's own work (the tick, its claim,
// the scan's start under the quota, the run record), not a scan's. The end of a run (events,
// counts, notification) is covered by the tests, against moto.
//
// BENCH_CRON_CONFIGS (default 0) cron-scheduled configs fall due at the same instant as the watches
// (both swept by due minute, core/due-scan.ts).
//
// Reports, against a baseline of one watch due alone in the same run:
// - job start-up: from the instant the jobs fell due to each run's start (p50, p95, max);
// - database commands per run, both processes together, from due until every run started (and
//   three polls more), Agenda's own polling included;
// - that each watch ran exactly once: runs per watch, and scans started.
// Workers are this file run as `worker` (own processes, as every benchmark target).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import os from 'node:os';
import { fmt, REPO, table } from './lib.ts';

const WORKERS = 2;
const POLL_MS = 1000;

interface Phase { watches: number; runs: number; perWatch: { once: number; more: number; none: number }; scans: number;
  startupMs: { p50: number; p95: number; max: number }; allStartedS: number; commands: number; commandsPerRun: number;
  /** Of the things that ran more than once: how many ran twice for ONE occurrence (same slot), how many for distinct ones. */
  twiceSameSlot: number; twiceOtherSlot: number;
  /** When the bench finished making them due, in seconds after due (negative: before; positive: start-up figures include the bench's own writes). */
  dueSetLateS: number }
export interface DriftWatchResult { watches: number; cronConfigs: number; workers: number; baseline: Phase; burst: Phase; burstConfigs: Phase | null;
  startupRatioP95: number; commandsRatio: number; load: string }

async function appFor(db: string, runJobs: boolean, operator: Record<string, { enabled: boolean }> = {}) {
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl } = serviceUrls();
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: `${db}:`,
    NODE_ENV: 'production', LOG_LEVEL: 'silent', MAIL_OUTBOX_DIR: join(REPO, '.data', 'bench', 'outbox', db), ...TEST_SECRETS,
  });
  config.operator = { plugins: operator };
  return buildApp({ config, logger: false, runJobs, jobPollMs: POLL_MS });
}

/** A service process with its job loop; answers `count` with its database commands so far, `stop` by exiting. */
async function worker() {
  // Without the built-in executor: the runs' scans stay pending, so what is counted is the run's
  // own work (tick, claim, scan start, run record), not the executor's.
  const { ctx, app } = await appFor(process.env.BENCH_DB!, true, { executor: { enabled: false } });
  process.on('message', async (m: string) => {
    if (m === 'count') process.send!({ commands: ctx.db.commandCount() });
    if (m === 'stop') {
      // Exit even when closing hangs (an open handle): the parent waits for this exit.
      setTimeout(() => process.exit(0), 15_000).unref();
      await app.close().catch(() => undefined);
      process.exit(0);
    }
  });
  process.send!({ ready: true });
}

function startWorker(db: string): Promise<{ child: ChildProcess; count(): Promise<number>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'worker'], {
    cwd: REPO, env: { ...process.env, BENCH_DB: db }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(msg: string, key: string) => new Promise<T>((resolve) => {
    const on = (m: Record<string, unknown>) => { if (key in m) { child.off('message', on); resolve(m[key] as T); } };
    child.on('message', on);
    child.send(msg);
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before ready`)));
    child.once('message', () => resolve({
      child, count: () => ask<number>('count', 'commands'),
      // A worker whose close hangs is killed after 30 s (its figures were counted already).
      stop: () => new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) { r(); return; }
        const kill = setTimeout(() => { console.error('bench drift-watch: a worker did not exit within 30 s; killed'); child.kill('SIGKILL'); }, 30_000);
        child.once('exit', () => { clearTimeout(kill); r(); });
        if (child.connected) child.send('stop'); else child.kill('SIGTERM');
      }),
    }));
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const uptime = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export async function runDriftWatch(log: (line: string) => void, count = Number(process.env.BENCH_WATCHES ?? 1000),
  cronConfigs = Number(process.env.BENCH_CRON_CONFIGS ?? 0)): Promise<DriftWatchResult> {
  const db = `bench_watch_${Date.now()}_${randomBytes(2).toString('hex')}`;
  const { app, ctx, services } = await appFor(db, false);
  const watchService = services['drift-watch']!;
  const configService = services['repo-configs']!;
  const workers: Awaited<ReturnType<typeof startWorker>>[] = [];
  try {
    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `bench-${db}@example.com`, password: 'correct horse battery' } });
    const orgId = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${reg.json().token}` } })).json().defaultOrgId as string;
    await ctx.tenancy.setPlan(orgId, 'team');
    const config = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: { authorization: `Bearer ${reg.json().token}` },
      payload: { repositoryName: 'bench/watched', branch: 'main', provider: 'cloud_a' } })).json().data._id as string;

    // Watches written straight to the database, then their jobs made through the service, 25 at
    // a time: creation through the API is measured by the tests, not here.
    const create = async (n: number, tag: string) => {
      const now = new Date();
      const docs = Array.from({ length: n }, (_, i) => ({
        _id: randomBytes(12).toString('hex'), orgId, name: `${tag} ${i}`, repositoryId: config, workspace: 'default', status: 'active' as const,
        interval: '1h' as const, notifyOn: 'drift' as const, filters: {}, snoozedUntil: null, snoozeReason: null, lastRun: null, lastRunStatus: null,
        lastScanId: null, lastError: null, driftCount: 0, createdBy: null, createdAt: now, updatedAt: now,
      }));
      await ctx.db.db.collection('drift_watches').insertMany(docs as never[]);
      for (let i = 0; i < docs.length; i += 25) await Promise.all(docs.slice(i, i + 25).map((w) => watchService.schedule(w)));
      return docs.map((d) => d._id);
    };
    // Cron-scheduled configs (BENCH_CRON_CONFIGS): copies of the watched config with an hourly cron,
    // written straight to the database, their due minutes set through the service, 25 at a time.
    const createConfigs = async (n: number) => {
      if (!n) return [];
      const base = await ctx.db.db.collection('repo_configs').findOne({ _id: config as never });
      const docs = Array.from({ length: n }, (_, i) => {
        const id = randomBytes(12).toString('hex');
        return { ...base, _id: id, slot: id, repositoryName: `bench/cron-${i}`, scheduleCron: `${i % 60} * * * *` };
      });
      await ctx.db.db.collection('repo_configs').insertMany(docs as never[]);
      for (let i = 0; i < docs.length; i += 25) await Promise.all(docs.slice(i, i + 25).map((c) => configService.platform.reschedule(c._id, c.scheduleCron)));
      return docs.map((d) => d._id);
    };
    const runs = ctx.db.db.collection('drift_watch_runs');
    const scans = ctx.db.db.collection('scans');
    for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(db));
    log(`${WORKERS} service processes with their job loops (poll ${POLL_MS} ms) on ${db}`);

    /** One started run of a scheduled thing: whose, when it started, which occurrence (slot) it ran for. */
    type Started = { id: string; startedAt: Date; slot: string };
    const watchRuns = async (ids: string[]): Promise<Started[]> =>
      (await runs.find({ watchId: { $in: ids } }, { projection: { watchId: 1, startedAt: 1, fireTime: 1 }, batchSize: 100_000 }).toArray())
        .map((r) => ({ id: r.watchId as string, startedAt: r.startedAt as Date, slot: String((r.fireTime as Date).getTime()) }));
    // A cron config's run is its scheduled scan (the occurrence is not stored: the bench makes one due per phase).
    const configScans = async (ids: string[]): Promise<Started[]> =>
      (await scans.find({ orgId, repositoryConfig: { $in: ids } }, { projection: { repositoryConfig: 1, createdAt: 1, triggeredBy: 1 }, batchSize: 100_000 }).toArray())
        .filter((s) => s.triggeredBy === 'schedule').map((s) => ({ id: s.repositoryConfig as string, startedAt: s.createdAt as Date, slot: 'one' }));

    /** Makes the jobs of these watches (and cron configs) due at one instant and waits until every run started. */
    async function phase(ids: string[], cfgIds: string[] = []): Promise<[Phase, Phase | null]> {
      const before = (await Promise.all(workers.map((w) => w.count()))).reduce((a, b) => a + b, 0);
      // Due at the next minute boundary (at least 2 s away): the due scans read whole minutes.
      // Lead time for the writes below (the embedded database updates one record at a time, slowly
      // under load): 2 s plus 0.1 s a thing; `dueSetLateS` says whether they still ended after due.
      const due = new Date((Math.floor((Date.now() + 2000 + 100 * (ids.length + cfgIds.length)) / 60_000) + 1) * 60_000);
      await ctx.db.db.collection('drift_watches').updateMany({ _id: { $in: ids } } as never, { $set: { dueMinute: due.getTime() / 60_000 } });
      if (cfgIds.length) await ctx.db.db.collection('repo_configs').updateMany({ _id: { $in: cfgIds } } as never, { $set: { dueMinute: due.getTime() / 60_000 } });
      const dueSetLateS = (Date.now() - due.getTime()) / 1000;
      const scansBefore = await scans.countDocuments({ orgId });
      let allStarted = 0;
      const deadline = Date.now() + 20 * 60_000;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        const started = new Set((await watchRuns(ids)).map((r) => r.id)).size + (cfgIds.length ? new Set((await configScans(cfgIds)).map((r) => r.id)).size : 0);
        if (started >= ids.length + cfgIds.length) { allStarted = Date.now(); break; }
      }
      // Late duplicates (a job Agenda handed to both processes) would show within a few polls.
      await new Promise((r) => setTimeout(r, 3 * POLL_MS));
      const after = (await Promise.all(workers.map((w) => w.count()))).reduce((a, b) => a + b, 0);
      const commands = after - before;
      const [wRows, cRows] = [await watchRuns(ids), cfgIds.length ? await configScans(cfgIds) : []];
      const figures = (n: number, rows: Started[], scansMade: number): Phase => {
        const per = new Map<string, Started[]>();
        for (const r of rows) per.set(r.id, [...(per.get(r.id) ?? []), r]);
        const more = [...per.values()].filter((l) => l.length > 1);
        const startup = rows.map((r) => r.startedAt.getTime() - due.getTime()).sort((a, b) => a - b);
        const runsAll = wRows.length + cRows.length;
        return {
          watches: n, runs: rows.length,
          perWatch: { once: [...per.values()].filter((l) => l.length === 1).length, more: more.length, none: n - per.size },
          scans: scansMade, startupMs: { p50: pct(startup, 50), p95: pct(startup, 95), max: startup.at(-1) ?? 0 },
          allStartedS: allStarted ? (allStarted - due.getTime()) / 1000 : NaN,
          commands, commandsPerRun: runsAll ? Math.round((commands / runsAll) * 10) / 10 : 0,
          twiceSameSlot: more.filter((l) => new Set(l.map((r) => r.slot)).size < l.length).length,
          twiceOtherSlot: more.filter((l) => new Set(l.map((r) => r.slot)).size === l.length).length, dueSetLateS,
        };
      };
      const scansMade = (await scans.countDocuments({ orgId })) - scansBefore;
      return [figures(ids.length, wRows, scansMade - cRows.length), cfgIds.length ? figures(cfgIds.length, cRows, cRows.length) : null];
    }

    const single = await create(1, 'baseline');
    const [baseline] = await phase(single);
    log(`baseline: one watch, started ${fmt(baseline.startupMs.max)} ms after due, ${baseline.commandsPerRun} commands`);
    const t0 = Date.now();
    const many = await create(count, 'burst');
    const cfgs = await createConfigs(cronConfigs);
    log(`${count} watches and ${cronConfigs} cron configs created in ${fmt((Date.now() - t0) / 1000)}s`);
    const load = uptime();
    const [burst, burstConfigs] = await phase(many, cfgs);
    log(`burst: ${burst.runs} watch runs${burstConfigs ? ` and ${burstConfigs.runs} config scans` : ''}, all started ${fmt(burst.allStartedS)}s after due`);
    return {
      watches: count, cronConfigs, workers: WORKERS, baseline, burst, burstConfigs, load: `${load} -> ${uptime()}`,
      startupRatioP95: Math.round((burst.startupMs.p95 / Math.max(1, baseline.startupMs.max)) * 10) / 10,
      commandsRatio: Math.round((burst.commandsPerRun / Math.max(1, baseline.commandsPerRun)) * 100) / 100,
    };
  } finally {
    // Each step of the shutdown is bounded (an earlier run hung here before printing its table):
    // a worker that does not exit is killed, and the cleanup gives up after its time.
    await Promise.all(workers.map((w) => w.stop()));
    await within(30_000, 'drop the bench database', ctx.db.db.dropDatabase());
    await within(30_000, 'remove the bench Redis keys', (async () => {
      const keys = (await ctx.redis.main.keys('*').catch(() => [] as string[])).filter((k) => k.startsWith(`${db}:`));
      if (keys.length) await ctx.redis.main.del(...keys.map((k) => k.slice(db.length + 1))).catch(() => undefined);
    })());
    await within(30_000, 'close the bench app', app.close());
  }
}

/** Waits for `p` at most `ms`; a failure or a timeout is logged, not thrown (cleanup after the figures). */
async function within(ms: number, what: string, p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => { timer = setTimeout(() => { console.error(`bench drift-watch: could not ${what} within ${ms / 1000} s; going on`); resolve(); }, ms); });
  await Promise.race([p.then(() => undefined, (err: unknown) => console.error(`bench drift-watch: could not ${what}: ${String(err)}`)), timeout]);
  clearTimeout(timer);
}

export function driftWatchReport(r: DriftWatchResult): string {
  const row = (name: string, p: Phase) => [name, p.watches, p.runs, `${p.perWatch.once}/${p.perWatch.more}/${p.perWatch.none}`, `${p.twiceSameSlot}/${p.twiceOtherSlot}`, p.scans,
    p.startupMs.p50, p.startupMs.p95, p.startupMs.max, fmt(p.allStartedS), p.commandsPerRun];
  const once = (p: Phase) => p.perWatch.once === p.watches && p.scans === p.watches;
  return [
    `Drift Watch benchmark: ${r.watches} watches${r.cronConfigs ? ` and ${r.cronConfigs} cron-scheduled configs` : ''} of one organization due in the same minute, ${r.workers} service processes (Agenda; executor off); load average ${r.load}`,
    '',
    table(['phase', 'due', 'runs', 'once/twice+/never', 'twice: same/other slot', 'scans started', 'start-up p50 ms', 'p95 ms', 'max ms', 'all started s', 'DB commands/run (all kinds)'],
      [row('baseline (1 watch)', r.baseline), row(`burst: watches`, r.burst), ...(r.burstConfigs ? [row('burst: cron configs', r.burstConfigs)] : [])]),
    `start-up p95 of the burst / baseline: ${r.startupRatioP95}; commands per run burst / baseline: ${r.commandsRatio}; the burst was made due ${fmt(r.burst.dueSetLateS)} s after its due time (negative: before)`,
    `each watch ran exactly once: ${once(r.burst) ? 'yes' : 'NO'}${r.burstConfigs ? `; each cron config ran exactly once: ${once(r.burstConfigs) ? 'yes' : 'NO'}` : ''}`,
  ].join('\n');
}

if (process.argv[2] === 'worker') await worker();
