// A runner caches provider plugins for its plans in its state folder, unless the operator
// configured plugins themselves (TF_PLUGIN_CACHE_DIR, TF_CLI_CONFIG_FILE, ~/.terraformrc).
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultPluginCache } from '../../runner-agent/src/plugin-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'plugin-cache-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('nothing configured: the state folder holds the cache', async (t) => {
  const env: NodeJS.ProcessEnv = { HOME: join(dir, 'home-empty') };
  const set = await defaultPluginCache(join(dir, 'state'), env);
  t.equal(set, join(dir, 'state', 'plugin-cache'));
  t.equal(env.TF_PLUGIN_CACHE_DIR, set, 'the plans inherit it');
  t.ok(existsSync(set!) && statSync(set!).isDirectory(), 'created');
});

t.test("the operator's own configuration is left as it is", async (t) => {
  const home = mkdtempSync(join(dir, 'home-'));
  writeFileSync(join(home, '.terraformrc'), 'plugin_cache_dir = "/var/cache/tf"\n');
  for (const env of [{ HOME: dir, TF_PLUGIN_CACHE_DIR: '/var/cache/tf' }, { HOME: dir, TF_CLI_CONFIG_FILE: '/etc/tf.rc' }, { HOME: home }] as NodeJS.ProcessEnv[]) {
    const before = { ...env };
    t.equal(await defaultPluginCache(join(dir, 'state2'), env), undefined);
    t.same(env, before, 'environment unchanged');
  }
});
