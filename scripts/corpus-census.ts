// Census of state corpora for the Azure and Google Cloud readers (issue 25): per provider, the
// managed instances by resource type with their share, how many carry location / project /
// region / zone and sensitive_attributes, and the provider address forms the states use.
// Every state is read with the engine's own parser, so a state it cannot read stops the census.
//
//   scripts/runtime/node.sh exec node scripts/corpus-census.ts test/engine/corpus-azurerm test/engine/corpus-google [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readStateDocument, type StateInstance } from '../runner-agent/src/engine/tools.ts';

/** The census groups google-beta with google, as the coverage figures do. */
export type CloudProvider = 'azurerm' | 'google';
const PROVIDERS: readonly CloudProvider[] = ['azurerm', 'google'];

export function cloudOf(providerType: string | undefined): CloudProvider | undefined {
  if (providerType === 'azurerm') return 'azurerm';
  if (providerType === 'google' || providerType === 'google-beta') return 'google';
  return undefined;
}

export interface ProviderCensus {
  states: number;
  instances: number;
  types: { type: string; count: number; share: number }[];
  /** Instances with a non-empty attribute of that name. */
  attributes: Record<string, number>;
  withSensitive: number;
  /** Provider address forms, generalised (`provider["registry.terraform.io/hashicorp/azurerm"]`, `provider.google`, `module.*.provider[...]`, with `.<alias>`), with instance counts. */
  forms: Record<string, number>;
  flat: number;
  inModules: number;
}

export interface StateSummary { file: string; instances: Record<CloudProvider, number>; other: number; empty: number; deposed: number }

const ATTRIBUTES: Record<CloudProvider, string[]> = { azurerm: ['location'], google: ['project', 'region', 'zone'] };

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** The provider address as the state wrote it, generalised: module names and for_each keys become `*`. */
function formOf(raw: unknown): string {
  if (typeof raw !== 'string' || !raw) return '(none)';
  return raw
    .replace(/module\.[^.[\]]+(\[[^\]]*\])?/g, 'module.*')
    .replace(/\]\.[A-Za-z0-9_-]+(\[[^\]]*\])?$/, '].<alias>')
    .replace(/^(provider\.[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/, '$1.<alias>')
    .replace(/(module\.\*\.)+/, 'module.*.');
}

/** Raw provider strings per managed instance, in the order readStateDocument returns instances. */
function rawProviders(text: string): string[] {
  const doc = JSON.parse(text) as { resources?: { mode?: string; provider?: string; instances?: { provider?: string; deposed?: string; attributes?: unknown; attributes_flat?: unknown }[] }[] };
  const out: string[] = [];
  for (const r of doc.resources ?? []) {
    if (r.mode !== 'managed') continue;
    for (const i of r.instances ?? []) {
      if (i.deposed || (i.attributes == null && i.attributes_flat == null)) continue;
      out.push(i.provider || r.provider || '');
    }
  }
  return out;
}

export function stateFiles(dirs: string[]): string[] {
  return dirs.flatMap((d) => (statSync(d).isDirectory()
    ? readdirSync(d).filter((f) => f.endsWith('.tfstate')).sort().map((f) => path.join(d, f))
    : [d]));
}

export function census(files: string[]): { providers: Record<CloudProvider, ProviderCensus>; states: StateSummary[] } {
  const blank = (p: CloudProvider): ProviderCensus => ({
    states: 0, instances: 0, types: [], attributes: Object.fromEntries(ATTRIBUTES[p].map((a) => [a, 0])),
    withSensitive: 0, forms: {}, flat: 0, inModules: 0,
  });
  const providers: Record<CloudProvider, ProviderCensus> = { azurerm: blank('azurerm'), google: blank('google') };
  const byType: Record<CloudProvider, Map<string, number>> = { azurerm: new Map(), google: new Map() };
  const states: StateSummary[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const doc = readStateDocument(text, path.basename(file));
    const raws = rawProviders(text);
    const summary: StateSummary = { file, instances: { azurerm: 0, google: 0 }, other: 0, empty: doc.empty.length, deposed: doc.deposed };
    doc.instances.forEach((inst: StateInstance, k) => {
      const cloud = cloudOf(inst.provider?.type);
      if (!cloud) { summary.other++; return; }
      const c = providers[cloud];
      summary.instances[cloud]++;
      c.instances++;
      byType[cloud].set(inst.type, (byType[cloud].get(inst.type) ?? 0) + 1);
      for (const a of ATTRIBUTES[cloud]) if (present(inst.attributes[a])) c.attributes[a]++;
      if ((inst.sensitivePaths?.length ?? 0) > 0) c.withSensitive++;
      if (inst.flat) c.flat++;
      if (inst.module) c.inModules++;
      const form = formOf(raws[k]);
      c.forms[form] = (c.forms[form] ?? 0) + 1;
    });
    for (const p of PROVIDERS) if (summary.instances[p] > 0) providers[p].states++;
    states.push(summary);
  }
  for (const p of PROVIDERS) {
    const total = providers[p].instances;
    providers[p].types = [...byType[p]].map(([type, count]) => ({ type, count, share: total ? count / total : 0 }))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  }
  return { providers, states };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');

function print(result: ReturnType<typeof census>): void {
  for (const p of PROVIDERS) {
    const c = result.providers[p];
    console.log(`\n${p}${p === 'google' ? ' (incl. google-beta)' : ''}: ${c.instances} managed instances in ${c.states} states`);
    let cumulative = 0;
    for (const t of c.types) {
      cumulative += t.count;
      console.log(`  ${String(t.count).padStart(5)}  ${pct(t.count, c.instances).padStart(6)}  ${pct(cumulative, c.instances).padStart(6)}  ${t.type}`);
    }
    for (const [a, n] of Object.entries(c.attributes)) console.log(`  with ${a}: ${n} (${pct(n, c.instances)})`);
    console.log(`  with sensitive_attributes: ${c.withSensitive} (${pct(c.withSensitive, c.instances)})`);
    console.log(`  in modules: ${c.inModules}; from attributes_flat: ${c.flat}`);
    console.log('  provider address forms:');
    for (const [f, n] of Object.entries(c.forms).sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(5)}  ${f}`);
  }
  const other = result.states.reduce((n, s) => n + s.other, 0);
  console.log(`\n${result.states.length} states; ${other} managed instances of other providers`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const dirs = args.filter((a) => a !== '--json');
  if (dirs.length === 0) {
    console.error('usage: corpus-census.ts <dir or .tfstate>... [--json]');
    process.exit(2);
  }
  const files = stateFiles(dirs);
  let result: ReturnType<typeof census>;
  try {
    result = census(files);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  if (json) console.log(JSON.stringify(result, null, 2));
  else print(result);
}
