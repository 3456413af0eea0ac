// google_project_service (Service Usage v1) and google_service_account (IAM v1): a project's
// enabled services and its service accounts, each listed in one paged call when a project holds
// several of them. A service the API answers as DISABLED is gone from the project: deleted.
import { last } from '../kit.ts';
import { listedReader } from './listed.ts';

/** State id `P/S` (provider 3+); `service` and `project` are also attributes. */
const serviceName = (a: Record<string, any>): string | undefined =>
  (typeof a.service === 'string' && a.service) || (typeof a.id === 'string' && a.id.includes('/') ? a.id.split('/').pop() : undefined);

export const projectServiceReader = listedReader({
  type: 'google_project_service',
  service: 'serviceusage',
  pathOf: (a, scope) => { const s = serviceName(a); return s && scope.account ? `/v1/projects/${scope.account}/services/${s}` : undefined; },
  route: '/v1/projects/:project/services/:service',
  // Only enabled services: a disabled one is absent from the list, as it is deleted for Terraform.
  listPath: (project) => `/v1/projects/${project}/services?filter=state:ENABLED&pageSize=200`,
  listRoute: '/v1/projects/:project/services',
  items: 'services',
  keyOfState: serviceName,
  keyOfJson: (j) => j.config?.name ?? last(j.name),
  gone: (j) => j.state !== 'ENABLED',
  toState: (j) => ({ service: j.config?.name ?? last(j.name) }),
  fromState: (a) => ({
    // The API names the parent by project number; the reader keys by the service name only.
    name: `projects/${a.project ?? ''}/services/${serviceName(a)}`, parent: `projects/${a.project ?? ''}`,
    config: { name: serviceName(a), title: serviceName(a) }, state: 'ENABLED',
  }),
});

/** The email: `email`, else the last segment of `name` / `id` (`projects/P/serviceAccounts/EMAIL`). */
const emailOf = (a: Record<string, any>): string | undefined =>
  (typeof a.email === 'string' && a.email) || (typeof a.name === 'string' && a.name.includes('@') ? last(a.name) : undefined)
  || (typeof a.id === 'string' && a.id.includes('@') ? last(a.id) : undefined);

export const serviceAccountReader = listedReader({
  type: 'google_service_account',
  service: 'iam',
  pathOf: (a, scope) => { const e = emailOf(a); return e && scope.account ? `/v1/projects/${scope.account}/serviceAccounts/${e}` : undefined; },
  route: '/v1/projects/:project/serviceAccounts/:email',
  listPath: (project) => `/v1/projects/${project}/serviceAccounts?pageSize=100`,
  listRoute: '/v1/projects/:project/serviceAccounts',
  items: 'accounts',
  keyOfState: emailOf,
  keyOfJson: (j) => j.email,
  toState: (j) => ({
    email: j.email, account_id: typeof j.email === 'string' ? j.email.split('@')[0] : '',
    display_name: j.displayName ?? '', description: j.description ?? '', disabled: j.disabled ?? false,
    unique_id: j.uniqueId, name: j.name, member: `serviceAccount:${j.email}`,
  }),
  fromState: (a) => {
    const email = emailOf(a) ?? '';
    return {
      name: a.name || `projects/${a.project ?? ''}/serviceAccounts/${email}`, projectId: a.project, uniqueId: a.unique_id, email,
      displayName: a.display_name || undefined, description: a.description || undefined, disabled: a.disabled || undefined,
      oauth2ClientId: a.unique_id, etag: 'MDEwMjE5MjA=',
    };
  },
});
