// The engine issue's scenarios. Every figure is a ratio against a baseline measured in this
// same run (the bare Fastify server, or the counter before the request): absolute req/s
// depend on the machine, ratios and command counts do not.
import type { Request } from 'autocannon';
import { call, load, type LoadFigures, type Target } from './lib.ts';

export type Start = (name: string, mode: 'bare' | 'app', env?: Record<string, string>) => Promise<Target>;
export interface Settings { seconds: number; warmup: number; connections: number; pipelining: number; warmRequests: number }

interface Session { token: string; orgId: string; cli?: string }
/** ratio: req/s against bare; cpuRatio: bare's server CPU per request over this one's (1 = as cheap as bare). */
export interface LoadRow extends LoadFigures { scenario: string; ratio: number; cpuRatio: number }
export interface CommandRow { route: string; cold: number; warm: number }
export interface EngineResult {
  throughput: LoadRow[];
  login: LoadFigures & { ratioToBare: number; cpuRatio: number; latencyVsMe: number; note: string };
  commands: CommandRow[];
}

const PASSWORD = 'correct horse battery staple';
let users = 0;

/** A fresh user (and its default organization), optionally with a CLI token. */
async function session(url: string, withCli = false): Promise<Session & { email: string }> {
  const email = `bench-${process.pid}-${++users}@example.com`;
  const reg = await call<{ token: string }>(url, 'POST', '/api/auth/register', { body: { email, password: PASSWORD }, expect: 201 });
  const me = await call<{ defaultOrgId: string }>(url, 'GET', '/api/auth/me', { token: reg.token });
  const s: Session & { email: string } = { email, token: reg.token, orgId: me.defaultOrgId };
  if (withCli) {
    const cli = await call<{ token: string }>(url, 'POST', '/api/auth/cli-tokens', {
      token: reg.token, body: { name: 'bench', scopes: ['repos:read'] }, expect: 201,
    });
    s.cli = cli.token;
  }
  return s;
}

/** Throughput of GET /api/auth/me: bare baseline, then the real app with a JWT and a CLI token. */
async function meScenarios(bare: Target, app: Target, s: Session, set: Settings): Promise<LoadRow[]> {
  const run = async (scenario: string, target: Target, token: string) => {
    const f = await load({ url: `${target.url}/api/auth/me`, connections: set.connections, pipelining: set.pipelining,
      headers: { authorization: `Bearer ${token}` } }, target.pid, { duration: set.warmup }, { duration: set.seconds });
    // A 401 is cheaper than a 200: a figure with failed requests would flatter the app.
    if (f.non2xx || f.errors) throw new Error(`${scenario}: ${f.non2xx} non-2xx, ${f.errors} errors`);
    return { scenario, ...f, ratio: 0, cpuRatio: 0 };
  };
  const base = await run('bare Fastify GET /api/auth/me (baseline)', bare, s.token);
  const jwt = await run('app GET /api/auth/me, user JWT', app, s.token);
  const cli = await run('app GET /api/auth/me, CLI token', app, s.cli!);
  return [base, jwt, cli].map((r) => ({ ...r, ratio: r.reqPerSec / base.reqPerSec, cpuRatio: base.cpuUsPerReq / r.cpuUsPerReq }));
}

/**
 * Login throughput on its own app process. The Auth limit (50 per 15 min per client IP) would
 * answer 429 after 50 logins, so this process trusts X-Forwarded-For (TRUST_PROXY, ordinary
 * config) and every request names a different client address: each login still pays the
 * limiter's Redis call, as behind a real proxy.
 */
async function loginScenario(start: Start, run: string, set: Settings): Promise<LoadFigures> {
  const target = await start('login', 'app', { BENCH_DB: `${run}_login`, BENCH_PREFIX: `${run}_login:`, BENCH_TRUST_PROXY: '1' });
  try {
    const { email } = await session(target.url);
    let n = 0;
    const nextIp = () => { n += 1; return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`; };
    const opts = {
      // No pipelining: scrypt bounds this one, and queued requests would only inflate latency.
      url: target.url, connections: set.connections,
      requests: [{
        method: 'POST' as const, path: '/api/auth/login',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }),
        setupRequest: (req: Request) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextIp() } }),
      }],
    };
    // Counted runs, not timed ones: a timed run ends with logins still hashing, whose writes
    // would land after the server dropped its database (and in the next run's CPU time).
    // Warm-up: one login per connection (first hashes, pools), then two per connection to
    // measure the rate that sizes the measured run to about BENCH_SECONDS.
    await load(opts, target.pid, { amount: 0 }, { amount: set.connections });
    const probe = await load(opts, target.pid, { amount: 0 }, { amount: 2 * set.connections });
    const amount = Math.max(2 * set.connections, Math.round(probe.reqPerSec * set.seconds));
    const f = await load(opts, target.pid, { amount: 0 }, { amount });
    if (f.non2xx || f.errors) throw new Error(`login: ${f.non2xx} non-2xx, ${f.errors} errors (rate limit not out of the way?)`);
    return f;
  } finally {
    await target.stop();
  }
}

interface RouteCase { route: string; cli?: boolean; path(s: Session & { ids?: Ids }): string }
interface Ids { configId: string; scanId: string }
/** A repository config with one scan in the session's organization (for the lists under a config or scan). */
async function withRecords(url: string, s: Session): Promise<Ids> {
  const config = await call<{ data: { _id: string } }>(url, 'POST', '/api/repo-configs', { token: s.token, body: { repositoryName: 'bench/infra', branch: 'main', provider: 'cloud_a' }, expect: 201 });
  const scan = await call<{ data: { _id: string } }>(url, 'POST', `/api/scans/trigger/${config.data._id}`, { token: s.token, expect: 201 }).catch(() => ({ data: { _id: '0'.repeat(24) } }));
  return { configId: config.data._id, scanId: scan.data._id };
}
const ROUTES: RouteCase[] = [
  { route: 'GET /api/auth/me (JWT)', path: () => '/api/auth/me' },
  { route: 'GET /api/auth/me (CLI token)', cli: true, path: () => '/api/auth/me' },
  { route: 'GET /api/orgs', path: () => '/api/orgs' },
  { route: 'GET /api/orgs/:orgId', path: (s) => `/api/orgs/${s.orgId}` },
  { route: 'GET /api/auth/quota', path: () => '/api/auth/quota' },
  { route: 'GET /api/auth/cli-tokens', path: () => '/api/auth/cli-tokens' },
  // Every list route (issue 18: database commands per request of each).
  { route: 'GET /api/orgs/:orgId/members', path: (s) => `/api/orgs/${s.orgId}/members` },
  { route: 'GET /api/orgs/:orgId/invitations', path: (s) => `/api/orgs/${s.orgId}/invitations` },
  { route: 'GET /api/orgs/:orgId/audit-logs', path: (s) => `/api/orgs/${s.orgId}/audit-logs` },
  { route: 'GET /api/audit-logs', path: () => '/api/audit-logs' },
  { route: 'GET /api/repo-configs', path: () => '/api/repo-configs' },
  { route: 'GET /api/scans', path: () => '/api/scans' },
  { route: 'GET /api/scans/repository/:id', path: (s) => `/api/scans/repository/${s.ids!.configId}` },
  { route: 'GET /api/drifts', path: () => '/api/drifts' },
  { route: 'GET /api/drifts/scan/:scanId', path: (s) => `/api/drifts/scan/${s.ids!.scanId}` },
  { route: 'GET /api/drifts/repository/:id', path: (s) => `/api/drifts/repository/${s.ids!.configId}` },
  { route: 'GET /api/drifts/rules', path: () => '/api/drifts/rules' },
  { route: 'GET /api/drift-widgets', path: () => '/api/drift-widgets' },
  { route: 'GET /api/notifications', path: () => '/api/notifications' },
  { route: 'GET /api/projects', path: () => '/api/projects' },
  { route: 'GET /api/runners', path: () => '/api/runners' },
  { route: 'GET /api/workspaces', path: () => '/api/workspaces' },
];
const NEEDS_RECORDS = /:id|:scanId/;

/**
 * Database commands per request. Each route gets its own fresh user, registered on the main
 * process; a second process on the same database has never seen that user, so its first
 * request there is truly cold. Then the mean over `warmRequests` sequential requests.
 */
async function commandScenario(app: Target, start: Start, run: string, set: Settings): Promise<CommandRow[]> {
  const sessions = [];
  for (const r of ROUTES) {
    const s: Session & { ids?: Ids } = await session(app.url, r.cli);
    if (NEEDS_RECORDS.test(r.route)) s.ids = await withRecords(app.url, s);
    sessions.push(s);
  }
  const cold = await start('app-cold', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:`, BENCH_JOIN: '1' });
  try {
    const count = async () => (await call<{ commands: number }>(cold.url, 'GET', '/__bench/commands')).commands;
    const rows: CommandRow[] = [];
    // Control row: reading the counter alone (and any background work) must cost nothing.
    const c0 = await count();
    for (let i = 0; i < set.warmRequests; i++) await count();
    rows.push({ route: '(control: counter reads only)', cold: 0, warm: ((await count()) - c0) / (set.warmRequests + 1) });
    for (const [i, r] of ROUTES.entries()) {
      const s = sessions[i];
      const token = r.cli ? s.cli! : s.token;
      const before = await count();
      await call(cold.url, 'GET', r.path(s), { token });
      const afterFirst = await count();
      for (let k = 0; k < set.warmRequests; k++) await call(cold.url, 'GET', r.path(s), { token });
      const after = await count();
      rows.push({ route: r.route, cold: afterFirst - before, warm: (after - afterFirst) / set.warmRequests });
    }
    return rows;
  } finally {
    await cold.stop();
  }
}

export async function runEngine(start: Start, set: Settings, say: (line: string) => void): Promise<EngineResult> {
  const run = `bench_${Date.now()}`;
  say('starting bare and app servers');
  const [bare, app] = await Promise.all([start('bare', 'bare'), start('app', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:` })]);
  const main = await session(app.url, true);
  say(`a/b. GET /api/auth/me: bare, JWT, CLI (${set.warmup}s warm-up + ${set.seconds}s each)`);
  const throughput = await meScenarios(bare, app, main, set);
  await bare.stop();
  say('d. database commands per request (second app process for cold figures)');
  const commands = await commandScenario(app, start, run, set);
  await app.stop();
  say('c. POST /api/auth/login');
  const login = await loginScenario(start, run, set);
  const base = throughput[0];
  return {
    throughput,
    login: {
      ...login, ratioToBare: login.reqPerSec / base.reqPerSec, cpuRatio: base.cpuUsPerReq / login.cpuUsPerReq,
      latencyVsMe: login.meanMs / throughput[1].meanMs,
      note: 'scrypt N=2^15 (32 MiB) per login by design; Auth limit (50/15 min per IP) kept out of the way with TRUST_PROXY and one X-Forwarded-For per request',
    },
    commands,
  };
}
