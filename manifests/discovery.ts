// Cloud Discovery (SPEC "Cloud Discovery", B, Pro+): scans of a cloud account that find every
// resource of the supported types in its regions, classify each as managed (a repository
// config's state holds it), orphan or ignored, codify orphans, and estimate their cost. Named
// top-level keys. Org permissions discovery:read / discovery:write; the spec's CLI scopes have
// none for discovery, so a CLI token needs scans:read / scans:trigger and one for every
// repository (an account is not a repository's). PATCH /resources/:id is not in the spec's
// table (docs/discovery.md): it is how a user marks a resource ignored.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import {
  AccountQuery, BucketList, CostQuery, Costs, Dashboard, GeneratedIac, ResourceView, ScanPage, ScanQuery, ScanStarted, ScanView, SetStatus, StartScan, Validation,
} from '../plugins/discovery/schemas.ts';

const read = { auth: 'bearer', scope: 'scans:read', permission: 'discovery:read', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', scope: 'scans:trigger', permission: 'discovery:write', repositories: 'unlimited' } as const satisfies Partial<RouteSpec>;
const ofResource = (action: string) => ({ action, details: (r: { resourceId?: string; _id?: string }, _b: unknown, p?: { id?: string }) => ({ target: { type: 'cloud_resource', id: p?.id ?? r?._id, name: r?.resourceId } }) });

export default defineManifest({
  plugin: 'discovery',
  prefix: '/api/cloud-discovery',
  reply: 'named',
  plan: 'pro',
  description: 'Cloud Discovery: every resource of a cloud account, managed / orphan / ignored, codified, with estimated costs',
  routes: [
    { id: 'startDiscoveryScan', method: 'POST', url: '/scan', ...write,
      audit: { action: 'discovery.scan_started', details: (r: { scanId?: string; cloudAccountId?: string; regions?: string[] }) => ({ scanId: r?.scanId, cloudAccountId: r?.cloudAccountId, regions: r?.regions }) },
      summary: "Starts a scan (a job) of cloudAccountId ('org': the organization's cloud_a credentials, the default; or a project id: its credentials); 400 saying what to set without usable credentials; 409 while a scan of the account runs",
      body: StartScan, response: { 202: ScanStarted }, raises: ['conflict', 'credentials_unreadable', 'plan_limit'], handler: 'start' },
    { id: 'listDiscoveryScans', method: 'GET', url: '/scans', ...read, summary: 'Newest first; filters status and cloudAccountId',
      query: ScanQuery, response: { 200: ScanPage }, handler: 'listScans' },
    { id: 'getDiscoveryScan', method: 'GET', url: '/scans/:id', ...read, summary: 'The scan with its progress (regions done of total)',
      params: IdParams, response: { 200: ScanView }, handler: 'getScan' },
    { id: 'getDiscoveredResource', method: 'GET', url: '/resources/:id', ...read, summary: 'A discovered resource with every attribute its reader returns',
      params: IdParams, response: { 200: ResourceView }, raises: ['credentials_unreadable'], handler: 'getResource' },
    { id: 'setDiscoveredResourceStatus', method: 'PATCH', url: '/resources/:id', ...write, audit: ofResource('discovery.resource_status_changed'),
      summary: "iacStatus 'ignored', or 'orphan' to undo it (not in the spec's table; docs/discovery.md)",
      params: IdParams, body: SetStatus, response: { 200: ResourceView }, raises: ['credentials_unreadable'], handler: 'setStatus' },
    { id: 'generateResourceIac', method: 'POST', url: '/resources/:id/generate-iac', ...write, audit: ofResource('discovery.iac_generated'),
      summary: 'HCL for the resource (configurable attributes; references to other discovered resources), an import block and the terraform import command',
      params: IdParams, response: { 200: GeneratedIac }, raises: ['credentials_unreadable'], handler: 'generateIac' },
    { id: 'validateResourceIac', method: 'POST', url: '/resources/:id/validate', ...write, audit: ofResource('discovery.iac_validated'),
      summary: 'Parses the generated HCL (and runs tofu/terraform validate when a binary with the AWS provider is available)',
      params: IdParams, response: { 200: Validation }, raises: ['credentials_unreadable'], handler: 'validate' },
    { id: 'discoveryDashboard', method: 'GET', url: '/dashboard', ...read, summary: 'Counts by iacStatus, coverage, by service and region; accountId filter',
      query: AccountQuery, response: { 200: Dashboard }, raises: ['credentials_unreadable'], handler: 'dashboard' },
    { id: 'discoveryCosts', method: 'GET', url: '/costs', ...read, summary: 'Estimated monthly cost from the static price table (docs/discovery.md); accountId and iacStatus filters',
      query: CostQuery, response: { 200: Costs }, handler: 'costs' },
    { id: 'listObjectStorageBuckets', method: 'GET', url: '/object-storage/buckets', ...read, summary: 'Discovered buckets with public access, encryption and versioning',
      response: { 200: BucketList }, handler: 'buckets' },
  ],
});
