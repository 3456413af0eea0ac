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
import { discovery } from './discovery.ts';
import { unauthorized } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';

const userOf = (principal: Principal | undefined): string => {
  if (!principal?.userId) throw unauthorized('This route needs a user');
  return principal.userId;
};

export default definePlugin({
  manifest,
  needs: ['auth'],
  build(ctx, { auth }) {
    const store = createSsoScimStore(ctx.db);
    const base = `${ctx.config.publicUrl}/api/scim/v2`;
    const callbackUrl = `${ctx.config.publicUrl}/api/sso/saml/callback`;
    const saml = createSaml(ctx, callbackUrl);
    // Which organization verified which email domain: domains.domainOwner / domains.isVerified.
    const domainStore = createDomainStore(ctx.db);
    const domains = createDomains(domainStore, dnsTxtLookup(ctx.config.DNS_SERVERS), { onUnverified: (orgId, domain) => store.pullEnforcedDomain(orgId, domain) });
    const scim = createScim({ ctx, store, auth, base });
    const linkStore = createLinkStore(ctx.db);
    const links = createLinks(ctx, linkStore, saml, auth, (orgId) => store.config(orgId));
    const sso = createSsoService(ctx, store, auth, saml, scim, domains, links, createSsoAccounts(auth, domains, links), callbackUrl);
    const disco = discovery(base, ctx.config.BODY_LIMIT);
    ctx.onOrgDelete(async (orgId) => { await Promise.all([store.removeOrg(orgId), domainStore.removeOrg(orgId), linkStore.removeOrg(orgId)]); });

    return {
      handlers: {
        getConfig: ({ org }) => sso.getConfig(org.id),
        putConfig: ({ org, body }) => sso.putConfig(org.id, body),
        deleteConfig: ({ org }) => sso.deleteConfig(org.id),
        listDomains: ({ org }) => domains.list(org.id),
        addDomain: ({ org, body }) => domains.add(org.id, body.domain),
        verifyDomain: ({ org, params }) => domains.verify(org.id, params.domain),
        deleteDomain: ({ org, params }) => domains.remove(org.id, params.domain),
        async samlLogin({ query, reply }) {
          return reply.redirect(await sso.loginUrl(query.orgId, query.RelayState), 302);
        },
        async samlCallback({ req, reply }) {
          const form = new URLSearchParams(typeof req.rawBody === 'string' ? req.rawBody : '');
          const target = await sso.callback(form.get('SAMLResponse') ?? undefined, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
          return reply.redirect(target, 302);
        },
        exchange: ({ body }) => sso.exchange(body.code),
        startLink: ({ principal, org }) => links.start(userOf(principal), org.id),
        confirmLink: ({ principal, org, body }) => links.confirm(userOf(principal), org.id, body.code),
        listLinks: ({ principal, org }) => links.list(userOf(principal), org.id),
        deleteLink: ({ principal, org }) => links.remove(userOf(principal), org.id),

        listTokens: ({ org }) => sso.listTokens(org.id),
        createToken: ({ org, body }) => sso.createToken(org.id, body.label),
        revokeToken: ({ org, params }) => sso.revokeToken(org.id, params.id),
        listGroups: async ({ org }) => ({ groups: await scim.mappings(org.id) }),
        setMapping: ({ org, params, body }) => scim.setMapping(org.id, params.id, body),

        serviceProviderConfig: () => disco.serviceProviderConfig(),
        resourceTypes: () => disco.resourceTypes(),
        schemas: () => disco.schemas(),
        listUsers: ({ org, query }) => scim.users.list(org.id, query),
        createUser: ({ org, body }) => scim.users.create(org.id, body) as never,
        getUser: ({ org, params }) => scim.users.get(org.id, params.id) as never,
        replaceUser: ({ org, params, body }) => scim.users.replace(org.id, params.id, body) as never,
        patchUser: ({ org, params, body }) => scim.users.patch(org.id, params.id, body.Operations) as never,
        async deleteUser({ org, params }) { await scim.users.remove(org.id, params.id); },
        listGroupsScim: ({ org, query }) => scim.groups.list(org.id, query),
        createGroup: ({ org, body }) => scim.groups.create(org.id, body) as never,
        getGroup: ({ org, params, query }) => scim.groups.get(org.id, params.id, query) as never,
        replaceGroup: ({ org, params, body }) => scim.groups.replace(org.id, params.id, body) as never,
        patchGroup: ({ org, params, body }) => scim.groups.patch(org.id, params.id, body.Operations) as never,
        async deleteGroup({ org, params }) { await scim.groups.remove(org.id, params.id); },
        bulk: ({ org, body }) => scim.bulk(org.id, body),
      },
    };
  },
});
