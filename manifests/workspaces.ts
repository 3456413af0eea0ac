// Workspaces (SPEC "Drift widgets, workspaces, projects", B). The spec lists no CLI scope
// for them, so they are closed to CLI tokens; reading needs repos:read and changing needs
// repos:write (a workspace groups repository configs).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import { CreateWorkspace, Deleted, ReorderBody, UpdateWorkspace, WorkspaceList, WorkspaceView } from '../plugins/workspaces/schemas.ts';

const read = { auth: 'bearer', permission: 'repos:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', permission: 'repos:write' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'workspaces',
  prefix: '/api/workspaces',
  reply: 'envelope',
  description: 'Workspaces group repository configs; one default per organization',
  routes: [
    { id: 'listWorkspaces', method: 'GET', url: '/', ...read, summary: 'Workspaces in display order, with repoConfigCount', response: { 200: WorkspaceList }, handler: 'list' },
    { id: 'createWorkspace', method: 'POST', url: '/', ...write, audit: 'workspace.created', body: CreateWorkspace, response: { 201: WorkspaceView }, handler: 'create' },
    { id: 'reorderWorkspaces', method: 'PUT', url: '/reorder', ...write, audit: 'workspace.reordered', summary: 'Listed workspaces first, in the given order', body: ReorderBody, response: { 200: WorkspaceList }, handler: 'reorder' },
    { id: 'getWorkspace', method: 'GET', url: '/:id', ...read, params: IdParams, response: { 200: WorkspaceView }, handler: 'get' },
    { id: 'updateWorkspace', method: 'PUT', url: '/:id', ...write, audit: 'workspace.updated', params: IdParams, body: UpdateWorkspace, response: { 200: WorkspaceView }, handler: 'update' },
    { id: 'deleteWorkspace', method: 'DELETE', url: '/:id', ...write, audit: 'workspace.deleted', summary: 'Deletes a workspace and moves its configs to the default one (409 for the default itself)', params: IdParams, response: { 200: Deleted }, raises: ['conflict'], handler: 'remove' },
    { id: 'setDefaultWorkspace', method: 'PUT', url: '/:id/default', ...write, audit: 'workspace.default_set', params: IdParams, response: { 200: WorkspaceView }, handler: 'setDefault' },
  ],
});
