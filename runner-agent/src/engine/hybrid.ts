// Hybrid scans (docs/detection-engine.md): the native readers compare what they read; every
// other managed instance (a type no reader knows, of any provider, or one whose region or scope
// could not be resolved) goes through one refresh-only plan per root module, targeted at exactly
// those addresses. The plan's resource_drift becomes the same drift records (same diff paths,
// ignore table, .driftignore, ignore_changes, provider noise and severity rules), marked
// `comparedBy: provider`. With comparison `provider` the plan compares everything.
import { moduleOf, parseAddress } from './address.ts';
import { ScanError, timeoutError } from './errors.ts';
import type { RootModule } from './hcl.ts';
import type { IgnoreRules } from './ignore.ts';
import { withInstanceIgnores } from './lifecycle.ts';
import { noiseContext, noiseFor } from './noise.ts';
import { planCapability, type PlanBinary } from './plan-binary.ts';
import { RegionResolver } from './region.ts';
import { mapResourceDrift } from './tofu.ts';
import { runRefreshOnlyPlan, type TofuRun } from './tofu-run.ts';
import type { DetectedDrift, ScanInput, ScanStats, StateInstance } from './types.ts';
import { Declarations } from './where.ts';

/** One root module as the scan read it: its configuration, its state's text and instances. */
export interface PlanRoot { path: string; module: RootModule; text: string; instances: StateInstance[] }

/** Why an instance was left to the plan: its count in stats is taken back once the plan compared it. */
export type LeftBecause = 'unsupported' | 'regionUnknown';
export interface PlanTarget { instance: StateInstance; because: LeftBecause }

/** The binary this scan may plan with, or the reason it may not (stats.providerPlan.reason when something was left for it). */
export async function planHost(input: Pick<ScanInput, 'comparison' | 'providerPlans' | 'confined'>): Promise<{ host?: PlanBinary; reason?: string }> {
  if (input.comparison === 'native') return { reason: 'the repository config\'s comparison is native' };
  if (!input.providerPlans) {
    return { reason: input.confined
      ? 'the built-in executor runs no provider plans unless the operator sets EXECUTOR_PROVIDER_PLANS=true (or give the config runnerLabels so a self-hosted runner with tofu or terraform scans it)'
      : 'this host runs no provider plans' };
  }
  const host = await planCapability();
  if (host) return { host };
  const chosen = process.env.DRIFT_TOFU_BINARY?.trim();
  return { reason: chosen ? `DRIFT_TOFU_BINARY (${chosen}) is not a tofu or terraform binary that runs` : 'neither tofu nor terraform is on PATH (nor DRIFT_TOFU_BINARY set): compared natively only' };
}

const labelOf = (host: PlanBinary) => `${host.name} ${host.version}`;

/** Records that no plan ran (with something left for it) and why. */
export function notPlanned(stats: ScanStats, left: number, reason: string): void {
  stats.providerPlan = { ran: false, binary: null, targets: left, compared: 0, durationMs: 0, reason };
}

export interface PlanContext {
  repoRoot: string;
  input: ScanInput;
  credentials: TofuRun['credentials'];
  ignore: IgnoreRules;
  stats: ScanStats;
}

/** Each target's own ignore rules: the scan's, plus its block's ignore_changes and the provider noise that applies. */
async function ignoresOf(root: PlanRoot, repoRoot: string, ignore: IgnoreRules, only: StateInstance[]): Promise<(address: string) => IgnoreRules> {
  const noise = noiseContext(root.instances);
  const modules = new RegionResolver(root.module, repoRoot, '');
  const byAddress = new Map<string, IgnoreRules>();
  for (const instance of only) {
    const declaring = (await modules.moduleAt(moduleOf(instance.module)))?.module;
    const changes = declaring?.ignoreChanges?.get(`${instance.type}.${instance.name}`);
    byAddress.set(instance.address, withInstanceIgnores(withInstanceIgnores(ignore, changes), noiseFor(instance, noise)));
  }
  return (address) => byAddress.get(address) ?? ignore;
}

const parsed = (address: string) => { try { return parseAddress(address); } catch { return undefined; } };

/**
 * Plans each root (targets: the instances left to the plan per root; undefined = every instance
 * of every root, comparison `provider`). A configuration refused on this host fails the scan; any
 * other plan failure leaves its instances not compared, with the reason in stats.providerPlan.
 */
export async function comparePlanned(
  host: PlanBinary, roots: PlanRoot[], targets: PlanTarget[][] | undefined, ctx: PlanContext,
): Promise<{ drifts: DetectedDrift[]; compared: PlanTarget[]; planned: boolean }> {
  const started = performance.now();
  const { input, stats } = ctx;
  const drifts: DetectedDrift[] = [];
  const compared: PlanTarget[] = [];
  const wanted = input.addresses && new Set(input.addresses);
  const targeted = !!(targets || wanted);
  const failures: string[] = [];
  let asked = 0;
  for (const [i, root] of roots.entries()) {
    const own = targets ? targets[i] : root.instances.filter((x) => !wanted || wanted.has(x.address)).map((instance) => ({ instance, because: 'unsupported' as const }));
    if (own.length === 0) continue;
    asked += own.length;
    input.onProgress?.({ phase: 'plan', done: i, total: roots.length });
    // One plan for the root; should it fail, one per provider, so a provider that cannot plan here
    // (no credentials on this host, say) leaves only its own instances not compared.
    const groups = targeted ? byProvider(own) : [];
    const attempt = async (list: PlanTarget[], label?: string): Promise<boolean> => {
      try {
        const found = await planRoot(host, root, list, targeted, ctx);
        drifts.push(...found.drifts);
        compared.push(...found.compared);
        return true;
      } catch (e) {
        if (input.signal?.aborted) throw timeoutError(input.signal);
        if (e instanceof ScanError && e.code === 'plan_refused') throw e;
        if (label !== undefined) failures.push(`${label ? `${label}: ` : ''}${(e as Error).message}`);
        return false;
      }
    };
    if (groups.length < 2) await attempt(own, '');
    else if (!(await attempt(own))) for (const [provider, list] of groups) await attempt(list, provider);
  }
  input.onProgress?.({ phase: 'plan', done: roots.length, total: roots.length });
  const reason = failures.join('; ').slice(0, 1000);
  stats.providerPlan = {
    ran: compared.length > 0, binary: labelOf(host), targets: targeted ? asked : 0, compared: compared.length,
    durationMs: Math.round(performance.now() - started), ...(reason ? { reason } : {}),
  };
  return { drifts, compared, planned: failures.length === 0 };
}

/** Targets grouped by the provider their configuration names (aws, cloudflare...), else their type's prefix. */
function byProvider(list: PlanTarget[]): [string, PlanTarget[]][] {
  const out = new Map<string, PlanTarget[]>();
  for (const x of list) {
    const p = x.instance.provider?.type || x.instance.type.split('_')[0];
    out.set(p, [...(out.get(p) ?? []), x]);
  }
  return [...out.entries()];
}

/** One refresh-only plan of a root at `list` (or everything), mapped to drift records. */
async function planRoot(host: PlanBinary, root: PlanRoot, list: readonly PlanTarget[], targeted: boolean, ctx: PlanContext) {
  const { input } = ctx;
  const plan = await runRefreshOnlyPlan({
    bin: host.path, repoRoot: ctx.repoRoot, modulePath: root.path, module: root.module, state: root.text,
    ...(targeted ? { targets: list.map((x) => x.instance.address) } : {}),
    credentials: ctx.credentials, endpoint: input.endpoint, signal: input.signal, confine: input.confined === true, allowPrograms: input.allowPlanPrograms === true,
  });
  const byAddress = new Map(list.map((x) => [x.instance.address, x]));
  const mapped = mapResourceDrift(plan, ctx.ignore, {
    only: new Set(byAddress.keys()), ignoreOf: await ignoresOf(root, ctx.repoRoot, ctx.ignore, list.map((x) => x.instance)),
  });
  const declarations = new Declarations(ctx.repoRoot);
  const resolver = new RegionResolver(root.module, ctx.repoRoot, '');
  for (const d of mapped.drifts) {
    const at = parsed(d.resourceAddress);
    if (at) d.declaredIn = await declarations.find((await resolver.moduleAt(moduleOf(at.module)))?.module, at.type, at.name);
  }
  ctx.stats.ignoredDiffs += mapped.ignored;
  return { drifts: mapped.drifts, compared: mapped.compared.map((a) => byAddress.get(a)).filter((x): x is PlanTarget => !!x) };
}

/** The plan compared these: they leave the not-compared counts they were in. */
export function takeBack(stats: ScanStats, compared: PlanTarget[]): void {
  for (const { instance, because } of compared) {
    const counts = stats[because];
    if (!counts?.[instance.type]) continue;
    counts[instance.type] -= 1;
    if (counts[instance.type] === 0) delete counts[instance.type];
  }
}

/**
 * Per root, the instances the native readers left (`left` says why, or undefined for one they
 * compared), within a targeted re-check's addresses.
 */
export function leftToPlan(roots: PlanRoot[], left: (i: StateInstance) => LeftBecause | undefined, addresses?: string[]): PlanTarget[][] {
  const wanted = addresses && new Set(addresses);
  return roots.map((r) => r.instances.flatMap((instance) => {
    if (wanted && !wanted.has(instance.address)) return [];
    const because = left(instance);
    return because ? [{ instance, because }] : [];
  }));
}
