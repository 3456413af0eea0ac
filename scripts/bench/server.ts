// One benchmark target per process: `node scripts/bench/server.ts bare|app`.
// Listens on an ephemeral loopback port and prints only that port on stdout once ready.
//   bare: plain Fastify 5 with GET /api/auth/me answering a fixed body shaped like the real one
//         (the baseline every ratio is measured against).
//   app:  the real app (buildApp) on the local services, plus GET /__bench/commands, which
//         exists only in this process, to read Database.commandCount(), and GET /__bench/loop:
//         the event loop's delay (max and p99, ms) since the last call (perf_hooks).
// Env (app): BENCH_DB, BENCH_PREFIX (database and Redis prefix, shared by the processes of one
// run), BENCH_JOIN=1 (a second process on a database another one owns: keep it at exit),
// BENCH_STRIPE=1 (billing: stripe-mock and the test webhook secret),
// BENCH_LOG (default info: request logs written as in production, to /dev/null; off: none),
// BENCH_TRUST_PROXY=1 (the login scenario: the Auth limit is per client IP, so the load
// generator sends a distinct X-Forwarded-For per request; TRUST_PROXY names the loopback
// load generator as the proxy, ordinary config).
import Fastify, { type FastifyInstance } from 'fastify';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ME = {
  id: '665f1c2e8b3a4d0012345678', email: 'bench@example.com', name: null, role: 'user', scmId: null,
  avatar: null, defaultOrgId: '665f1c2e8b3a4d0012345679', onboardingCompleted: false, tourCompleted: false,
};

async function bare(): Promise<{ app: FastifyInstance; cleanup(): Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/api/auth/me', async () => ME);
  return { app, cleanup: async () => undefined };
}

async function real(): Promise<{ app: FastifyInstance; cleanup(): Promise<void> }> {
  const joining = process.env.BENCH_JOIN === '1';
  // Imported here so the bare target loads nothing of the engine.
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS, STRIPE_TEST } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl, stripeMockUrl, postgresUrl } = serviceUrls();
  const db = process.env.BENCH_DB ?? `bench_${Date.now()}`;
  const prefix = process.env.BENCH_PREFIX ?? `${db}:`;
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: prefix,
    NODE_ENV: 'production', LOG_LEVEL: 'silent', TRUST_PROXY: process.env.BENCH_TRUST_PROXY === '1' ? ['127.0.0.1', '::1'] : false,
    MAIL_OUTBOX_DIR: join(REPO, '.data', 'bench', 'outbox', db), ...TEST_SECRETS,
    // As `npm start` runs on the embedded database: GIN indexes for equality reads (FERRETDB_POSTGRES_URL= turns them off).
    ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}),
    // The billing benchmark: the payment provider is stripe-mock, the webhook signed with the test secret.
    ...(process.env.BENCH_STRIPE === '1' ? { ...STRIPE_TEST, STRIPE_API_BASE: stripeMockUrl } : {}),
  });
  // Every plugin enabled at its manifest tier (as the tests run), independent of drift.config.json.
  config.operator = { plugins: {} };
  // No job loop: Agenda's polling would add database commands that no request caused.
  // Request logs on, as an operator runs the service (BENCH_LOG=off to measure without them):
  // the service's own logger at info, to /dev/null, so every line is built and written but no
  // disk is in the figure.
  const { loggerOptions } = await import('../../core/logging.ts');
  const level = (process.env.BENCH_LOG ?? 'info') as 'info';
  const logger = process.env.BENCH_LOG === 'off' ? false : loggerOptions({ LOG_LEVEL: level }, '/dev/null');
  const { app, ctx } = await buildApp({ config, logger });
  app.get('/__bench/commands', async () => ({ commands: ctx.db.commandCount(), statements: ctx.db.pushdown?.statements() ?? 0 }));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  app.get('/__bench/loop', async () => {
    const out = { maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 };
    loop.reset();
    return out;
  });
  const cleanup = async () => {
    if (!joining) {
      await ctx.audit.flush().catch(() => undefined);
      await ctx.db.db.dropDatabase().catch(() => undefined);
      // Only this run's keys: filter on the prefix whatever KEYS does with it.
      const keys = (await ctx.redis.main.keys('*').catch(() => [] as string[])).filter((k) => k.startsWith(prefix));
      if (keys.length) await ctx.redis.main.del(...keys.map((k) => k.slice(prefix.length))).catch(() => undefined);
    }
  };
  return { app, cleanup };
}

const mode = process.argv[2];
if (mode !== 'bare' && mode !== 'app') {
  console.error('usage: node scripts/bench/server.ts bare|app');
  process.exit(2);
}
const { app, cleanup } = mode === 'bare' ? await bare() : await real();
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(String((app.server.address() as { port: number }).port));

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  const done = (code: number) => process.exit(code);
  // The orchestrator sends no more load by now; clean up while the connections are open,
  // then close (which closes the database and Redis clients).
  cleanup().then(() => app.close()).then(() => done(0), (e: unknown) => { console.error(e); done(1); });
});
