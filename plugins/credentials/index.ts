// Handlers of the cloud credential routes (manifests/credentials.ts). Every route runs in
// the caller's organization (x-org-id or the default org; the guards set req.org), so the
// credentials are the organization's, never another one's.
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import type { Handler } from '../../core/manifest.ts';
import { createCredentialStore, type Provider } from './store.ts';
import { createCredentialService, type CloudCredentialsService, type CredentialValues } from './service.ts';

type Meter = (orgId: string) => Promise<number>;
type RegisterMeter = (name: string, fn: Meter) => void;

const orgOf = (req: FastifyRequest): string => {
  // The manifest sets orgContext on every route; without it this is a wiring bug.
  if (!req.org) throw new Error('credentials: route without organization context');
  return req.org.id;
};

export default definePlugin(async (ctx) => {
  const registerMeter = ctx.services.registerMeter as RegisterMeter | undefined;
  if (typeof registerMeter !== 'function') {
    throw new Error('credentials: ctx.services.registerMeter is missing; the auth plugin must be built first');
  }

  const store = createCredentialStore(ctx.db);
  const service = createCredentialService(ctx, store);

  registerMeter('cloudAccounts', (orgId) => service.count(orgId));
  ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
  const shared: CloudCredentialsService = { get: (orgId, provider) => service.values(orgId, provider) };
  ctx.services.cloudCredentials = shared;

  const get = (provider: Provider): Handler => (req) => service.summary(orgOf(req), provider);
  const full = (provider: Provider): Handler => (req) => service.full(orgOf(req), provider);
  const set = <P extends Provider>(provider: P): Handler => (req) => service.set(orgOf(req), provider, req.body as CredentialValues[P]);
  const remove = (provider: Provider): Handler => (req) => service.remove(orgOf(req), provider);

  // Handler names follow the manifest's providerRoutes(): getCloudA, getCloudAFull, setCloudA, deleteCloudA, ...
  const handlers: Record<string, Handler> = { getRotationStatus: (req) => service.rotation(orgOf(req)) };
  for (const [letter, provider] of [['A', 'cloud_a'], ['B', 'cloud_b'], ['C', 'cloud_c']] as const) {
    Object.assign(handlers, {
      [`getCloud${letter}`]: get(provider),
      [`getCloud${letter}Full`]: full(provider),
      [`setCloud${letter}`]: set(provider),
      [`deleteCloud${letter}`]: remove(provider),
    });
  }

  return { handlers };
});
