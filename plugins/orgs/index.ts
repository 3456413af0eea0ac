// Organization routes (manifests/orgs.ts): organizations, members, invitations, custom
// roles and the organization's audit log. Handlers are thin: the guards have resolved the
// organization and the caller's role (org) before any of these run. What the trail keeps of
// each change is the manifest's audit rule; services return those facts beside their result.
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/plugin.ts';
import { unauthorized } from '../../core/errors.ts';
import type { OrgContext, Principal } from '../../core/guards/principal.ts';
import manifest from '../../manifests/orgs.ts';
import { createOrgService, type Organizations } from './service.ts';
import { createMembers } from './members.ts';
import { createInvitations, EXPIRE_EVERY, EXPIRE_JOB } from './invitations.ts';
import { createRoles } from './roles.ts';
import { createOrgAudit } from './org-audit-log.ts';
import { createInvitationStore } from './store.ts';
import { withFacts, type AuditFacts, type Caller } from './rules.ts';

const userOf = (principal: Principal) => {
  const id = principal.userId;
  if (!id) throw unauthorized('This route needs a user');
  return id;
};

function callerOf({ principal, org, req }: { principal: Principal; org: OrgContext; req: FastifyRequest }): Caller {
  return {
    userId: principal.userId ?? 'service',
    isService: principal.kind === 'service',
    email: principal.email,
    org,
    request: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, method: req.method, route: req.routeOptions.url ?? req.url },
  };
}


export default definePlugin({
  manifest,
  needs: ['auth'],
  build(ctx, { auth }) {
    const invitationStore = createInvitationStore(ctx.db);
    const orgs = createOrgService(ctx);
    const members = createMembers(ctx, auth.userDirectory);
    const invitations = createInvitations(ctx, invitationStore, auth.userDirectory);
    const roles = createRoles(ctx, invitationStore);
    const audit = createOrgAudit(ctx, auth.userDirectory);

    ctx.onOrgDelete((orgId) => invitationStore.removeOrg(orgId));
    const provides: Organizations = {
      remove: (orgId) => orgs.remove(orgId),
      invite: (input) => invitations.provision(input),
      withdrawInvitation: (orgId, id, by) => invitations.withdraw(orgId, id, by),
    };
    // Account deletion (auth) removes the organizations a user owns alone through this.
    auth.attachOrganizations(provides);
    // Idempotent (one updateMany by status and expiry), so a second run on another process is harmless.
    ctx.scheduler.define(EXPIRE_JOB, async () => { await invitations.expireDue(); });

    return {
      provides,
      async start() {
        await ctx.scheduler.every(EXPIRE_EVERY, EXPIRE_JOB, {});
      },
      handlers: {
        list: async ({ principal }) => ({ organizations: await orgs.list(userOf(principal)) }),
        create: ({ principal, body }) => orgs.create(userOf(principal), body.name),
        get: ({ org }) => orgs.get(org.org, org.role),
        rename: (input) => orgs.rename(callerOf(input), input.body.name),
        async remove({ org }) {
          await orgs.remove(org.id);
          // Recorded in the platform trail (the manifest's rule): the organization's own is gone.
          return { audit: { target: { type: 'organization', id: org.id, name: org.org.name }, orgId: org.id } };
        },

        listMembers: ({ org, query }) => members.list(org.id, query),
        changeMemberRole: (input) => members.changeRole(callerOf(input), input.params.userId, input.body.role),
        removeMember: (input) => members.remove(callerOf(input), input.params.userId),
        moveMember: (input) => members.move(callerOf(input), input.params.userId, input.body),
        transferOwnership: (input) => members.transferOwnership(callerOf(input), input.body.newOwnerId),
        leave: (input) => members.leave(callerOf(input)),

        inviteByEmail: (input) => invitations.createEmail(callerOf(input), input.body.email, input.body.role),
        inviteByLink: (input) => invitations.createLink(callerOf(input), input.body?.role),
        listInvitations: ({ org, query }) => invitations.list(org.id, query.status, query),
        revokeInvitation: (input) => invitations.revoke(callerOf(input), input.params.id),
        async acceptInvitation({ principal, body }) {
          const userId = userOf(principal);
          const joined = await invitations.accept({ userId, email: principal.email }, body.token);
          const access = await ctx.tenancy.access(joined.orgId, userId);
          if (!access) throw new Error('orgs: membership not readable right after it was written');
          const answer = { message: 'Invitation accepted', organization: await orgs.get(access.org, access.role) };
          return withFacts(answer, { target: { type: 'invitation', id: joined.invitationId }, role: joined.role });
        },

        listRoles: async ({ org }) => ({ roles: await roles.list(org.id) }),
        createRole: (input) => roles.create(callerOf(input), input.body),
        updateRole: (input) => roles.update(callerOf(input), input.params.roleId, input.body),
        deleteRole: (input) => roles.remove(callerOf(input), input.params.roleId),

        listAuditLogs: ({ org, query }) => audit.list(org.id, query, query),
        exportAuditLogs({ org, query, reply }) {
          const csv = audit.export(org.id, query);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="audit-logs-${org.id}-${new Date().toISOString().slice(0, 10)}.csv"`)
            .send(csv);
        },
      },
    };
  },
});
