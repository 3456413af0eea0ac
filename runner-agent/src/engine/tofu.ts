// The tofu/terraform path: `plan -refresh-only` then `show -json`, whose resource_drift[] lists
// what the refresh found changed outside IaC ({address, type, change: {actions, before, after}}).
// Entries become the same DetectedDrift records as the SDK path, through the same ignore and
// severity tables. The binary needs the provider plugins (a registry, or a filesystem mirror
// named in the CLI configuration, TF_CLI_CONFIG_FILE).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AWS_READERS, AZURE_READERS, GOOGLE_READERS, SEVERITY_RULES } from './catalogue.ts';
import { stateView } from './cloud/rest/compare.ts';
import { compareAttributes } from './diff.ts';
import type { RootModule } from './hcl.ts';
import { hclString } from './hcl-string.ts';
import { confineConfiguration, copyConfined } from './tofu-confine.ts';
import type { IgnoreRules } from './ignore.ts';
import { moduleOf, parseAddress } from './address.ts';
import { classify } from './rules.ts';
import { hashSensitive, redactDiff } from './sensitive.ts';
export { findTofu } from './plan-binary.ts';
import type { AwsCredentials, ChangeType, DetectedDrift, DiffEntry } from './types.ts';
import { isObject } from './values.ts';
import { accountOf, resourceIdOf } from './where.ts';

type Json = Record<string, unknown>;

/** Paths marked `true` in a plan's before_sensitive / after_sensitive mirror of the values. */
function sensitivePaths(mirror: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (mirror === true) out.push(at);
  else if (Array.isArray(mirror)) mirror.forEach((m, i) => sensitivePaths(m, [...at, String(i)], out));
  else if (isObject(mirror)) for (const [k, m] of Object.entries(mirror)) sensitivePaths(m, [...at, k], out);
  return out;
}

function countManaged(module: unknown): number {
  if (!isObject(module)) return 0;
  const own = (Array.isArray(module.resources) ? module.resources : []).filter((r) => isObject(r) && r.mode === 'managed').length;
  const children = Array.isArray(module.child_modules) ? module.child_modules : [];
  return own + children.reduce((n: number, c) => n + countManaged(c), 0);
}

const moduleOfAddress = (address: string) => { try { return parseAddress(address).module; } catch { return undefined; } };

/** Maps a plan JSON document's resource_drift entries to drift records. */
export function mapResourceDrift(plan: unknown, ignore: IgnoreRules): { drifts: DetectedDrift[]; resourcesScanned: number; ignored: number } {
  const doc = isObject(plan) ? plan : {};
  const entries = (Array.isArray(doc.resource_drift) ? doc.resource_drift : []).filter(isObject) as Json[];
  const prior = isObject(doc.prior_state) && isObject(doc.prior_state.values) ? doc.prior_state.values.root_module : undefined;
  const drifts: DetectedDrift[] = [];
  let ignored = 0;
  for (const e of entries) {
    if (e.mode !== undefined && e.mode !== 'managed') continue;
    const change = isObject(e.change) ? e.change : {};
    const actions = Array.isArray(change.actions) ? change.actions : [];
    const type = String(e.type ?? '');
    const address = String(e.address ?? '');
    const before = isObject(change.before) ? change.before : {};
    const sensitive = [...sensitivePaths(change.before_sensitive), ...sensitivePaths(change.after_sensitive)];
    let changeType: ChangeType;
    let diff: DiffEntry[];
    if (actions.includes('delete') || change.after === null) {
      changeType = 'deleted';
      diff = redactDiff([{ attribute: 'id', before: before.id ?? null, after: null }], sensitive);
    } else if (actions.includes('update')) {
      changeType = 'changed';
      // Google's labels compare as the API has them (effective_labels), as on the API path.
      const after = stateView(isObject(change.after) ? change.after : {});
      const spec = (AWS_READERS[type] ?? AZURE_READERS[type] ?? GOOGLE_READERS[type])?.spec ?? {};
      const r = compareAttributes(type, address, hashSensitive(stateView(before), sensitive, spec), hashSensitive(after, sensitive, spec), spec, ignore);
      ignored += r.ignored;
      diff = redactDiff(r.diff, sensitive);
      if (diff.length === 0) continue; // only noise changed
    } else continue;
    const { severity, ruleId } = classify({ resourceType: type, changeType, diff }, before, SEVERITY_RULES);
    // A plan names no region per resource: location stays null on this path (index.ts adds declaredIn).
    drifts.push({
      resourceType: type, resourceAddress: address, comparedBy: 'provider', changeType, severity, diff, ruleId,
      resourceId: resourceIdOf(before), location: null, account: accountOf(before), module: moduleOf(moduleOfAddress(address)), declaredIn: null,
    });
  }
  // prior_state is the refreshed state: resources found deleted are no longer in it.
  const deleted = drifts.filter((d) => d.changeType === 'deleted').length;
  return { drifts, resourcesScanned: prior ? countManaged(prior) + deleted : entries.length, ignored };
}

export interface TofuRun {
  bin: string;
  repoRoot: string;
  /** Root module folder relative to repoRoot ('' = root). */
  modulePath: string;
  module: RootModule;
  /** AWS keys, or the environment another provider reads its credentials from (ARM_*, GOOGLE_*). */
  credentials: AwsCredentials | { env: Record<string, string> };
  /** cloud_a endpoint override (moto). */
  endpoint?: string;
  signal?: AbortSignal;
  /** On the service host: the copy keeps links inside it and the configuration is checked first (tofu-confine.ts). */
  confine?: boolean;
}

function exec(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, env, signal, maxBuffer: 512 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const lines = `${stderr}\n${stdout}`.split('\n').map((l) => l.replace(/[│╷╵]/g, '').trim()).filter(Boolean);
      reject(new Error(`${path.basename(bin)} ${args[0]} failed: ${lines.slice(0, 6).join(' ').slice(0, 600)}`));
    });
  });
}


/** Provider and backend settings that point the run at an endpoint override (moto). */
function endpointFiles(mod: RootModule, endpoint: string): { provider: [string, string]; backend?: string } {
  const settings = [
    `  endpoints {\n${['ec2', 's3', 'iam', 'sts'].map((s) => `    ${s} = ${hclString(endpoint)}`).join('\n')}\n  }`,
    '  s3_use_path_style = true', '  skip_credentials_validation = true', '  skip_requesting_account_id = true',
    '  skip_metadata_api_check = true',
  ].join('\n');
  const aliases = mod.hasAwsProvider ? [...new Set(['', ...mod.providers.map((p) => p.alias)])] : [''];
  const blocks = aliases.map((a) => `provider "aws" {\n${a ? `  alias = ${hclString(a)}\n` : ''}${settings}\n}\n`).join('\n');
  // An override file merges into existing provider blocks; without one, a plain file declares it.
  const provider: [string, string] = [mod.hasAwsProvider ? 'zz_drift_scan_override.tf' : 'zz_drift_scan_provider.tf', blocks];
  const backend = mod.backend?.type === 's3'
    ? [`endpoints = { s3 = ${hclString(endpoint)} }`, 'use_path_style = true', 'skip_credentials_validation = true',
      'skip_requesting_account_id = true', 'skip_metadata_api_check = true', 'skip_region_validation = true'].join('\n')
    : undefined;
  return { provider, backend };
}

/** Runs init, a refresh-only plan and show -json in a scratch copy; returns the plan JSON. */
export async function runRefreshOnlyPlan(run: TofuRun): Promise<unknown> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'drift-tofu-'));
  try {
    const dir = path.join(scratch, run.modulePath);
    if (run.confine) {
      await copyConfined(run.repoRoot, scratch);
      await confineConfiguration(scratch, dir);
    } else {
      await cp(run.repoRoot, scratch, { recursive: true, filter: (src) => !/(^|\/)(\.git|\.terraform)(\/|$)/.test(path.relative(run.repoRoot, src)) });
    }
    const c = run.credentials;
    const env: NodeJS.ProcessEnv = 'env' in c ? { ...process.env, ...c.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1' } : {
      ...process.env,
      AWS_ACCESS_KEY_ID: c.accessKeyId, AWS_SECRET_ACCESS_KEY: c.secretAccessKey,
      AWS_SESSION_TOKEN: c.sessionToken ?? '', AWS_REGION: c.region, AWS_DEFAULT_REGION: c.region,
      TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1',
    };
    if (!('env' in c) && !c.sessionToken) delete env.AWS_SESSION_TOKEN;
    const initArgs = ['init', '-input=false', '-no-color'];
    if (run.endpoint && !('env' in c)) {
      const files = endpointFiles(run.module, run.endpoint);
      await writeFile(path.join(dir, files.provider[0]), files.provider[1]);
      if (files.backend) {
        await writeFile(path.join(dir, 'drift-scan.s3.tfbackend'), `${files.backend}\n`);
        initArgs.push('-backend-config=drift-scan.s3.tfbackend');
      }
    }
    await exec(run.bin, initArgs, dir, env, run.signal);
    await exec(run.bin, ['plan', '-refresh-only', '-input=false', '-lock=false', '-no-color', '-out=drift-scan.tfplan'], dir, env, run.signal);
    return JSON.parse(await exec(run.bin, ['show', '-json', 'drift-scan.tfplan'], dir, env, run.signal));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
