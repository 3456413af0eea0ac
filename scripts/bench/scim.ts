// `npm run bench -- scim`: SCIM lists and Bulk at 10,000 users in one organization (issue 14).
//   1. a filtered list and pages at startIndex 1 and near the end (9,801 at 10,000 users): database commands per request
//      (constant in the page position) and time, against the same find + count through the raw driver;
//   2. a Bulk of 100 user creations: time and database commands.
// The app runs in this process (commands are counted by the driver's monitoring, ctx.db.commandCount);
// users are seeded straight into scim_users with insertMany, shaped as the store writes them.
// BENCH_SCIM_USERS (default 10000) sizes the organization.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { fmt, REPO, table } from './lib.ts';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 10_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const newId = (i: number) => i.toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
const ms = async (fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); return performance.now() - t0; };

export async function runScim(say: (line: string) => void): Promise<string> {
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl, postgresUrl } = serviceUrls();
  const name = `bench_scim_${Date.now()}`;
  const config = loadConfig({}, { MONGODB_URI: mongoUri, REDIS_URL: redisUrl, ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}), MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS });
  config.operator = { plugins: {} };
  const { app, ctx } = await buildApp({ config, logger: false });
  const raw = await new MongoClient(mongoUri).connect();
  try {
    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `scim-bench-${Date.now()}@example.com`, password: 'correct horse battery staple' } });
    const jwt = reg.json().token;
    const orgId = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${jwt}` } })).json().defaultOrgId;
    await ctx.tenancy.setPlan(orgId, 'enterprise');
    const token = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: { authorization: `Bearer ${jwt}`, 'x-org-id': orgId }, payload: {} })).json().token;
    say(`seeding ${USERS} SCIM users`);
    const t0 = Date.now();
    const now = new Date();
    for (let start = 0; start < USERS; start += 1000) {
      const docs = [];
      for (let i = start; i < Math.min(USERS, start + 1000); i++) {
        const userName = `user${i}@corp.example`;
        docs.push({
          _id: newId(i), orgId, userId: newId(i + 1_000_000), userName, userNameLower: userName, active: i % 10 !== 0,
          externalId: `ext-${i}`, displayName: `User ${i}`, name: { givenName: `Given${i}`, familyName: i % 2 ? 'Smith' : 'Jones' },
          emails: [{ value: userName, type: 'work', primary: true }], enterprise: { department: i % 3 ? 'Engineering' : 'Sales' },
          createdAt: now, updatedAt: now, version: 1,
        });
      }
      await ctx.db.db.collection('scim_users').insertMany(docs as never[], { ordered: false });
    }
    say(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)}s`);

    const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const users = raw.db(name).collection('scim_users');
    const cases = [
      { label: 'no filter, startIndex 1', url: '/api/scim/v2/Users?startIndex=1&count=100', query: {}, skip: 0 },
      { label: `no filter, startIndex ${USERS - 199}`, url: `/api/scim/v2/Users?startIndex=${USERS - 199}&count=100`, query: {}, skip: USERS - 200 },
      { label: 'name.familyName eq "Smith", startIndex 1', url: `/api/scim/v2/Users?filter=${encodeURIComponent('name.familyName eq "Smith"')}&count=100`, query: { 'name.familyName': { $regex: '^Smith$', $options: 'i' } }, skip: 0 },
      { label: `name.familyName eq "Smith", startIndex ${USERS / 2 - 99}`, url: `/api/scim/v2/Users?filter=${encodeURIComponent('name.familyName eq "Smith"')}&startIndex=${USERS / 2 - 99}&count=100`, query: { 'name.familyName': { $regex: '^Smith$', $options: 'i' } }, skip: USERS / 2 - 100 },
      { label: 'emails.value eq (Entra lookup by mail)', url: `/api/scim/v2/Users?filter=${encodeURIComponent(`emails.value eq "USER${USERS - 7}@corp.example"`)}`, query: { 'emails.value': { $regex: `^user${USERS - 7}@corp\\.example$`, $options: 'i' } }, skip: 0 },
      { label: 'name.givenName sw "Given99"', url: `/api/scim/v2/Users?filter=${encodeURIComponent('name.givenName sw "Given99"')}&count=100`, query: { 'name.givenName': { $regex: '^Given99', $options: 'i' } }, skip: 0 },
      { label: 'userName eq (Okta/Entra lookup)', url: `/api/scim/v2/Users?filter=${encodeURIComponent(`userName eq "user${USERS - 124}@corp.example"`)}`, query: { userNameLower: `user${USERS - 124}@corp.example` }, skip: 0 },
    ];
    const rows: (string | number)[][] = [];
    await get(cases[0].url); // warm the token and organization caches
    // The names of the commands each measured request sends (the driver's monitoring).
    let names: string[] = [];
    ctx.db.client.on('commandStarted', (e) => names.push(`${e.commandName} ${String(e.command[e.commandName])}`));
    for (const c of cases) {
      names = [];
      const before = ctx.db.commandCount();
      const sqlBefore = ctx.db.pushdown?.statements() ?? 0;
      const res = await get(c.url);
      const commands = ctx.db.commandCount() - before;
      const sql = (ctx.db.pushdown?.statements() ?? 0) - sqlBefore;
      const measured = [...names];
      say(`${c.label}: ${measured.join(', ')}`);
      if (res.statusCode !== 200) throw new Error(`${c.url}: ${res.statusCode} ${res.body}`);
      const appTimes: number[] = []; const rawTimes: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        appTimes.push(await ms(() => get(c.url)));
        rawTimes.push(await ms(() => Promise.all([
          users.find({ orgId, ...c.query }).sort({ _id: 1 }).skip(c.skip).limit(100).toArray(), users.countDocuments({ orgId, ...c.query }),
        ])));
      }
      const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const body = res.json();
      // Commands on scim_users are the request's own; others are cache refreshes (token 30 s, organization
      // 60 s) and the once-a-minute lastUsedAt write, which the slow embedded database makes fall inside a request.
      const own = measured.filter((n) => n.endsWith(' scim_users')).length;
      rows.push([c.label, body.totalResults, body.itemsPerPage, own, sql, commands, measured.filter((n) => !n.endsWith(' scim_users')).join('; ') || '-', med(appTimes), med(rawTimes), med(appTimes) / med(rawTimes)]);
      say(`${c.label}: ${commands} commands`);
    }

    const ops = Array.from({ length: 100 }, (_, i) => ({ method: 'POST', path: '/Users', bulkId: `b${i}`, data: { userName: `bulk${i}@corp.example` } }));
    const before = ctx.db.commandCount();
    let status = 0;
    const bulkMs = await ms(async () => {
      const res = await app.inject({ method: 'POST', url: '/api/scim/v2/Bulk', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, payload: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: ops }) });
      status = res.statusCode;
      const failed = res.json().Operations.filter((o: { status: string }) => o.status !== '201').length;
      if (failed) throw new Error(`${failed} bulk operations failed`);
    });
    const bulkCommands = ctx.db.commandCount() - before;

    const result = { users: USERS, lists: rows, bulk: { operations: 100, status, ms: bulkMs, commands: bulkCommands, commandsPerOperation: bulkCommands / 100 } };
    const dir = path.join(REPO, '.data', 'bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `scim-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), `${JSON.stringify(result, null, 2)}\n`);
    return [
      `SCIM benchmark: ${USERS} SCIM users in one organization; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      '',
      `1. GET /api/scim/v2/Users through the service vs the same find + count through the raw driver (median of ${REPEAT})`,
      table(['request', 'totalResults', 'items', 'scim_users commands', 'PostgreSQL statements', 'all commands', 'others (cache refresh)', 'service ms', 'driver ms', 'service/driver'], rows),
      `scim_users commands and statements constant in the page position: ${rows[0][3] === rows[1][3] && rows[0][4] === rows[1][4] && rows[2][3] === rows[3][3] && rows[2][4] === rows[3][4] ? 'met' : 'NOT met'}`,
      '',
      '2. POST /api/scim/v2/Bulk with 100 user creations',
      table(['operations', 'ms', 'db commands', 'commands/operation'], [[100, bulkMs, bulkCommands, fmt(bulkCommands / 100)]]),
    ].join('\n');
  } finally {
    await raw.close();
    await ctx.db.db.dropDatabase().catch(() => undefined);
    await app.close();
  }
}
