// Cloud Discovery of a cloud_b subscription or cloud_c project: every type whose reader has a
// list mode (rest/reader.ts `list`) is listed account-wide — ARM's subscription-level list per
// type, Compute's aggregated or project lists — and each resource is described by the reader's
// own mapping, as drift detection describes it. Types fan out with a concurrency limit; the
// REST client waits out throttling (Retry-After) instead of failing the scan.
import type { DiscoverOutcome, DiscoveredResource } from './discover.ts';
import { AZURE_READERS } from './cloud/azure/index.ts';
import { GOOGLE_READERS } from './cloud/google/index.ts';
import { ARM } from './cloud/azure/kit.ts';
import { timeoutError, ScanError } from './errors.ts';
import { mapLimit } from './limit.ts';
import { restSetup } from './rest-scan.ts';
import type { BudgetOptions } from './budget/rates.ts';

export type RestProvider = 'cloud_b' | 'cloud_c';
const READERS = { cloud_b: AZURE_READERS, cloud_c: GOOGLE_READERS };

/** Types Cloud Discovery lists for a provider. */
export const discoverableRest = (provider: RestProvider): string[] => Object.keys(READERS[provider]).filter((t) => READERS[provider][t].list);

export interface RestDiscoverInput {
  provider: RestProvider;
  credentials: Record<string, unknown> | null;
  endpoint?: string;
  ca?: string;
  /** Locations (Azure) or regions and zones' regions (Google) to keep; default all. */
  regions?: string[];
  types?: string[];
  concurrency?: number;
  /** The API budget's store and the organization's rates (types.ts ScanInput.apiBudget). */
  apiBudget?: BudgetOptions;
  signal?: AbortSignal;
  onProgress?: (p: { regionsDone: number; regionsTotal: number }) => void;
}

/** The subscription or project the credentials name (cloud_b subscriptionId, cloud_c projectId). */
function accountOf(provider: RestProvider, credentials: Record<string, unknown> | null, fallback: string): string {
  const id = provider === 'cloud_b' ? credentials?.subscriptionId : credentials?.projectId;
  if (typeof id === 'string' && id) return id;
  if (fallback) return fallback;
  throw new ScanError('no_credentials', provider === 'cloud_b' ? 'The cloud_b credentials name no subscriptionId: set it, then scan again' : 'The cloud_c credentials name no projectId: set it, then scan again');
}

/** Where a location belongs: Google zones `us-central1-a` count in their region `us-central1`. */
const regionOf = (provider: RestProvider, location: string) => (provider === 'cloud_c' ? location.replace(/^([a-z]+-[a-z]+\d+)-[a-z]$/, '$1') : location);

/** Every location (Azure) or region (Google) the account offers. */
export async function restRegionsOf(input: Pick<RestDiscoverInput, 'provider' | 'credentials' | 'endpoint' | 'ca' | 'signal'>): Promise<string[]> {
  const setup = await restSetup(input);
  try {
    const account = accountOf(input.provider, input.credentials, setup.credentialsProject);
    const list = input.provider === 'cloud_b'
      ? await setup.api.list<{ name?: string }>(ARM, `/subscriptions/${account}/locations?api-version=2022-12-01`, 'list locations', { style: 'nextLink' })
      : await setup.api.list<{ name?: string }>('compute', `/compute/v1/projects/${account}/regions`, 'list regions', { style: 'pageToken' });
    return list.map((l) => l.name).filter((n): n is string => typeof n === 'string' && !!n).sort();
  } finally {
    await setup.close();
  }
}

export async function discoverRestAccount(input: RestDiscoverInput): Promise<DiscoverOutcome> {
  const started = performance.now();
  const setup = await restSetup(input);
  try {
    const account = accountOf(input.provider, input.credentials, setup.credentialsProject);
    const readers = READERS[input.provider];
    const types = (input.types?.length ? input.types : discoverableRest(input.provider)).filter((t) => readers[t]?.list);
    const keep = input.regions?.length ? new Set(input.regions) : undefined;
    input.onProgress?.({ regionsDone: 0, regionsTotal: keep?.size ?? 1 });
    const found = await mapLimit(types, input.concurrency ?? 8, async (type) => {
      if (input.signal?.aborted) throw timeoutError(input.signal);
      const listed = await readers[type].list!(setup.api, account);
      // A global resource (no location: Google networks, firewalls) is kept whatever the regions asked.
      return listed.filter((l) => !keep || !l.location || keep.has(regionOf(input.provider, l.location)))
        .map((l): DiscoveredResource => ({
          // The service: ARM's provider namespace (Microsoft.Network), or Google's API (compute, storage...).
          type, service: input.provider === 'cloud_b' ? (/\/providers\/([^/]+)\//i.exec(l.id)?.[1] ?? 'Microsoft.Resources') : type.split('_')[1],
          // ARM ids are case-insensitive; the inventory's are lowercased the same way (rest-scan.ts).
          resourceId: input.provider === 'cloud_b' ? l.id.toLowerCase() : l.id, region: l.location ?? 'global', attributes: l.attributes,
        }));
    });
    input.onProgress?.({ regionsDone: keep?.size ?? 1, regionsTotal: keep?.size ?? 1 });
    return {
      regions: keep ? [...keep] : [], resources: found.flat(),
      stats: {
        sdkCalls: setup.api.totalCalls, sdkCallsByService: { ...setup.api.calls }, durationMs: Math.round(performance.now() - started),
        throttledCalls: setup.api.budget.throttledCalls, waitedMs: Math.round(setup.api.budget.waitedMs),
      },
    };
  } finally {
    await setup.close();
  }
}
