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
import { defaultProviderRegion, withRegions } from './region.ts';
import { locateState, readStateDocument, readStateText, type StateDocument } from './state.ts';
import { comparePlanned, leftToPlan, notPlanned, planHost, takeBack, type PlanRoot, type PlanTarget } from './hybrid.ts';
import type { PlanBinary } from './plan-binary.ts';
import type { AwsCredentials, DetectedDrift, InventoryItem, ScanInput, ScanOutcome, ScanStats, StateInstance } from './types.ts';
import { inventoryOf } from './inventory.ts';
import { countNotCompared, notComparedOf } from './not-compared.ts';
import { scanBudget } from './budget/scan.ts';

export { planCapability, type PlanBinary } from './plan-binary.ts';
export type {
  AwsCredentials, ChangeType, CloneGuard, Comparison, ComparedBy, ProviderPlanStats, DetectedDrift, DiffEntry, InventoryItem, NotCompared, NotComparedReason, Provider, ScanInput, ScanOutcome, ScanStats, Severity,
} from './types.ts';
export { readerIdOf } from './inventory.ts';
export { ScanError, type ScanErrorCode } from './errors.ts';
export { MemoryBucketStore, RedisBucketStore, apiRatesProblem, type ApiRates, type BucketStore, type BudgetOptions, type EvalClient } from './budget/index.ts';
export { classify, type SeverityRule } from './rules.ts';
export { IGNORED_ATTRIBUTES, SEVERITY_RULES } from './catalogue.ts';
export { RULE_TABLE, conditionText, type RuleRow } from './rule-table.ts';
export { parseIgnoreFile } from './ignore.ts';
export { repoPathProblem, statePathProblem } from './paths.ts';
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
    aws = new AwsContext({ ...credentials, region }, region, input.endpoint, signal, scanBudget(input));

    const context = aws;
    const states = await readStates(modules, roots, input, (loc) => readStateText(loc, context, repo.root), stats, progress);
    const plan = await planHost(input);
    const planning = { repoRoot: repo.root, input, credentials: { ...credentials, region }, ignore, stats };
    if (input.comparison === 'provider' && plan.host) {
      const whole = await comparePlanned(plan.host, states, undefined, planning);
      if (whole.planned) return finish(withSource(whole.drifts, repo.commit), { native: 0, provider: whole.compared.length }, stats, aws, started, inventoryOf(states.flatMap((st) => st.instances), new Map()), true);
    }

    // The credentials' region is the last resort; with none, an instance of unknown region is not compared.
    const all = await withRegions(states, repo.root, credentials.region, (t) => !!AWS_READERS[t], stats);
    // A targeted re-check: regions are resolved over the whole states (peers), only its addresses read.
    const targeted = input.addresses && new Set(input.addresses);
    const entries = targeted ? all.filter((e) => targeted.has(e.instance.address)) : all;
    const located = new Set(all.filter((e) => e.region).map((e) => e.instance));
    const left = leftToPlan(states, (i) => (!AWS_READERS[i.type] ? 'unsupported' : located.has(i) ? undefined : 'regionUnknown'), input.addresses);
    const [{ drifts, compared }, provider] = await alongside(() => compareLive(entries, context, ignore, stats, {
      signal, onProgress: (done, total) => progress('compare', done, total), allInstances: states.flatMap((st) => st.instances),
    }), plan, states, left, planning);
    const regions = new Map(entries.filter((e) => e.region).map((e) => [e.instance, e.region]));
    const inventory = inventoryOf(states.flatMap((st) => st.instances), regions);
    return finish(withSource([...drifts, ...provider.drifts], repo.commit), { native: compared, provider: provider.compared }, stats, aws, started, inventory);
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

/**
 * The hybrid step: the native comparison and, side by side (they read different instances), one
 * targeted refresh-only plan per root for what the readers leave (hybrid.ts), unless the
 * comparison is native or a whole plan was already tried; without a binary, the stats say why
 * those instances stay not compared. The scan takes the longer of the two, not their sum; a
 * native failure stops the plan. The plan's instances leave the not-compared counts once both
 * are done (the native side counts them).
 */
async function alongside<T>(
  native: () => Promise<T>, plan: { host?: PlanBinary; reason?: string }, roots: PlanRoot[], left: PlanTarget[][], planning: Parameters<typeof comparePlanned>[3],
): Promise<[T, { drifts: DetectedDrift[]; compared: number }]> {
  const { input, stats } = planning;
  const count = left.reduce((n, l) => n + l.length, 0);
  const skip = input.comparison === 'native' || stats.providerPlan || count === 0 || !plan.host;
  if (skip) {
    if (count && !stats.providerPlan) notPlanned(stats, count, plan.reason ?? 'this host runs no provider plans');
    return [await native(), { drifts: [], compared: 0 }];
  }
  const stop = new AbortController();
  const relay = () => stop.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', relay, { once: true });
  const planned = comparePlanned(plan.host!, roots, left, { ...planning, input: { ...input, signal: stop.signal } });
  planned.catch(() => {}); // awaited below; handled now so a failure while the native side runs is no unhandled rejection
  try {
    const mine = await native();
    const found = await planned;
    takeBack(stats, found.compared);
    return [mine, { drifts: found.drifts, compared: found.compared.length }];
  } catch (e) {
    stop.abort(e);
    await planned.catch(() => {});
    throw e;
  } finally {
    input.signal?.removeEventListener('abort', relay);
  }
}

/** Every root module's state, in order; where each came from goes into stats.roots. */
async function readStates(
  modules: RootModule[], roots: string[], input: ScanInput, readText: (loc: ReturnType<typeof locateState>) => Promise<string>, stats: ScanStats, progress: Progress,
): Promise<PlanRoot[]> {
  const states: PlanRoot[] = [];
  for (const [i, mod] of modules.entries()) {
    progress('state', i, modules.length);
    const loc = locateState(mod, roots[i], input.statePath);
    const text = await readText(loc);
    const doc = readStateDocument(text, loc.describe);
    stats.roots.push({ path: roots[i] || '.', state: loc.describe, resources: doc.instances.length });
    states.push({ path: roots[i], module: mod, text, instances: doc.instances });
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
    const states = await readStates(modules, roots, input, (loc) => readStateText(loc, undefined, repo.root, setup.remote), stats, progress);
    const plan = await planHost(input);
    const planning = { repoRoot: repo.root, input, credentials: { env: tofuEnv(input) }, ignore, stats };
    const everyInstance = () => inventoryOf(states.flatMap((st) => st.instances), new Map());
    if (input.comparison === 'provider' && plan.host) {
      const whole = await comparePlanned(plan.host, states, undefined, planning);
      if (whole.planned) return finish(withSource(whole.drifts, repo.commit, input.provider), { native: 0, provider: whole.compared.length }, stats, setup.api, started, everyInstance(), true);
    }
    const entries = await withScopes(input.provider, states, repo.root, setup, stats);
    const scoped = new Set(entries.filter((e) => e.scope.source !== 'unknown').map((e) => e.instance));
    const left = leftToPlan(states, (i) => (!setup.cloud.readers[i.type] ? 'unsupported' : scoped.has(i) ? undefined : 'regionUnknown'), input.addresses);
    const [{ drifts, compared, inventory }, provider] = await alongside(() => compareScoped(entries, setup, ignore, stats, {
      signal, onProgress: (done, total) => progress('compare', done, total), ...(input.addresses ? { addresses: new Set(input.addresses) } : {}),
    }), plan, states, left, planning);
    return finish(withSource([...drifts, ...provider.drifts], repo.commit, input.provider), { native: compared, provider: provider.compared }, stats, setup.api, started, inventory);
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

/**
 * The outcome: the calls made, the time taken, and what was not compared. A scan whose whole
 * comparison went through the plan (comparison `provider`) is mode `tofu`: the plan refreshed
 * every instance through the provider itself.
 */
function finish(
  drifts: DetectedDrift[], comparedBy: ScanStats['comparedBy'], stats: ScanStats,
  calls: { totalCalls: number; calls: Record<string, number>; budget?: { throttledCalls: number; waitedMs: number } },
  started: number, inventory: InventoryItem[], whole = false,
): ScanOutcome {
  stats.mode = whole ? 'tofu' : 'sdk';
  stats.comparedBy = comparedBy;
  stats.sdkCalls = calls.totalCalls;
  stats.sdkCallsByService = { ...calls.calls };
  stats.throttledCalls = calls.budget?.throttledCalls ?? 0;
  stats.waitedMs = Math.round(calls.budget?.waitedMs ?? 0);
  stats.durationMs = Math.round(performance.now() - started);
  stats.notCompared = stats.mode === 'tofu' ? [] : notComparedOf(stats);
  return { drifts, resourcesScanned: comparedBy.native + comparedBy.provider, stats, inventory };
}
