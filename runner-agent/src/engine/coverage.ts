// How much of a state the engine compares: per resource type, the managed aws_* instances it
// reads live and, for the rest, why not (no reader for the type, no region found, no attributes
// in the state). Offline: it reads the state (and, when given, the configuration beside it for
// provider regions), never the cloud. `drift-runner coverage` prints it (cli.ts).
import { AZURE_READERS, GOOGLE_READERS } from './catalogue.ts';
import { azureScope } from './cloud/azure/scope.ts';
import { GoogleScopes } from './cloud/google/scope.ts';
import type { RootModule } from './hcl.ts';
import { noConfiguration, RegionResolver } from './region.ts';
import type { StateDocument } from './state-v4.ts';

export interface TypeCoverage { total: number; compared: number; reason?: string }

export interface CoverageReport {
  /** Managed aws_* instances (deposed objects excluded). */
  total: number;
  compared: number;
  /** compared / total, in percent with one decimal (100 for a state with no aws_* instance). */
  percent: number;
  byType: Record<string, TypeCoverage>;
  /** Managed instances of other providers (random_*, tls_*, null_resource...), outside the percentage. */
  other: number;
  /**
   * Per cloud provider: aws (the figures above), azurerm and google (google-beta included: it
   * writes google_* types). An azurerm instance is compared when a reader exists and its state
   * holds its ARM id; a google one when a reader exists and its project is known (attributes,
   * provider block, or the credentials' project given as `credentialsProject`).
   */
  providers: Record<'aws' | 'azurerm' | 'google', ProviderCoverage>;
  /**
   * Every managed instance by the provider that writes it (its configuration's type: aws,
   * cloudflare, random...): how many the native readers compare and how many a hybrid scan
   * (comparison `auto`) would compare through the provider's refresh-only plan, by type. Instances
   * with no attributes in the state are in `total` only.
   */
  byProvider: Record<string, HybridCoverage>;
}

export interface HybridCoverage { total: number; native: number; plan: number; planTypes: Record<string, number> }

export interface ProviderCoverage { total: number; compared: number; percent: number }
const percentOf = (compared: number, total: number) => (total ? Math.round((compared / total) * 1000) / 10 : 100);

export const REASONS = {
  unsupported: 'type not supported',
  region: 'region unknown',
  empty: 'no attributes in the state',
} as const;

export interface CoverageOptions {
  /** Whether the engine has a live reader for a type (cloud/aws/index.ts AWS_READERS). */
  supported: (type: string) => boolean;
  /** The configuration beside the state, for provider regions; none = the state alone. */
  module?: RootModule;
  repoRoot?: string;
  /** The region the scan's credentials would carry (the last resort of region.ts). */
  credentialsRegion?: string;
  /** The Google project the scan's credentials would carry (the last resort of google/scope.ts). */
  credentialsProject?: string;
}

export async function stateCoverage(doc: StateDocument, opts: CoverageOptions): Promise<CoverageReport> {
  const module = opts.module ?? noConfiguration(process.cwd());
  const regions = new RegionResolver(module, opts.repoRoot ?? module.dir, opts.credentialsRegion ?? '');
  await regions.prepare(doc.instances);
  const byType: Record<string, TypeCoverage & { why: Set<string> }> = {};
  let other = 0;
  const count = (type: string, why?: string) => {
    const t = (byType[type] ??= { total: 0, compared: 0, why: new Set() });
    t.total++;
    if (why) t.why.add(why);
    else t.compared++;
  };
  const clouds = { azurerm: { total: 0, compared: 0 }, google: { total: 0, compared: 0 } };
  const google = new GoogleScopes(module, opts.repoRoot ?? module.dir, opts.credentialsProject ?? '');
  await google.prepare(doc.instances);
  const byProvider: Record<string, HybridCoverage> = {};
  const hybrid = (provider: string, type: string, native: boolean) => {
    const p = (byProvider[provider] ??= { total: 0, native: 0, plan: 0, planTypes: {} });
    p.total++;
    if (native) p.native++;
    else { p.plan++; p.planTypes[type] = (p.planTypes[type] ?? 0) + 1; }
  };
  for (const i of doc.instances) {
    const provider = providerOf(i.type, i.provider?.type);
    if (i.type.startsWith('azurerm_') || i.type.startsWith('google_')) {
      const c = i.type.startsWith('azurerm_') ? clouds.azurerm : clouds.google;
      c.total++;
      const read = i.type.startsWith('azurerm_') ? !!AZURE_READERS[i.type] && !!azureScope(i) : !!GOOGLE_READERS[i.type] && !!(await google.scopeOf(i));
      if (read) c.compared++;
      hybrid(provider, i.type, read);
    }
    if (!i.type.startsWith('aws_')) { other++; if (!/^(azurerm|google)_/.test(i.type)) hybrid(provider, i.type, false); continue; }
    const native = opts.supported(i.type) && !!regions.regionOf(i).region;
    hybrid(provider, i.type, native);
    if (!opts.supported(i.type)) count(i.type, REASONS.unsupported);
    else count(i.type, native ? undefined : REASONS.region);
  }
  for (const { type } of doc.empty) {
    (byProvider[providerOf(type)] ??= { total: 0, native: 0, plan: 0, planTypes: {} }).total++;
    if (type.startsWith('aws_')) count(type, REASONS.empty);
    else other++;
    if (type.startsWith('azurerm_')) clouds.azurerm.total++;
    if (type.startsWith('google_')) clouds.google.total++;
  }
  const total = Object.values(byType).reduce((n, t) => n + t.total, 0);
  const compared = Object.values(byType).reduce((n, t) => n + t.compared, 0);
  const sorted = Object.keys(byType).sort((a, b) => byType[b].total - byType[a].total || a.localeCompare(b));
  return {
    total, compared,
    percent: percentOf(compared, total),
    byType: Object.fromEntries(sorted.map((type) => {
      const { total: n, compared: c, why } = byType[type];
      return [type, { total: n, compared: c, ...(why.size ? { reason: [...why].join('; ') } : {}) }];
    })),
    other,
    byProvider,
    providers: {
      aws: { total, compared, percent: percentOf(compared, total) },
      azurerm: { ...clouds.azurerm, percent: percentOf(clouds.azurerm.compared, clouds.azurerm.total) },
      google: { ...clouds.google, percent: percentOf(clouds.google.compared, clouds.google.total) },
    },
  };
}

/** The provider of an instance: its configuration's type when the state names it, else its type's prefix (`cloudflare_record` → cloudflare). */
const providerOf = (type: string, configured?: string) => configured || type.split('_')[0];

/** The report as a table for a terminal. */
export function formatCoverage(r: CoverageReport): string {
  const rows = Object.entries(r.byType).map(([type, t]) => [type, String(t.total), String(t.compared), t.reason ?? '']);
  const width = rows.reduce((w, row) => row.map((c, i) => Math.max(w[i], c.length)), ['resource type', 'total', 'compared', ''].map((h) => h.length));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 || i === 2 ? c.padStart(width[i]) : c.padEnd(width[i]))).join('  ').trimEnd();
  return [
    line(['resource type', 'total', 'compared', 'not compared because']),
    ...rows.map(line),
    '',
    `${r.compared} of ${r.total} aws_* instances compared (${r.percent}%); ${r.other} instances of other providers not counted`,
    ...(['azurerm', 'google'] as const).filter((p) => r.providers[p].total)
      .map((p) => `${r.providers[p].compared} of ${r.providers[p].total} ${p}_* instances compared (${r.providers[p].percent}%)`),
    ...Object.entries(r.byProvider).filter(([, h]) => h.plan).map(([p, h]) => `${h.plan} ${p} instances a hybrid scan compares through the provider's plan`),
  ].join('\n');
}
