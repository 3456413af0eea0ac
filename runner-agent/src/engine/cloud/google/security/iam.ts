// IAM member / binding / policy of service accounts (IAM v1 `projects/P/serviceAccounts/E:getIamPolicy`)
// and of Data Catalog policy tags (Data Catalog v1 `projects/P/locations/L/taxonomies/T/policyTags/PT:getIamPolicy`),
// through platform's IAM family: one POST per resource per scan, members as sets, conditions kept.
// The state names the account `service_account_id` (`projects/P/serviceAccounts/E`, or the email
// alone) and the tag `policy_tag` (its full name).
import type { FakeRequest, RestReader } from '../../rest/reader.ts';
import { iamFamily, type IamTarget } from '../platform/iam.ts';

type A = Record<string, any>;
const SUFFIX = ':getIamPolicy';
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** `projects/P/serviceAccounts/E`: the id as written, or the email with the instance's project (`-` lets IAM find it). */
export function serviceAccountName(a: A, project: string): string | undefined {
  const id = text(a.service_account_id);
  if (!id) return undefined;
  if (id.startsWith('projects/')) return id;
  return `projects/${project || '-'}/serviceAccounts/${id}`;
}

const target = (resourceOf: IamTarget['resourceOf'], route: string, fromParams: (p: Record<string, string>, n: string) => string, prefix: string): IamTarget => ({
  service: prefix === 'google_service_account' ? 'iam' : 'datacatalog',
  resourceOf,
  method: 'POST',
  policyPath: (resource) => `/v1/${resource}${SUFFIX}`,
  route,
  resourceOfRequest: (req: FakeRequest) => (req.params.target?.endsWith(SUFFIX) ? fromParams(req.params, req.params.target.slice(0, -SUFFIX.length)) : ''),
  types: { member: `${prefix}_iam_member`, binding: `${prefix}_iam_binding`, policy: `${prefix}_iam_policy` },
});

export const SERVICE_ACCOUNT_IAM = target(
  (a, project) => serviceAccountName(a, String(a.project ?? project ?? '')),
  '/v1/projects/:project/serviceAccounts/:target',
  (q, n) => `projects/${q.project}/serviceAccounts/${n}`,
  'google_service_account',
);

export const POLICY_TAG_IAM = target(
  (a) => text(a.policy_tag)?.replace(/^\/+/, ''),
  '/v1/projects/:project/locations/:location/taxonomies/:taxonomy/policyTags/:target',
  (q, n) => `projects/${q.project}/locations/${q.location}/taxonomies/${q.taxonomy}/policyTags/${n}`,
  'google_data_catalog_policy_tag',
);

export const SECURITY_IAM_TYPES = [SERVICE_ACCOUNT_IAM, POLICY_TAG_IAM].flatMap((t) => [t.types.member, t.types.binding, t.types.policy!]);

export const SECURITY_IAM_READERS: Record<string, RestReader> = { ...iamFamily(SERVICE_ACCOUNT_IAM), ...iamFamily(POLICY_TAG_IAM) };
