// cloud_b access tokens for Azure Resource Manager, through @azure/identity: the stored service
// principal's client secret (ClientSecretCredential), or, on a runner with no stored
// credentials, the host's own identity (DefaultAzureCredential: environment, workload identity,
// managed identity, Azure CLI). Errors say what failed and what to change; the client secret is
// never in a message, and no library error is kept as a cause (MSAL's errors carry request data).
import { rootCertificates } from 'node:tls';
import { ClientSecretCredential, DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import { ScanError } from '../../errors.ts';
import { cachedTokenSource, networkCode, scrub, unreachable, type TokenSource } from '../token.ts';

export interface AzureAuthOptions {
  /** Identity platform host, https://login.microsoftonline.com unless overridden (tests, sovereign clouds). */
  authorityHost?: string;
  /** ARM endpoint; a sovereign cloud's (https://management.usgovcloudapi.net) picks its own token scope. */
  armUrl?: string;
  /** Extra PEM CA trusted for the token endpoint, beside the usual roots (TLS-inspecting proxies, tests). */
  ca?: string;
  /** Retries of a token request on network errors and 5xx (library default 3; tests pass 0). */
  retries?: number;
  /** Token scope other than ARM's (Azure Storage's `https://storage.azure.com/.default` for a state blob). */
  scope?: string;
}

const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';
const ARM_SCOPE = 'https://management.azure.com/.default';
const FIELDS = ['subscriptionId', 'tenantId', 'clientId', 'clientSecret'] as const;

/** The token scope of the ARM endpoint: Azure public cloud's unless `armUrl` names another cloud's management host. */
export function armScope(armUrl?: string): string {
  const host = armUrl ? URL.parse(armUrl)?.hostname : undefined;
  return host?.startsWith('management.') ? `https://${host}/.default` : ARM_SCOPE;
}

export function azureTokenSource(credentials: Record<string, unknown> | null, opts: AzureAuthOptions = {}): TokenSource {
  const authority = opts.authorityHost ?? DEFAULT_AUTHORITY;
  const host = URL.parse(authority)?.host ?? authority;
  const options = {
    // A host other than Microsoft's is not in MSAL's list of known clouds: without this MSAL would
    // ask login.microsoftonline.com to vouch for it (instance discovery), and fail.
    ...(opts.authorityHost ? { authorityHost: opts.authorityHost, disableInstanceDiscovery: true } : {}),
    // core-rest-pipeline's supported TLS option: it builds the https.Agent of the token requests.
    // `ca` replaces Node's roots, so they are listed too (as the service's OUTBOUND_EXTRA_CA_FILE does).
    ...(opts.ca ? { tlsOptions: { ca: [...rootCertificates, opts.ca] } } : {}),
    ...(opts.retries !== undefined ? { retryOptions: { maxRetries: opts.retries } } : {}),
  };
  const scope = opts.scope ?? armScope(opts.armUrl);

  if (credentials === null) {
    const describe = "the runner host's Azure identity (DefaultAzureCredential)";
    const credential = new DefaultAzureCredential(options);
    return cachedTokenSource(describe, (signal) => fetchToken(credential, scope, signal, (err) => {
      if ((err as Error)?.name === 'CredentialUnavailableError') {
        return new ScanError('no_credentials', 'cloud_b has no stored credentials and this runner has no Azure identity (no managed or workload identity, no AZURE_TENANT_ID/AZURE_CLIENT_ID/AZURE_CLIENT_SECRET): store cloud_b credentials or give the runner host a managed identity with Reader on the subscription, then scan again');
      }
      return failure(err, describe, host, signal, [], 'check the identity assigned to this runner host');
    }));
  }

  const missing = FIELDS.filter((f) => typeof credentials[f] !== 'string' || !(credentials[f] as string).trim());
  if (missing.length) {
    throw new ScanError('no_credentials', `The cloud_b credentials lack ${missing.join(', ')}: update them, then scan again`);
  }
  const { tenantId, clientId, clientSecret } = credentials as Record<(typeof FIELDS)[number], string>;
  const describe = `service principal ${clientId} in tenant ${tenantId}`;
  let credential: TokenCredential;
  try {
    credential = new ClientSecretCredential(tenantId, clientId, clientSecret, options);
  } catch {
    // The library checks the tenant id's characters before any request.
    throw new ScanError('no_credentials', `The cloud_b tenant id "${tenantId}" is not a valid tenant id or domain: update the credentials, then scan again`);
  }
  return cachedTokenSource(describe, (signal) => fetchToken(credential, scope, signal,
    (err) => failure(err, describe, host, signal, [clientSecret], 'check the tenant id, client id and secret')));
}

async function fetchToken(credential: TokenCredential, scope: string, signal: AbortSignal, onError: (err: unknown) => ScanError) {
  let got: Awaited<ReturnType<TokenCredential['getToken']>>;
  try {
    got = await credential.getToken(scope, { abortSignal: signal });
  } catch (err) {
    throw onError(err);
  }
  if (!got) throw onError(new Error('no token returned'));
  return { token: got.token, expiresAt: got.expiresOnTimestamp };
}

/** A ScanError for a failed token request; MSAL hides network causes behind its own error codes. */
function failure(err: unknown, describe: string, host: string, signal: AbortSignal, secrets: string[], todo: string): ScanError {
  const e = (err ?? {}) as { message?: string; errorResponse?: { errorDescription?: string } };
  const text = `${e.errorResponse?.errorDescription ?? ''} ${e.message ?? String(err)}`;
  const code = networkCode(err);
  if (signal.aborted || code || /\b(network_error|endpoints_resolution_error)\b/.test(text)) {
    return unreachable('cloud_b', host, code ?? (/endpoints_resolution_error/.test(text) ? 'its OpenID configuration could not be read' : 'network error'), signal);
  }
  // AAD's own words: "AADSTS7000215: Invalid client secret provided." (its first sentence).
  const aad = /AADSTS\d+:[^.]*\.?/.exec(text)?.[0];
  const reason = aad ?? /\b(invalid_\w+|unauthorized_client|access_denied)\b/.exec(text)?.[0] ?? text.trim().split('\n')[0].slice(0, 200);
  return new ScanError('access_denied', `cloud_b could not get a token for ${describe}: ${scrub(reason, secrets)}; ${todo}`);
}
