// The drift AI routes (SPEC "Drifts": reanalyze, generate-fix, approve-fix, create-pr), in a
// plugin of their own: they need drifts and the source host (scm), and use the AI-provider
// settings; drifts itself needs none of them (docs/drift-fixes.md).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { DriftIdParams, DriftView } from '../plugins/drifts/schemas.ts';
import { ApprovalView, FixView, GenerateFixQuery, PrView } from '../plugins/drift-fixes/schemas.ts';

const write = { auth: 'bearer', scope: 'drifts:write', permission: 'drifts:write' } as const satisfies Partial<RouteSpec>;
const drift = { repositories: { param: 'driftId', record: 'drift' } } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'drift-fixes',
  prefix: '/api/drifts',
  reply: 'envelope',
  errors: { 502: 'The AI provider or the source host failed (ai_provider_error, scm.provider_failed)' },
  description: 'Drift analysis, computed fixes, their approval and pull requests on the source host',
  routes: [
    { id: 'reanalyzeDrift', method: 'POST', url: '/:driftId/reanalyze', ...write, ...drift, audit: 'drift.reanalyzed',
      summary: "Fills aiAnalysis {summary, riskLevel, recommendation, source}: through the organization's AI provider (structured output, validated) when it has a key, else from the severity rule table (source 'rules'). 502 ai_provider_error naming the cause when the provider fails; the old analysis is kept",
      params: DriftIdParams, response: { 200: DriftView }, raises: ['scm.app_not_configured'], handler: 'reanalyze' },
    { id: 'generateDriftFix', method: 'POST', url: '/:driftId/generate-fix', ...write, ...drift, audit: 'drift.fix_generated',
      summary: 'A computed fix: strategy accept = a unified diff writing the live values into the declaring file at the scanned commit (values from variables, locals or expressions come back as advice); revert = no file change, re-apply the declared values (default for critical and high). 409 naming what is missing (declaring file, installation)',
      params: DriftIdParams, query: GenerateFixQuery, response: { 200: FixView }, raises: ['conflict', 'scm.app_not_configured'], handler: 'generateFix' },
    { id: 'approveDriftFix', method: 'POST', url: '/:driftId/approve-fix', ...write, ...drift, audit: 'drift.fix_approved',
      summary: 'Approves the current fix; 409 when none was generated or it was generated for an older diff of the drift',
      params: DriftIdParams, response: { 200: ApprovalView }, raises: ['conflict', 'scm.app_not_configured'], handler: 'approveFix' },
    { id: 'createDriftPr', method: 'POST', url: '/:driftId/create-pr', ...write, ...drift, audit: 'drift.pr_created',
      summary: "Creates a branch at the scanned commit, commits the approved fix through the installation and opens a pull request; a second call answers the same one. 409 naming what is missing (approved fix for the current diff, a file change, the repository's installation)",
      params: DriftIdParams, response: { 200: PrView }, raises: ['conflict', 'scm.app_not_configured'], handler: 'createPr' },
  ],
});
