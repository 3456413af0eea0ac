// cloud_b (Azure): the azurerm resource types with a live reader, the attributes never reported as
// drift and the severity rules (gathered from network/, resources/, more/; engine/catalogue.ts puts
// them next to AWS's and Google's), and the scan's ARM client. State instances of other types are
// counted in stats.unsupported and not compared.
import { RestApi, type RestApiOptions } from '../rest/api.ts';
import type { RestCloud } from '../rest/reader.ts';
import type { RestReader } from '../rest/reader.ts';
import type { TokenSource } from '../token.ts';
import { ARM } from './kit.ts';
import { AZURE_MORE_IGNORED } from './more/ignore.ts';
import { AZURE_MORE_READERS } from './more/index.ts';
import { AZURE_NETWORK_IGNORED } from './network/ignore.ts';
import { AZURE_NETWORK_READERS } from './network/index.ts';
import { resourceGroupReader } from './resource-group.ts';
import { AZURE_RESOURCES_IGNORED } from './resources/ignore.ts';
import { AZURE_TAIL_IGNORED } from './tail/ignore.ts';
import { AZURE_RESOURCE_READERS } from './resources/index.ts';
import { azureScope } from './scope.ts';
import { AZURE_TAIL_READERS } from './tail/index.ts';

export const AZURE_READERS: Record<string, RestReader> = {
  azurerm_resource_group: resourceGroupReader,
  ...AZURE_NETWORK_READERS,
  ...AZURE_RESOURCE_READERS,
  ...AZURE_MORE_READERS,
  ...AZURE_TAIL_READERS,
};

/** Attribute patterns never reported, per azurerm type. */
export const AZURE_IGNORED: Record<string, string[]> = {
  ...AZURE_NETWORK_IGNORED,
  ...AZURE_MORE_IGNORED,
  ...AZURE_RESOURCES_IGNORED,
  ...AZURE_TAIL_IGNORED,
};

export { AZURE_RULES } from './rules.ts';

export const AZURE: RestCloud = { readers: AZURE_READERS, idScope: azureScope };

export const ARM_URL = 'https://management.azure.com';
/** Key Vault data-plane hosts of the public and sovereign clouds. */
export const STORAGE_HOST = /^[a-z0-9]+\.(blob|file)\.core\./i;
export const VAULT_HOST = /\.vault\.(azure\.net|azure\.cn|usgovcloudapi\.net|microsoftazure\.de)$/i;

/** The scan's ARM client; `endpoint` (tests, replay) serves ARM under `${endpoint}/management`. */
export function azureApi(tokens: TokenSource, opts: { endpoint?: string; signal?: AbortSignal; ca?: string; backoffMs?: number; budget?: RestApiOptions['budget']; vaultTokens?: TokenSource; storageTokens?: TokenSource } = {}): RestApi {
  return new RestApi({
    cloud: 'cloud_b', tokens, signal: opts.signal, ca: opts.ca, backoffMs: opts.backoffMs, budget: opts.budget,
    // Key Vault's data plane (`<vault>.vault.azure.net`) takes tokens for its own audience.
    // and Azure Storage's (blob and file properties) for storage's.
    tokensFor: (service) => (VAULT_HOST.test(service) ? opts.vaultTokens : STORAGE_HOST.test(service) ? opts.storageTokens : undefined),
    baseUrl: (service) => (opts.endpoint ? `${opts.endpoint}/${service}` : service === ARM ? ARM_URL : `https://${service}`),
    grantHint: 'the Reader role on the subscription (or on each resource group it scans)',
    // A subscription the principal cannot see answers 404 SubscriptionNotFound: a scope problem, never a deletion.
    scopeMissing: (_status, body) => (body.error?.code === 'SubscriptionNotFound' ? `the subscription is not visible (${body.error.message ?? 'SubscriptionNotFound'})` : undefined),
  });
}
