// Cloud credentials (SPEC "AI providers, chat, credentials", base /api/auth, B on all) and
// the credential rotation status (SPEC "Authentication and profile"). Credentials belong to
// the caller's organization (x-org-id or the default org). Every route counts against the
// credentials rate limit (60 per hour per user), which fails closed: 503 when Redis is down.
// Reading a masked summary needs integrations:read; reading full values, saving and
// deleting need integrations:write.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  CloudACredentials, CloudAFull, CloudASummary, CloudBCredentials, CloudBFull, CloudBSummary,
  CloudCCredentials, CloudCFull, CloudCSummary, Deleted, RotationStatus,
} from '../plugins/credentials/schemas.ts';

const common = { auth: 'bearer', orgContext: true, rateLimit: 'credentials' } as const satisfies Partial<RouteSpec>;
const read = { ...common, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { ...common, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'credentials',
  prefix: '/api/auth',
  reply: 'named',
  description: 'Cloud provider credentials of an organization (sealed at rest, masked on read) and their rotation status',
  routes: [
    { id: 'getCloudACredentials', method: 'GET', url: '/cloud-a-credentials', ...read,
      summary: 'Masked summary of the Cloud A credentials', response: { 200: CloudASummary }, handler: 'getCloudA' },
    { id: 'getCloudACredentialsFull', method: 'GET', url: '/cloud-a-credentials/full', ...write,
      summary: 'Cloud A credentials including the secret', response: { 200: CloudAFull }, handler: 'getCloudAFull' },
    { id: 'setCloudACredentials', method: 'POST', url: '/cloud-a-credentials', ...write, audit: 'credentials.cloud_a_set',
      summary: 'Save (replace) the Cloud A credentials', body: CloudACredentials, response: { 200: CloudASummary }, handler: 'setCloudA' },
    { id: 'deleteCloudACredentials', method: 'DELETE', url: '/cloud-a-credentials', ...write, audit: 'credentials.cloud_a_deleted',
      summary: 'Delete the Cloud A credentials', response: { 200: Deleted }, handler: 'deleteCloudA' },

    { id: 'getCloudBCredentials', method: 'GET', url: '/cloud-b-credentials', ...read,
      summary: 'Masked summary of the Cloud B credentials', response: { 200: CloudBSummary }, handler: 'getCloudB' },
    { id: 'getCloudBCredentialsFull', method: 'GET', url: '/cloud-b-credentials/full', ...write,
      summary: 'Cloud B credentials including the secret', response: { 200: CloudBFull }, handler: 'getCloudBFull' },
    { id: 'setCloudBCredentials', method: 'POST', url: '/cloud-b-credentials', ...write, audit: 'credentials.cloud_b_set',
      summary: 'Save (replace) the Cloud B credentials', body: CloudBCredentials, response: { 200: CloudBSummary }, handler: 'setCloudB' },
    { id: 'deleteCloudBCredentials', method: 'DELETE', url: '/cloud-b-credentials', ...write, audit: 'credentials.cloud_b_deleted',
      summary: 'Delete the Cloud B credentials', response: { 200: Deleted }, handler: 'deleteCloudB' },

    { id: 'getCloudCCredentials', method: 'GET', url: '/cloud-c-credentials', ...read,
      summary: 'Masked summary of the Cloud C credentials', response: { 200: CloudCSummary }, handler: 'getCloudC' },
    { id: 'getCloudCCredentialsFull', method: 'GET', url: '/cloud-c-credentials/full', ...write,
      summary: 'Cloud C credentials including the service account key', response: { 200: CloudCFull }, handler: 'getCloudCFull' },
    { id: 'setCloudCCredentials', method: 'POST', url: '/cloud-c-credentials', ...write, audit: 'credentials.cloud_c_set',
      summary: 'Save (replace) the Cloud C credentials', body: CloudCCredentials, response: { 200: CloudCSummary }, handler: 'setCloudC' },
    { id: 'deleteCloudCCredentials', method: 'DELETE', url: '/cloud-c-credentials', ...write, audit: 'credentials.cloud_c_deleted',
      summary: 'Delete the Cloud C credentials', response: { 200: Deleted }, handler: 'deleteCloudC' },

    { id: 'getCredentialRotationStatus', method: 'GET', url: '/credential-rotation-status', ...read,
      summary: "Whether the organization's cloud credentials are due for rotation (the oldest decides)",
      response: { 200: RotationStatus }, handler: 'getRotationStatus' },
  ],
});
