// Coverage and replay of whole state corpora, the figures issue 33 asks for: per provider, the
// managed instances compared natively (as `drift-runner coverage --json` counts them, with each
// state's configuration folder when it has one), the replay's drifts (every one a false
// positive), and the types most often left uncompared.
//
//   scripts/runtime/node.sh exec node scripts/corpus-measure.ts <dir>... [--json] [--top N]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AWS_READERS, AZURE_READERS, GOOGLE_READERS, parseRootModule, readStateDocument, replayState, type RootModule, stateCoverage } from '../runner-agent/src/engine/tools.ts';

type Provider = 'aws' | 'azurerm' | 'google';
const PROVIDERS: Provider[] = ['aws', 'azurerm', 'google'];

interface Figures { states: number; total: number; compared: number; replayDrifts: number; driftStates: string[]; uncompared: Record<string, number> }

const blank = (): Figures => ({ states: 0, total: 0, compared: 0, replayDrifts: 0, driftStates: [], uncompared: {} });

async function measure(dir: string, figures: Record<Provider, Figures>, drifts: string[], unparsed: string[]): Promise<void> {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.tfstate')).sort()) {
    const full = path.join(dir, file);
    const text = readFileSync(full, 'utf8');
    const doc = readStateDocument(text, file);
    const cfg = full.replace(/\.tfstate$/, '');
    let module: RootModule | undefined;
    // A configuration the parser refuses (as a real scan would) leaves the state to resolve alone.
    if (existsSync(cfg) && statSync(cfg).isDirectory()) module = await parseRootModule(cfg, '').catch(() => { unparsed.push(file); return undefined; });
    const report = await stateCoverage(doc, { supported: (t) => !!AWS_READERS[t], module });
    for (const p of PROVIDERS) {
      const c = report.providers[p];
      if (!c.total) continue;
      figures[p].states++;
      figures[p].total += c.total;
      figures[p].compared += c.compared;
    }
    for (const [type, c] of Object.entries(report.byType)) {
      if (c.total > c.compared) figures.aws.uncompared[type] = (figures.aws.uncompared[type] ?? 0) + c.total - c.compared;
    }
    // coverage.ts keeps no per-type rows for Azure and Google: the types without a reader, counted here.
    for (const i of doc.instances) {
      const p = i.type.startsWith('azurerm_') ? 'azurerm' : i.type.startsWith('google_') ? 'google' : undefined;
      if (p && !(p === 'azurerm' ? AZURE_READERS : GOOGLE_READERS)[i.type]) figures[p].uncompared[i.type] = (figures[p].uncompared[i.type] ?? 0) + 1;
    }
    const replay = await replayState(text, file);
    for (const d of replay.drifts) {
      const p = PROVIDERS.find((x) => d.resourceType.startsWith(x)) ?? 'aws';
      figures[p].replayDrifts++;
      if (!figures[p].driftStates.includes(file)) figures[p].driftStates.push(file);
      drifts.push(`${file} ${d.resourceAddress} ${d.attributes.map((e) => e.attribute).join(',')}`);
    }
  }
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean' }, top: { type: 'string', default: '15' } } });
const figures = Object.fromEntries(PROVIDERS.map((p) => [p, blank()])) as Record<Provider, Figures>;
const drifts: string[] = [];
const unparsed: string[] = [];
for (const dir of positionals) await measure(dir, figures, drifts, unparsed);
if (values.json) {
  process.stdout.write(`${JSON.stringify({ figures, drifts, unparsed })}\n`);
} else {
  for (const p of PROVIDERS) {
    const f = figures[p];
    if (!f.total) continue;
    const top = Object.entries(f.uncompared).sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
    console.log(`${p}: ${f.states} states, ${f.compared}/${f.total} compared (${((100 * f.compared) / f.total).toFixed(1)}%), replay drifts ${f.replayDrifts} in ${f.driftStates.length} states`);
    console.log(`  uncompared: ${top.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  }
  for (const d of drifts) console.log(`  drift: ${d}`);
  if (unparsed.length) console.log(`configuration not parsed (state resolved alone): ${unparsed.join(', ')}`);
}
