// `drift-runner replay <state file>`: the engine's own readers, comparison, ignore and severity
// code run against a fake cloud that answers every call with exactly what the state says (the
// SDK's real request path, over loopback HTTP). Whatever drift it reports is a false positive by
// construction. Offline, no credentials. Each instance is placed and read in the region a scan
// would read it in (region.ts withRegions: its provider block and alias, variables, tfvars,
// module arguments, then its ARN...; the replay's credentials region, us-east-1, is the last
// resort), with the configuration that wrote the state when one is given (`--config DIR`); the
// fake answers a regional request only with the instances placed in that region. Azure and
// Google instances take the scope a scan resolves (rest-scan.ts withScopes), the replay's
// project standing for the credentials'.
import { AWS_READERS, AwsContext } from './cloud/aws/index.ts';
import { AZURE, azureApi } from './cloud/azure/index.ts';
import { GOOGLE, googleApi } from './cloud/google/index.ts';
import type { RestCloud } from './cloud/rest/reader.ts';
import { startRestFake, stateWorld as restWorld } from './cloud/rest/fake.ts';
import type { StateInstance } from './types.ts';
import type { Answer } from './cloud/aws/reader.ts';
import { startFakeCloud, stateWorld } from './cloud/aws/replay/server.ts';
import { compareLive } from './compare.ts';
import { buildIgnoreRules } from './ignore.ts';
import { IGNORED_ATTRIBUTES } from './catalogue.ts';
import { parseRootModule, type RootModule } from './hcl.ts';
import { compareScoped, withScopes } from './rest-scan.ts';
import { noConfiguration, withRegions } from './region.ts';
import { parseState } from './state.ts';
import type { DiffEntry, ScanStats } from './types.ts';

export interface ReplayResult {
  compared: number;
  /** `attributes`: the attribute differences the engine reported (a deletion shows as `id` going to null). */
  drifts: { resourceAddress: string; resourceType: string; attributes: DiffEntry[] }[];
  unsupported: Record<string, number>;
  sdkCalls: number;
  sdkCallsByService: Record<string, number>;
}

/** Every reader's answers, one per operation (readers sharing an API share its answer). */
export function allAnswers(): Answer[] {
  const seen = new Map<string, Answer>();
  for (const r of Object.values(AWS_READERS)) for (const a of r.answers) if (!seen.has(`${a.service}:${a.op[2]}`)) seen.set(`${a.service}:${a.op[2]}`, a);
  return [...seen.values()];
}

/** The provider of a managed type, by its prefix (google-beta writes google_* types). */
export const providerOfType = (type: string): 'aws' | 'azurerm' | 'google' | undefined =>
  type.startsWith('aws_') ? 'aws' : type.startsWith('azurerm_') ? 'azurerm' : type.startsWith('google_') ? 'google' : undefined;

const REST: Record<'azurerm' | 'google', { cloud: RestCloud; style: 'arm' | 'google'; api: typeof azureApi }> = {
  azurerm: { cloud: AZURE, style: 'arm', api: azureApi },
  google: { cloud: GOOGLE, style: 'google', api: googleApi },
};
const REPLAY_TOKENS = { token: async () => 'replay', describe: 'the replay' };
/** The replay's credentials region and project: what a scan falls back to when nothing else names one. */
const REPLAY_REGION = 'us-east-1';
const REPLAY_PROJECT = 'replay';

/**
 * The Azure or Google instances of a state against their fake, each in the scope a scan resolves
 * for it (rest-scan.ts withScopes: its id, attributes, provider block through the configuration,
 * then the replay's credentials project); an instance of unknown scope is not compared, as in a scan.
 */
async function replayRest(provider: 'azurerm' | 'google', instances: StateInstance[], out: ReplayResult, module: RootModule, repoRoot: string): Promise<void> {
  const r = REST[provider];
  const fake = await startRestFake({ style: r.style, routes: Object.values(r.cloud.readers).flatMap((x) => x.fake), world: restWorld(instances) });
  const api = r.api(REPLAY_TOKENS, { endpoint: fake.endpoint });
  try {
    const setup = { cloud: r.cloud, api, credentialsProject: REPLAY_PROJECT, remote: {}, close: async () => {} };
    const stats: ScanStats = { mode: 'sdk', comparedBy: { native: 0, provider: 0 }, durationMs: 0, sdkCalls: 0, sdkCallsByService: {}, roots: [], unsupported: out.unsupported, ignoredDiffs: 0, ignorePatterns: 0 };
    const entries = await withScopes(provider === 'azurerm' ? 'cloud_b' : 'cloud_c', [{ module, instances }], repoRoot, setup, stats);
    const { drifts, compared } = await compareScoped(entries, setup, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats, {});
    out.compared += compared;
    out.drifts.push(...drifts.map(({ resourceAddress, resourceType, diff }) => ({ resourceAddress, resourceType, attributes: diff })));
    for (const [k, v] of Object.entries(api.calls)) out.sdkCallsByService[k] = (out.sdkCallsByService[k] ?? 0) + v;
    out.sdkCalls += api.totalCalls;
  } finally {
    await api.destroy();
    await fake.close();
  }
}

export interface ReplayOptions {
  /** The folder of the configuration that wrote the state (a root module), for the regions a scan would resolve. */
  config?: string;
}

export async function replayState(text: string, where: string, opts: ReplayOptions = {}): Promise<ReplayResult> {
  const all = parseState(text, where);
  const rest = { azurerm: all.filter((i) => providerOfType(i.type) === 'azurerm'), google: all.filter((i) => providerOfType(i.type) === 'google') };
  // Everything else goes the AWS way: aws_* compared, other providers counted unsupported.
  const module = opts.config ? await parseRootModule(opts.config, '') : noConfiguration(process.cwd());
  const repoRoot = opts.config ?? module.dir;
  const result = await replayAws(all.filter((i) => { const p = providerOfType(i.type); return p !== 'azurerm' && p !== 'google'; }), module, repoRoot);
  for (const p of ['azurerm', 'google'] as const) if (rest[p].length) await replayRest(p, rest[p], result, module, repoRoot);
  return result;
}


async function replayAws(instances: StateInstance[], module: RootModule, repoRoot: string): Promise<ReplayResult> {
  const stats = { unsupported: {} as Record<string, number>, ignoredDiffs: 0, regionSources: {}, regionUnknown: {} };
  // The same resolution as a scan (index.ts): the configuration's root is the checkout's.
  const entries = await withRegions([{ module, instances }], repoRoot, REPLAY_REGION, (t) => !!AWS_READERS[t], stats);
  const placement = new Map(entries.filter((e) => e.region).map((e) => [e.instance, e.region]));
  const fake = await startFakeCloud(stateWorld(instances, placement), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region: REPLAY_REGION }, REPLAY_REGION, fake.endpoint);
  try {
    const { drifts, compared } = await compareLive(entries, aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats, { allInstances: instances });
    return {
      compared, unsupported: stats.unsupported, sdkCalls: aws.totalCalls, sdkCallsByService: { ...aws.calls },
      drifts: drifts.map(({ resourceAddress, resourceType, diff }) => ({ resourceAddress, resourceType, attributes: diff })),
    };
  } finally {
    aws.destroy();
    await fake.close();
  }
}
