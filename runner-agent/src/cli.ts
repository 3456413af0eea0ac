// drift-runner command line:
//   drift-runner start --url <api> --token <rn_...> [--state-dir DIR] [--poll-interval s]
//                      [--heartbeat-interval s] [--grace-period s] [--cloud-a-endpoint URL]
//   drift-runner coverage <state file | s3://bucket/key> [--json] ...  (coverage-cli.ts)
//   drift-runner replay <state file> [--json] [--config DIR]             (replay-cli.ts)
//   drift-runner evaluate --plan plan.json --repository ID --url ... --token ci_... (evaluate-cli.ts)
//   drift-runner check  (same options as start: one heartbeat, exit 0 when accepted; the setup script's upgrade check)
//   drift-runner --version | --help
// Every flag has an environment variable (flags win): DRIFT_API_URL, DRIFT_RUNNER_TOKEN,
// DRIFT_RUNNER_STATE_DIR, DRIFT_POLL_INTERVAL, DRIFT_HEARTBEAT_INTERVAL, DRIFT_GRACE_PERIOD,
// DRIFT_CLOUD_A_ENDPOINT. The token stays out of flags in service units (ps shows flags).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { versionLine } from './api.ts';

const USAGE = `Usage: drift-runner start --url <api url> --token <rn_ token> [options]
Options (or environment variables):
  --url URL                    DRIFT_API_URL             the drift API, e.g. https://drift.example.com
  --token TOKEN                DRIFT_RUNNER_TOKEN        the runner token (rn_...)
  --state-dir DIR              DRIFT_RUNNER_STATE_DIR    outbox and job marker (default ~/.drift-runner)
  --poll-interval SECONDS      DRIFT_POLL_INTERVAL       wait between empty job polls (default 5)
  --heartbeat-interval SECONDS DRIFT_HEARTBEAT_INTERVAL  (default 30; keep it below the service's RUNNER_OFFLINE_AFTER)
  --grace-period SECONDS       DRIFT_GRACE_PERIOD        on SIGTERM, time the running scan gets to finish (default 30)
  --cloud-a-endpoint URL       DRIFT_CLOUD_A_ENDPOINT    cloud_a API endpoint override (replaces the job's)
                               DRIFT_CLOUD_CA_FILE       extra CA certificates (PEM) for cloud_b/cloud_c API calls
  drift-runner coverage <state file | s3://bucket/key> [--json]   what share of a state the engine compares (--help for options)
  drift-runner replay <state file> [--json] [--config DIR]   the engine against a fake cloud built from the state: every drift is a false positive
  drift-runner evaluate --plan <plan.json> --repository <id> --url <api> --token <ci_ token>   guardrails on a plan (exit 0 allowed, 1 blocked, 2 pending approval)
  drift-runner check           start, report in once (one heartbeat with the options above) and exit: 0 when the service accepted it
  drift-runner --version       print the version and the runtime`;

class UsageError extends Error {}

function seconds(name: string, value: string | undefined, dflt: number, min: number): number {
  if (value === undefined || value === '') return dflt * 1000;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${name} must be a number of seconds >= ${min}, got "${value}"`);
  return n * 1000;
}

export function parse(argv: string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      url: { type: 'string' }, token: { type: 'string' }, 'state-dir': { type: 'string' },
      'poll-interval': { type: 'string' }, 'heartbeat-interval': { type: 'string' }, 'grace-period': { type: 'string' },
      'cloud-a-endpoint': { type: 'string' }, version: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.version) return { command: 'version' as const };
  if (values.help || (positionals[0] !== 'start' && positionals[0] !== 'check')) return { command: 'help' as const, bad: !values.help };
  const url = values.url ?? env.DRIFT_API_URL;
  const token = values.token ?? env.DRIFT_RUNNER_TOKEN;
  if (!url || !/^https?:\/\//.test(url)) throw new UsageError('--url (or DRIFT_API_URL) must be the http(s) URL of the drift API');
  if (!token?.startsWith('rn_')) throw new UsageError('--token (or DRIFT_RUNNER_TOKEN) must be a runner token (rn_...)');
  const endpoint = values['cloud-a-endpoint'] ?? env.DRIFT_CLOUD_A_ENDPOINT;
  return {
    command: positionals[0] as 'start' | 'check',
    options: {
      url, token,
      stateDir: path.resolve(values['state-dir'] ?? env.DRIFT_RUNNER_STATE_DIR ?? path.join(os.homedir(), '.drift-runner')),
      pollIntervalMs: seconds('--poll-interval', values['poll-interval'] ?? env.DRIFT_POLL_INTERVAL, 5, 0.1),
      heartbeatIntervalMs: seconds('--heartbeat-interval', values['heartbeat-interval'] ?? env.DRIFT_HEARTBEAT_INTERVAL, 30, 1),
      graceMs: seconds('--grace-period', values['grace-period'] ?? env.DRIFT_GRACE_PERIOD, 30, 0),
      ...(endpoint ? { cloudAEndpoint: endpoint } : {}),
      ...(env.DRIFT_CLOUD_CA_FILE ? { cloudCa: readCaFile(env.DRIFT_CLOUD_CA_FILE) } : {}),
    },
  };
}

function readCaFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`DRIFT_CLOUD_CA_FILE ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

export const log = (level: 'info' | 'warn' | 'error', msg: string) => process.stderr.write(`${new Date().toISOString()} ${level} ${msg}\n`);

export async function main(argv = process.argv.slice(2), env = process.env): Promise<number> {
  // Tools a user runs on their own state: their own flags, loaded only when asked for.
  if (argv[0] === 'coverage') return (await import('./coverage-cli.ts')).coverageMain(argv.slice(1), env, process.stdout, process.stderr);
  if (argv[0] === 'evaluate') return (await import('./evaluate-cli.ts')).evaluateMain(argv.slice(1), env, process.stdout, process.stderr);
  if (argv[0] === 'replay') return (await import('./replay-cli.ts')).replayMain(argv.slice(1), process.stdout, process.stderr);
  let parsed;
  try {
    parsed = parse(argv, env);
  } catch (err) {
    process.stderr.write(`drift-runner: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.command === 'version') { process.stdout.write(`${versionLine()}\n`); return 0; }
  if (parsed.command === 'help') { (parsed.bad ? process.stderr : process.stdout).write(`${USAGE}\n`); return parsed.bad ? 2 : 0; }

  // Loaded only now: --version and --help need not load the engine and the cloud SDKs.
  const { Agent } = await import('./agent.ts');
  const agent = new Agent({ ...parsed.options, log });
  if (parsed.command === 'check') {
    try {
      await agent.reportIn();
      log('info', `reported in to ${parsed.options.url}`);
      return 0;
    } catch (err) {
      log('error', `could not report in to ${parsed.options.url}: ${(err as Error).message}`);
      return 1;
    }
  }
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => { log('info', `${sig}: shutting down`); agent.stop(); });
  }
  await agent.start();
  log('info', 'stopped');
  return 0;
}
