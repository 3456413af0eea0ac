// A delivery worker as its own process (`npm run bench -- webhooks`): the app on the bench's
// database with WEBHOOK_WORKER on, sending due deliveries in a loop through the same function
// the `webhooks.deliver` job runs (plugins/webhooks/outbox.ts runDue). Prints "ready" once built
// and one line per run with the attempts it made. Env: BENCH_DB, BENCH_PREFIX, BENCH_CA_FILE.
import { buildApp } from '../../core/app.ts';
import { loadConfig } from '../../core/config.ts';
import { serviceUrls, TEST_SECRETS } from '../../test/helper.ts';

const { mongoUri, redisUrl } = serviceUrls();
const config = loadConfig({}, {
  MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: process.env.BENCH_DB!, REDIS_KEY_PREFIX: process.env.BENCH_PREFIX!,
  NODE_ENV: 'production', LOG_LEVEL: 'silent', ...TEST_SECRETS,
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_EXTRA_CA_FILE: process.env.BENCH_CA_FILE, WEBHOOK_WORKER: true,
  WEBHOOK_RETRY_SECONDS: '1,1,1,1', WEBHOOK_TIMEOUT_MS: 2000,
});
config.operator = { plugins: {} };
const { services } = await buildApp({ config, logger: false });
console.log('ready');
for (;;) {
  const stats = await services.webhooks!.runDue(new Date());
  if (stats.attempts || stats.abandoned) console.log(JSON.stringify(stats));
  else await new Promise((r) => setTimeout(r, 200));
}
