// Handlers of the cloud credential routes (manifests/credentials.ts). Every route runs in
// the caller's organization (x-org-id or the default org; the guards set org), so the
// credentials are the organization's, never another one's.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/credentials.ts';
import { createCredentialStore } from './store.ts';
import { createCredentialService } from './service.ts';
import type { Provider } from './store.ts';

/** The provider each saving route names. */
const PROVIDER_OF: Record<string, Provider | undefined> = { setCloudACredentials: 'cloud_a', setCloudBCredentials: 'cloud_b', setCloudCCredentials: 'cloud_c' };

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createCredentialStore(ctx.db);
    const service = createCredentialService(ctx, store);
    // Cloud accounts: the organization's saved provider credentials (one per provider), with
    // the projects' own credentials (plugins/projects). Saving a provider's again replaces it.
    ctx.defineMeter('cloudAccounts', {
      used: (orgId) => service.count(orgId),
      adds: async (orgId, { route }) => !(await store.get(orgId, PROVIDER_OF[route.id]!)),
    });
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));

    return {
      provides: service,
      handlers: {
        getRotationStatus: ({ org }) => service.rotation(org.id),
        getCloudA: ({ org }) => service.summary(org.id, 'cloud_a'),
        getCloudAFull: ({ org }) => service.full(org.id, 'cloud_a'),
        setCloudA: ({ org, body }) => service.set(org.id, 'cloud_a', body),
        deleteCloudA: ({ org }) => service.remove(org.id, 'cloud_a'),
        getCloudB: ({ org }) => service.summary(org.id, 'cloud_b'),
        getCloudBFull: ({ org }) => service.full(org.id, 'cloud_b'),
        setCloudB: ({ org, body }) => service.set(org.id, 'cloud_b', body),
        deleteCloudB: ({ org }) => service.remove(org.id, 'cloud_b'),
        getCloudC: ({ org }) => service.summary(org.id, 'cloud_c'),
        getCloudCFull: ({ org }) => service.full(org.id, 'cloud_c'),
        // The key object is validated as an object; its fields are the provider's to check.
        setCloudC: ({ org, body }) => service.set(org.id, 'cloud_c', { ...body, serviceAccountKey: { ...body.serviceAccountKey } }),
        deleteCloudC: ({ org }) => service.remove(org.id, 'cloud_c'),
      },
    };
  },
});
