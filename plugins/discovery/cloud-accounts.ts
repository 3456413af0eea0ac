// The cloud account a discovery scan reads: `org` (the organization's cloud_a credentials),
// `org:cloud_b` / `org:cloud_c` (its Azure or Google Cloud credentials), or a project id (that
// project's credentials, whatever their provider). 400 saying what to set when none are usable,
// before any scan is recorded; an unknown project is 404.
import { badRequest, notFound } from '../../core/errors.ts';
import type { CredentialService } from '../credentials/service.ts';
import type { ProjectService } from '../projects/service.ts';
import { DISCOVERABLE_TYPES, discoverableRest, type AwsCredentials, type RestProvider } from '../../runner-agent/src/engine/discovery.ts';

export type Provider = 'cloud_a' | RestProvider;
/** An account to scan: cloud_a keys, or cloud_b / cloud_c stored credentials as the engine takes them. */
export type Account =
  | { provider: 'cloud_a'; credentials: AwsCredentials; accountName: string }
  | { provider: RestProvider; credentials: Record<string, unknown>; accountName: string };

const ORG_ACCOUNTS: Record<string, Provider> = { org: 'cloud_a', 'org:cloud_b': 'cloud_b', 'org:cloud_c': 'cloud_c' };
const SET_ROUTE: Record<Provider, string> = { cloud_a: 'cloud-a-credentials', cloud_b: 'cloud-b-credentials', cloud_c: 'cloud-c-credentials' };
const REST_FIELDS: Record<RestProvider, string[]> = { cloud_b: ['subscriptionId', 'tenantId', 'clientId', 'clientSecret'], cloud_c: ['projectId', 'serviceAccountKey'] };

/** The types a scan of the provider's accounts lists by default. */
export const typesOf = (provider: Provider) => (provider === 'cloud_a' ? DISCOVERABLE_TYPES : discoverableRest(provider));

interface Sources {
  credentials?: Pick<CredentialService, 'values'>;
  projects?: Pick<ProjectService, 'find' | 'credentialValues'>;
}

export function accountResolver(d: Sources) {
  /** The account's provider, credentials and name. */
  return async function account(orgId: string, cloudAccountId: string): Promise<Account> {
    let values: Record<string, unknown> | null;
    let accountName: string;
    let where: string;
    let provider: Provider;
    if (ORG_ACCOUNTS[cloudAccountId]) {
      provider = ORG_ACCOUNTS[cloudAccountId];
      values = (await d.credentials?.values(orgId, provider)) as Record<string, unknown> | null ?? null;
      accountName = `Organization ${provider} credentials`;
      where = `No ${provider} credentials are set for the organization: set them with POST /api/auth/${SET_ROUTE[provider]}, or name a project with its own credentials in cloudAccountId`;
    } else {
      const project = await d.projects?.find(orgId, cloudAccountId);
      if (!project) throw notFound('Cloud account');
      provider = project.provider as Provider;
      values = await d.projects!.credentialValues(orgId, cloudAccountId);
      accountName = `Project ${project.name}`;
      where = `Project ${project.name} has no credentials: set them with PUT /api/projects/${cloudAccountId}/credentials`;
    }
    if (!values) throw badRequest(where);
    if (provider !== 'cloud_a') {
      const missing = REST_FIELDS[provider].filter((k) => !values![k]);
      if (missing.length) throw badRequest(`${accountName} lack ${missing.join(', ')}: set them, then scan again`);
      return { provider, credentials: values, accountName };
    }
    const { accessKeyId, secretAccessKey, region, sessionToken } = values;
    if (typeof accessKeyId !== 'string' || !accessKeyId || typeof secretAccessKey !== 'string' || !secretAccessKey) {
      throw badRequest(`${accountName} lack an access key id or secret access key: set accessKeyId and secretAccessKey, then scan again`);
    }
    return {
      provider: 'cloud_a', accountName,
      credentials: { accessKeyId, secretAccessKey, region: typeof region === 'string' && region ? region : 'us-east-1', ...(typeof sessionToken === 'string' && sessionToken ? { sessionToken } : {}) },
    };
  };
}
