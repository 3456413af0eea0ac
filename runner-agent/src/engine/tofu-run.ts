// Running one refresh-only plan with tofu or terraform, safely: on a private copy of the
// checkout, with the state the engine already read written beside it and the backend
// overridden to local (the real state and backend are never touched, nothing is locked),
// `-target` for each address asked (none: everything), never `apply`. Credentials reach the
// providers through their documented environment variables only; the scratch folder (copy,
// state, plan) is removed whatever happens; the run has a time limit and an output limit.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScanError } from './errors.ts';
import type { RootModule } from './hcl.ts';
import { hclString } from './hcl-string.ts';
import { confineConfiguration, copyConfined } from './tofu-confine.ts';
import type { AwsCredentials } from './types.ts';

export interface TofuRun {
  bin: string;
  repoRoot: string;
  /** Root module folder relative to repoRoot ('' = root). */
  modulePath: string;
  module: RootModule;
  /** The root module's state as the engine read it (any backend): the plan's prior state. */
  state: string;
  /** Addresses to refresh (`-target` each); absent: every instance. */
  targets?: string[];
  /** AWS keys, or the environment another provider reads its credentials from (ARM_*, GOOGLE_*). */
  credentials: AwsCredentials | { env: Record<string, string> };
  /** cloud_a endpoint override (moto): AWS_ENDPOINT_URL, with path-style S3. */
  endpoint?: string;
  signal?: AbortSignal;
  /** On the service host: the copy keeps links inside it, the configuration is checked first, the environment is the plan's own. */
  confine?: boolean;
  /** On the service host, let the configuration declare programs (data "external", provisioners). */
  allowPrograms?: boolean;
}

/** Limits of one plan: DRIFT_PLAN_TIMEOUT_SECONDS (default 1,200) and DRIFT_PLAN_MAX_OUTPUT_MB (default 256). */
export function planLimits(env: NodeJS.ProcessEnv = process.env): { timeoutMs: number; maxOutputBytes: number } {
  const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return { timeoutMs: num(env.DRIFT_PLAN_TIMEOUT_SECONDS, 1200) * 1000, maxOutputBytes: num(env.DRIFT_PLAN_MAX_OUTPUT_MB, 256) * 1024 * 1024 };
}

/** The first error diagnostics of `-json` output lines (or the plain text when there are none). */
function failureText(stdout: string, stderr: string): string {
  const errors: string[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const m = JSON.parse(line) as { type?: string; diagnostic?: { severity?: string; summary?: string; detail?: string; range?: { filename?: string; start?: { line?: number } } } };
      const d = m.diagnostic;
      if (m.type === 'diagnostic' && d?.severity === 'error') {
        const at = d.range?.filename ? `${d.range.filename}:${d.range.start?.line ?? 1}: ` : '';
        errors.push(`${at}${d.summary ?? ''}${d.detail ? ` (${d.detail})` : ''}`);
      }
    } catch { /* not a JSON line */ }
  }
  const text = errors.length ? errors.join('; ') : `${stderr}\n${stdout}`.split('\n').map((l) => l.replace(/[│╷╵]/g, '').trim()).filter(Boolean).slice(0, 6).join(' ');
  return text.slice(0, 600);
}

function exec(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  const { timeoutMs, maxOutputBytes } = planLimits();
  const step = `${path.basename(bin)} ${args[0]}`;
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, env, signal, timeout: timeoutMs, maxBuffer: maxOutputBytes, killSignal: 'SIGTERM' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new ScanError('plan_failed', `${step} wrote more than ${Math.round(maxOutputBytes / 1048576)} MB (DRIFT_PLAN_MAX_OUTPUT_MB) and was stopped`));
      if (e.killed && !signal?.aborted) return reject(new ScanError('plan_failed', `${step} ran past its ${Math.round(timeoutMs / 1000)} s limit (DRIFT_PLAN_TIMEOUT_SECONDS) and was stopped`));
      reject(new ScanError('plan_failed', `${step} failed: ${failureText(stdout, stderr)}`));
    });
  });
}

/** Variables a confined plan keeps from the service's own environment: where the binary, its CLI config and plugin cache are. */
const HOST_KEPT = ['PATH', 'TF_CLI_CONFIG_FILE', 'TF_PLUGIN_CACHE_DIR', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'LANG', 'TZ'];

/** The plan's environment: the credentials as each provider documents them, nothing of the service's own on a confined host. */
function planEnv(run: TofuRun, home: string): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = run.confine
    ? { ...Object.fromEntries(HOST_KEPT.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), HOME: home }
    : { ...process.env };
  const c = run.credentials;
  const creds: Record<string, string> = 'env' in c ? c.env : {
    AWS_ACCESS_KEY_ID: c.accessKeyId, AWS_SECRET_ACCESS_KEY: c.secretAccessKey, AWS_REGION: c.region, AWS_DEFAULT_REGION: c.region,
    ...(c.sessionToken ? { AWS_SESSION_TOKEN: c.sessionToken } : {}),
  };
  if (!('env' in c) && !c.sessionToken) delete base.AWS_SESSION_TOKEN;
  return { ...base, ...creds, ...(run.endpoint && !('env' in c) ? { AWS_ENDPOINT_URL: run.endpoint } : {}), TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1' };
}

const STATE_FILE = 'drift-scan.tfstate';
/** An override file replaces the configuration's backend (or cloud block): the plan reads the copied state and writes nothing back. */
const BACKEND_OVERRIDE = `terraform {\n  backend "local" {\n    path = ${hclString(STATE_FILE)}\n  }\n}\n`;

/** Provider settings an endpoint override (moto) needs beyond AWS_ENDPOINT_URL: path-style S3, no account lookups. */
function endpointOverride(mod: RootModule): [string, string] {
  const settings = ['  s3_use_path_style = true', '  skip_credentials_validation = true', '  skip_requesting_account_id = true', '  skip_metadata_api_check = true'].join('\n');
  const aliases = mod.hasAwsProvider ? [...new Set(['', ...mod.providers.map((p) => p.alias)])] : [''];
  const blocks = aliases.map((a) => `provider "aws" {\n${a ? `  alias = ${hclString(a)}\n` : ''}${settings}\n}\n`).join('\n');
  // An override file merges into existing provider blocks; without one, a plain file declares it.
  return [mod.hasAwsProvider ? 'zz_drift_scan_provider_override.tf' : 'zz_drift_scan_provider.tf', blocks];
}

/** Runs init, a refresh-only plan and show -json in a scratch copy; returns the plan JSON. */
export async function runRefreshOnlyPlan(run: TofuRun): Promise<unknown> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'drift-tofu-'));
  try {
    const repo = path.join(scratch, 'repo');
    const dir = path.join(repo, run.modulePath);
    if (run.confine) {
      await copyConfined(run.repoRoot, repo);
      await confineConfiguration(repo, dir, { allowPrograms: run.allowPrograms === true });
    } else {
      await cp(run.repoRoot, repo, { recursive: true, filter: (src) => !/(^|\/)(\.git|\.terraform)(\/|$)/.test(path.relative(run.repoRoot, src)) });
    }
    await writeFile(path.join(dir, STATE_FILE), run.state, { mode: 0o600 });
    await writeFile(path.join(dir, 'zz_drift_scan_backend_override.tf'), BACKEND_OVERRIDE);
    if (run.endpoint && !('env' in run.credentials)) {
      const [name, text] = endpointOverride(run.module);
      await writeFile(path.join(dir, name), text);
    }
    const env = planEnv(run, scratch);
    await exec(run.bin, ['init', '-input=false', '-no-color', '-backend=true', '-reconfigure'], dir, env, run.signal);
    const targets = (run.targets ?? []).map((a) => `-target=${a}`);
    await exec(run.bin, ['plan', '-refresh-only', '-json', '-input=false', '-lock=false', '-no-color', '-out=drift-scan.tfplan', ...targets], dir, env, run.signal);
    return JSON.parse(await exec(run.bin, ['show', '-json', 'drift-scan.tfplan'], dir, env, run.signal));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
