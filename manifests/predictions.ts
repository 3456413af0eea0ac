// Predictions (SPEC "Predictions", B): a drift-risk model learned per organization from its own
// history, with exact explanations. Envelope replies. The spec gives no permission for this
// group: drift ones apply (reads drifts:read, writes drifts:write, CLI scopes the same), and a
// CLI token must hold every repository (predictions span the organization's repositories).
// POST /:predictionId/action with action `scan` also needs scans:write (scans:trigger for a CLI
// token): a gate on the body, decided by the engine; the route carries the Scan rate limit
// whatever the action.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  ActionBody, DashboardView, ExplanationView, FeedbackBody, InsightsView, LearnView, ListQuery, MetricsView, ModelView,
  PatternList, PredictionIdParams, PredictionList, PredictionPage, PredictionView, RepositoryParams,
} from '../plugins/predictions/schemas.ts';

const read = { auth: 'bearer', scope: 'drifts:read', permission: 'drifts:read', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'drifts:write', permission: 'drifts:write', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'predictions',
  prefix: '/api/predictions',
  reply: 'envelope',
  description: 'Per-organization drift risk: a logistic model learned from the organization\'s own drift history, exact Shapley explanations, patterns and metrics',
  routes: [
    { id: 'listHighRiskPredictions', method: 'GET', url: '/high-risk', ...read, summary: 'Current predictions with riskScore >= 70, riskiest first',
      query: ListQuery, response: { 200: PredictionList }, handler: 'highRisk' },
    { id: 'listPredictions', method: 'GET', url: '/all', ...read, reply: 'named', summary: 'Current predictions, riskiest first; {success, data, pagination}',
      query: ListQuery, response: { 200: PredictionPage }, handler: 'all' },
    { id: 'predictionInsights', method: 'GET', url: '/insights', ...read, summary: 'Counts, average confidence, top risk factors and anomalies of the current run',
      response: { 200: InsightsView }, handler: 'insights' },
    { id: 'predictionPatterns', method: 'GET', url: '/patterns', ...read, summary: 'Periodic, after-repository-change and per-type change-class patterns of the drift history',
      response: { 200: PatternList }, handler: 'patterns' },
    { id: 'predictionModel', method: 'GET', url: '/model', ...read, summary: 'The organization\'s model: status (untrained, insufficient_data with what is missing, trained), validation AUC and calibration on a held-out time split, the run under way',
      response: { 200: ModelView }, handler: 'model' },
    { id: 'predictionDashboard', method: 'GET', url: '/ml-dashboard', ...read, summary: 'Score distribution, AUC over time, top risky resources',
      response: { 200: DashboardView }, handler: 'dashboard' },
    { id: 'predictionMetrics', method: 'GET', url: '/metrics', ...read, summary: 'Precision and recall of past high-risk predictions against the drifts later scans found, with feedback, action and seen counts',
      response: { 200: MetricsView }, handler: 'metrics' },
    { id: 'repositoryPredictionMetrics', method: 'GET', url: '/metrics/:repositoryConfigId', ...read, summary: 'The same for one repository config (404 unknown)',
      params: RepositoryParams, response: { 200: MetricsView }, handler: 'repositoryMetrics' },
    { id: 'learnPredictions', method: 'POST', url: '/learn', ...write, summary: 'Queues a learn run (a job) and answers at once; while one runs, answers that run (alreadyRunning)',
      response: { 202: LearnView }, raises: ['conflict'], handler: 'learn' },
    { id: 'repositoryPredictions', method: 'GET', url: '/repository/:repositoryConfigId', ...read, summary: 'Current predictions of one repository config, riskiest first (404 unknown)',
      params: RepositoryParams, query: ListQuery, response: { 200: PredictionList }, handler: 'byRepository' },
    { id: 'getPrediction', method: 'GET', url: '/:predictionId', ...read, params: PredictionIdParams, response: { 200: PredictionView }, handler: 'get' },
    { id: 'explainPrediction', method: 'GET', url: '/:predictionId/explanation', ...read, summary: 'Exact Shapley values (log-odds) and the five largest by magnitude',
      params: PredictionIdParams, response: { 200: ExplanationView }, handler: 'explanation' },
    { id: 'markPredictionSeen', method: 'POST', url: '/:predictionId/seen', ...write, params: PredictionIdParams, response: { 200: PredictionView }, handler: 'seen' },
    { id: 'predictionAction', method: 'POST', url: '/:predictionId/action', ...write, rateLimit: 'scan',
      gates: [{ body: { field: 'action', equals: 'scan' }, permission: 'scans:write', scope: 'scans:trigger' }],
      summary: 'investigate, ignore (a negative label at the next learn) or scan (a scan of its repository config: scans:write, Scan rate limit, daily scan quota)',
      params: PredictionIdParams, body: ActionBody, response: { 200: PredictionView }, raises: ['conflict', 'plan_limit'], handler: 'action' },
    { id: 'predictionFeedback', method: 'POST', url: '/:predictionId/feedback', ...write, summary: 'Whether the prediction was right; a label at the next learn',
      params: PredictionIdParams, body: FeedbackBody, response: { 200: PredictionView }, handler: 'feedback' },
  ],
});
