// Projects (SPEC "Drift widgets, workspaces, projects", B). No CLI scope is listed, so they
// are closed to CLI tokens; reading needs repos:read, changing needs repos:write, and
// saving credentials needs integrations:write (they are cloud secrets, as in the
// credentials plugin).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import { CreateProject, Deleted, ProjectCredentials, ProjectList, ProjectView, UpdateProject } from '../plugins/projects/schemas.ts';

const read = { auth: 'bearer', permission: 'repos:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', permission: 'repos:write' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'projects',
  prefix: '/api/projects',
  reply: 'envelope',
  description: 'Cloud projects with their provider and sealed credentials (masked on read)',
  routes: [
    { id: 'listProjects', method: 'GET', url: '/', ...read, response: { 200: ProjectList }, handler: 'list' },
    { id: 'createProject', method: 'POST', url: '/', ...write, audit: 'project.created', summary: 'The first project becomes the default', body: CreateProject, response: { 201: ProjectView }, handler: 'create' },
    { id: 'getProject', method: 'GET', url: '/:id', ...read, params: IdParams, response: { 200: ProjectView }, handler: 'get' },
    { id: 'updateProject', method: 'PUT', url: '/:id', ...write, audit: 'project.updated', params: IdParams, body: UpdateProject, response: { 200: ProjectView }, handler: 'update' },
    { id: 'deleteProject', method: 'DELETE', url: '/:id', ...write, audit: 'project.deleted', summary: '409 while repository configs use the project', params: IdParams, response: { 200: Deleted }, raises: ['conflict'], handler: 'remove' },
    { id: 'setProjectCredentials', method: 'PUT', url: '/:id/credentials', auth: 'bearer', permission: 'integrations:write', audit: 'project.credentials_set', rateLimit: 'credentials', limit: 'cloudAccounts',
      summary: "Saves the provider's credential fields (sealed at rest); answers the masked summary", params: IdParams, body: ProjectCredentials, response: { 200: ProjectView }, handler: 'setCredentials' },
    { id: 'setDefaultProject', method: 'PUT', url: '/:id/default', ...write, audit: 'project.default_set', params: IdParams, response: { 200: ProjectView }, handler: 'setDefault' },
  ],
});
