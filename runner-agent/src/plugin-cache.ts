// Provider plans (hybrid scans) run `init` in a fresh copy of the checkout for every scan. Without
// a plugin cache or a filesystem mirror that downloads every provider (hundreds of MB for AWS)
// each time: a runner whose CLI configuration says nothing about plugins caches them in its state
// folder. An operator's own TF_PLUGIN_CACHE_DIR or CLI configuration is left as it is.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** Sets TF_PLUGIN_CACHE_DIR to `<stateDir>/plugin-cache` when nothing configures plugins; returns the folder set, if any. */
export async function defaultPluginCache(stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (env.TF_PLUGIN_CACHE_DIR || env.TF_CLI_CONFIG_FILE || env.TF_CLI_CONFIG_FILE === '') return undefined;
  const home = env.HOME ?? homedir();
  if (existsSync(path.join(home, '.terraformrc')) || existsSync(path.join(home, '.tofurc'))) return undefined;
  const dir = path.join(stateDir, 'plugin-cache');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  env.TF_PLUGIN_CACHE_DIR = dir;
  return dir;
}
