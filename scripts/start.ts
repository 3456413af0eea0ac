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
const { closeOnSignals } = await import('../core/shutdown.ts');
const server = await main().catch(async (e: unknown) => {
  await services.stop();
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

// SIGINT/SIGTERM: stop taking requests, finish those in flight, stop jobs and stores, then the
// local services this process started, within SHUTDOWN_TIMEOUT_MS (core/shutdown.ts).
closeOnSignals(server.app, { timeoutMs: server.config.SHUTDOWN_TIMEOUT_MS, after: () => services.stop() });
