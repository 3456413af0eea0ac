// Guardrails (SPEC "Guardrails", B, Pro+; named top-level keys). Org permissions
// guardrails:read / guardrails:write; CLI tokens may only evaluate plans (scope scans:trigger,
// for the repositories they are allowed) and read an evaluation (scans:read). The evaluation,
// approval and break-glass routes are the spec's gaps, filled as docs/guardrails.md says.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import {
  BypassBody, CreateGuardrail, DeployView, EvaluateBody, EvaluationView, GuardrailDetail, GuardrailList, GuardrailView,
  ListQuery, RepositoryIds, ReviewBody, TemplateList, UpdateGuardrail,
} from '../plugins/guardrails/schemas.ts';

const read = { auth: 'bearer', permission: 'guardrails:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', permission: 'guardrails:write' } as const satisfies Partial<RouteSpec>;
const evaluation = { repositories: { param: 'id', record: 'guardrail-evaluation' } } as const satisfies Partial<RouteSpec>;
/** A plan of thousands of resource changes is tens of megabytes (the engine's default limit is 1 MB). */
export const PLAN_BODY_LIMIT = 64 * 1024 * 1024;

type Evaluated = { _id: string; repositoryId: string; decision: string; status: string };
type Deployed = { deployedTo: string[] };

export default defineManifest({
  plugin: 'guardrails',
  prefix: '/api/guardrails',
  reply: 'named',
  plan: 'pro',
  description: 'Policy rules evaluated on Terraform/OpenTofu plans before apply, deployable to repository configs',
  routes: [
    { id: 'listGuardrails', method: 'GET', url: '/', ...read, summary: 'Newest first; filters status (active/inactive) and enforcement', query: ListQuery, response: { 200: GuardrailList }, handler: 'list' },
    { id: 'createGuardrail', method: 'POST', url: '/', ...write, audit: 'guardrail.created',
      summary: 'Rules are checked at write time: paths, a value for every operator but exists/not_exists, safe regular expressions (400 naming the rule)',
      body: CreateGuardrail, response: { 201: GuardrailView }, handler: 'create' },
    { id: 'listGuardrailTemplates', method: 'GET', url: '/templates', ...read, summary: 'Built-in templates (security, cost, tagging)', response: { 200: TemplateList }, handler: 'templates' },
    { id: 'evaluatePlan', method: 'POST', url: '/evaluate', auth: 'bearer', scope: 'scans:trigger', permission: 'scans:write', repositories: { body: 'repositoryId' }, bodyLimit: PLAN_BODY_LIMIT,
      audit: {
        action: 'guardrail.evaluated',
        body: (b: { repositoryId?: string; plan?: { resource_changes?: unknown[] } }) => ({ repositoryId: b?.repositoryId, resourceChanges: b?.plan?.resource_changes?.length ?? 0 }),
        details: (r: Evaluated) => (r ? { evaluationId: r._id, repositoryId: r.repositoryId, decision: r.decision } : undefined),
      },
      summary: 'Evaluates a plan (terraform/tofu show -json, format 1.x) against every active guardrail deployed to the repository config. decision: blocked, pending (approvalId set) or allowed; 403 repository_denied for a CLI token limited to other repositories',
      body: EvaluateBody, response: { 201: EvaluationView }, raises: ['guardrails.evaluation_busy', 'guardrails.evaluation_timeout'], handler: 'evaluate' },
    { id: 'getGuardrailEvaluation', method: 'GET', url: '/evaluations/:id', auth: 'bearer', scope: 'scans:read', permission: 'guardrails:read', ...evaluation,
      summary: 'One stored evaluation with its current status (pending, approved, rejected, bypassed...)', params: IdParams, response: { 200: EvaluationView }, handler: 'evaluation' },
    { id: 'approveGuardrailEvaluation', method: 'POST', url: '/evaluations/:id/approve', ...write, audit: 'guardrail.approved',
      summary: 'A pending evaluation, by a member other than its requester (403 for the requester, 409 unless pending)', params: IdParams, body: ReviewBody, response: { 200: EvaluationView }, raises: ['conflict'], handler: 'approve' },
    { id: 'rejectGuardrailEvaluation', method: 'POST', url: '/evaluations/:id/reject', ...write, audit: 'guardrail.rejected',
      summary: 'A pending evaluation, by a member other than its requester', params: IdParams, body: ReviewBody, response: { 200: EvaluationView }, raises: ['conflict'], handler: 'reject' },
    { id: 'bypassGuardrailEvaluation', method: 'POST', url: '/evaluations/:id/bypass', auth: 'bearer', permission: 'org:admin',
      audit: { action: 'guardrail.bypassed', details: (r: { audit?: Record<string, unknown> }) => r?.audit },
      summary: 'Break-glass: owner or admin (org:admin) lets a blocked or pending evaluation through with a reason; emits guardrail.bypassed',
      params: IdParams, body: BypassBody, response: { 200: EvaluationView }, raises: ['conflict'], handler: 'bypass' },
    { id: 'getGuardrail', method: 'GET', url: '/:id', ...read, summary: 'With its evaluation history (newest first, at most 20)', params: IdParams, response: { 200: GuardrailDetail }, handler: 'get' },
    { id: 'updateGuardrail', method: 'PATCH', url: '/:id', ...write, audit: 'guardrail.updated', summary: 'Partial; rules are checked as on create', params: IdParams, body: UpdateGuardrail, response: { 200: GuardrailView }, handler: 'update' },
    { id: 'deleteGuardrail', method: 'DELETE', url: '/:id', ...write, audit: 'guardrail.deleted', summary: 'Removes it from every repository', params: IdParams, response: { 204: null }, raises: ['conflict'], handler: 'remove' },
    { id: 'deployGuardrail', method: 'PATCH', url: '/:id/deploy', ...write,
      audit: { action: 'guardrail.deployed', details: (r: Deployed, b: { repositoryIds?: string[] }) => ({ repositoryIds: b?.repositoryIds, deployedTo: r?.deployedTo }) },
      summary: 'Adds repository configs of the organization (400 naming any other id; nothing is deployed then); deploying twice adds no duplicate',
      params: IdParams, body: RepositoryIds, response: { 200: DeployView }, raises: ['conflict'], handler: 'deploy' },
    { id: 'undeployGuardrail', method: 'PATCH', url: '/:id/undeploy', ...write,
      audit: { action: 'guardrail.undeployed', details: (r: Deployed, b: { repositoryIds?: string[] }) => ({ repositoryIds: b?.repositoryIds, deployedTo: r?.deployedTo }) },
      summary: 'Removes repository configs (400 naming an id that is not a repository config of the organization)',
      params: IdParams, body: RepositoryIds, response: { 200: DeployView }, raises: ['conflict'], handler: 'undeploy' },
  ],
});
