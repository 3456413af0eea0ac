// Handlers of the source-host routes (manifests/scm.ts). Needs auth: accounts, sessions and
// JWT checks are auth's (SourceHostAccounts); this plugin keeps the linked host accounts and
// the organization's app installations.
import { definePlugin } from '../../core/plugin.ts';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import { unauthorized } from '../../core/errors.ts';
import manifest from '../../manifests/scm.ts';
import { createScmStore } from './store.ts';
import { createScmService } from './service.ts';

const userOf = (principal: Principal): string => {
  if (!principal.userId) throw unauthorized('This route needs a user');
  return principal.userId;
};

export default definePlugin({
  manifest,
  needs: ['auth'],
  build(ctx, { auth }) {
    const store = createScmStore(ctx.db);
    const scm = createScmService(ctx, store, auth);
    ctx.onOrgDelete((orgId) => scm.removeOrg(orgId));
    const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null });

    return {
      provides: scm,
      stop: () => scm.close(),
      handlers: {
        async start({ query, reply }) {
          return reply.redirect(await scm.start({ force: query.force === 'true', cli: query.cli === 'true', redirect_uri: query.redirect_uri }), 302);
        },
        async callback({ query, req, reply }) {
          return reply.redirect(await scm.callback(query, meta(req)), 302);
        },
        exchange: ({ body }) => scm.exchange(body.code),
        async addAccount({ query, reply }) {
          return reply.redirect(await scm.startAddAccount(query.token), 302);
        },
        accounts: async ({ principal }) => ({ accounts: await scm.listAccounts(userOf(principal)) }),
        setActiveAccount: ({ principal, body }) => scm.setActiveAccount(userOf(principal), body.scmId),
        unlink: ({ principal, params }) => scm.unlink(userOf(principal), params.scmId),
        install: ({ query, req }) => {
          const header = req.headers['x-org-id'];
          return scm.installUrl(bearerToken(req) ?? query.token, typeof header === 'string' && header ? header : undefined);
        },
        async appCallback({ query, reply }) {
          return reply.redirect(await scm.appCallback(query), 302);
        },
        installations: async ({ org }) => ({ installations: await scm.listInstallations(org.id) }),
        setActiveInstallation: ({ org, body }) => scm.setActiveInstallation(org.id, body.installationId),
        syncRepos: ({ org }) => scm.syncRepos(org.id, undefined),
        deleteInstallation: ({ org, params }) => scm.removeInstallation(org.id, params.installationId),
        repositories: ({ principal, org, query }) => scm.repositories(userOf(principal), org.id, query.page, query.limit),
        branches: ({ principal, org, params }) => scm.branches(userOf(principal), org.id, params.owner, params.repo),
      },
    };
  },
});
