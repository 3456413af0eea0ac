// SSO over SAML and SCIM 2.0 provisioning (SPEC "SSO and SCIM", Authentication 8-9; Enterprise).
// The SAML login and callback carry no credentials (the assertion is verified); the SCIM
// protocol routes take only SCIM tokens and answer in the SCIM error schema with
// application/scim+json (errorFormat 'scim'); configuration and token management need
// integrations:write in the organization x-org-id selects (verified domains too); the link
// routes take the signed-in user's own session. docs/sso-scim.md has the notes.
import { Type } from 'typebox';
import { defineManifest, type AuditEvent, type RouteSpec } from '../core/manifest.ts';
import {
  BulkBody, ConfirmLinkBody, CreateScimToken, DiscoveryParams, DomainBody, DomainList, DomainParams, DomainView, ExchangeAnswer, ExchangeBody,
  GroupMappingList, GroupMappingView, LinkList, LinkView, ListQuery, MappingBody, MessageView, PatchBody, SamlLoginQuery,
  ScimGroupBody, ScimIdParams, ScimResource, ScimTokenCreated, ScimTokenList, ScimUserBody, SearchBody, SsoConfigBody, SsoConfigRead,
  SsoConfigView, StartLinkAnswer, Success, TokenParams,
} from '../plugins/sso-scim/schemas.ts';

const admin = { auth: 'bearer', permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;
const scim = { auth: 'scim', orgContext: true, errorFormat: 'scim', consumes: ['application/scim+json', 'application/json'] } as const satisfies Partial<RouteSpec>;
const v2 = '/scim/v2';
// An account's own link to this organization's IdP: the user's session (not a CLI token) in the
// organization x-org-id selects, as a member, on the plugin's plan; no permission is needed.
const ownLink = { auth: 'user', orgContext: true } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'sso-scim',
  prefix: '/api',
  reply: 'named',
  plan: 'enterprise',
  // An unknown path under /api/scim/v2 answers the SCIM error schema, as every SCIM route does.
  unmatched: { under: '/scim/v2', errorFormat: 'scim' },
  description: 'SSO over SAML 2.0 and SCIM 2.0 provisioning by identity providers (Okta, Entra ID, OneLogin)',
  routes: [
    { id: 'getSsoConfig', method: 'GET', url: '/sso/config', ...admin, summary: 'The SAML configuration, certificate masked', response: { 200: SsoConfigRead }, handler: 'getConfig' },
    { id: 'putSsoConfig', method: 'PUT', url: '/sso/config', ...admin, audit: 'sso.config_updated',
      summary: 'Creates or replaces the SAML configuration; saml.cert must be a PEM X.509 certificate (400 otherwise)', body: SsoConfigBody, response: { 200: SsoConfigView }, raises: ['orgs.role_escalation', 'sso.domain_unverified'], handler: 'putConfig' },
    { id: 'deleteSsoConfig', method: 'DELETE', url: '/sso/config', ...admin, audit: 'sso.config_deleted',
      summary: 'Removes the configuration; provisioned users keep their accounts', response: { 200: Success }, handler: 'deleteConfig' },
    { id: 'samlLogin', method: 'GET', url: '/sso/saml/login', auth: 'none', orgContext: false, rateLimit: 'auth', reply: 'raw',
      summary: "302 to the identity provider with an AuthnRequest (HTTP-Redirect); 400 orgId is required, 404 SSO not configured for this organization",
      query: SamlLoginQuery, response: { 302: null }, raises: ['not_found'], handler: 'samlLogin' },
    { id: 'samlCallback', method: 'POST', url: '/sso/saml/callback', auth: 'none', orgContext: false, rateLimit: 'auth', reply: 'raw', rawBody: true,
      audit: { event: (r: { audit?: AuditEvent }) => r.audit },
      summary: 'Assertion Consumer Service (HTTP-POST, form field SAMLResponse): 302 to {FRONTEND_URL}/auth/callback?code=<code>, /auth/sso-link?code=<code> (a link request), or /auth/error?reason=<reason> (account_not_linked, domain_not_verified, ...)',
      consumes: ['application/x-www-form-urlencoded'], response: { 302: null }, raises: ['not_found', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'samlCallback' },
    { id: 'ssoExchange', method: 'POST', url: '/sso/exchange', auth: 'none', orgContext: false, rateLimit: 'auth', audit: false,
      summary: 'Exchanges the one-time code of the SAML callback (one use, 60 seconds) for a session: {token, refreshToken, user}; 401 invalid_token otherwise',
      body: ExchangeBody, response: { 200: ExchangeAnswer }, raises: ['invalid_token', 'not_found'], handler: 'exchange' },

    { id: 'startSsoLink', method: 'POST', url: '/sso/links', ...ownLink, rateLimit: 'auth', audit: 'sso.link_started',
      summary: "Starts linking the signed-in account to this organization's identity provider: the IdP URL to send the browser to; 404 SSO not configured for this organization",
      response: { 200: StartLinkAnswer }, handler: 'startLink' },
    { id: 'confirmSsoLink', method: 'POST', url: '/sso/links/confirm', ...ownLink, rateLimit: 'auth',
      // The one-time code stays out of the trail.
      audit: { action: 'sso.link_created', body: () => undefined },
      summary: 'Confirms the link with the code of the confirm page (the same user who started it, in the same organization, once, 5 minutes); 401 invalid_token otherwise, 409 sso.link_taken when the identity is linked to another account',
      body: ConfirmLinkBody, response: { 201: LinkView }, raises: ['orgs.owner_cannot_be_removed', 'orgs.role_escalation', 'sso.link_taken'], handler: 'confirmLink' },
    { id: 'listSsoLinks', method: 'GET', url: '/sso/links', ...ownLink, summary: "The signed-in account's link to this organization's identity provider (none or one)",
      response: { 200: LinkList }, handler: 'listLinks' },
    { id: 'deleteSsoLink', method: 'DELETE', url: '/sso/links', ...ownLink, audit: 'sso.link_removed',
      summary: "Removes the account's link to this organization's identity provider; 404 when there is none", response: { 200: Success }, raises: ['orgs.invalid_role_name', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'deleteLink' },

    { id: 'listSsoDomains', method: 'GET', url: '/sso/domains', ...admin, summary: "The organization's email domains, each pending or verified, with the DNS TXT record that proves it",
      response: { 200: DomainList }, handler: 'listDomains' },
    { id: 'addSsoDomain', method: 'POST', url: '/sso/domains', ...admin, audit: 'sso.domain_added',
      summary: 'Adds a domain to verify and answers the TXT record to publish (_drift-verification.<domain>); 400 not a domain name (wildcards and IP addresses are refused)',
      body: DomainBody, response: { 201: DomainView }, handler: 'addDomain' },
    { id: 'verifySsoDomain', method: 'POST', url: '/sso/domains/:domain/verify', ...admin, audit: 'sso.domain_verified',
      summary: 'Looks the TXT record up in DNS: found, the domain is verified; 409 sso.domain_record_missing (what to publish), 409 sso.domain_taken (verified by another organization)',
      params: DomainParams, response: { 200: DomainView }, raises: ['sso.dns_unavailable', 'sso.domain_record_missing', 'sso.domain_taken'], handler: 'verifyDomain' },
    { id: 'deleteSsoDomain', method: 'DELETE', url: '/sso/domains/:domain', ...admin, audit: 'sso.domain_removed',
      summary: 'Removes the domain: it is no longer verified, no longer enforced, and its accounts no longer sign in through this organization by domain',
      params: DomainParams, response: { 200: Success }, raises: ['orgs.invalid_role_name', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'deleteDomain' },

    { id: 'listScimTokens', method: 'GET', url: '/scim/tokens', ...admin, summary: 'SCIM tokens, prefix only', response: { 200: ScimTokenList }, handler: 'listTokens' },
    { id: 'createScimToken', method: 'POST', url: '/scim/tokens', ...admin, audit: 'scim.token_created',
      summary: 'A SCIM bearer token, shown once', body: CreateScimToken, response: { 201: ScimTokenCreated }, handler: 'createToken' },
    { id: 'deleteScimToken', method: 'DELETE', url: '/scim/tokens/:id', ...admin, audit: 'scim.token_revoked',
      summary: 'Revokes a SCIM token in every process at once', params: TokenParams, response: { 200: MessageView }, handler: 'revokeToken' },
    { id: 'listScimGroups', method: 'GET', url: '/scim/groups', ...admin, summary: 'Provisioned groups with member counts and role mappings', response: { 200: GroupMappingList }, handler: 'listGroups' },
    { id: 'setScimGroupMapping', method: 'PATCH', url: '/scim/groups/:id/mapping', ...admin, audit: 'scim.group_mapping_changed',
      summary: "Maps a group to a role (mappedRole or mappedCustomRoleId; null clears); members' roles are recomputed", params: TokenParams, body: MappingBody, response: { 200: GroupMappingView }, raises: ['orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.unknown_role'], handler: 'setMapping' },

    { id: 'scimServiceProviderConfig', method: 'GET', url: `${v2}/ServiceProviderConfig`, ...scim, response: { 200: ScimResource }, raises: ['orgs.role_escalation'], handler: 'serviceProviderConfig' },
    { id: 'scimResourceTypes', method: 'GET', url: `${v2}/ResourceTypes`, ...scim, response: { 200: ScimResource }, handler: 'resourceTypes' },
    { id: 'scimResourceType', method: 'GET', url: `${v2}/ResourceTypes/:id`, ...scim, summary: 'One resource type (User, Group); 404 otherwise',
      params: DiscoveryParams, response: { 200: ScimResource }, raises: ['orgs.role_escalation'], handler: 'resourceType' },
    { id: 'scimSchemas', method: 'GET', url: `${v2}/Schemas`, ...scim, response: { 200: ScimResource }, handler: 'schemas' },
    { id: 'scimSchema', method: 'GET', url: `${v2}/Schemas/:id`, ...scim, summary: 'One schema by its URN; 404 otherwise',
      params: DiscoveryParams, response: { 200: ScimResource }, raises: ['orgs.role_escalation'], handler: 'schema' },
    { id: 'scimSearch', method: 'POST', url: `${v2}/.search`, ...scim, summary: 'SearchRequest over users and groups (RFC 7644 §3.4.3): users first, then groups, paged as one list',
      body: SearchBody, response: { 200: ScimResource }, handler: 'search' },
    { id: 'scimSearchUsers', method: 'POST', url: `${v2}/Users/.search`, ...scim, summary: 'SearchRequest over users (the query of GET /Users in the body)',
      body: SearchBody, response: { 200: ScimResource }, handler: 'searchUsers' },
    { id: 'scimSearchGroups', method: 'POST', url: `${v2}/Groups/.search`, ...scim, summary: 'SearchRequest over groups (the query of GET /Groups in the body)',
      body: SearchBody, response: { 200: ScimResource }, handler: 'searchGroups' },
    { id: 'scimListUsers', method: 'GET', url: `${v2}/Users`, ...scim, summary: 'ListResponse; filter (RFC 7644 §3.4.2.2), startIndex (1-based), count (default 100, max 200)',
      query: ListQuery, response: { 200: ScimResource }, handler: 'listUsers' },
    { id: 'scimCreateUser', method: 'POST', url: `${v2}/Users`, ...scim,
      summary: 'Provisions a user: a member is linked; an account of a domain the organization verified joins; anyone else is sent an invitation to accept; 409 uniqueness',
      body: ScimUserBody, response: { 201: ScimResource }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'createUser' },
    { id: 'scimGetUser', method: 'GET', url: `${v2}/Users/:id`, ...scim, params: ScimIdParams, query: ListQuery, response: { 200: ScimResource }, raises: ['orgs.role_escalation'], handler: 'getUser' },
    { id: 'scimReplaceUser', method: 'PUT', url: `${v2}/Users/:id`, ...scim, params: ScimIdParams, body: ScimUserBody, response: { 200: ScimResource }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'replaceUser' },
    { id: 'scimPatchUser', method: 'PATCH', url: `${v2}/Users/:id`, ...scim, summary: 'PatchOp (RFC 7644 §3.5.2); active false deactivates the member in this organization',
      params: ScimIdParams, body: PatchBody, response: { 200: ScimResource }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'patchUser' },
    { id: 'scimDeleteUser', method: 'DELETE', url: `${v2}/Users/:id`, ...scim, summary: 'Removes the user from the organization; the account stays', params: ScimIdParams, response: { 204: null }, raises: ['orgs.invalid_role_name', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'deleteUser' },
    { id: 'scimListGroups', method: 'GET', url: `${v2}/Groups`, ...scim, query: ListQuery, response: { 200: ScimResource }, handler: 'listGroupsScim' },
    { id: 'scimCreateGroup', method: 'POST', url: `${v2}/Groups`, ...scim, body: ScimGroupBody, response: { 201: ScimResource }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'createGroup' },
    { id: 'scimGetGroup', method: 'GET', url: `${v2}/Groups/:id`, ...scim, params: ScimIdParams, query: ListQuery, response: { 200: ScimResource }, raises: ['orgs.role_escalation'], handler: 'getGroup' },
    { id: 'scimReplaceGroup', method: 'PUT', url: `${v2}/Groups/:id`, ...scim, params: ScimIdParams, body: ScimGroupBody, response: { 200: ScimResource }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'replaceGroup' },
    { id: 'scimPatchGroup', method: 'PATCH', url: `${v2}/Groups/:id`, ...scim, summary: 'PatchOp; 204 No Content (RFC 7644 §3.5.2; a large group is not sent back on each member change)',
      params: ScimIdParams, body: PatchBody, response: { 204: null }, raises: ['conflict', 'orgs.already_member', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'patchGroup' },
    { id: 'scimDeleteGroup', method: 'DELETE', url: `${v2}/Groups/:id`, ...scim, params: ScimIdParams, response: { 204: null }, raises: ['orgs.invalid_role_name', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'deleteGroup' },
    { id: 'scimBulk', method: 'POST', url: `${v2}/Bulk`, ...scim, summary: 'BulkRequest of up to 100 operations (413 beyond); bulkId references; failOnErrors',
      body: BulkBody, response: { 200: ScimResource }, raises: ['conflict', 'orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'bulk' },
  ],
});
void Type;
