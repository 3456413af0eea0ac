// Where the suite's services answer: the environment's URLs, else those `npm run services`
// wrote to .data/services.json. Imports nothing of the service, so tap's `before` and `after`
// steps (test/db-pool.ts) can use it too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function serviceUrls(): { mongoUri: string; redisUrl: string; stripeMockUrl: string; postgresUrl?: string } {
  const stripeDefault = `http://127.0.0.1:${process.env.DRIFT_STRIPE_PORT ?? 12111}`;
  // FERRETDB_POSTGRES_URL set (even empty, which turns the GIN indexes off) wins over services.json.
  const pgEnv = process.env.FERRETDB_POSTGRES_URL;
  if (process.env.MONGODB_URI && process.env.REDIS_URL) {
    return { mongoUri: process.env.MONGODB_URI, redisUrl: process.env.REDIS_URL, stripeMockUrl: process.env.DRIFT_STRIPE_MOCK_URL ?? stripeDefault, postgresUrl: pgEnv || undefined };
  }
  const file = join(process.env.DRIFT_DATA_DIR ?? join(ROOT, '.data'), 'services.json');
  if (!existsSync(file)) throw new Error(`No ${file}: run "npm run services -- up" (npm test does it for you)`);
  const s = JSON.parse(readFileSync(file, 'utf8'));
  return {
    mongoUri: process.env.MONGODB_URI ?? s.mongoUri, redisUrl: process.env.REDIS_URL ?? s.redisUrl,
    stripeMockUrl: process.env.DRIFT_STRIPE_MOCK_URL ?? s.stripeMockUrl ?? stripeDefault,
    postgresUrl: pgEnv === undefined ? s.postgresUrl : pgEnv || undefined,
  };
}
