// The organizations issue's scenarios (`npm run bench -- orgs`), on one organization with
// 100,000 audit entries written straight to its database in batches:
//  a. GET /api/orgs/:orgId/audit-logs through the app against the same query (find + count)
//     through the raw driver, in the same run: the ratio is the app's overhead;
//  b. database commands per request for pages of 10, 50 and 100 entries (must not grow);
//  c. the CSV export's peak memory (server process RSS, sampled from /proc and read from
//     VmHWM) while streaming 10,000 and then 100,000 entries: it streams, so the peak must
//     not grow with the export. The server's old space is capped (HEAP_CAP_MB) so V8
//     collects rather than grows the heap; a buffered export of 100,000 would not fit.
// No timed assertion: absolute times depend on the machine and the embedded database.
import { readFileSync, writeFileSync } from 'node:fs';
import { MongoClient, type Db } from 'mongodb';
import { serviceUrls } from '../../test/helper.ts';
import { call, type Target } from './lib.ts';

export type Start = (name: string, mode: 'bare' | 'app', env?: Record<string, string>) => Promise<Target>;
export interface OrgsSettings { entries: number; firstExport: number; samples: number; batch: number }

export interface QueryRow { query: string; entries: number; appMs: number; rawMs: number; ratio: number; total: number }
export interface CommandRow { limit: number; commands: number }
export interface ExportRow { entries: number; rows: number; bytes: number; seconds: number; baselineRssMb: number; peakRssMb: number; growthMb: number; hwmMb: number | null }
export interface OrgsResult { seedSeconds: number; heapCapMb: number; queries: QueryRow[]; commands: CommandRow[]; exports: ExportRow[] }

const ACTIONS = ['member.role_changed', 'member.invited', 'member.removed', 'org.updated', 'role.updated', 'invitation.revoked', 'http.post.repo-configs', 'http.put.auth.preferences'];
const DAY = 86_400_000;
const HEAP_CAP_MB = 128;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Resident set size (and its high-water mark) of a process, in MiB, from /proc (Linux). */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Resets the process's VmHWM to its current RSS (Linux 4.0+); false where not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function seed(db: Db, orgId: string, userIds: string[], from: number, to: number, batch: number) {
  const logs = db.collection<{ _id: string }>('audit_logs');
  const now = Date.now();
  for (let start = from; start < to; start += batch) {
    const docs = [];
    for (let i = start; i < Math.min(to, start + batch); i++) {
      const userId = userIds[i % userIds.length];
      docs.push({
        _id: i.toString(16).padStart(24, '0'), orgId, action: ACTIONS[i % ACTIONS.length], userId, actorName: `user${i % userIds.length}@example.com`,
        actorKind: 'user', method: 'PUT', route: '/api/orgs/:orgId/members/:userId', resourceType: 'orgs', resourceId: orgId, statusCode: 200,
        body: { role: 'viewer' }, details: { target: { type: 'member', id: userId }, from: 'member', to: 'viewer' },
        ipAddress: '10.0.0.1', userAgent: 'bench', timestamp: new Date(now - DAY * 30 + i * 20),
      });
    }
    await logs.insertMany(docs, { ordered: false });
  }
}

/** Streams the export, discarding it, while sampling the server's RSS every 20 ms. */
async function measureExport(target: Target, orgId: string, token: string, entries: number): Promise<ExportRow> {
  // Let the previous run's garbage settle so the baseline is the idle process.
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = memory(target.pid).rss;
  const hwmReset = resetPeak(target.pid);
  let peak = baseline;
  const timer = setInterval(() => { peak = Math.max(peak, memory(target.pid).rss); }, 20);
  const started = performance.now();
  let bytes = 0;
  let rows = -1; // the header row
  try {
    const res = await fetch(`${target.url}/api/orgs/${orgId}/audit-logs/export`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) rows++;
    }
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  const { hwm } = memory(target.pid);
  peak = Math.max(peak, memory(target.pid).rss);
  return { entries, rows, bytes, seconds, baselineRssMb: baseline, peakRssMb: peak, growthMb: peak - baseline, hwmMb: hwmReset ? hwm : null };
}

/** One list query through the app and the same find + count through the driver, alternately. */
async function compare(app: Target, token: string, orgId: string, db: Db, c: { query: string; qs: string; filter: Record<string, unknown>; skip: number }, samples: number, entries: number): Promise<QueryRow> {
  const logs = db.collection<{ _id: string }>('audit_logs');
  const appMs: number[] = [];
  const rawMs: number[] = [];
  let total = 0;
  for (let i = 0; i < samples; i++) {
    let t = performance.now();
    total = (await call<{ total: number }>(app.url, 'GET', `/api/orgs/${orgId}/audit-logs${c.qs}`, { token })).total;
    appMs.push(performance.now() - t);
    t = performance.now();
    await Promise.all([
      logs.find(c.filter).sort({ timestamp: -1, _id: -1 }).skip(c.skip).limit(50).toArray(),
      logs.countDocuments(c.filter),
    ]);
    rawMs.push(performance.now() - t);
  }
  return { query: c.query, entries, appMs: median(appMs), rawMs: median(rawMs), ratio: median(appMs) / median(rawMs), total };
}

export async function runOrgs(start: Start, set: OrgsSettings, say: (line: string) => void): Promise<OrgsResult> {
  const run = `bench_orgs_${Date.now()}`;
  say(`starting the app server (old space capped at ${HEAP_CAP_MB} MB)`);
  // Capped, so V8 collects garbage instead of growing the heap at leisure: RSS then shows
  // what the export keeps, and an export that buffered 100,000 entries would not fit.
  const app = await start('orgs-app', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:`, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_CAP_MB}`.trim() });
  const raw = new MongoClient(serviceUrls().mongoUri);
  await raw.connect();
  try {
    const db = raw.db(run);
    const email = `bench-orgs-${process.pid}@example.com`;
    const reg = await call<{ token: string; user: { id: string } }>(app.url, 'POST', '/api/auth/register', { body: { email, password: 'correct horse battery staple' }, expect: 201 });
    const me = await call<{ defaultOrgId: string }>(app.url, 'GET', '/api/auth/me', { token: reg.token });
    const orgId = me.defaultOrgId;
    const token = reg.token;
    // Team plan for the export, set before any request reads (and caches) the organization.
    await db.collection('organizations').updateOne({ _id: orgId as never }, { $set: { plan: 'team' } });
    await db.collection('audit_logs').deleteMany({ orgId });
    // A few actors: the real user and ids no account has (names fall back to the recorded email).
    const userIds = [reg.user.id, ...Array.from({ length: 9 }, (_, i) => `${'f'.repeat(23)}${i}`)];
    const queries: QueryRow[] = [];
    const exports: ExportRow[] = [];

    let t0 = performance.now();
    say(`seeding ${set.firstExport} audit entries (insertMany, batches of ${set.batch})`);
    await seed(db, orgId, userIds, 0, set.firstExport, set.batch);
    let seedSeconds = (performance.now() - t0) / 1000;
    await call(app.url, 'GET', `/api/orgs/${orgId}`, { token }); // warms the JWT, membership and organization caches
    // The embedded database scans and sorts every matching document per query (DESIGN.md):
    // an unfiltered page costs about a second per 3,000 entries there, so the unfiltered
    // list is compared at the first size and the filtered one (an eighth) at the full size.
    say(`a. no filter, page 1, at ${set.firstExport} entries: ${set.samples} requests through the app, ${set.samples} through the driver`);
    queries.push(await compare(app, token, orgId, db, { query: 'no filter, page 1, limit 50', qs: '?limit=50', filter: { orgId }, skip: 0 }, set.samples, set.firstExport));
    say(`c. CSV export of ${set.firstExport} entries`);
    exports.push(await measureExport(app, orgId, token, set.firstExport));

    t0 = performance.now();
    say(`seeding up to ${set.entries} entries`);
    await seed(db, orgId, userIds, set.firstExport, set.entries, set.batch);
    seedSeconds += (performance.now() - t0) / 1000;
    say(`c. CSV export of ${set.entries} entries`);
    exports.push(await measureExport(app, orgId, token, set.entries));

    say(`a. action filter, page 3, at ${set.entries} entries: ${set.samples} requests through the app, ${set.samples} through the driver`);
    await call(app.url, 'GET', `/api/orgs/${orgId}`, { token });
    queries.push(await compare(app, token, orgId, db, { query: 'action filter, page 3, limit 50', qs: `?action=${ACTIONS[1]}&page=3&limit=50`, filter: { orgId, action: ACTIONS[1] }, skip: 100 }, set.samples, set.entries));

    say('b. database commands per request (action filter; the count does not depend on it)');
    const count = async () => (await call<{ commands: number }>(app.url, 'GET', '/__bench/commands')).commands;
    const commands: CommandRow[] = [];
    for (const limit of [10, 50, 100]) {
      // Caches expire after a minute and a request here takes seconds: warm them first.
      await call(app.url, 'GET', `/api/orgs/${orgId}`, { token });
      const before = await count();
      await call(app.url, 'GET', `/api/orgs/${orgId}/audit-logs?action=${ACTIONS[1]}&limit=${limit}`, { token });
      commands.push({ limit, commands: (await count()) - before });
    }
    return { seedSeconds, heapCapMb: HEAP_CAP_MB, queries, commands, exports };
  } finally {
    await raw.close();
    await app.stop();
  }
}
