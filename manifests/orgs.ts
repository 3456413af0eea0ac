// Organizations (SPEC "Organizations"): the routes the engine needs; the rest of the table
// (members, invitations, roles, audit logs) is the organizations issue.
import { Type } from 'typebox';
import { defineManifest } from '../core/manifest.ts';
import { CreateOrg, OrgParams, OrgView } from '../plugins/orgs/schemas.ts';

export default defineManifest({
  plugin: 'orgs',
  prefix: '/api/orgs',
  reply: 'named',
  required: true,
  description: 'Organizations',
  routes: [
    { id: 'listOrganizations', method: 'GET', url: '/', auth: 'user', response: { 200: Type.Object({ organizations: Type.Array(OrgView) }) }, handler: 'list' },
    { id: 'createOrganization', method: 'POST', url: '/', auth: 'user', audit: 'org.created', body: CreateOrg, response: { 201: OrgView }, handler: 'create' },
    { id: 'getOrganization', method: 'GET', url: '/:orgId', auth: 'bearer', cliAllowed: true, orgParam: 'orgId', permission: 'org:read',
      params: OrgParams, response: { 200: OrgView }, handler: 'get' },
  ],
});
