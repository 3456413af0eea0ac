// The service as its own process for the end-to-end tests: `node
// test/e2e/app-process.ts`, with E2E_DB and E2E_PREFIX naming the database and Redis prefix a
// test shares with it, E2E_PORT (0 = any) and the job loop on. Prints the port once listening.
// SIGTERM closes it gracefully (core/shutdown.ts); the tests also SIGKILL it to play a crash. The owning test drops
// the database, never this process, so a restarted server finds everything where it was.
import { join } from 'node:path';
import { buildApp } from '../../core/app.ts';
import { closeOnSignals } from '../../core/shutdown.ts';
import { loadConfig } from '../../core/config.ts';
import { ROOT } from '../../core/loader.ts';
import { serviceUrls, TEST_SECRETS } from '../helper.ts';

const { mongoUri, redisUrl } = serviceUrls();
const db = process.env.E2E_DB;
if (!db) throw new Error('E2E_DB is required');
// The executor's settings come from the environment the test gives this process.
const { DRIFT_CLOUD_A_ENDPOINT, EXECUTOR_CONCURRENCY, SCAN_TIMEOUT_MINUTES } = process.env;
const config = loadConfig({ DRIFT_CLOUD_A_ENDPOINT, EXECUTOR_CONCURRENCY, SCAN_TIMEOUT_MINUTES, EXECUTOR_LOCAL_SOURCES: 'true' }, {
  MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: process.env.E2E_PREFIX ?? `${db}:`,
  NODE_ENV: 'test', LOG_LEVEL: 'silent', MAIL_OUTBOX_DIR: join(ROOT, '.data', 'test-outbox', db),
  RUNNER_OFFLINE_AFTER: Number(process.env.RUNNER_OFFLINE_AFTER ?? 600), ...TEST_SECRETS,
});
config.operator = { plugins: {} };
const { app } = await buildApp({ config, logger: { level: process.env.E2E_LOG_LEVEL ?? 'warn' }, runJobs: true, jobPollMs: 200, jobLockLifetimeMs: 60_000 });
await app.listen({ port: Number(process.env.E2E_PORT ?? 0), host: '127.0.0.1' });
console.log(String((app.server.address() as { port: number }).port));
// The service's own graceful shutdown (core/shutdown.ts), as `npm start` runs it.
closeOnSignals(app, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
