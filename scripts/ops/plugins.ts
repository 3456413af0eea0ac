// `ops plugins`: every plugin discovered from manifests/, as the operator file configures
// it. Reads files only, so it works without the database.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { checkOperatorPlugins } from '../../core/config.ts';
import { discoverPlugins } from '../../core/loader.ts';
import { offlineConfig } from '../app-for-scripts.ts';

export async function listPlugins(): Promise<number> {
  const config = offlineConfig();
  const plugins = await discoverPlugins(config.operator);
  checkOperatorPlugins(config.operator, plugins.map((p) => p.manifest.plugin));

  const rows = plugins.map(({ manifest: m, enabled, plan }) => {
    const source = config.operator.plugins[m.plugin]?.plan ? 'config' : m.plan ? 'manifest' : 'default';
    return [m.plugin, enabled ? 'yes' : 'no', `${plan ?? 'free'} (${source})`, String(m.routes.length), m.required ? 'required' : ''];
  });
  const table = [['PLUGIN', 'ENABLED', 'PLAN', 'ROUTES', ''], ...rows];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());

  const served = plugins.filter((p) => p.enabled).reduce((n, p) => n + p.manifest.routes.length, 0);
  const file = resolve(config.DRIFT_CONFIG);
  console.log(`${plugins.filter((p) => p.enabled).length} of ${plugins.length} plugins enabled, ${served} routes served; `
    + (existsSync(file) ? `operator config ${file}` : `no operator config (${file}): all plugins enabled at their manifest tiers`));
  return 0;
}
