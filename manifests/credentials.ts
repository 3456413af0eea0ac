// Cloud credentials (SPEC "AI providers, chat, credentials", base /api/auth, B on all) and
// the credential rotation status (SPEC "Authentication and profile"). Credentials belong to
// the caller's organization (x-org-id or the default org). Every route counts against the
// credentials rate limit (60 per hour per user), which fails closed: 503 when Redis is down.
// Reading a masked summary needs integrations:read; reading full values, saving and
// deleting need integrations:write.
import type { TSchema } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  CloudACredentials, CloudAFull, CloudASummary, CloudBCredentials, CloudBFull, CloudBSummary,
  CloudCCredentials, CloudCFull, CloudCSummary, Deleted, RotationStatus,
} from '../plugins/credentials/schemas.ts';

const common = { auth: 'bearer', orgContext: true, rateLimit: 'credentials' } as const satisfies Partial<RouteSpec>;
const read = { ...common, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { ...common, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;

/** The four routes of one provider: masked summary, full values, save, delete (literal types kept, so handlers are typed). */
function providerRoutes<const L extends 'A' | 'B' | 'C', B extends TSchema, Su extends TSchema, F extends TSchema>(letter: L, schemas: { body: B; summary: Su; full: F }, secretLabel: string) {
  const url = `/cloud-${letter.toLowerCase() as Lowercase<L>}-credentials` as const;
  const audit = `credentials.cloud_${letter.toLowerCase() as Lowercase<L>}` as const;
  return [
    { id: `getCloud${letter}Credentials`, method: 'GET', url, ...read,
      summary: `Masked summary of the Cloud ${letter} credentials`, response: { 200: schemas.summary }, handler: `getCloud${letter}` },
    { id: `getCloud${letter}CredentialsFull`, method: 'GET', url: `${url}/full`, ...write,
      summary: `Cloud ${letter} credentials including ${secretLabel}`, response: { 200: schemas.full }, raises: ['credentials_unreadable'], handler: `getCloud${letter}Full` },
    { id: `setCloud${letter}Credentials`, method: 'POST', url, ...write, audit: `${audit}_set`, limit: 'cloudAccounts',
      summary: `Save (replace) the Cloud ${letter} credentials`, body: schemas.body, response: { 200: schemas.summary }, raises: ['credentials_unreadable'], handler: `setCloud${letter}` },
    { id: `deleteCloud${letter}Credentials`, method: 'DELETE', url, ...write, audit: `${audit}_deleted`,
      summary: `Delete the Cloud ${letter} credentials`, response: { 200: Deleted }, handler: `deleteCloud${letter}` },
  ] as const satisfies readonly RouteSpec[];
}

export default defineManifest({
  plugin: 'credentials',
  prefix: '/api/auth',
  reply: 'named',
  description: 'Cloud provider credentials of an organization (sealed at rest, masked on read) and their rotation status',
  routes: [
    ...providerRoutes('A', { body: CloudACredentials, summary: CloudASummary, full: CloudAFull }, 'the secret'),
    ...providerRoutes('B', { body: CloudBCredentials, summary: CloudBSummary, full: CloudBFull }, 'the secret'),
    ...providerRoutes('C', { body: CloudCCredentials, summary: CloudCSummary, full: CloudCFull }, 'the service account key'),
    { id: 'getCredentialRotationStatus', method: 'GET', url: '/credential-rotation-status', ...read,
      summary: "Whether the organization's cloud credentials are due for rotation (the oldest decides)",
      response: { 200: RotationStatus }, handler: 'getRotationStatus' },
  ],
});
