// Organization routes (manifests/orgs.ts): organizations, members, invitations, custom
// roles and the organization's audit log. Handlers are thin: the guards have resolved the
// organization and the caller's role (req.org) before any of these run.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { unauthorized } from '../../core/errors.ts';
import type { Page } from '../../core/schemas.ts';
import { createOrgService } from './service.ts';
import { createMembers } from './members.ts';
import { createInvitations, EXPIRE_EVERY, EXPIRE_JOB } from './invitations.ts';
import { createRoles } from './roles.ts';
import { createOrgAudit } from './audit.ts';
import { createInvitationStore } from './store.ts';
import type { Caller } from './rules.ts';
import type {
  AuditQuery, ChangeRole, CreateOrg, CreateRole, EmailInvite, ExportQuery, InvitationQuery, LinkInvite, MoveMember,
  RenameOrg, TransferOwnership, UpdateRole,
} from './schemas.ts';

/** What other plugins may call (account deletion removes organizations the user owns alone). */
export interface Organizations { remove(orgId: string): Promise<void> }

type Req = FastifyRequest;
const body = <T>(req: Req) => req.body as T;
const query = <T>(req: Req) => req.query as T;
const param = (req: Req, name: string) => (req.params as Record<string, string>)[name];
const userOf = (req: Req) => {
  const id = req.principal?.userId;
  if (!id) throw unauthorized('This route needs a user');
  return id;
};

function callerOf(req: Req): Caller {
  const p = req.principal!;
  // The guards set req.org on every route that calls this (orgParam in the manifest).
  if (!req.org) throw new Error('orgs: route without organization context');
  return {
    userId: p.userId ?? 'service',
    isService: p.kind === 'service',
    email: p.email,
    org: req.org,
    note: (details) => { req.auditDetails = { ...req.auditDetails, ...details }; },
    request: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, method: req.method, route: req.routeOptions.url ?? req.url },
  };
}

export default definePlugin((ctx) => {
  const invitationStore = createInvitationStore(ctx.db);
  const orgs = createOrgService(ctx);
  const members = createMembers(ctx);
  const invitations = createInvitations(ctx, invitationStore);
  const roles = createRoles(ctx, invitationStore);
  const audit = createOrgAudit(ctx);

  ctx.onOrgDelete((orgId) => invitationStore.removeOrg(orgId));
  const shared: Organizations = { remove: (orgId) => orgs.remove(orgId) };
  ctx.services.organizations = shared;
  // Idempotent (one updateMany by status and expiry), so a second run on another process is harmless.
  ctx.scheduler.define(EXPIRE_JOB, async () => { await invitations.expireDue(); });

  return {
    async start() {
      await ctx.scheduler.every(EXPIRE_EVERY, EXPIRE_JOB, {});
    },
    handlers: {
      async list(req: Req) {
        return { organizations: await orgs.list(userOf(req)) };
      },
      create: (req: Req) => orgs.create(userOf(req), body<CreateOrg>(req).name),
      get: (req: Req) => orgs.get(req.org!.org, req.org!.role),
      rename: (req: Req) => orgs.rename(callerOf(req), body<RenameOrg>(req).name),
      async remove(req: Req) {
        const { org } = callerOf(req);
        await orgs.remove(org.id);
        // The record of this deletion must not recreate the organization's trail: it goes to
        // the platform trail (no organization), with the actor and what was deleted.
        req.auditDetails = { target: { type: 'organization', id: org.id, name: org.org.name }, orgId: org.id };
        req.org = undefined;
        req.principal = { ...req.principal!, orgId: undefined, defaultOrgId: undefined };
      },

      listMembers: (req: Req) => members.list(req.org!.id, query<Page>(req)),
      changeMemberRole: (req: Req) => members.changeRole(callerOf(req), param(req, 'userId'), body<ChangeRole>(req).role),
      removeMember: (req: Req) => members.remove(callerOf(req), param(req, 'userId')),
      moveMember: (req: Req) => members.move(callerOf(req), param(req, 'userId'), body<MoveMember>(req)),
      transferOwnership: (req: Req) => members.transferOwnership(callerOf(req), body<TransferOwnership>(req).newOwnerId),
      leave: (req: Req) => members.leave(callerOf(req)),

      inviteByEmail: (req: Req) => invitations.createEmail(callerOf(req), body<EmailInvite>(req).email, body<EmailInvite>(req).role),
      inviteByLink: (req: Req) => invitations.createLink(callerOf(req), body<LinkInvite | undefined>(req)?.role),
      listInvitations(req: Req) {
        const q = query<InvitationQuery>(req);
        return invitations.list(req.org!.id, q.status, q);
      },
      revokeInvitation: (req: Req) => invitations.revoke(callerOf(req), param(req, 'id')),
      async acceptInvitation(req: Req) {
        const userId = userOf(req);
        const joined = await invitations.accept({ userId, email: req.principal!.email }, body<{ token: string }>(req).token);
        const access = await ctx.tenancy.access(joined.orgId, userId);
        if (!access) throw new Error('orgs: membership not readable right after it was written');
        // The acceptance belongs to the trail of the organization joined.
        req.org = { id: joined.orgId, ...access };
        req.auditDetails = { target: { type: 'invitation', id: joined.invitationId }, role: joined.role };
        return { message: 'Invitation accepted', organization: await orgs.get(access.org, access.role) };
      },

      listRoles: async (req: Req) => ({ roles: await roles.list(req.org!.id) }),
      createRole: (req: Req) => roles.create(callerOf(req), body<CreateRole>(req)),
      updateRole: (req: Req) => roles.update(callerOf(req), param(req, 'roleId'), body<UpdateRole>(req)),
      deleteRole: (req: Req) => roles.remove(callerOf(req), param(req, 'roleId')),

      listAuditLogs(req: Req) {
        const q = query<AuditQuery>(req);
        return audit.list(req.org!.id, q, q);
      },
      exportAuditLogs(req: Req, reply: FastifyReply) {
        const orgId = req.org!.id;
        const csv = audit.export(orgId, query<ExportQuery>(req));
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-logs-${orgId}-${new Date().toISOString().slice(0, 10)}.csv"`)
          .send(csv);
      },
    },
  };
});
