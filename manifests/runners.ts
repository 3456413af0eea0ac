// Runners (SPEC "Runners"): management by users and CLI tokens, setup, and the agent's own
// routes (X-Runner-Token, Runner limit): heartbeat, jobs, jobs/status. The install script and
// the agent package are opened by the runner token in the query (auth 'runner-link': a token
// that is not a runner's, or not the :runnerId's, answers 401).
import { Type } from 'typebox';
import { defineManifest, type AuditRule, type RouteSpec } from '../core/manifest.ts';
import { Message, PageQuery } from '../core/schemas.ts';
import {
  CreateRunner, CreatedRunner, Heartbeat, HeartbeatAck, JobClaim, JobStatusAck, JobStatusBody, NewToken, RunnerParams, RunnerView, SetupInfo,
  TokenQuery, RuntimeQuery, UpdateRunner,
} from '../plugins/runners/schemas.ts';

const read = { auth: 'bearer', scope: 'runners:read', permission: 'runners:read' } as const satisfies Partial<RouteSpec>;
const manage = { auth: 'bearer', scope: 'runners:manage', permission: 'runners:write' } as const satisfies Partial<RouteSpec>;

// The agent's routes are polled every few seconds: the trail records what changed, not every call.
/** A runner coming online or going busy, not every beat. */
const heartbeatAudit: AuditRule = { action: 'runner.status_changed', details: (r: { status: string }) => ({ status: r.status }), skip: (r: { changed: boolean }) => !r.changed };
/** A claim; an empty poll is not an event worth an entry. */
const claimAudit: AuditRule = {
  action: 'runner.job_claimed',
  details: (r: { job: { _id: string; repositoryConfig: string } | null }) => (r.job ? { scanId: r.job._id, repositoryConfigId: r.job.repositoryConfig } : undefined),
  skip: (r: { job: unknown }) => !r.job,
};
/** A result holds every drift with its before/after values: the trail keeps the count (also for a refused report). */
const jobStatusAudit: AuditRule = {
  action: 'runner.job_status',
  body: (b: { jobId?: string; status?: string; result?: { drifts?: unknown }; error?: string }) => ({
    jobId: b.jobId, status: b.status,
    ...(Array.isArray(b.result?.drifts) ? { driftCount: b.result.drifts.length } : {}),
    ...(b.error ? { error: b.error.slice(0, 500) } : {}),
  }),
  skip: (r: { changed: boolean }) => !r.changed,
};

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
      params: RunnerParams, response: { 200: Message }, raises: ['conflict'], handler: 'remove' },
    { id: 'regenerateRunnerToken', method: 'POST', url: '/:runnerId/regenerate-token', ...manage, rateLimit: 'strict', audit: 'runner.token_regenerated',
      summary: 'Replace the runner token; the old one stops working at once', params: RunnerParams, response: { 200: NewToken }, handler: 'regenerateToken' },
    { id: 'markRunnerOffline', method: 'POST', url: '/:runnerId/mark-offline', ...manage, audit: 'runner.marked_offline',
      params: RunnerParams, response: { 200: RunnerView }, handler: 'markOffline' },
    { id: 'runnerHeartbeat', method: 'POST', url: '/heartbeat', auth: 'runner', rateLimit: 'runner', audit: heartbeatAudit,
      summary: 'Runner liveness: status online or busy, version, system info', body: Heartbeat, response: { 200: HeartbeatAck }, raises: ['not_found'], handler: 'heartbeat' },
    { id: 'claimRunnerJob', method: 'POST', url: '/jobs', auth: 'runner', rateLimit: 'runner', audit: claimAudit,
      summary: "Claims one pending scan of the runner's organization whose config's runnerLabels are all among the runner's labels (job null when none); the scan moves to running",
      response: { 200: JobClaim }, raises: ['conflict', 'not_found'], handler: 'claimJob' },
    { id: 'reportRunnerJobStatus', method: 'POST', url: '/jobs/status', auth: 'runner', rateLimit: 'runner', audit: jobStatusAudit,
      summary: 'running, completed (result.drifts as the detection engine reports them) or failed (error); idempotent; 404 for a job this runner does not hold',
      body: JobStatusBody, response: { 200: JobStatusAck }, raises: ['conflict', 'not_found'], handler: 'jobStatus' },
    { id: 'getRunnerSetupInfo', method: 'GET', url: '/:runnerId/setup-info', ...manage,
      summary: 'Setup data including the runner token, the install command and the package URL', params: RunnerParams, response: { 200: SetupInfo }, handler: 'setupInfo' },
    { id: 'getRunnerSetupScript', method: 'GET', url: '/:runnerId/setup', auth: 'runner-link', reply: 'raw',
      summary: 'The install script (text/x-shellscript); the runner token in ?token= (401 unless it is this runner\'s)',
      params: RunnerParams, query: TokenQuery, produces: ['text/x-shellscript'], response: { 200: Type.String({ description: 'The install script' }) }, handler: 'setupScript' },
    { id: 'getRunnerAgentPackage', method: 'GET', url: '/agent/package.tgz', auth: 'runner-link', reply: 'raw',
      summary: 'The runner package (application/gzip) the install script installs: the agent in one file, its launcher and the HCL parser; a runner token in ?token=',
      query: TokenQuery, produces: ['application/gzip'], response: { 200: Type.String({ format: 'binary', description: 'The runner package tarball' }) }, raises: ['not_found'], handler: 'agentPackage' },
    { id: 'getRunnerAgentRuntime', method: 'GET', url: '/agent/runtime.tgz', auth: 'runner-link', reply: 'raw',
      summary: "The official Node.js binary the runner package runs on (application/gzip, the npm registry's node-<platform> tarball as published); a runner token in ?token=, the platform in ?platform=",
      query: RuntimeQuery, produces: ['application/gzip'], response: { 200: Type.String({ format: 'binary', description: 'The runtime tarball' }) }, raises: ['not_found'], handler: 'agentRuntime' },
  ],
});
