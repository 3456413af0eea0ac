// Builds the app against the real local database and Redis (started by `npm test`'s
// pretest step): one database and one Redis key prefix per test file, dropped at teardown.
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import type { CommandStartedEvent, MongoClient } from 'mongodb';
import { SMTPServer } from 'smtp-server';
import { buildApp, type App } from '../core/app.ts';
import { loadConfig, type EnvConfig, type OperatorConfig } from '../core/config.ts';
import { ROOT } from '../core/loader.ts';
import { lowerPasswordHashCostForTests } from '../core/crypto.ts';
import { stripeFront } from './stripe-front.ts';
import { returnDatabase, takeDatabase } from './db-pool.ts';
import { serviceUrls } from './service-urls.ts';

export { serviceUrls };
import { logUndocumentedStatuses } from '../core/status-log.ts';

// Tests hash thousands of passwords: at scrypt's production cost that is minutes of CPU (core/crypto.ts).
lowerPasswordHashCostForTests();

export const TEST_SECRETS = { JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789', ENCRYPTION_KEY: 'ab'.repeat(32), SERVICE_KEY: 'test-service-key-0123456789abcdef' };

/** The payment provider's test settings: prices of each paid plan and the webhook's signing secret. */
export const STRIPE_TEST = {
  STRIPE_SECRET_KEY: 'sk_test_drift', STRIPE_WEBHOOK_SECRET: 'whsec_drift_test_0123456789',
  STRIPE_PRICE_PRO: 'price_drift_pro', STRIPE_PRICE_TEAM: 'price_drift_team', STRIPE_PRICE_ENTERPRISE: 'price_drift_enterprise',
} as const;


export interface TestAppOptions {
  operator?: OperatorConfig;
  env?: Partial<EnvConfig>;
  runJobs?: boolean;
  /** Compile schemas on first use (default; core/schema-compile.ts); false compiles every route at boot as the service does. */
  lazySchemas?: boolean;
  /** Keep the database after the test (inspection); default empties it for the next app (test/db-pool.ts). */
  keep?: boolean;
  /** A database made for this app and dropped after it, never a pooled one (a test of what boot makes). */
  fresh?: boolean;
}

export async function buildTestApp(t: Test, opts: TestAppOptions = {}): Promise<App> {
  const { mongoUri, redisUrl, stripeMockUrl } = serviceUrls();
  // The payment provider is stripe-mock behind the loopback front (test/stripe-front.ts).
  const stripe = await stripeFront(stripeMockUrl);
  const prefix = `t_${basename(t.name || 'test').replace(/\W+/g, '_').slice(0, 30)}_${randomBytes(3).toString('hex')}`;
  // A database the test names itself is its own; otherwise an emptied one of an earlier app.
  const pooled = !opts.fresh && !opts.keep && !opts.env?.MONGODB_DB;
  const dbName = (pooled && await takeDatabase(redisUrl)) || prefix;
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: dbName, REDIS_KEY_PREFIX: `${prefix}:`,
    NODE_ENV: 'test', LOG_LEVEL: 'silent', MAIL_OUTBOX_DIR: join(ROOT, '.data', 'test-outbox', prefix),
    // Tests scan git repositories in temporary folders (file:// URLs) with the built-in executor.
    EXECUTOR_LOCAL_SOURCES: true,
    ...STRIPE_TEST, STRIPE_API_BASE: stripe.url,
    // Integrations: webhooks may reach a loopback receiver; the tracker has an OAuth client
    // (its calls go nowhere unless a test points TRACKER_*_URL at its fake).
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', TRACKER_CLIENT_ID: 'drift-test-client', TRACKER_CLIENT_SECRET: 'drift-test-secret',
    ...TEST_SECRETS, ...opts.env,
  });
  config.operator = opts.operator ?? { plugins: {} };
  const queryLog = join(ROOT, '.data', 'query-log', `${prefix}.jsonl`);
  const built = await buildApp({ config, logger: false, queryLog, runJobs: opts.runJobs, jobPollMs: 200, jobLockLifetimeMs: 1000, lazySchemas: opts.lazySchemas ?? true });
  // Every answer with a status its operation does not document fails the run (scripts/check-statuses.ts).
  logUndocumentedStatuses(built.app, join(ROOT, '.data', 'status-log', `${prefix}.jsonl`));
  t.teardown(async () => {
    const { db, redis } = built.ctx;
    await built.ctx.audit.flush();
    if (!opts.keep) {
      if (!pooled) await db.db.dropDatabase().catch(() => undefined);
      const keys = await redis.main.keys('*').catch(() => [] as string[]);
      // keys() returns them with the prefix; del() would add it again.
      if (keys.length) await redis.main.del(...keys.map((k) => k.slice(config.REDIS_KEY_PREFIX.length)));
    }
    await built.app.close();
    if (pooled) await returnDatabase({ mongoUri, redisUrl }, dbName);
  });
  return built;
}

export interface Caller { token?: string; headers?: Record<string, string> }
export interface Session { token: string; refreshToken: string; userId: string; orgId: string; email: string }

let counter = 0;
export const uniqueEmail = (tag = 'user') => `${tag}-${process.pid}-${++counter}-${randomBytes(2).toString('hex')}@example.com`;

/**
 * Registers a fresh user (with its default organization) and returns its session. Tests that
 * register more users than the Auth limit allows one address pass their own `remoteAddress`.
 */
export async function register(app: App['app'], email = uniqueEmail(), password = 'correct horse battery', remoteAddress?: string): Promise<Session> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${body.token}` } });
  return { token: body.token, refreshToken: body.refreshToken, userId: body.user.id, orgId: me.json().defaultOrgId, email };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A real SMTP server on loopback that keeps what it receives. */
export async function startMailbox(t: Test): Promise<{ url: string; messages: { to: string[]; raw: string }[]; next(): Promise<{ to: string[]; raw: string }> }> {
  const messages: { to: string[]; raw: string }[] = [];
  const waiters: ((m: { to: string[]; raw: string }) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const msg = { to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        messages.push(msg);
        waiters.shift()?.(msg);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next: () => new Promise((resolve) => {
      const already = messages[messages.length - 1];
      if (already && !(already as { seen?: boolean }).seen) { (already as { seen?: boolean }).seen = true; return resolve(already); }
      waiters.push((m) => { (m as { seen?: boolean }).seen = true; resolve(m); });
    }),
  };
}

/** Decodes quoted-printable soft line breaks so tokens in mail bodies can be matched. */
export const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The driver commands a client sends from now on, as "<command> <collection>" (what a request costs). */
export function commandLog(t: Test, client: MongoClient): { names: string[]; clear(): void } {
  const names: string[] = [];
  const seen = (e: CommandStartedEvent) => { names.push(`${e.commandName} ${String(e.command[e.commandName])}`); };
  client.on('commandStarted', seen);
  t.teardown(() => { client.off('commandStarted', seen); });
  return { names, clear: () => { names.length = 0; } };
}
