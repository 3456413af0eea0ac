// Test harness for the Azure and Google readers: a state's instances served by the fake cloud
// (rest/fake.ts, from the readers' own `fake` routes), read back through the readers and compared
// as a scan compares (rest/compare.ts). `live` lets a test change what the cloud answers.
import { azureApi, AZURE } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { googleApi, GOOGLE } from '../../../runner-agent/src/engine/cloud/google/index.ts';
import type { RestApi } from '../../../runner-agent/src/engine/cloud/rest/api.ts';
import { compareRest } from '../../../runner-agent/src/engine/cloud/rest/compare.ts';
import type { RestCloud } from '../../../runner-agent/src/engine/cloud/rest/reader.ts';
import { startRestFake, stateWorld, type RestFake } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import type { Scope } from '../../../runner-agent/src/engine/cloud/rest/reader.ts';
import { googleIdScope } from '../../../runner-agent/src/engine/cloud/google/scope.ts';
import { azureScope } from '../../../runner-agent/src/engine/cloud/azure/scope.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import { IGNORED_ATTRIBUTES } from '../../../runner-agent/src/engine/catalogue.ts';
import { readStateDocument, type StateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { DetectedDrift, ScanStats, StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Cloud = 'azure' | 'google';
const CLOUDS: Record<Cloud, { cloud: RestCloud; style: 'arm' | 'google'; api: typeof azureApi; scope(i: StateInstance): Scope | undefined }> = {
  azure: { cloud: AZURE, style: 'arm', api: azureApi, scope: azureScope },
  google: { cloud: GOOGLE, style: 'google', api: googleApi, scope: googleIdScope },
};

export const staticTokens = { token: async () => 'test-token', describe: 'the test principal' };

/** A managed instance as the state parser gives it (address `type.name`). */
export function instance(type: string, name: string, attributes: Record<string, unknown>, sensitivePaths?: string[][]): StateInstance {
  return { address: `${type}.${name}`, type, name, attributes, ...(sensitivePaths ? { sensitivePaths } : {}) };
}

export interface Compared { drifts: DetectedDrift[]; compared: number; stats: Pick<ScanStats, 'unsupported' | 'ignoredDiffs' | 'foundInIdScope'>; api: RestApi; fake: RestFake }

/**
 * Compares `state` against a fake cloud that answers from `live` (default: the state itself).
 * `tune` runs on the fake before the scan (throttle, deny); the fake is closed after.
 */
export async function compareAgainst(
  cloud: Cloud, state: StateInstance[], live: StateInstance[] = state,
  opts: { pageSize?: number; tune?: (fake: RestFake) => void; keep?: (c: Compared) => Promise<void> | void } = {},
): Promise<Compared> {
  const c = CLOUDS[cloud];
  const routes = Object.values(c.cloud.readers).flatMap((r) => r.fake);
  const fake = await startRestFake({ style: c.style, routes, world: stateWorld(live), pageSize: opts.pageSize });
  opts.tune?.(fake);
  const api = c.api(staticTokens, { endpoint: fake.endpoint, backoffMs: 5 });
  try {
    const entries = state.map((instance) => ({ instance, scope: c.scope(instance) ?? { account: 'unknown', location: null, source: 'test' } }));
    const stats = { unsupported: {} as Record<string, number>, ignoredDiffs: 0 };
    const { drifts, compared } = await compareRest(entries, c.cloud, api, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats);
    const out = { drifts, compared, stats, api, fake };
    await opts.keep?.(out);
    return out;
  } finally {
    await api.destroy();
    await fake.close();
  }
}

/** A copy of `i` with some attributes changed (the live side of a drift). */
export const changed = (i: StateInstance, attrs: Record<string, unknown>): StateInstance => ({ ...i, attributes: { ...i.attributes, ...attrs } });

/**
 * Compares `state` against ARM answering the documented example bodies (`examples`: ARM id ->
 * JSON, as the REST API specs show them) instead of the readers' own mapping back.
 */
export async function compareWithArmExamples(examples: Record<string, unknown>, state: StateInstance[]): Promise<{ drifts: DetectedDrift[]; compared: number; calls: number }> {
  const byId = new Map(Object.entries(examples).map(([id, body]) => [id.toLowerCase(), body]));
  const fake = await startRestFake({
    style: 'arm', world: { of: () => [] },
    routes: [{ method: 'GET', service: 'management', path: '/*id', answer: (req) => byId.get(req.path.toLowerCase()) }],
  });
  const api = azureApi(staticTokens, { endpoint: fake.endpoint, backoffMs: 5 });
  try {
    const stats = { unsupported: {} as Record<string, number>, ignoredDiffs: 0 };
    const entries = state.map((instance) => ({ instance, scope: azureScope(instance)! }));
    const { drifts, compared } = await compareRest(entries, AZURE, api, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats);
    return { drifts, compared, calls: api.totalCalls };
  } finally {
    await api.destroy();
    await fake.close();
  }
}

/**
 * The real public states of a provider, parsed: test/engine/corpus-<provider>/ (which also holds
 * the older corpus's driftctl states of that provider), each file once, in name order.
 */
export function corpusStates(provider: 'azurerm' | 'google'): { file: string; text: string; doc: StateDocument }[] {
  const dir = path.join(import.meta.dirname, '..', `corpus-${provider}`);
  return readdirSync(dir).filter((f) => f.endsWith('.tfstate')).sort().map((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    return { file, text, doc: readStateDocument(text, file) };
  });
}
