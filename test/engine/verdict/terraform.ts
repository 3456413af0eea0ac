// Terraform as the verdict tests drive it: tofu or terraform from PATH with the hashicorp/aws
// provider from a filesystem mirror (no registry), in an apply directory of its own whose
// override file points the provider at moto; and the reading of a refresh-only plan's drift.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTofu } from '../../../runner-agent/src/engine/tofu.ts';
import { CREDENTIALS } from '../world.ts';
import { motoOverride } from './estate.ts';

const mirror = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
const bin = findTofu();
const hasMirror = existsSync(join(mirror, 'registry.terraform.io', 'hashicorp', 'aws'));
/** Why the verdict tests cannot run here, or false: they run where tofu.test.ts runs. */
export const skip = !bin ? 'neither tofu nor terraform on PATH' : !hasMirror ? `no provider mirror at ${mirror}` : false;

export type Json = Record<string, unknown>;
export type Tf = (...args: string[]) => Promise<string>;

/** An apply directory under `scratch` holding main.tf and the moto override (the caller adds terraform.tfvars), and a runner of terraform commands in it. */
export function applyDirectory(scratch: string, endpoint: string, mainTf: string): { work: string; tf: Tf } {
  const rc = join(scratch, 'cli.tfrc');
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  const work = join(scratch, 'apply');
  mkdirSync(work);
  writeFileSync(join(work, 'main.tf'), mainTf);
  writeFileSync(join(work, 'moto_override.tf'), motoOverride(endpoint));
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, CHECKPOINT_DISABLE: '1' };
  const tf: Tf = (...args) => new Promise<string>((resolve, reject) =>
    execFile(bin!, args, { cwd: work, env, maxBuffer: 256 * 1024 * 1024 }, (e, stdout, stderr) => (e ? reject(new Error(`${args[0]}: ${stderr || stdout}`)) : resolve(stdout))));
  return { work, tf };
}

/** resource_drift addresses whose entry changes some attribute (or deletes the resource). */
export function terraformFindings(plan: Json): string[] {
  const out: string[] = [];
  for (const e of (plan.resource_drift ?? []) as Json[]) {
    const change = e.change as { actions: string[]; before: Json | null; after: Json | null };
    const changed = change.after === null ? ['(deleted)'] : Object.keys({ ...change.before, ...change.after })
      .filter((k) => JSON.stringify(change.before?.[k]) !== JSON.stringify(change.after?.[k]));
    if (changed.length) out.push(String(e.address));
  }
  return out.sort();
}
