// Which tofu/terraform binary a provider plan runs with, and what the runner reports of it in
// its heartbeat: DRIFT_TOFU_BINARY when set (a path), else `tofu` then `terraform` on PATH.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** A binary that can run provider plans: its path, name (tofu or terraform) and version. */
export interface PlanBinary { path: string; name: string; version: string }

const executable = (file: string) => { try { accessSync(file, constants.X_OK); return true; } catch { return false; } };

/** The binary's path, or undefined: DRIFT_TOFU_BINARY (must be executable), else tofu, else terraform on PATH. */
export function findTofu(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.DRIFT_TOFU_BINARY?.trim();
  if (chosen) return executable(chosen) ? chosen : undefined;
  for (const name of ['tofu', 'terraform']) {
    for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      const file = path.join(dir, name);
      if (executable(file)) return file;
    }
  }
  return undefined;
}

/** `version -json` of a binary (both tofu and terraform answer it): the version, or undefined when it does not run. */
function versionOf(bin: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(bin, ['version', '-json'], { timeout: 15_000, env: { ...process.env, CHECKPOINT_DISABLE: '1' } }, (err, stdout) => {
      if (err) return resolve(undefined);
      try {
        const doc = JSON.parse(stdout) as { terraform_version?: unknown; version?: unknown };
        const v = doc.terraform_version ?? doc.version;
        resolve(typeof v === 'string' ? v : undefined);
      } catch { resolve(undefined); }
    });
  });
}

const known = new Map<string, Promise<PlanBinary | null>>();

/** What this host can plan with, or null (no binary, or one that does not run). Asked once per binary path. */
export function planCapability(env: NodeJS.ProcessEnv = process.env): Promise<PlanBinary | null> {
  const bin = findTofu(env);
  if (!bin) return Promise.resolve(null);
  let found = known.get(bin);
  if (!found) {
    found = versionOf(bin).then((version) => (version ? { path: bin, name: /tofu/.test(path.basename(bin)) ? 'tofu' : 'terraform', version } : null));
    known.set(bin, found);
  }
  return found;
}
