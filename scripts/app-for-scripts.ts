// Shared bootstrapping of the operator scripts (ops CLI, OpenAPI export): connect the way
// `npm start` does (local services unless MONGODB_URI / REDIS_URL point elsewhere, dev
// secrets, the typed config), build the app without listening, run one task, then close
// the app and stop only the services this process started.
import type { App } from '../core/app.ts';
import { ConfigError, loadConfig, type Config, type EnvConfig, type OperatorConfig } from '../core/config.ts';
import { ensureDevSecrets } from './dev-secrets.ts';
import { ensureServices, type Services } from './services.ts';

export interface ScriptAppOptions {
  /** Environment to read (default process.env); completed in place with service URLs and dev secrets. */
  env?: NodeJS.ProcessEnv;
  /** Replaces the operator file's plugin settings (the OpenAPI export enables every plugin). */
  operator?: OperatorConfig;
  overrides?: Partial<EnvConfig>;
}

/** A failure the scripts report as one line on stderr with this exit code, never a stack trace. */
export class ScriptError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

// Service lines that report a change (started, built, installed) are worth showing; the
// "already running" and "external" ones are noise in a script's output.
const QUIET = /already running|external/;

/** Starts the local services unless both URLs are given; their URLs go into env. */
async function connectServices(env: NodeJS.ProcessEnv): Promise<Services | undefined> {
  if (env.MONGODB_URI && env.REDIS_URL) return undefined;
  const services = await ensureServices({ env, log: (line) => { if (!QUIET.test(line)) console.error(line); } });
  env.MONGODB_URI ||= services.mongoUri;
  env.REDIS_URL ||= services.redisUrl;
  if (services.postgresUrl && env.FERRETDB_POSTGRES_URL === undefined) env.FERRETDB_POSTGRES_URL = services.postgresUrl;
  return services;
}

/** Builds the app as `npm start` would (no listen, no job loop), runs fn, then cleans up. */
export async function withApp<T>(fn: (built: App) => Promise<T>, opts: ScriptAppOptions = {}): Promise<T> {
  const env = opts.env ?? process.env;
  const services = await connectServices(env);
  try {
    ensureDevSecrets(env);
    const config = loadConfig(env, opts.overrides);
    if (opts.operator) config.operator = opts.operator;
    // Loaded here, not at the top: commands that never build the app start faster.
    const [{ buildApp }, { ManifestError }] = await Promise.all([import('../core/app.ts'), import('../core/loader.ts')]);
    const built = await buildApp({ config, logger: false }).catch((err: unknown) => {
      if (err instanceof ConfigError || err instanceof ManifestError) throw err;
      // Anything else at boot is almost always a store that does not answer: say which.
      throw new ScriptError(`cannot start the app (MongoDB ${redact(config.MONGODB_URI)}, Redis ${redact(config.REDIS_URL)}): ${describe(err)}`);
    });
    try {
      return await fn(built);
    } finally {
      await built.app.close();
    }
  } finally {
    await services?.stop();
  }
}

// Commands that only read files (the plugin list, the mail outbox) need no database and no
// secrets: these stand in for unset values so the rest of the config is read and checked
// exactly as at boot. Nothing connects with them.
const NOT_CONNECTED: Partial<EnvConfig> = {
  MONGODB_URI: 'mongodb://not-connected.invalid',
  REDIS_URL: 'redis://not-connected.invalid',
  JWT_SECRET: 'not-used-by-offline-commands-0000000000',
  ENCRYPTION_KEY: '0'.repeat(64),
};

/** The typed config for commands that do not connect to any store. */
export function offlineConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const missing = Object.fromEntries(Object.entries(NOT_CONNECTED).filter(([key]) => !env[key]));
  return loadConfig(env, missing);
}

/** Runs a script's main: known failures print their message and exit with their code. */
export function runScript(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${name}: ${describe(err)}`);
      process.exit(err instanceof ScriptError ? err.exitCode : 1);
    },
  );
}

function describe(err: unknown): string {
  if (err instanceof ConfigError || err instanceof ScriptError) return err.message;
  if (err instanceof Error) {
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${err.cause.message})` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

/** A connection string without its password, for messages. */
const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
