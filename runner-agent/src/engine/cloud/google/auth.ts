// cloud_c access tokens through google-auth-library: the stored service-account key (a JWT
// signed with its private key, exchanged at Google's OAuth token endpoint), or, on a runner with
// no stored credentials, application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's
// ADC file, the metadata server). Requests go through undici (the house HTTP client) as
// gaxios's fetch. The private key is never in a message, and no library error is kept as a
// cause (gaxios errors carry the request, whose body holds a signed assertion).
import { createPrivateKey } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { GoogleAuth, JWT, type AuthClient } from 'google-auth-library';
import { ScanError } from '../../errors.ts';
import { cachedTokenSource, networkCode, scrub, unreachable, type TokenSource } from '../token.ts';

export interface GoogleAuthOptions {
  /** Token endpoint instead of https://oauth2.googleapis.com/token (tests). */
  tokenUrl?: string;
  /** Extra PEM CA trusted for the token endpoint, beside the usual roots (TLS-inspecting proxies). */
  ca?: string;
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform.read-only';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const ATTEMPT_TIMEOUT_MS = 20_000;

export type GoogleTokenSource = TokenSource & {
  /** The project to scan: the stored one, else the key's, else (after the first token) ADC's. */
  readonly projectId?: string;
  project(): Promise<string | undefined>;
};

export function googleTokenSource(credentials: Record<string, unknown> | null, opts: GoogleAuthOptions = {}): GoogleTokenSource {
  const dispatcher = opts.ca ? new Agent({ connect: { ca: [...rootCertificates, opts.ca] } }) : undefined;
  const transporterOptions = {
    timeout: ATTEMPT_TIMEOUT_MS,
    fetchImplementation: ((url: string | URL, init: object) => undiciFetch(url, { ...init, ...(dispatcher ? { dispatcher } : {}) })) as never,
  };
  // google-auth-library has no token URL option (its JWT client posts to Google's fixed URL, and
  // ignores a key's token_uri): the request is redirected where gaxios lets a caller change it.
  // A key's own token_uri is not honoured either: stored keys come from users, and the service
  // must not post to a host a user chose.
  const redirect = (client: AuthClient) => {
    if (!opts.tokenUrl) return;
    const target = new URL(opts.tokenUrl);
    client.transporter.interceptors.request.add({
      resolved: async (o) => (String(o.url).startsWith(GOOGLE_TOKEN_URL) ? { ...o, url: target } : o),
    });
  };
  const host = URL.parse(opts.tokenUrl ?? GOOGLE_TOKEN_URL)?.host ?? 'oauth2.googleapis.com';

  if (credentials === null) {
    const auth = new GoogleAuth({ scopes: SCOPE, clientOptions: { transporterOptions } });
    const redirected = new WeakSet<AuthClient>(); // getClient() answers the same client each time
    let describe = "the runner host's application default credentials";
    let projectId: string | undefined;
    const project = async () => (projectId ??= await auth.getProjectId().catch(() => undefined));
    const source = cachedTokenSource(describe, async (signal) => {
      let client: AuthClient;
      try {
        client = await auth.getClient();
      } catch (err) {
        // Described, never quoted: a parse error of a key file would quote the key's text.
        const message = String((err as Error)?.message ?? '');
        const detail = message.includes('GOOGLE_APPLICATION_CREDENTIALS') ? `the file GOOGLE_APPLICATION_CREDENTIALS names could not be read (${(err as { code?: string }).code ?? 'unreadable'})`
          : message.startsWith('Could not load the default credentials') ? 'none found' : `they could not be loaded (${(err as Error)?.name ?? 'error'})`;
        throw new ScanError('no_credentials', `cloud_c has no stored credentials and this runner has no usable Google application default credentials (${detail}): store cloud_c credentials, or set GOOGLE_APPLICATION_CREDENTIALS or attach a service account with roles/viewer to the runner host, then scan again`);
      }
      if (!redirected.has(client)) {
        redirect(client);
        redirected.add(client);
        // Name the account once known, so "grant <describe> roles/viewer" names who to grant.
        const email = (await auth.getCredentials().catch(() => undefined))?.client_email;
        if (email) describe = `service account ${email} (application default credentials)`;
      }
      const got = await fetchToken(client, signal, (err) => failure(err, describe, host, signal, [], 'check the credentials this runner host provides'));
      await project();
      return got;
    });
    return { get describe() { return describe; }, token: source.token, get projectId() { return projectId; }, project };
  }

  const key = parseKey(credentials.serviceAccountKey);
  const email = key.client_email as string;
  const privateKey = key.private_key as string;
  const projectId = nonEmpty(credentials.projectId) ?? nonEmpty(key.project_id);
  const describe = `service account ${email}`;
  const client = new JWT({ email, key: privateKey, keyId: nonEmpty(key.private_key_id), scopes: [SCOPE], transporterOptions });
  redirect(client);
  const source = cachedTokenSource(describe, (signal) => fetchToken(client, signal,
    (err) => failure(err, describe, host, signal, [privateKey], 'check the key is valid and not disabled, and that the service account exists')));
  return { describe, token: source.token, projectId, project: async () => projectId };
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/** The stored key, an object or its JSON text, checked for what signing needs. */
function parseKey(raw: unknown): Record<string, unknown> {
  let key = raw;
  if (typeof raw === 'string') {
    try { key = JSON.parse(raw); } catch { throw new ScanError('no_credentials', 'The cloud_c serviceAccountKey is not valid JSON: paste the JSON key file of the service account, then scan again'); }
  }
  if (!key || typeof key !== 'object' || Array.isArray(key)) {
    throw new ScanError('no_credentials', 'The cloud_c credentials lack serviceAccountKey: update them with the JSON key file of the service account, then scan again');
  }
  const k = key as Record<string, unknown>;
  const missing = ['client_email', 'private_key'].filter((f) => !nonEmpty(k[f]));
  if (k.type !== undefined && k.type !== 'service_account') missing.unshift(`a service_account type (it is "${String(k.type)}")`);
  if (missing.length) throw new ScanError('no_credentials', `The cloud_c serviceAccountKey lacks ${missing.join(', ')}: upload the service account's JSON key file, then scan again`);
  try { createPrivateKey(k.private_key as string); } catch {
    throw new ScanError('no_credentials', `The cloud_c serviceAccountKey of ${String(k.client_email)} has a private_key that is not a PEM private key: upload the JSON key file as Google issued it, then scan again`);
  }
  return k;
}

async function fetchToken(client: AuthClient, signal: AbortSignal, onError: (err: unknown) => ScanError) {
  // getAccessToken takes no signal: the fetch's time limit is raced here.
  const limit = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  try {
    const { token } = await Promise.race([client.getAccessToken(), limit]);
    if (!token) throw new Error('no token returned');
    // An unknown expiry (never seen with Google's endpoints) is cached for a short while only.
    return { token, expiresAt: client.credentials.expiry_date ?? Date.now() + 10 * 60_000 };
  } catch (err) {
    throw onError(err);
  }
}

function failure(err: unknown, describe: string, host: string, signal: AbortSignal, secrets: string[], todo: string): ScanError {
  if (err instanceof ScanError) return err;
  const code = networkCode(err);
  if (signal.aborted || code) return unreachable('cloud_c', host, code ?? 'network error', signal);
  // Google's words: `{error: 'invalid_grant', error_description: 'Invalid JWT Signature.'}`.
  const e = (err ?? {}) as { message?: string; response?: { status?: number; data?: { error?: unknown; error_description?: unknown } } };
  const data = e.response?.data;
  const reason = typeof data?.error === 'string'
    ? `${data.error}${typeof data.error_description === 'string' ? ` (${data.error_description})` : ''}`
    : String(e.message ?? err).split('\n')[0].slice(0, 200);
  const status = e.response?.status ? `HTTP ${e.response.status} ` : '';
  return new ScanError('access_denied', `cloud_c could not get a token for ${describe}: ${status}${scrub(reason, secrets)}; ${todo}`);
}
