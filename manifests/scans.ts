// Scans (SPEC "Scans", B). CLI scopes as the spec lists them (scans:read, scans:trigger);
// org permissions scans:read, and scans:write for trigger, cancel and delete. Trigger
// counts against the Scan rate limit (10 per minute per organization) and, on Free, 3
// scans per day (403 plan_limit). The list answers {success, data, pagination}.
import { Type } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { Nullable } from '../core/schemas.ts';
import { ApiRatesBody, ApiRatesView, ConfigIdParams, Dashboard, ListQuery, Message, PageQuery, ScanDetails, ScanIdParams, ScanPage, ScanView } from '../plugins/scans/schemas.ts';

const read = { auth: 'bearer', scope: 'scans:read', permission: 'scans:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'scans:trigger', permission: 'scans:write' } as const satisfies Partial<RouteSpec>;
// A CLI token limited to some repositories: lists are narrowed to them; a scan or config of
// another repository, addressed by id, is refused (403 repository_denied) before the handler.
const narrowed = { repositories: 'narrowed' } as const satisfies Partial<RouteSpec>;
const scan = { repositories: { param: 'scanId', record: 'scan' } } as const satisfies Partial<RouteSpec>;
const config = { repositories: { param: 'repositoryConfigId', record: 'repo-config' } } as const satisfies Partial<RouteSpec>;
type Triggered = { _id: string; repositoryConfig: string; repositoryName: string };

export default defineManifest({
  plugin: 'scans',
  prefix: '/api/scans',
  reply: 'envelope',
  description: 'Scans of repository configs: trigger, life cycle (pending, running, completed, failed, cancelled) and results',
  routes: [
    { id: 'listScans', method: 'GET', url: '/', ...read, ...narrowed, reply: 'named', summary: 'Newest first; {success, data, pagination:{page, limit, total}}', query: ListQuery, response: { 200: ScanPage }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'list' },
    { id: 'getScanDashboard', method: 'GET', url: '/dashboard', ...read, ...narrowed, summary: 'Totals, 5 recent scans and the drift trend of the last 30 days (UTC)', response: { 200: Dashboard }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'dashboard' },
    { id: 'triggerScan', method: 'POST', url: '/trigger/:repositoryConfigId', ...write, ...config, rateLimit: 'scan', limit: 'scansPerDay',
      audit: { action: 'scan.triggered', details: (scan: Triggered) => ({ scanId: scan._id, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName }) },
      summary: 'Creates a pending scan (triggeredBy manual) and hands it to the executor', params: ConfigIdParams, response: { 201: ScanView }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'trigger' },
    { id: 'listRepositoryScans', method: 'GET', url: '/repository/:repositoryConfigId', ...read, ...config, params: ConfigIdParams, query: PageQuery, response: { 200: Type.Array(ScanView) }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'byRepository' },
    { id: 'getLatestRepositoryScan', method: 'GET', url: '/repository/:repositoryConfigId/latest', ...read, ...config, summary: 'data is null when the config has no scan yet', params: ConfigIdParams, response: { 200: Nullable(ScanView) }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'latest' },
    // Not in the SPEC (docs/scans.md API notes): the organization's cloud API budget rates, an org setting
    // (not a repository record): closed to CLI tokens; changing them takes org:admin.
    { id: 'getScanApiRates', method: 'GET', url: '/api-budget', auth: 'bearer', permission: 'scans:read', summary: "The organization's cloud API rates (requests per second per service); {} when the defaults apply", response: { 200: ApiRatesView }, handler: 'apiRates' },
    { id: 'updateScanApiRates', method: 'PUT', url: '/api-budget', auth: 'bearer', permission: 'org:admin', audit: 'scan.api_rates_updated',
      summary: "Replaces the organization's cloud API rates ({} restores the defaults); every scan, Drift Watch, re-check and discovery run of the organization draws from these budgets",
      body: ApiRatesBody, response: { 200: ApiRatesView }, raises: ['bad_request'], handler: 'setApiRates' },
    { id: 'getScan', method: 'GET', url: '/:scanId', ...read, ...scan, params: ScanIdParams, response: { 200: ScanView }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'get' },
    { id: 'getScanDetails', method: 'GET', url: '/:scanId/details', ...read, ...scan, params: ScanIdParams, response: { 200: ScanDetails }, raises: ['credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'details' },
    { id: 'cancelScan', method: 'POST', url: '/:scanId/cancel', ...write, ...scan, audit: 'scan.cancelled', summary: 'Only from pending or running (409 otherwise)', params: ScanIdParams, response: { 200: ScanView }, raises: ['conflict', 'credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'cancel' },
    { id: 'deleteScan', method: 'DELETE', url: '/:scanId', ...write, ...scan, audit: 'scan.deleted', summary: 'Deletes a finished scan and the drifts it first detected (409 while pending or running)', params: ScanIdParams, response: { 200: Message }, raises: ['conflict', 'credentials_unreadable', 'scm.app_not_configured', 'scm.provider_failed'], handler: 'remove' },
  ],
});
