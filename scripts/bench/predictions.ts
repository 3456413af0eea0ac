// `npm run bench -- predictions`: the predictions issue's figures.
//   1. learn time and peak memory at 10,000 and 100,000 drift records (BENCH_PREDICTION_SIZES),
//      against a baseline of the same run: reading the same history from the database and
//      building its per-resource index without fitting anything (learn / read = the model's cost);
//   2. database commands per read route (after the learn, warm).
// Each size: one child process seeds its organization (synthetic history of
// test/plugins/predictions/history.ts, insertMany batches of 1,000), then another, fresh, builds
// the app on that database and measures, so the peak RSS (VmHWM) is the learn's alone.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, REPO, table } from './lib.ts';

const SIZES = (process.env.BENCH_PREDICTION_SIZES ?? '10000,100000').split(',').map(Number);
const PASSWORD = 'correct horse battery staple';
const DAYS = 180;
const REPOS = 4;

async function app(db: string) {
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl, postgresUrl } = serviceUrls();
  const config = loadConfig({}, { MONGODB_URI: mongoUri, REDIS_URL: redisUrl, ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}), MONGODB_DB: db, REDIS_KEY_PREFIX: `${db}:`, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS });
  config.operator = { plugins: {} };
  return buildApp({ config, logger: false });
}
const hwmMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/** Child: seeds `size` drift records in database `db`; prints {token, orgId, drifts, resources}. */
async function seed(db: string, size: number) {
  const { synthesize, insertHistory } = await import('../../test/plugins/predictions/history.ts');
  const { app: a, ctx } = await app(db);
  const reg = (await a.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `bench-pred-${Date.now()}@example.com`, password: PASSWORD } })).json();
  const auth = { authorization: `Bearer ${reg.token}` };
  const orgId = (await a.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).json().defaultOrgId;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const repos = [];
  for (let i = 0; i < REPOS; i++) {
    const name = `bench/pred${i}`;
    repos.push({ id: (await a.inject({ method: 'POST', url: '/api/repo-configs', headers: auth, payload: { repositoryName: name, branch: 'main', provider: 'cloud_a' } })).json().data._id, name });
  }
  // About 40 drifts per resource triple over 180 days (weekly, per repository change, once).
  const perKind = Math.max(1, Math.round(size / (REPOS * 40)));
  const h = synthesize(orgId, repos, { perKind, days: DAYS, now: Date.now(), seed: 5 });
  h.drifts.length = Math.min(h.drifts.length, size);
  await insertHistory(ctx.db.db, h);
  await a.close();
  process.stdout.write(`${JSON.stringify({ token: reg.token, orgId, drifts: h.drifts.length, scans: h.scans.length })}\n`);
}

const READS = ['/high-risk', '/all', '/insights', '/patterns', '/model', '/ml-dashboard', '/metrics', '/metrics/:repo', '/repository/:repo', '/:id', '/:id/explanation'];

/** Child: the read baseline, the learn, and commands per read route; drops the database. */
async function measure(db: string, token: string, orgId: string) {
  const { loadHistory } = await import('../../plugins/predictions/learn.ts');
  const { app: a, ctx, services } = await app(db);
  try {
    const drifts = services.drifts!; const scans = services.scans!; const preds = services.predictions!;
    const t0 = performance.now();
    const h = await loadHistory({ drifts, scans }, orgId, new Date());
    const readMs = performance.now() - t0;
    const hwmRead = hwmMb();
    const rssBefore = rssMb();
    const t1 = performance.now();
    const run = await preds.requestLearn(orgId, 'manual');
    const result = await preds.runLearn(orgId, run.runId);
    const learnMs = performance.now() - t1;
    const model = await preds.model(orgId);
    const auth = { authorization: `Bearer ${token}` };
    const first = (await a.inject({ method: 'GET', url: '/api/predictions/all?limit=1', headers: auth })).json().data[0];
    const commands: [string, number][] = [];
    for (const r of READS) {
      const url = `/api/predictions${r.replace(':repo', first.repositoryConfig).replace(':id', first._id)}`;
      await a.inject({ method: 'GET', url, headers: auth }); // warm the org and membership caches
      const before = ctx.db.commandCount();
      const res = await a.inject({ method: 'GET', url, headers: auth });
      if (res.statusCode !== 200) throw new Error(`${url} -> ${res.statusCode}`);
      commands.push([`GET /api/predictions${r}`, ctx.db.commandCount() - before]);
    }
    process.stdout.write(`${JSON.stringify({
      resources: h.resources.length, readMs, learnMs, ratio: learnMs / readMs, rssBeforeMb: rssBefore, hwmAfterReadMb: hwmRead, hwmAfterLearnMb: hwmMb(),
      status: result?.status, auc: model.validation?.auc ?? null, samples: model.samples, commands,
    })}\n`);
  } finally {
    await ctx.db.db.dropDatabase().catch(() => undefined);
    await a.close();
  }
}

function child(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    c.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`bench predictions ${args[0]} exited ${code}`));
      resolve(JSON.parse(line));
    });
  });
}

async function main() {
  const say = (l: string) => console.error(`bench predictions: ${l}`);
  const loadAvg = os.loadavg();
  const rows: Record<string, unknown>[] = [];
  for (const size of SIZES) {
    const db = `bench_pred_${size}_${Date.now()}`;
    say(`seeding ${size} drift records`);
    const s = await child(['seed', db, String(size)]);
    say(`learning on ${s.drifts} drift records`);
    const m = await child(['measure', db, String(s.token), String(s.orgId)]);
    rows.push({ size, ...s, token: undefined, ...m });
  }
  const lines = [
    `Predictions benchmark: synthetic histories over ${DAYS} days in ${REPOS} repositories, node ${process.version}, ${os.cpus().length} CPUs`,
    `load average before the run: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    'a. Learn (POST /learn run: read history, features per 7-day window, fit, validate, predict, write) against reading the same history alone',
    table(['drifts', 'resources', 'samples', 'read ms', 'learn ms', 'learn/read', 'RSS before MB', 'peak RSS after read MB', 'peak RSS after learn MB', 'status', 'held-out AUC'],
      rows.map((r) => {
        const samples = r.samples as { train: number; validation: number } | null;
        return [r.drifts as number, r.resources as number, samples ? samples.train + samples.validation : 0, fmt(r.readMs as number), fmt(r.learnMs as number), fmt(r.ratio as number),
          fmt(r.rssBeforeMb as number), fmt(r.hwmAfterReadMb as number), fmt(r.hwmAfterLearnMb as number), String(r.status), String(r.auc)];
      })),
    '',
    `b. Database commands per read route (warm, ${rows[0].drifts} drifts)`,
    table(['route', 'commands'], (rows[0].commands as [string, number][]).map(([r, c]) => [r, c])),
  ];
  console.log(lines.join('\n'));
  const dir = path.join(REPO, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `predictions-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, loadAvg, rows }, null, 2)}\n`);
  console.log(`\ndata: ${path.relative(REPO, file)}`);
}

const [mode, ...rest] = process.argv.slice(2);
const done = (p: Promise<void>) => p.then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
if (mode === 'seed') void done(seed(rest[0], Number(rest[1])));
else if (mode === 'measure') void done(measure(rest[0], rest[1], rest[2]));
else void done(main());
