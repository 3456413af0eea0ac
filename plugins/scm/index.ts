// Handlers of the source-host routes (manifests/scm.ts). Needs auth: accounts, sessions and
// JWT checks are auth's (SourceHostAccounts); this plugin keeps the linked host accounts and
// the organization's app installations.
import { definePlugin } from '../../core/plugin.ts';
import type { FastifyRequest } from 'fastify';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import { browserBinding, type BrowserBinding } from '../../core/browser-binding.ts';
import { unauthorized } from '../../core/errors.ts';
import manifest from '../../manifests/scm.ts';
import { createScmStore } from './store.ts';
import { createScmService } from './service.ts';

const userOf = (principal: Principal): string => {
  if (!principal.userId) throw unauthorized('This route needs a user');
  return principal.userId;
};

/** What the callback request shows of who completes the flow: the binding cookie, and a session when it carries one. */
const evidence = (binding: BrowserBinding, req: FastifyRequest) => ({ nonce: binding.read(req.headers.cookie), bearer: bearerToken(req) });

export default definePlugin({
  manifest,
  needs: ['auth'],
  build(ctx, { auth }) {
    const store = createScmStore(ctx.db);
    const scm = createScmService(ctx, store, auth);
    ctx.onOrgDelete((orgId) => scm.removeOrg(orgId));
    // The flows that link something complete only in the browser that started them (core/browser-binding.ts).
    const linkBinding = browserBinding({ name: 'drift_scm_link', callbackUrl: `${ctx.config.publicUrl}/api/auth/scm/callback`, publicUrl: ctx.config.publicUrl });
    const installBinding = browserBinding({ name: 'drift_scm_install', callbackUrl: `${ctx.config.publicUrl}/api/auth/scm-app/callback`, publicUrl: ctx.config.publicUrl });

    return {
      provides: scm,
      stop: () => scm.close(),
      handlers: {
        async start({ query, reply }) {
          return reply.redirect(await scm.start({ force: query.force === 'true', cli: query.cli === 'true', redirect_uri: query.redirect_uri }), 302);
        },
        // The outcome's audit event is the route's audit rule's to record (manifests/scm.ts).
        async callback({ query, req, reply }) {
          const outcome = await scm.callback(query, evidence(linkBinding, req));
          if (linkBinding.read(req.headers.cookie)) reply.header('set-cookie', linkBinding.clear());
          return outcome;
        },
        exchange: ({ body }) => scm.exchange(body.code),
        async addAccount({ principal, reply }) {
          const bound = linkBinding.issue();
          const target = await scm.startAddAccount(userOf(principal), principal.sessionId ?? null, bound.nonceHash);
          return reply.header('set-cookie', bound.setCookie).redirect(target, 302);
        },
        accounts: async ({ principal }) => ({ accounts: await scm.listAccounts(userOf(principal)) }),
        setActiveAccount: ({ principal, body }) => scm.setActiveAccount(userOf(principal), body.scmId),
        unlink: ({ principal, params }) => scm.unlink(userOf(principal), params.scmId),
        async install({ principal, org, reply }) {
          const bound = installBinding.issue();
          const answer = await scm.installUrl(userOf(principal), principal.sessionId ?? null, org.id, bound.nonceHash);
          reply.header('set-cookie', bound.setCookie);
          return answer;
        },
        async appCallback({ query, req, reply, resumed }) {
          const outcome = await scm.appCallback(query, evidence(installBinding, req), resumed);
          if (installBinding.read(req.headers.cookie)) reply.header('set-cookie', installBinding.clear());
          return outcome;
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
