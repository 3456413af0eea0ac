// Drifts (SPEC "Drifts", B). CLI scopes drifts:read / drifts:write as the spec lists them;
// org permissions drifts:read / drifts:write, and export:csv for the export. reanalyze,
// generate-fix, create-pr and approve-fix come with the AI and source-host integrations.
import { Type } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { PageQuery as corePageQuery } from '../core/schemas.ts';
import {
  Aggregations, AutocompleteQuery, ConfigIdParams, DriftIdParams, DriftPage, DriftView, ExportQuery, FeedbackBody, Filters,
  ListQuery, Message, QueryQuery, RepoStatistics, ScanIdParams, SetStatusBody, SeverityRuleView, Suggestions,
} from '../plugins/drifts/schemas.ts';

const read = { auth: 'bearer', scope: 'drifts:read', permission: 'drifts:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'drifts:write', permission: 'drifts:write' } as const satisfies Partial<RouteSpec>;
// A CLI token limited to some repositories: lists are narrowed to them; a record of another
// repository, addressed by id, is refused (403 repository_denied) before the handler.
const narrowed = { repositories: 'narrowed' } as const satisfies Partial<RouteSpec>;
const drift = { repositories: { param: 'driftId', record: 'drift' } } as const satisfies Partial<RouteSpec>;
const scan = { repositories: { param: 'scanId', record: 'scan' } } as const satisfies Partial<RouteSpec>;
const config = { repositories: { param: 'repositoryConfigId', record: 'repo-config' } } as const satisfies Partial<RouteSpec>;
const PageQuery = corePageQuery();
const { sort: _sort, ...AggregationFilters } = Filters;

export default defineManifest({
  plugin: 'drifts',
  prefix: '/api/drifts',
  reply: 'envelope',
  description: 'Drift records found by scans: query, aggregate, export, status and feedback',
  routes: [
    { id: 'listDrifts', method: 'GET', url: '/', ...read, ...narrowed, reply: 'named', summary: 'Newest first; {success, data, pagination}', query: ListQuery, response: { 200: DriftPage }, handler: 'list' },
    { id: 'queryDrifts', method: 'GET', url: '/query', ...read, ...narrowed, reply: 'named',
      summary: 'Filters q (address and type), status, severity, resourceType, repositoryConfigId, resourceId, location, ruleId; sort on an allow-listed field, - for descending',
      query: QueryQuery, response: { 200: DriftPage }, handler: 'query' },
    { id: 'getDriftAggregations', method: 'GET', url: '/aggregations', ...read, ...narrowed, summary: 'bySeverity, byStatus, byResourceType over the filters; trend of the last 30 UTC days',
      query: Type.Object(AggregationFilters), response: { 200: Aggregations }, handler: 'aggregations' },
    { id: 'exportDrifts', method: 'GET', url: '/export', auth: 'download', scope: 'drifts:read', permission: 'export:csv', reply: 'raw', ...narrowed,
      summary: 'text/csv of every drift matching the /query filters, streamed. Bearer token, or ?token= from POST /api/auth/download-token',
      query: ExportQuery, produces: ['text/csv'], response: { 200: Type.String({ description: 'CSV, one drift a row' }) }, handler: 'exportCsv' },
    { id: 'listSeverityRules', method: 'GET', url: '/rules', ...read, ...narrowed,
      summary: 'The severity rule table the engine classifies with, in the order it tries them: the first that matches decides a drift\'s severity and ruleId',
      response: { 200: Type.Array(SeverityRuleView) }, handler: 'rules' },
    { id: 'getDriftSuggestions', method: 'GET', url: '/suggestions', ...read, ...narrowed, summary: 'Filter fields, sort fields, values and the most frequent resource types and repositories', response: { 200: Suggestions }, handler: 'suggestions' },
    { id: 'autocompleteDrifts', method: 'GET', url: '/autocomplete', ...read, ...narrowed, summary: 'Distinct values of an allow-listed field starting with prefix, most frequent first',
      query: AutocompleteQuery, response: { 200: Type.Array(Type.String()) }, handler: 'autocomplete' },
    { id: 'listScanDrifts', method: 'GET', url: '/scan/:scanId', ...read, ...scan, summary: 'Drifts the scan detected first or found again (at most 1000)', params: ScanIdParams, response: { 200: Type.Array(DriftView) }, handler: 'byScan' },
    { id: 'listRepositoryDrifts', method: 'GET', url: '/repository/:repositoryConfigId', ...read, ...config, params: ConfigIdParams, query: PageQuery, response: { 200: Type.Array(DriftView) }, handler: 'byRepository' },
    { id: 'getRepositoryDriftStatistics', method: 'GET', url: '/repository/:repositoryConfigId/statistics', ...read, ...config, params: ConfigIdParams, response: { 200: RepoStatistics }, handler: 'statistics' },
    { id: 'getDrift', method: 'GET', url: '/:driftId', ...read, ...drift, params: DriftIdParams, response: { 200: DriftView }, handler: 'get' },
    { id: 'setDriftStatus', method: 'PATCH', url: '/:driftId/status', ...write, ...drift, audit: 'drift.status_changed',
      summary: 'acknowledged from detected; ignored from detected or acknowledged; resolved from detected, acknowledged or ignored (409 otherwise)',
      params: DriftIdParams, body: SetStatusBody, response: { 200: DriftView }, raises: ['conflict'], handler: 'setStatus' },
    { id: 'rateDrift', method: 'POST', url: '/:driftId/feedback', ...write, ...drift, audit: 'drift.feedback', params: DriftIdParams, body: FeedbackBody, response: { 200: Message }, handler: 'feedback' },
  ],
});
