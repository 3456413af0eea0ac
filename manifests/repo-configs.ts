// Repository configs (SPEC "Repository configs", B). CLI scopes as the spec lists them;
// org permissions repos:read / repos:write. A CLI token limited to some repositories sees
// only those configs and cannot create new ones (403 repository_denied).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams, PagedList, PageQuery } from '../core/schemas.ts';
import { CreateRepoConfig, Deleted, RepoConfigEditView, RepoConfigStats, RepoConfigView, UpdateRepoConfig } from '../plugins/repo-configs/schemas.ts';

const read = { auth: 'bearer', scope: 'repos:read', permission: 'repos:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'repos:write', permission: 'repos:write' } as const satisfies Partial<RouteSpec>;
/** A CLI token limited to some repositories reaches only the configs among them (403 repository_denied). */
const byId = { repositories: { param: 'id', record: 'repo-config' } } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'repo-configs',
  prefix: '/api/repo-configs',
  reply: 'envelope',
  description: 'Repository scan configurations: repository, branch, IaC paths, provider and optional cron schedule',
  routes: [
    { id: 'listRepoConfigs', method: 'GET', url: '/', ...read, reply: 'named', summary: 'The configs of the organization, newest first, a page at a time: {success, data, pagination:{page, limit, total, pages}}', repositories: 'narrowed', query: PageQuery(), response: { 200: PagedList(RepoConfigView) }, handler: 'list' },
    { id: 'createRepoConfig', method: 'POST', url: '/', ...write, audit: 'repository.config_created', repositories: 'unlimited', limit: 'repositories',
      summary: 'Plan limits: Free 1 repository, Pro 5, Team and Enterprise unlimited (403 plan_limit). Without workspaceId the default workspace.',
      body: CreateRepoConfig, response: { 201: RepoConfigView }, handler: 'create' },
    { id: 'getRepoConfig', method: 'GET', url: '/:id', ...read, ...byId, params: IdParams, response: { 200: RepoConfigView }, handler: 'get' },
    { id: 'getRepoConfigForEdit', method: 'GET', url: '/:id/edit', ...write, ...byId, summary: 'The config with what only writers see (next scheduled run)', params: IdParams, response: { 200: RepoConfigEditView }, handler: 'editView' },
    { id: 'updateRepoConfig', method: 'PUT', url: '/:id', ...write, audit: 'repository.config_updated', ...byId,
      summary: 'Changing or removing scheduleCron moves or removes the schedule', params: IdParams, body: UpdateRepoConfig, response: { 200: RepoConfigView }, handler: 'update' },
    { id: 'deleteRepoConfig', method: 'DELETE', url: '/:id', ...write, audit: 'repository.config_deleted', ...byId, summary: 'Deletes the config, its schedule, its scans and its drifts', params: IdParams, response: { 200: Deleted }, raises: ['conflict'], handler: 'remove' },
    { id: 'getRepoConfigStats', method: 'GET', url: '/:id/stats', ...read, ...byId, params: IdParams, response: { 200: RepoConfigStats }, handler: 'stats' },
  ],
});
