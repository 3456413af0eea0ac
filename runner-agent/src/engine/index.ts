// The drift detection engine: one module imported by the service's built-in executor and by
// runner-agent. For one repository config it gets the IaC sources, finds and reads each root
// module's state, reads the live resources through the cloud SDK (or runs a refresh-only plan)
// and returns drift records with attribute-level diffs and a severity from rules.ts.
import path from 'node:path';
import { AWS_READERS, AwsContext } from './cloud/aws/index.ts';
import { AZURE_READERS } from './cloud/azure/index.ts';
import { GOOGLE_READERS } from './cloud/google/index.ts';
import { compareScoped, restSetup, withScopes } from './rest-scan.ts';
import { compareLive } from './compare.ts';
import { ScanError, timeoutError } from './errors.ts';
import { parseRootModule, type RootModule } from './hcl.ts';
import { buildIgnoreRules, loadIgnoreFile } from './ignore.ts';
import { IGNORED_ATTRIBUTES } from './catalogue.ts';
import { repoPathProblem } from './paths.ts';
import { checkout } from './source.ts';
import { moduleOf, parseAddress } from './address.ts';
import { defaultProviderRegion, RegionResolver, withRegions } from './region.ts';
import { locateState, readStateDocument, readStateText, type StateDocument } from './state.ts';
import { findTofu, mapResourceDrift, runRefreshOnlyPlan } from './tofu.ts';
import type { AwsCredentials, DetectedDrift, InventoryItem, ScanInput, ScanOutcome, ScanStats, StateInstance } from './types.ts';
import { inventoryOf, inventoryOfPlan } from './inventory.ts';
import { Declarations } from './where.ts';
import { countNotCompared, notComparedOf } from './not-compared.ts';

const moduleAddress = (address: string) => { try { return parseAddress(address); } catch { return undefined; } };

export { planCapability, type PlanBinary } from './plan-binary.ts';
export type {
  AwsCredentials, ChangeType, Comparison, ComparedBy, ProviderPlanStats, DetectedDrift, DiffEntry, InventoryItem, NotCompared, NotComparedReason, Provider, ScanInput, ScanOutcome, ScanStats, Severity,
} from './types.ts';
export { readerIdOf } from './inventory.ts';
export { ScanError, type ScanErrorCode } from './errors.ts';
export { classify, type SeverityRule } from './rules.ts';
export { IGNORED_ATTRIBUTES, SEVERITY_RULES } from './catalogue.ts';
export { RULE_TABLE, conditionText, type RuleRow } from './rule-table.ts';
export { parseIgnoreFile } from './ignore.ts';
export { mapResourceDrift } from './tofu.ts';
export { formatCoverage, stateCoverage, type CoverageReport, type TypeCoverage } from './coverage.ts';
export { readStateDocument, type StateDocument } from './state-v4.ts';

/** Resource types compared against the live cloud, per provider (README: supported resources). */
export const SUPPORTED_RESOURCE_TYPES: Record<ScanInput['provider'], string[]> = {
  cloud_a: Object.keys(AWS_READERS),
  cloud_b: Object.keys(AZURE_READERS),
  cloud_c: Object.keys(GOOGLE_READERS),
};

const DEFAULT_REGION = 'us-east-1';

function awsCredentials(c: ScanInput['credentials']): AwsCredentials {
  if (!c) throw new ScanError('no_credentials', 'No cloud_a credentials: add them to the organization or the project, then scan again');
  const { accessKeyId, secretAccessKey, region, sessionToken } = c as Record<string, unknown>;
  if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string' || !accessKeyId || !secretAccessKey) {
    throw new ScanError('no_credentials', 'The cloud_a credentials lack an access key id or secret access key: update them, then scan again');
  }
  return {
    accessKeyId, secretAccessKey,
    region: typeof region === 'string' ? region : '',
    ...(typeof sessionToken === 'string' && sessionToken ? { sessionToken } : {}),
  };
}

/**
 * iacPaths as clean relative folders; none may leave the repository. A leading `/` is dropped
 * (configs stored before the API refused it read it as a folder of the repository); anything
 * else the API refuses (paths.ts) is refused here too, for configs stored before it did.
 */
function rootPaths(iacPaths: string[]): string[] {
  const list = iacPaths.length ? iacPaths : [''];
  return [...new Set(list.map((p) => {
    const rel = p.replace(/^\/+/, '') || '.';
    const problem = repoPathProblem(rel);
    if (problem) throw new ScanError('source_unavailable', `IaC path "${p}" ${problem}`);
    const clean = path.posix.normalize(rel).replace(/\/+$/, '');
    return clean === '.' ? '' : clean;
  }))];
}

const checkAbort = (signal?: AbortSignal) => { if (signal?.aborted) throw timeoutError(signal); };

export async function detectDrift(input: ScanInput): Promise<ScanOutcome> {
  const started = performance.now();
  const progress = (phase: string, done: number, total: number) => input.onProgress?.({ phase, done, total });
  const { signal } = input;
  checkAbort(signal);
  if (input.provider === 'cloud_b' || input.provider === 'cloud_c') return detectRestDrift(input, started);
  if (input.provider !== 'cloud_a') throw new ScanError('unsupported_provider', `Unknown provider ${String(input.provider)}: scan cloud_a, cloud_b or cloud_c`);
  const credentials = awsCredentials(input.credentials);
  const roots = rootPaths(input.iacPaths);

  progress('source', 0, 1);
  const repo = await checkout(input.source, signal, input.cloneGuard);
  let aws: AwsContext | undefined;
  try {
    progress('source', 1, 1);
    const { ignore, stats, modules } = await prepare(input, repo, roots, progress);
    const region = credentials.region || modules.map(defaultProviderRegion).find(Boolean) || DEFAULT_REGION;
    aws = new AwsContext({ ...credentials, region }, region, input.endpoint, signal);

    const bin = tofuBinary(input, stats, 'SDK');
    if (bin) {
      const viaTofu = await scanWithTofu(bin, repo.root, roots, modules, { ...credentials, region }, input, ignore, stats);
      if (viaTofu) return finish(withSource(viaTofu.drifts, repo.commit), viaTofu.scanned, stats, aws, started, viaTofu.inventory);
    }

    // States first (all roots), then live reads batched per resource type across roots.
    const context = aws;
    const states = await readStates(modules, roots, input, (loc) => readStateText(loc, context, repo.root), stats, progress);

    // The credentials' region is the last resort; with none, an instance of unknown region is not compared.
    const all = await withRegions(states, repo.root, credentials.region, (t) => !!AWS_READERS[t], stats);
    // A targeted re-check: regions are resolved over the whole states (peers), only its addresses read.
    const targeted = input.addresses && new Set(input.addresses);
    const entries = targeted ? all.filter((e) => targeted.has(e.instance.address)) : all;
    const { drifts, compared } = await compareLive(entries, aws, ignore, stats, {
      signal, onProgress: (done, total) => progress('compare', done, total), allInstances: states.flatMap((st) => st.instances),
    });
    const regions = new Map(entries.filter((e) => e.region).map((e) => [e.instance, e.region]));
    const inventory = inventoryOf(states.flatMap((st) => st.instances), regions);
    return finish(withSource(drifts, repo.commit), compared, stats, aws, started, inventory);
  } finally {
    aws?.destroy();
    await repo.cleanup();
  }
}

type Progress = (phase: string, done: number, total: number) => void;

/** The first steps of every scan: the repository's .driftignore, its root modules, an empty stats record. */
async function prepare(input: ScanInput, repo: { root: string; commit?: string }, roots: string[], progress: Progress) {
  const ignore = buildIgnoreRules(await loadIgnoreFile(repo.root), IGNORED_ATTRIBUTES);
  const stats: ScanStats = {
    mode: 'sdk', comparedBy: { native: 0, provider: 0 }, durationMs: 0, sdkCalls: 0, sdkCallsByService: {}, roots: [], unsupported: {}, ignoredDiffs: 0,
    ignorePatterns: ignore.patternCount, ...(repo.commit ? { commit: repo.commit } : {}),
  };
  const modules: RootModule[] = [];
  for (const [i, r] of roots.entries()) {
    progress('parse', i, roots.length);
    modules.push(await parseRootModule(repo.root, r));
  }
  progress('parse', roots.length, roots.length);
  checkAbort(input.signal);
  return { ignore, stats, modules };
}

/** The tofu/terraform binary a requested plan runs with, or undefined with the reason in stats.tofuSkipped. */
function tofuBinary(input: ScanInput, stats: ScanStats, other: 'SDK' | 'API'): string | undefined {
  if (input.comparison !== 'provider' || !input.providerPlans) return undefined;
  const bin = findTofu();
  if (input.addresses) stats.tofuSkipped = `a targeted re-check reads its addresses through the ${other}`;
  else if (!bin) stats.tofuSkipped = 'neither tofu nor terraform is on PATH';
  else if (input.statePath) stats.tofuSkipped = `a configured state path is read by the ${other} path only`;
  else return bin;
  return undefined;
}

/** Every root module's state, in order; where each came from goes into stats.roots. */
async function readStates(
  modules: RootModule[], roots: string[], input: ScanInput, readText: (loc: ReturnType<typeof locateState>) => Promise<string>, stats: ScanStats, progress: Progress,
): Promise<{ module: RootModule; instances: StateInstance[] }[]> {
  const states: { module: RootModule; instances: StateInstance[] }[] = [];
  for (const [i, mod] of modules.entries()) {
    progress('state', i, modules.length);
    const loc = locateState(mod, roots[i], input.statePath);
    const doc = readStateDocument(await readText(loc), loc.describe);
    stats.roots.push({ path: roots[i] || '.', state: loc.describe, resources: doc.instances.length });
    states.push({ module: mod, instances: doc.instances });
    noteSkipped(doc, stats);
  }
  progress('state', modules.length, modules.length);
  return states;
}

/** A cloud_b or cloud_c scan: the same steps on the REST readers (rest-scan.ts). */
async function detectRestDrift(input: ScanInput, started: number): Promise<ScanOutcome> {
  const progress = (phase: string, done: number, total: number) => input.onProgress?.({ phase, done, total });
  const { signal } = input;
  const roots = rootPaths(input.iacPaths);
  const setup = await restSetup(input);
  progress('source', 0, 1);
  const repo = await checkout(input.source, signal, input.cloneGuard).catch(async (e: unknown) => { await setup.close(); throw e; });
  try {
    progress('source', 1, 1);
    const { ignore, stats, modules } = await prepare(input, repo, roots, progress);
    const bin = tofuBinary(input, stats, 'API');
    if (bin) {
      const viaTofu = await scanWithTofu(bin, repo.root, roots, modules, { env: tofuEnv(input) }, input, ignore, stats);
      if (viaTofu) {
        stats.durationMs = Math.round(performance.now() - started);
        stats.notCompared = []; // the plan refreshes every instance through the provider itself
        return { drifts: withSource(viaTofu.drifts, repo.commit, input.provider), resourcesScanned: viaTofu.scanned, stats, inventory: viaTofu.inventory };
      }
    }
    const states = await readStates(modules, roots, input, (loc) => readStateText(loc, undefined, repo.root, setup.remote), stats, progress);
    const entries = await withScopes(input.provider, states, repo.root, setup, stats);
    const { drifts, compared, inventory } = await compareScoped(entries, setup, ignore, stats, {
      signal, onProgress: (done, total) => progress('compare', done, total), ...(input.addresses ? { addresses: new Set(input.addresses) } : {}),
    });
    stats.sdkCalls = setup.api.totalCalls;
    stats.sdkCallsByService = { ...setup.api.calls };
    stats.durationMs = Math.round(performance.now() - started);
    stats.notCompared = notComparedOf(stats);
    return { drifts: withSource(drifts, repo.commit, input.provider), resourcesScanned: compared, stats, inventory };
  } finally {
    await setup.close();
    await repo.cleanup();
  }
}

/** The providers' documented environment for a tofu/terraform run (azurerm ARM_*, google GOOGLE_*). */
function tofuEnv(input: ScanInput): Record<string, string> {
  const c = (input.credentials ?? {}) as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? JSON.stringify(v) : '');
  const pairs: [string, unknown][] = input.provider === 'cloud_b'
    ? [['ARM_SUBSCRIPTION_ID', c.subscriptionId], ['ARM_TENANT_ID', c.tenantId], ['ARM_CLIENT_ID', c.clientId], ['ARM_CLIENT_SECRET', c.clientSecret]]
    : [['GOOGLE_PROJECT', c.projectId], ['GOOGLE_CREDENTIALS', c.serviceAccountKey]];
  return Object.fromEntries(pairs.map(([k, v]) => [k, s(v)]).filter(([, v]) => v));
}

/** Every drift of this scan names its provider and the commit scanned (null for a folder that is no git repository). */
const withSource = (drifts: DetectedDrift[], commit: string | undefined, provider: ScanInput['provider'] = 'cloud_a'): DetectedDrift[] =>
  drifts.map((d) => ({ ...d, provider, commit: commit ?? null }));

/** Instances read from attributes_flat, and those with no attributes, named in the stats. */
function noteSkipped(doc: StateDocument, stats: ScanStats): void {
  const flat = doc.instances.filter((i) => i.flat).map((i) => i.address);
  if (flat.length) {
    const prev = stats.flatInstances ?? { count: 0, addresses: [] };
    stats.flatInstances = { count: prev.count + flat.length, addresses: [...prev.addresses, ...flat].slice(0, 100) };
  }
  if (doc.empty.length) stats.emptyInstances = [...(stats.emptyInstances ?? []), ...doc.empty.map((e) => e.address)].slice(0, 100);
  for (const e of doc.empty) countNotCompared(stats, 'unsupportedShape', e.type);
}

async function scanWithTofu(
  bin: string, repoRoot: string, roots: string[], modules: RootModule[], credentials: AwsCredentials | { env: Record<string, string> },
  input: ScanInput, ignore: ReturnType<typeof buildIgnoreRules>, stats: ScanStats,
): Promise<{ drifts: DetectedDrift[]; scanned: number; inventory: InventoryItem[] } | undefined> {
  const drifts: DetectedDrift[] = [];
  const inventory: InventoryItem[] = [];
  const declarations = new Declarations(repoRoot);
  let scanned = 0;
  for (const [i, mod] of modules.entries()) {
    input.onProgress?.({ phase: 'plan', done: i, total: modules.length });
    let plan: unknown;
    try {
      plan = await runRefreshOnlyPlan({ bin, repoRoot, modulePath: roots[i], module: mod, credentials, endpoint: input.endpoint, signal: input.signal, confine: input.confined === true });
    } catch (e) {
      checkAbort(input.signal);
      // The SDK path still gives an answer; the reason is kept for the scan record.
      stats.tofuSkipped = (e as Error).message;
      return undefined;
    }
    const mapped = mapResourceDrift(plan, ignore);
    const resolver = new RegionResolver(mod, repoRoot, '');
    for (const d of mapped.drifts) {
      const at = moduleAddress(d.resourceAddress);
      if (at) d.declaredIn = await declarations.find((await resolver.moduleAt(moduleOf(at.module)))?.module, at.type, at.name);
    }
    drifts.push(...mapped.drifts);
    inventory.push(...inventoryOfPlan(plan));
    scanned += mapped.resourcesScanned;
    stats.ignoredDiffs += mapped.ignored;
    stats.roots.push({ path: roots[i] || '.', state: `${path.basename(bin)} refresh-only plan`, resources: mapped.resourcesScanned });
  }
  stats.mode = 'tofu';
  stats.binary = bin;
  return { drifts, scanned, inventory };
}

function finish(
  drifts: DetectedDrift[], scanned: number, stats: ScanStats, aws: AwsContext, started: number, inventory: InventoryItem[],
): ScanOutcome {
  stats.sdkCalls = aws.totalCalls;
  stats.sdkCallsByService = { ...aws.calls };
  stats.durationMs = Math.round(performance.now() - started);
  stats.notCompared = stats.mode === 'tofu' ? [] : notComparedOf(stats);
  return { drifts, resourcesScanned: scanned, stats, inventory };
}

