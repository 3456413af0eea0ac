// Handlers of the SSO and SCIM routes (manifests/sso-scim.ts): the guards have resolved the
// organization (x-org-id for management, the SCIM token's own for the protocol) before these run.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/sso-scim.ts';
import { createSsoScimStore } from './store.ts';
import { createDomainStore } from './domain-store.ts';
import { createDomains, dnsTxtLookup } from './domains.ts';
import { createLinkStore } from './link-store.ts';
import { createLinks } from './links.ts';
import { createSsoAccounts } from './sso-accounts.ts';
import { createSaml } from './saml.ts';
import { createScim } from './scim.ts';
import { createSsoService } from './service.ts';
import { discovery } from './scim-provider-config.ts';
import { searchQuery } from './schemas.ts';
import { unauthorized } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';

const userOf = (principal: Principal | undefined): string => {
  if (!principal?.userId) throw unauthorized('This route needs a user');
  return principal.userId;
};

export default definePlugin({
  manifest,
  needs: ['auth', 'orgs'],
  build(ctx, { auth, orgs }) {
    const store = createSsoScimStore(ctx.db);
    const base = `${ctx.config.publicUrl}/api/scim/v2`;
    const callbackUrl = `${ctx.config.publicUrl}/api/sso/saml/callback`;
    const saml = createSaml(ctx, callbackUrl);
    // Which organization verified which email domain: domains.domainOwner / domains.isVerified.
    const domainStore = createDomainStore(ctx.db);
    const domains = createDomains(domainStore, dnsTxtLookup(ctx.config.DNS_SERVERS), { onUnverified: (orgId, domain) => store.pullEnforcedDomain(orgId, domain) });
    // SCIM joins an account to the organization only for a domain it verified; anyone else is invited.
    const scim = createScim({ ctx, store, auth, orgs, base, verified: (orgId, domain) => domains.isVerified(orgId, domain) });
    const linkStore = createLinkStore(ctx.db);
    const links = createLinks(ctx, linkStore, saml, auth, (orgId) => store.config(orgId));
    const sso = createSsoService(ctx, store, auth, saml, scim, domains, links, createSsoAccounts(auth, domains, links), callbackUrl);
    const disco = discovery(base, ctx.config.BODY_LIMIT);
    ctx.onOrgDelete(async (orgId) => { await Promise.all([store.removeOrg(orgId), domainStore.removeOrg(orgId), linkStore.removeOrg(orgId)]); });

    return {
      handlers: {
        getConfig: ({ org }) => sso.getConfig(org.id),
        putConfig: ({ org, body }) => sso.putConfig(org.id, body, org),
        deleteConfig: ({ org }) => sso.deleteConfig(org.id),
        listDomains: ({ org }) => domains.list(org.id),
        addDomain: ({ org, body }) => domains.add(org.id, body.domain),
        verifyDomain: ({ org, params }) => domains.verify(org.id, params.domain),
        deleteDomain: ({ org, params }) => domains.remove(org.id, params.domain),
        async samlLogin({ query, reply }) {
          return reply.redirect(await sso.loginUrl(query.orgId, query.RelayState), 302);
        },
        async samlCallback({ req }) {
          const form = new URLSearchParams(typeof req.rawBody === 'string' ? req.rawBody : '');
          // The outcome's audit event is the route's audit rule's to record (manifests/sso-scim.ts).
          return sso.callback(form.get('SAMLResponse') ?? undefined);
        },
        exchange: ({ body }) => sso.exchange(body.code),
        startLink: ({ principal, org }) => links.start(userOf(principal), org.id),
        confirmLink: ({ principal, org, body }) => links.confirm(userOf(principal), org.id, body.code),
        listLinks: ({ principal, org }) => links.list(userOf(principal), org.id),
        deleteLink: ({ principal, org }) => links.remove(userOf(principal), org.id),

        listTokens: ({ org }) => sso.listTokens(org.id),
        createToken: ({ org, body, principal }) => sso.createToken(org.id, body.label, principal.userId),
        revokeToken: ({ org, params }) => sso.revokeToken(org.id, params.id),
        listGroups: async ({ org }) => ({ groups: await scim.mappings(org.id) }),
        setMapping: ({ org, params, body, principal }) => scim.setMapping(org.id, params.id, body, { label: principal.email ?? principal.userId ?? 'user', grantor: async () => org }),

        serviceProviderConfig: () => disco.serviceProviderConfig(),
        resourceTypes: () => disco.resourceTypes(),
        resourceType: ({ params }) => disco.resourceType(params.id),
        schemas: () => disco.schemas(),
        schema: ({ params }) => disco.schema(params.id),
        search: ({ org, body }) => scim.searchAll(org.id, searchQuery(body)),
        searchUsers: ({ org, body }) => scim.users.list(org.id, searchQuery(body)),
        searchGroups: ({ org, body }) => scim.groups.list(org.id, searchQuery(body)),
        listUsers: ({ org, query }) => scim.users.list(org.id, query),
        createUser: ({ org, body, principal }) => scim.users.create(org.id, body, sso.scimActor(org.id, principal)),
        getUser: ({ org, params, query }) => scim.users.get(org.id, params.id, query),
        replaceUser: ({ org, params, body, principal }) => scim.users.replace(org.id, params.id, body, sso.scimActor(org.id, principal)),
        patchUser: ({ org, params, body, principal }) => scim.users.patch(org.id, params.id, body.Operations, sso.scimActor(org.id, principal)),
        async deleteUser({ org, params, principal }) { await scim.users.remove(org.id, params.id, sso.scimActor(org.id, principal)); },
        listGroupsScim: ({ org, query }) => scim.groups.list(org.id, query),
        createGroup: ({ org, body, principal }) => scim.groups.create(org.id, body, sso.scimActor(org.id, principal)),
        getGroup: ({ org, params, query }) => scim.groups.get(org.id, params.id, query),
        replaceGroup: ({ org, params, body, principal }) => scim.groups.replace(org.id, params.id, body, sso.scimActor(org.id, principal)),
        async patchGroup({ org, params, body, principal }) { await scim.groups.patch(org.id, params.id, body.Operations, sso.scimActor(org.id, principal)); },
        async deleteGroup({ org, params, principal }) { await scim.groups.remove(org.id, params.id, sso.scimActor(org.id, principal)); },
        bulk: ({ org, body, principal }) => scim.bulk(org.id, body, sso.scimActor(org.id, principal)),
      },
    };
  },
});
