// `npm start`: bring up the local services (unless MONGODB_URI / REDIS_URL point elsewhere),
// run the API, and on SIGINT/SIGTERM close the server before stopping what we started.
import { ensureServices } from './services.ts';
import { ensureDevSecrets } from './dev-secrets.ts';

const services = await ensureServices();
process.env.MONGODB_URI ||= services.mongoUri;
process.env.REDIS_URL ||= services.redisUrl;
// The embedded FerretDB's PostgreSQL: GIN indexes for equality reads (core/ferret-gin.ts).
if (services.postgresUrl && process.env.FERRETDB_POSTGRES_URL === undefined) process.env.FERRETDB_POSTGRES_URL = services.postgresUrl;
ensureDevSecrets(process.env);

// Imported only now so core/ reads its config after the URLs above are set.
const { main } = await import('../core/server.ts');
const server = await main().catch(async (e: unknown) => {
  await services.stop();
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  try {
    await server.close();
  } finally {
    await services.stop(); // only the parts this process started
  }
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => void shutdown(sig).catch((e: unknown) => { console.error(e); process.exit(1); }));
}
