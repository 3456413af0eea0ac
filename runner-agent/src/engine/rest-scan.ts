// A cloud_b (Azure) or cloud_c (Google Cloud) scan: the same steps as AWS's (index.ts) on the
// REST readers: the repository's states, the scope of each instance (Azure: its ARM id; Google:
// project from attributes, provider block or credentials, and its zone or region), the live
// reads through cloud/rest, the shared comparison, ignore and severity code. The tofu path runs
// here too when asked and a binary is present (the providers' credentials as environment).
import { AZURE, azureApi } from './cloud/azure/index.ts';
import { GOOGLE, googleApi } from './cloud/google/index.ts';
import { GoogleScopes } from './cloud/google/scope.ts';
import { RestApi } from './cloud/rest/api.ts';
import { compareRest, type RestEntry } from './cloud/rest/compare.ts';
import type { RestCloud } from './cloud/rest/reader.ts';
import type { Scope } from './cloud/rest/reader.ts';
import { moduleOf } from './address.ts';
import type { RootModule } from './hcl.ts';
import type { RemoteStates } from './state.ts';
import { inventoryOf } from './inventory.ts';
import { RegionResolver } from './region.ts';
import type { InventoryItem, ScanInput, ScanStats, StateInstance } from './types.ts';
import { scanBudget } from './budget/scan.ts';
import { Declarations } from './where.ts';

const UNKNOWN = 'unknown';
const UNSUPPORTED = 'unsupported';

export interface RestScanSetup {
  cloud: RestCloud;
  api: RestApi;
  credentialsProject: string;
  /** The states this cloud keeps (backend "gcs" / "azurerm", gs:// and azblob:// state paths). */
  remote: RemoteStates;
  /** Closes every client the setup opened. */
  close(): Promise<void>;
}

/**
 * The cloud's readers and a client with the scan's credentials. The identity libraries load only
 * for these scans (about 0.2 s each): AWS scans and the service's start never pay for them.
 * Google's project comes from the credentials, else from application default credentials (which
 * fetches a token: it would be fetched for the first read anyway).
 */
export async function restSetup(input: Pick<ScanInput, 'provider' | 'credentials' | 'endpoint' | 'ca' | 'signal' | 'apiBudget'>): Promise<RestScanSetup> {
  const creds = (input.credentials ?? null) as Record<string, unknown> | null;
  const { endpoint, ca, signal } = input;
  // One budget for every client of the scan (ARM, data planes, the state blob): one set of stats.
  const budget = scanBudget(input);
  if (input.provider === 'cloud_b') {
    const { azureTokenSource } = await import('./cloud/azure/auth.ts');
    const auth = { ...(endpoint ? { authorityHost: endpoint } : {}), ...(ca ? { ca } : {}) };
    // Key vault secrets are read on Key Vault's data plane, with tokens for its audience.
    // and blobs and share files on Azure Storage's, with tokens for Storage (the state blob's too).
    const vaultTokens = azureTokenSource(creds, { ...auth, scope: 'https://vault.azure.net/.default' });
    const storageTokens = azureTokenSource(creds, { ...auth, scope: 'https://storage.azure.com/.default' });
    const subscription = { budget, account: typeof creds?.subscriptionId === 'string' ? creds.subscriptionId : '' };
    const api = azureApi(azureTokenSource(creds, auth), { endpoint, signal, ca, vaultTokens, storageTokens, budget: subscription });
    // A state blob is read with an Azure Storage token (another audience than ARM's), made on first use.
    let blobs: RestApi | undefined;
    const blob = async (account: string, container: string, name: string) => {
      blobs ??= new RestApi({
        cloud: 'cloud_b', tokens: storageTokens, signal, ca, budget: subscription,
        baseUrl: (service) => (endpoint ? `${endpoint}/${service}` : `https://${service}`), headers: { 'x-ms-version': '2021-08-06' },
        grantHint: `the Storage Blob Data Reader role on storage account ${account} (or its container ${container})`,
      });
      const path = name.split('/').map(encodeURIComponent).join('/');
      const url = endpoint ? `${endpoint}/blob/${account}/${container}/${path}` : `https://${account}.blob.core.windows.net/${container}/${path}`;
      return blobs.getText('blob', url, `read the state blob ${account}/${container}/${name}`);
    };
    return {
      cloud: AZURE, api, credentialsProject: '', remote: { blob },
      close: async () => { await api.destroy(); await blobs?.destroy(); },
    };
  }
  const { googleTokenSource } = await import('./cloud/google/auth.ts');
  const tokens = googleTokenSource(creds, { ...(endpoint ? { tokenUrl: `${endpoint}/token` } : {}), ...(ca ? { ca } : {}) });
  const project = tokens.projectId ?? (await tokens.project()) ?? '';
  const api = googleApi(tokens, { endpoint, signal, ca, budget: { budget, account: project } });
  const gcs = (bucket: string, object: string) =>
    api.getText('storage', `/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(object)}?alt=media`, `read the state object gs://${bucket}/${object}`);
  return { cloud: GOOGLE, api, credentialsProject: project, remote: { gcs }, close: () => api.destroy() };
}

/**
 * Each instance of a compared type with its scope; instances whose scope is unknown are left out
 * and counted in stats.regionUnknown (never reported deleted), the sources counted in regionSources.
 */
export async function withScopes(
  provider: ScanInput['provider'], states: { module: RootModule; instances: StateInstance[] }[], repoRoot: string,
  setup: Pick<RestScanSetup, 'cloud' | 'credentialsProject'>, stats: Pick<ScanStats, 'regionSources' | 'regionUnknown'>,
): Promise<RestEntry[]> {
  const out: RestEntry[] = [];
  const declarations = new Declarations(repoRoot);
  for (const { module, instances } of states) {
    const google = provider === 'cloud_c' ? new GoogleScopes(module, repoRoot, setup.credentialsProject) : undefined;
    await google?.prepare(instances);
    const modules = new RegionResolver(module, repoRoot, '');
    const groupLocations = azureGroupLocations(instances);
    for (const instance of instances) {
      if (!setup.cloud.readers[instance.type]) { out.push({ instance, scope: { account: '', location: null, source: UNSUPPORTED } }); continue; }
      let scope: Scope | undefined = google ? await google.scopeOf(instance) : setup.cloud.idScope(instance);
      if (scope && !scope.location && !google) scope = { ...scope, location: groupLocations.get(groupOf(instance)) ?? null };
      const counts = scope ? (stats.regionSources ??= {}) : (stats.regionUnknown ??= {});
      const key = scope ? scope.source : instance.type;
      counts[key] = (counts[key] ?? 0) + 1;
      if (!scope) { out.push({ instance, scope: { account: '', location: null, source: UNKNOWN } }); continue; }
      const declaring = (await modules.moduleAt(moduleOf(instance.module)))?.module;
      const declaredIn = await declarations.find(declaring, instance.type, instance.name);
      const ignoreChanges = declaring?.ignoreChanges?.get(`${instance.type}.${instance.name}`);
      out.push({ instance, scope, declaredIn, ...(ignoreChanges ? { ignoreChanges } : {}) });
    }
  }
  return out;
}

const groupOf = (i: StateInstance) => (typeof i.attributes.id === 'string' ? /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+/i.exec(i.attributes.id)?.[0].toLowerCase() ?? '' : '');
/** Resources without a location of their own (subnets, rules, associations) are where their resource group is. */
function azureGroupLocations(instances: StateInstance[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of instances) {
    if (i.type === 'azurerm_resource_group' && typeof i.attributes.location === 'string') out.set(groupOf(i), i.attributes.location.replace(/\s+/g, '').toLowerCase());
  }
  return out;
}

/** Compares the entries; the inventory carries each instance's scope. */
export async function compareScoped(
  entries: RestEntry[], setup: RestScanSetup, ignore: Parameters<typeof compareRest>[3], stats: ScanStats,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; addresses?: Set<string> },
): Promise<{ drifts: Awaited<ReturnType<typeof compareRest>>['drifts']; compared: number; inventory: InventoryItem[] }> {
  const supported = entries.filter((e) => e.scope.source !== UNSUPPORTED && e.scope.source !== UNKNOWN);
  const targeted = opts.addresses ? supported.filter((e) => opts.addresses!.has(e.instance.address)) : supported;
  for (const e of entries) if (e.scope.source === UNSUPPORTED) stats.unsupported[e.instance.type] = (stats.unsupported[e.instance.type] ?? 0) + 1;
  const { drifts, compared } = await compareRest(targeted, setup.cloud, setup.api, ignore, stats, opts);
  const located = new Map(supported.filter((e) => e.scope.location).map((e) => [e.instance, e.scope.location!]));
  const accounts = new Map(supported.map((e) => [e.instance, e.scope.account]));
  // ARM ids are case-insensitive (resourceGroups / resourcegroups): lowercased, as Cloud Discovery records them.
  const inventory = inventoryOf(entries.map((e) => e.instance), located).map((item, k) => ({
    ...item, account: accounts.get(entries[k].instance) || item.account,
    ...(item.type.startsWith('azurerm_') && item.resourceId ? { resourceId: item.resourceId.toLowerCase() } : {}),
  }));
  return { drifts, compared, inventory };
}
