// google_iam_workload_identity_pool and google_iam_workload_identity_pool_provider: IAM v1
// `projects/P/locations/global/workloadIdentityPools/POOL[/providers/ID]`. What a provider trusts
// is compared whole: its attribute condition and mapping, the OIDC issuer and audiences, the AWS
// account, the SAML metadata. A pool or provider the API answers DELETED (soft-deleted for 30
// days) is gone. A project's pools, or a pool's providers, are read with one paged list when the
// state holds several.
import type { RestReader, Scope } from '../../rest/reader.ts';
import { ownProject, type GJson } from '../kit.ts';
import { listedReader, opt, short } from '../data/kit.ts';

type A = Record<string, any>;
const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const project = (a: A, scope: Scope) => ownProject(a) ?? scope.account;
const poolPath = (a: A, scope: Scope) => (a.workload_identity_pool_id && project(a, scope)
  ? `/v1/projects/${project(a, scope)}/locations/global/workloadIdentityPools/${a.workload_identity_pool_id}` : undefined);
const providerPath = (a: A, scope: Scope) => { const p = poolPath(a, scope); return p && a.workload_identity_pool_provider_id ? `${p}/providers/${a.workload_identity_pool_provider_id}` : undefined; };

/** A soft-deleted pool or provider still answers, with state DELETED: gone for Terraform. */
function deletedIsGone(r: RestReader): RestReader {
  return {
    ...r,
    read: async (items, api, world) => (await r.read(items, api, world)).map((x) => {
      if (!x) return null;
      const { state, ...rest } = x;
      return state === 'DELETED' ? null : rest;
    }),
  };
}

/** The API names the project by number (`projects/123/...`): an item's path is its list's, plus its id. */
const under = (j: GJson, parent: string) => (j.name ? `${parent}/${short(j.name)}` : undefined);

export const workloadIdentityPoolReader = deletedIsGone(listedReader({
  type: 'google_iam_workload_identity_pool',
  service: 'iam',
  route: '/v1/projects/:project/locations/global/workloadIdentityPools/:pool',
  pathOf: poolPath,
  toState: (j) => ({
    state: j.state, workload_identity_pool_id: short(j.name), display_name: j.displayName ?? '', description: j.description ?? '', disabled: j.disabled ?? false,
  }),
  fromState: (a) => ({
    name: a.name || `projects/${ownProject(a) ?? ''}/locations/global/workloadIdentityPools/${a.workload_identity_pool_id}`,
    displayName: a.display_name || undefined, description: a.description || undefined, disabled: a.disabled || undefined, state: 'ACTIVE',
  }),
}, {
  path: (a, scope) => (project(a, scope) ? `/v1/projects/${project(a, scope)}/locations/global/workloadIdentityPools?pageSize=50` : undefined),
  route: '/v1/projects/:project/locations/global/workloadIdentityPools',
  key: 'workloadIdentityPools',
  pathOfItem: under,
}));

export const workloadIdentityPoolProviderReader = deletedIsGone(listedReader({
  type: 'google_iam_workload_identity_pool_provider',
  service: 'iam',
  route: '/v1/projects/:project/locations/global/workloadIdentityPools/:pool/providers/:provider',
  pathOf: providerPath,
  toState: (j) => ({
    state: j.state, workload_identity_pool_provider_id: short(j.name), display_name: j.displayName ?? '', description: j.description ?? '', disabled: j.disabled ?? false,
    attribute_mapping: j.attributeMapping ?? {}, attribute_condition: j.attributeCondition ?? '',
    oidc: opt(j.oidc, () => ({ issuer_uri: j.oidc.issuerUri ?? '', allowed_audiences: j.oidc.allowedAudiences ?? [], jwks_json: j.oidc.jwksJson ?? '' })),
    aws: opt(j.aws, () => ({ account_id: j.aws.accountId ?? '' })),
    saml: opt(j.saml, () => ({ idp_metadata_xml: j.saml.idpMetadataXml ?? '' })),
  }),
  fromState: (a) => {
    const oidc = first(a.oidc);
    return {
      name: a.name || `projects/${ownProject(a) ?? ''}/locations/global/workloadIdentityPools/${a.workload_identity_pool_id}/providers/${a.workload_identity_pool_provider_id}`,
      displayName: a.display_name || undefined, description: a.description || undefined, disabled: a.disabled || undefined, state: 'ACTIVE',
      attributeMapping: a.attribute_mapping ?? undefined, attributeCondition: a.attribute_condition || undefined,
      oidc: list(a.oidc).length ? { issuerUri: oidc.issuer_uri, allowedAudiences: list(oidc.allowed_audiences).length ? oidc.allowed_audiences : undefined, jwksJson: oidc.jwks_json || undefined } : undefined,
      aws: list(a.aws).length ? { accountId: first(a.aws).account_id } : undefined,
      saml: list(a.saml).length ? { idpMetadataXml: first(a.saml).idp_metadata_xml } : undefined,
    };
  },
}, {
  path: (a, scope) => { const p = poolPath(a, scope); return p && `${p}/providers?pageSize=50`; },
  route: '/v1/projects/:project/locations/global/workloadIdentityPools/:pool/providers',
  key: 'workloadIdentityPoolProviders',
  pathOfItem: under,
}));

