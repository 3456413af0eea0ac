// `npm run bench -- drifts` (and part of `npm run bench`): the drift-core issue's figures,
// each a ratio or a count measured in this run.
//   1. /api/drifts/query with filters and sort, against the same query through the raw driver;
//   2. /api/drifts/aggregations against the same aggregations through the raw driver;
//   3. the CSV export of every drift against a raw cursor -> csv-stringify loop, and the
//      server's peak memory during the export at 10,000 and at 100,000 drifts (flat: it streams);
//   4. database commands per request of every list and detail route, at limit 20 and 100;
//   5. database commands to record a scan result with N = 10 and N = 5,000 drifts.
// Drifts are seeded straight into the database with insertMany batches of 1,000, shaped as
// the drifts store writes them. BENCH_DRIFTS (default 100000) sets the big size.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { call, fmt, REPO, startServer, table, type Target } from './lib.ts';
import { exportRaw, exportViaService, firstBytes, LIST, peakRss, QUERY, rawAggregations, rawList, rawQuery, type Ctx } from './drifts-reads.ts';

const BIG = Number(process.env.BENCH_DRIFTS ?? 100_000);
const SMALL = Math.min(10_000, BIG);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
/** BENCH_DRIFTS_QUICK=1: the reads of issue 36 only (no peak-memory server, commands of the drift routes only, no recording). */
const QUICK = process.env.BENCH_DRIFTS_QUICK === '1';
const HEAP_MB = 128;
const PASSWORD = 'correct horse battery staple';
const TYPES = ['aws_s3_bucket', 'aws_iam_role', 'aws_instance', 'aws_security_group', 'aws_lambda_function', 'aws_db_instance', 'aws_vpc', 'aws_subnet'];
const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
const RANK = { critical: 4, high: 3, medium: 2, low: 1 };

const newId = () => randomBytes(12).toString('hex');
const ms = async (fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); return performance.now() - t0; };
async function median(fn: () => Promise<unknown>, n = REPEAT) {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await ms(fn));
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}


async function seed(c: Ctx, from: number, to: number) {
  const day0 = Date.now() - 29 * 86_400_000;
  for (let start = from; start < to; start += 1000) {
    const docs = [];
    for (let i = start; i < Math.min(to, start + 1000); i++) {
      const severity = SEVERITIES[i % 4];
      // 2% open (detected or acknowledged), as an organization that works its drifts: 2,000 of 100,000.
      const status = i % 50 === 0 ? (i % 100 === 0 ? 'detected' : 'acknowledged') : (i % 3 ? 'resolved' : 'ignored');
      const detectedAt = new Date(day0 + (i % 30) * 86_400_000 + i);
      const type = TYPES[i % TYPES.length];
      const resolved = status === 'resolved';
      docs.push({
        _id: newId(), orgId: c.orgId, repositoryConfig: c.configs[i % c.configs.length], repositoryName: `bench/repo${i % c.configs.length}`,
        scan: c.scanId, lastScan: c.scanId, resourceType: type, resourceAddress: `${type}.res_${i}`, severity, severityRank: RANK[severity],
        status, changeType: 'changed', diff: { tags: { expected: 'a', actual: 'b' } }, aiAnalysis: null,
        openKey: resolved ? `resolved:${i}` : 'open', detectedAt, day: detectedAt.toISOString().slice(0, 10), lastSeenAt: detectedAt,
        resolvedAt: resolved ? detectedAt : null, resolvedDay: resolved ? detectedAt.toISOString().slice(0, 10) : null, resolvedBy: resolved ? 'scan' : null,
        statusChangedAt: null, feedback: null, updatedAt: detectedAt,
      });
    }
    await c.db.collection('drifts').insertMany(docs as never[], { ordered: false });
  }
}

async function commandsPerRequest(c: Ctx, driftId: string, fresh: () => Promise<void>, only?: number) {
  const counts = async () => call<{ commands: number; statements: number }>(c.url, 'GET', '/__bench/commands');
  const routes: [string, (limit: number) => string][] = [
    ['GET /api/drifts', (l) => `/api/drifts?limit=${l}`],
    ['GET /api/drifts/query (filters, sort)', (l) => `${QUERY.replace('limit=20', `limit=${l}`)}`],
    ['GET /api/drifts/aggregations', () => '/api/drifts/aggregations'],
    ['GET /api/drifts/suggestions', () => '/api/drifts/suggestions'],
    ['GET /api/drifts/autocomplete', (l) => `/api/drifts/autocomplete?field=resourceType&prefix=aws_&limit=${Math.min(l, 50)}`],
    ['GET /api/drifts/repository/:id', (l) => `/api/drifts/repository/${c.configs[0]}?limit=${l}`],
    ['GET /api/drifts/repository/:id/statistics', () => `/api/drifts/repository/${c.configs[0]}/statistics`],
    ['GET /api/drifts/:id', () => `/api/drifts/${driftId}`],
    ['GET /api/scans', (l) => `/api/scans?limit=${l}`],
    ['GET /api/scans/dashboard', () => '/api/scans/dashboard'],
    ['GET /api/scans/:id', () => `/api/scans/${c.scanId}`],
    ['GET /api/scans/repository/:id', (l) => `/api/scans/repository/${c.configs[0]}?limit=${l}`],
    ['GET /api/scans/repository/:id/latest', () => `/api/scans/repository/${c.configs[0]}/latest`],
    ['GET /api/repo-configs', () => '/api/repo-configs'],
    ['GET /api/repo-configs/:id', () => `/api/repo-configs/${c.configs[0]}`],
    ['GET /api/repo-configs/:id/stats', () => `/api/repo-configs/${c.configs[0]}/stats`],
    ['GET /api/workspaces', () => '/api/workspaces'],
    ['GET /api/projects', () => '/api/projects'],
    ['GET /api/drift-widgets', () => '/api/drift-widgets'],
    ['GET /api/notifications', (l) => `/api/notifications?limit=${l}`],
  ];
  const rows: (string | number)[][] = [];
  for (const [name, pathFor] of routes.slice(0, only ?? routes.length)) {
    await fresh(); // a new access token per route: the whole table outlives one token on a slow database
    const per: string[] = [];
    for (const limit of [20, 100]) {
      await call(c.url, 'GET', pathFor(limit), { token: c.token }); // warm caches
      const before = await counts();
      await call(c.url, 'GET', pathFor(limit), { token: c.token });
      const after = await counts();
      per.push(`${after.commands - before.commands} + ${after.statements - before.statements} SQL`);
    }
    rows.push([name, per[0], per[1]]);
  }
  return rows;
}

/** In this process: an app on its own database, recordScanResult at N = 10 and N = 5,000. */
async function recordingStatements() {
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl, postgresUrl } = serviceUrls();
  const name = `bench_rec_${Date.now()}`;
  const config = loadConfig({}, { MONGODB_URI: mongoUri, REDIS_URL: redisUrl, ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}), MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS });
  config.operator = { plugins: {} };
  const { app, ctx, services } = await buildApp({ config, logger: false });
  try {
    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `rec-${Date.now()}@example.com`, password: PASSWORD } });
    const orgId = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${reg.json().token}` } })).json().defaultOrgId;
    await ctx.tenancy.setPlan(orgId, 'enterprise');
    const scans = services.scans!;
    const rows: (string | number)[][] = [];
    for (const n of [10, 5000]) {
      const cfg = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: { authorization: `Bearer ${reg.json().token}` }, payload: { repositoryName: `bench/rec${n}`, branch: 'main', provider: 'cloud_a' } });
      const configId = cfg.json().data._id;
      const drifts = (k: number, sev: 'high' | 'low') => Array.from({ length: k }, (_, i) => ({ resourceType: 'aws_s3_bucket', resourceAddress: `aws_s3_bucket.b${i}`, severity: i % 2 ? sev : 'high' as const }));
      const measure = async (list: ReturnType<typeof drifts>) => {
        const scan = await scans.trigger(orgId, configId, null);
        const before = ctx.db.commandCount();
        const t = await ms(() => scans.recordScanResult(orgId, scan._id, { status: 'completed', drifts: list }));
        return { commands: ctx.db.commandCount() - before, ms: t };
      };
      const fresh = await measure(drifts(n, 'high'));
      const again = await measure(drifts(Math.floor(n * 0.8), 'low'));
      rows.push([`N=${n}: all new`, fresh.commands, fresh.ms]);
      rows.push([`N=${n}: 80% found again (2 severities), 20% resolved`, again.commands, again.ms]);
    }
    return rows;
  } finally {
    await ctx.db.db.dropDatabase().catch(() => undefined);
    await app.close();
  }
}

export async function runDrifts(say: (line: string) => void): Promise<string> {
  const run = `bench_drifts_${Date.now()}`;
  const target: Target = await startServer('drifts', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:` });
  const { mongoUri } = (await import('../../test/helper.ts')).serviceUrls();
  const client = await new MongoClient(mongoUri).connect();
  try {
    const email = `bench-drifts-${process.pid}@example.com`;
    const reg = await call<{ token: string }>(target.url, 'POST', '/api/auth/register', { body: { email, password: PASSWORD }, expect: 201 });
    const me = await call<{ defaultOrgId: string }>(target.url, 'GET', '/api/auth/me', { token: reg.token });
    const db = client.db(run);
    // Enterprise: no repository or scans-per-day limit in the way (set in the database; the org cache is cold for it).
    await db.collection('organizations').updateOne({ _id: me.defaultOrgId as never }, { $set: { plan: 'enterprise' } });
    const configs: string[] = [];
    for (let i = 0; i < 4; i++) {
      configs.push((await call<{ data: { _id: string } }>(target.url, 'POST', '/api/repo-configs', { token: reg.token, body: { repositoryName: `bench/repo${i}`, branch: 'main', provider: 'cloud_a' }, expect: 201 })).data._id);
    }
    const scan = await call<{ data: { _id: string } }>(target.url, 'POST', `/api/scans/trigger/${configs[0]}`, { token: reg.token, expect: 201 });
    const c: Ctx = { url: target.url, token: reg.token, orgId: me.defaultOrgId, configs, scanId: scan.data._id, db };
    // Access tokens live 15 minutes and a step on the embedded database can take longer: sign in again before each.
    const fresh = async () => { c.token = (await call<{ token: string }>(c.url, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).token; };

    say(`seeding ${SMALL} drifts (insertMany, batches of 1000)`);
    let t = await ms(() => seed(c, 0, SMALL));
    say(`  ${fmt(t / 1000)} s`);
    // Peak memory is read from a second app process on the same database whose heap is capped
    // (--max-old-space-size): there the collector runs as it must, so resident memory follows
    // live memory, and an export that buffered every row would not fit at all.
    const capped = QUICK ? null : await startServer('drifts-capped', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:`, BENCH_JOIN: '1', NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
    const onCapped = { ...c, get url() { return capped!.url; }, get token() { return c.token; } } as Ctx;
    say(`export at the small size (peak memory of a server with a ${HEAP_MB} MiB heap)`);
    const none = { base: 0, peak: 0, ms: 0 };
    const small = capped ? await peakRss(capped.pid, () => exportViaService(onCapped)) : none;
    say(`  ${fmt(small.ms)} ms, peak RSS growth ${fmt(small.peak - small.base)} MiB`);
    // Commands per request do not depend on the collection's size: counted at the small size,
    // where each request takes seconds rather than tens of seconds on the embedded database.
    say(`4. commands per request (at ${SMALL} drifts)`);
    const driftId = String((await db.collection('drifts').findOne({ orgId: c.orgId }))!._id);
    const commands = await commandsPerRequest(c, driftId, fresh, QUICK ? 8 : undefined);
    say(`seeding up to ${BIG} drifts`);
    t = await ms(() => seed(c, SMALL, BIG));
    say(`  ${fmt(t / 1000)} s`);

    await fresh();
    say(`0. GET /api/drifts (default list) vs raw driver (median of ${REPEAT})`);
    const svcL = await median(() => call(c.url, 'GET', LIST, { token: c.token }));
    const rawL = await median(() => rawList(c));
    say(`  service ${fmt(svcL)} ms, raw ${fmt(rawL)} ms, ratio ${fmt(svcL / rawL)}`);
    say(`1. /api/drifts/query vs raw driver (median of ${REPEAT})`);
    const svcQ = await median(() => call(c.url, 'GET', QUERY, { token: c.token }));
    const rawQ = await median(() => rawQuery(c));
    say(`  service ${fmt(svcQ)} ms, raw ${fmt(rawQ)} ms, ratio ${fmt(svcQ / rawQ)}`);
    await fresh();
    say('2. /api/drifts/aggregations vs raw driver');
    const svcA = await median(() => call(c.url, 'GET', '/api/drifts/aggregations', { token: c.token }));
    const rawA = await median(() => rawAggregations(c));
    say(`  service ${fmt(svcA)} ms, raw ${fmt(rawA)} ms, ratio ${fmt(svcA / rawA)}`);
    await fresh();
    say('3a. first CSV bytes vs the raw cursor\'s first document');
    const first = await firstBytes(c);
    say(`  service ${fmt(first.svc)} ms, raw ${fmt(first.raw)} ms`);
    say(`4b. commands per request of the drift routes at ${BIG} drifts`);
    const commandsBig = await commandsPerRequest(c, driftId, fresh, 8);
    await fresh();
    say('3. CSV export vs raw cursor -> CSV');
    let svcLines = 0; let rawLines = 0;
    const big = capped ? await peakRss(capped.pid, () => exportViaService(onCapped)) : none;
    await capped?.stop();
    const svcE = await ms(async () => { svcLines = await exportViaService(c); });
    const rawE = await ms(async () => { rawLines = await exportRaw(c); });
    say(`  service ${fmt(svcE)} ms (${svcLines - 1} rows; capped server: peak RSS growth ${fmt(big.peak - big.base)} MiB), raw ${fmt(rawE)} ms (${rawLines - 1} rows)`);
    say('5. commands to record a scan result');
    const recording = QUICK ? [] : await recordingStatements();

    const out = [
      `Drift core benchmark: ${BIG} drifts in one organization (4 configs), FerretDB at ${mongoUri.replace(/\/\/.*@/, '//')}, node ${process.version}, ${os.cpus().length} CPUs; medians of ${REPEAT}; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      '',
      '1-3. Service against the raw driver (ratio = service time / raw time; 1 = no overhead)',
      table(['measure', 'service ms', 'raw ms', 'ratio'], [
        ['GET /api/drifts (default list, limit 20) + total', svcL, rawL, svcL / rawL],
        ['GET /api/drifts/query (status, severity, sort -detectedAt, limit 20) + total', svcQ, rawQ, svcQ / rawQ],
        ['GET /api/drifts/aggregations (3 aggregations)', svcA, rawA, svcA / rawA],
        [`GET /api/drifts/export (${svcLines - 1} rows) vs raw cursor -> CSV (${rawLines - 1} rows)`, svcE, rawE, svcE / rawE],
        ['GET /api/drifts/export: first row vs the raw cursor\'s first document', first.svc, first.raw, first.svc / first.raw],
      ]),
      '',
      `Peak memory during the export, on an app process with a ${HEAP_MB} MiB heap (resident, MiB; it streams, so flat in the row count)`,
      table(['drifts', 'RSS before', 'peak RSS', 'growth', 'export ms'], [
        [SMALL, small.base, small.peak, small.peak - small.base, small.ms],
        [BIG, big.base, big.peak, big.peak - big.base, big.ms],
      ]),
      '',
      `4. Database commands + PostgreSQL statements per request (warm, at ${SMALL} drifts; at limit 20 and limit 100)`,
      table(['route', 'limit 20', 'limit 100'], commands),
      '',
      `4b. The drift routes again at ${BIG} drifts`,
      table(['route', 'limit 20', 'limit 100'], commandsBig),
      '',
      '5. recordScanResult: database commands (all of them, notifications included) and time',
      table(['result', 'commands', 'ms'], recording),
    ].join('\n');
    const dir = path.join(REPO, '.data', 'bench');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `drifts-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), big: BIG, small: SMALL, list: { svcL, rawL }, query: { svcQ, rawQ }, firstBytes: first, commandsBig, aggregations: { svcA, rawA }, export: { small, big, svcE, rawE, heapMb: HEAP_MB }, commands, recording }, null, 2)}\n`);
    return `${out}\n\ndata: ${path.relative(REPO, file)}`;
  } finally {
    await client.close();
    await target.stop();
  }
}
