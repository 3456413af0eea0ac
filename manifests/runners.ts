// Runners (SPEC "Runners"): management by users and CLI tokens, liveness from the agents.
// The agent routes /jobs and /jobs/status and the setup routes come with the scan executor
// and the runner-agent package (issue 6).
import { Type } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { Message, PageQuery } from '../core/schemas.ts';
import { CreateRunner, CreatedRunner, Heartbeat, HeartbeatAck, NewToken, RunnerParams, RunnerView, UpdateRunner } from '../plugins/runners/schemas.ts';

const read = { auth: 'bearer', scope: 'runners:read', permission: 'runners:read' } as const satisfies Partial<RouteSpec>;
const manage = { auth: 'bearer', scope: 'runners:manage', permission: 'runners:write' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'runners',
  prefix: '/api/runners',
  reply: 'envelope',
  description: 'Self-hosted scan runners',
  routes: [
    { id: 'listRunners', method: 'GET', url: '/', ...read, query: PageQuery(), response: { 200: Type.Array(RunnerView) }, handler: 'list' },
    { id: 'createRunner', method: 'POST', url: '/', ...manage, audit: 'runner.created',
      summary: 'Create a runner; its token is shown once', body: CreateRunner, response: { 201: CreatedRunner }, handler: 'create' },
    { id: 'getRunner', method: 'GET', url: '/:runnerId', ...read, params: RunnerParams, response: { 200: RunnerView }, handler: 'get' },
    { id: 'updateRunner', method: 'PUT', url: '/:runnerId', ...manage, audit: 'runner.updated',
      params: RunnerParams, body: UpdateRunner, response: { 200: RunnerView }, handler: 'update' },
    { id: 'deleteRunner', method: 'DELETE', url: '/:runnerId', ...manage, audit: 'runner.deleted',
      params: RunnerParams, response: { 200: Message }, handler: 'remove' },
    { id: 'regenerateRunnerToken', method: 'POST', url: '/:runnerId/regenerate-token', ...manage, rateLimit: 'strict', audit: 'runner.token_regenerated',
      summary: 'Replace the runner token; the old one stops working at once', params: RunnerParams, response: { 200: NewToken }, handler: 'regenerateToken' },
    { id: 'markRunnerOffline', method: 'POST', url: '/:runnerId/mark-offline', ...manage, audit: 'runner.marked_offline',
      params: RunnerParams, response: { 200: RunnerView }, handler: 'markOffline' },
    { id: 'runnerHeartbeat', method: 'POST', url: '/heartbeat', auth: 'runner', rateLimit: 'runner',
      summary: 'Runner liveness: status online or busy, version, system info', body: Heartbeat, response: { 200: HeartbeatAck }, handler: 'heartbeat' },
  ],
});
