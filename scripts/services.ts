// Local services the drift service and its tests need: PostgreSQL -> embedded FerretDB (MongoDB
// wire protocol) and Redis, started idempotently from a data dir (DESIGN.md, "Real parts").
//   npx tsx scripts/services.ts up|down|status
// MONGODB_URI / REDIS_URL / DRIFT_MOTO_URL, when set, point at external servers and the matching
// parts are skipped. moto is the AWS emulator the cloud_a detection engine is tested against;
// stripe-mock (DRIFT_STRIPE_MOCK_URL for an external one) is the payment provider's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ferretArgs, ferretBinary, ferretPostgresUrl, killFerretOnPort, mongoPing } from './services/ferretdb.ts';
import { ensureFerretDatabase, pgPaths, pgReady, startPg, stopPg } from './services/postgres.ts';
import { redisArgs, redisBinary, redisPing } from './services/redis.ts';
import { ensureMoto, ensureScimCli, localMotoUrl, motoPid, motoPing, stopMoto } from './services/moto.ts';
import { ensureStripeMock, localStripeMockUrl, stopStripeMock, stripeMockPid, stripeMockPing } from './services/stripe-mock.ts';
import { livePid, spawnDetached, stopByPidFile, waitUntil, type Config } from './services/util.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServicesOptions {
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  timeoutMs?: number;
}

export interface Services {
  mongoUri: string;
  redisUrl: string;
  motoUrl: string;
  stripeMockUrl: string;
  /** The embedded FerretDB's PostgreSQL database (FERRETDB_POSTGRES_URL); with an external MONGODB_URI, FERRETDB_POSTGRES_URL if set. */
  postgresUrl?: string;
  /** Parts this call started (not ones already running or external). */
  started: string[];
  /** Stops only the parts in `started`. */
  stop(): Promise<void>;
}

function config(opts: ServicesOptions = {}): Config {
  const env = opts.env ?? process.env;
  const data = path.resolve(opts.dataDir ?? env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
  const port = (name: string, dflt: number) => {
    const n = Number(env[name] ?? dflt);
    if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${name} is not a port: ${env[name]}`);
    return n;
  };
  return {
    repo: REPO,
    data,
    logs: path.join(data, 'logs'),
    pgPort: port('DRIFT_PG_PORT', 54329),
    mongoPort: port('DRIFT_MONGO_PORT', 27027),
    redisPort: port('DRIFT_REDIS_PORT', 6389),
    motoPort: port('DRIFT_MOTO_PORT', 5055),
    stripePort: port('DRIFT_STRIPE_PORT', 12111),
    timeoutMs: opts.timeoutMs ?? 60_000,
    pgDurable: env.DRIFT_PG_DURABILITY !== 'off',
    log: opts.log ?? ((l) => console.log(l)),
  };
}

const pidFile = (cfg: Config, part: string) => path.join(cfg.data, `${part}.pid`);
const logFile = (cfg: Config, part: string) => path.join(cfg.logs, `${part}.log`);
const localMongoUri = (cfg: Config) => `mongodb://127.0.0.1:${cfg.mongoPort}/`;
const localRedisUrl = (cfg: Config) => `redis://127.0.0.1:${cfg.redisPort}`;

/** Starts whatever is not already answering, waits for it, and writes <data>/services.json. */
export async function ensureServices(opts: ServicesOptions = {}): Promise<Services> {
  const env = opts.env ?? process.env;
  const cfg = config(opts);
  mkdirSync(cfg.logs, { recursive: true });
  const started: string[] = [];
  const say = (part: string, state: string) => cfg.log(`${`${part} `.padEnd(12)}${state}`);

  const mongoUri = env.MONGODB_URI || localMongoUri(cfg);
  const postgresUrl = env.MONGODB_URI ? env.FERRETDB_POSTGRES_URL || undefined : ferretPostgresUrl(cfg);
  // Four independent chains start side by side (on a fresh machine the Python and Go installs
  // take most of a minute each): the database, Redis, the cloud emulator with the SCIM CLI
  // in its venv, and stripe-mock.
  const redisUrl = env.REDIS_URL || localRedisUrl(cfg);
  const database = async () => {
    if (env.MONGODB_URI) {
      say('postgres', 'external (MONGODB_URI set)');
      say('ferretdb', `external: ${env.MONGODB_URI}`);
    } else {
      const pg = await pgPaths(cfg, true);
      if (!pg) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
      if (await pgReady(pg, cfg)) say('postgres', `already running on 127.0.0.1:${cfg.pgPort}`);
      else {
        await startPg(pg, cfg);
        started.push('postgres');
        say('postgres', `started on 127.0.0.1:${cfg.pgPort} (data ${pg.cluster})`);
      }
      await ensureFerretDatabase(pg, cfg);

      // Ours (its pid file is in this data folder) started with other arguments is restarted. One
      // that holds the port without answering (hung) is stopped and started again, whoever
      // started it. Another checkout's that answers is used as it is.
      const argsFile = path.join(cfg.data, 'ferretdb.args');
      const wanted = JSON.stringify(ferretArgs(cfg));
      const current = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim() : '';
      const ours = livePid(pidFile(cfg, 'ferretdb'), 'ferretdb') !== undefined;
      const answering = await mongoPing(mongoUri, cfg.mongoPort);
      if (answering && !(ours && current !== wanted)) say('ferretdb', `already running: ${mongoUri}`);
      else {
        if (ours) {
          say('ferretdb', answering ? 'restarting with new arguments' : 'not answering; restarting');
          await stopByPidFile(pidFile(cfg, 'ferretdb'), 'ferretdb', 5_000);
        } else if (await killFerretOnPort(cfg.mongoPort)) {
          say('ferretdb', 'another checkout\'s held the port without answering; stopped it');
        }
        const bin = await ferretBinary(cfg);
        const log = logFile(cfg, 'ferretdb');
        const child = spawnDetached(bin, ferretArgs(cfg), log, pidFile(cfg, 'ferretdb'), cfg.data);
        await waitUntil('ferretdb', () => mongoPing(mongoUri, cfg.mongoPort), cfg, log, child);
        writeFileSync(argsFile, `${wanted}\n`);
        started.push('ferretdb');
        say('ferretdb', `started: ${mongoUri} (log ${log})`);
      }
    }
  };
  const cache = async () => {
    if (env.REDIS_URL) say('redis', `external: ${env.REDIS_URL}`);
    else if (await redisPing('127.0.0.1', cfg.redisPort)) say('redis', `already running: ${redisUrl}`);
    else {
      const log = logFile(cfg, 'redis');
      const child = spawnDetached(await redisBinary(cfg), redisArgs(cfg), log, pidFile(cfg, 'redis'), cfg.data);
      await waitUntil('redis', () => redisPing('127.0.0.1', cfg.redisPort), cfg, log, child);
      started.push('redis');
      say('redis', `started: ${redisUrl} (log ${log})`);
    }
  };
  const cloud = async () => {
    const moto = await ensureMoto(cfg, env);
    if (moto.started) started.push('moto');
    say('moto', moto.external ? `external: ${moto.url}` : `${moto.started ? 'started' : 'already running'}: ${moto.url}`);
    if (!moto.external) await ensureScimCli(cfg);
    return moto.url;
  };
  const payments = async () => {
    const stripe = await ensureStripeMock(cfg, env);
    if (stripe.started) started.push('stripe-mock');
    say('stripe-mock', stripe.external ? `external: ${stripe.url}` : `${stripe.started ? 'started' : 'already running'}: ${stripe.url}`);
    return stripe.url;
  };
  // Every chain ends before a failure is reported, so none is left half-started behind it.
  const chains = await Promise.allSettled([database(), cache(), cloud(), payments()]);
  const failed = chains.find((c) => c.status === 'rejected');
  if (failed) throw failed.reason;
  const [motoUrl, stripeMockUrl] = chains.slice(2).map((c) => (c as PromiseFulfilledResult<string>).value);

  writeFileSync(path.join(cfg.data, 'services.json'), `${JSON.stringify({ mongoUri, redisUrl, motoUrl, stripeMockUrl, postgresUrl }, null, 2)}\n`);
  return { mongoUri, redisUrl, motoUrl, stripeMockUrl, postgresUrl, started, stop: () => stopParts(cfg, started) };
}

/** Stops the named parts, dependants first (FerretDB before the PostgreSQL it uses). */
async function stopParts(cfg: Config, parts: string[]): Promise<void> {
  for (const part of ['stripe-mock', 'moto', 'ferretdb', 'redis', 'postgres'].filter((p) => parts.includes(p))) {
    let stopped: boolean;
    if (part === 'moto') stopped = await stopMoto(cfg);
    else if (part === 'stripe-mock') stopped = await stopStripeMock(cfg);
    else if (part === 'postgres') {
      const pg = await pgPaths(cfg);
      stopped = pg ? await stopPg(pg) : false;
    } else {
      stopped = await stopByPidFile(pidFile(cfg, part), part === 'redis' ? 'redis-server' : 'ferretdb');
    }
    cfg.log(`${part.padEnd(12)}${stopped ? 'stopped' : 'not running'}`);
  }
}

async function status(cfg: Config): Promise<void> {
  const env = process.env;
  const show = (part: string, up: boolean, where: string, pid?: number) =>
    cfg.log(`${part.padEnd(12)}${(up ? 'running' : 'stopped').padEnd(9)}${where}${pid ? ` (pid ${pid})` : ''}`);
  if (env.MONGODB_URI) cfg.log(`postgres external\nferretdb external ${env.MONGODB_URI}`);
  else {
    const pg = await pgPaths(cfg);
    show('postgres', pg ? await pgReady(pg, cfg) : false, `127.0.0.1:${cfg.pgPort}${pg ? ` data ${pg.cluster}` : ' (not installed)'}`);
    show('ferretdb', await mongoPing(localMongoUri(cfg), cfg.mongoPort), localMongoUri(cfg), livePid(pidFile(cfg, 'ferretdb'), 'ferretdb'));
  }
  if (env.REDIS_URL) cfg.log(`redis    external ${env.REDIS_URL}`);
  else show('redis', await redisPing('127.0.0.1', cfg.redisPort), localRedisUrl(cfg), livePid(pidFile(cfg, 'redis'), 'redis-server'));
  if (env.DRIFT_MOTO_URL) cfg.log(`moto     external ${env.DRIFT_MOTO_URL}`);
  else show('moto', await motoPing(localMotoUrl(cfg)), localMotoUrl(cfg), motoPid(cfg));
  if (env.DRIFT_STRIPE_MOCK_URL) cfg.log(`stripe-mock external ${env.DRIFT_STRIPE_MOCK_URL}`);
  else show('stripe-mock', await stripeMockPing(localStripeMockUrl(cfg)), localStripeMockUrl(cfg), stripeMockPid(cfg));
}

async function cli(cmd: string | undefined): Promise<void> {
  const t0 = Date.now();
  if (cmd === 'up') {
    await ensureServices();
    console.log(`services up in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  } else if (cmd === 'down') {
    await stopParts(config(), ['stripe-mock', 'moto', 'ferretdb', 'redis', 'postgres']);
  } else if (cmd === 'status') {
    await status(config());
  } else {
    console.error('usage: node scripts/services.ts up|down|status');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  cli(process.argv[2]).catch((e: unknown) => {
    console.error(`services: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
