// Test databases are reused, not made and dropped per app. On the embedded FerretDB a new
// database is a PostgreSQL schema whose 63 collections and about 200 indexes are made at boot
// (core/db.ts ensureIndexes) and dropped at teardown: about a second and a half per app of
// catalog work, for 144 apps a run (issue 35). A database goes back to the pool only after its
// app has closed (no late write can land in it) and every collection is emptied; the next app
// finds its indexes made. The pool is one Redis list per checkout (another checkout's code may
// declare other indexes); tap's `before` and `after` steps drop what it holds, so a run starts
// from databases made by its own code. Imports nothing of the service (scripts/test-before.ts).
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { serviceUrls } from './service-urls.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const POOL_KEY = `drift-test:db-pool:${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`;

async function withRedis<T>(redisUrl: string, fn: (r: Redis) => Promise<T>): Promise<T> {
  // Short-lived: an open connection would keep the test process alive after its last test.
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** An emptied database of an earlier app of this checkout's run, or null (make a new one). */
export const takeDatabase = (redisUrl: string): Promise<string | null> => withRedis(redisUrl, (r) => r.lpop(POOL_KEY));

/** Empties every collection of the closed app's database and offers it to the next app. */
export async function returnDatabase(urls: { mongoUri: string; redisUrl: string }, name: string): Promise<void> {
  const client = new MongoClient(urls.mongoUri, { serverSelectionTimeoutMS: 5000 });
  try {
    const db = client.db(name);
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    await Promise.all(collections.map((c) => db.collection(c.name).deleteMany({})));
  } finally {
    await client.close();
  }
  await withRedis(urls.redisUrl, (r) => r.rpush(POOL_KEY, name));
}

/** Drops every pooled database (tap's `before` and `after`). */
export async function dropPooledDatabases(): Promise<number> {
  let urls: { mongoUri: string; redisUrl: string };
  try {
    urls = serviceUrls();
  } catch {
    return 0; // no services.json yet: nothing was ever pooled
  }
  const names = await withRedis(urls.redisUrl, async (r) => {
    const all = await r.lrange(POOL_KEY, 0, -1);
    await r.del(POOL_KEY);
    return all;
  });
  if (!names.length) return 0;
  const client = new MongoClient(urls.mongoUri, { serverSelectionTimeoutMS: 5000 });
  try {
    for (const name of names) await client.db(name).dropDatabase().catch(() => undefined);
  } finally {
    await client.close();
  }
  return names.length;
}
