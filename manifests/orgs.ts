// Organizations (SPEC "Organizations", "Organization rules"): organizations, members,
// invitations (with the accept step the spec leaves out), custom roles (Team+) and the
// organization's audit log. Every /:orgId route resolves the caller's membership from the
// path (orgParam): a non-member gets 404, a member whose role lacks the permission 403.
// Permissions: org:read (any member), org:members (people), org:admin (settings, roles,
// audit); ownerOnly for deletion and transfer. Custom roles are honoured through them.
import { Type, type Static, type TSchema } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  AcceptInvitation, AcceptResult, AuditList, AuditQuery, ChangeRole, CreateOrg, CreateRole, EmailInvite, ExportQuery,
  InvitationList, InvitationParams, InvitationQuery, InvitationView, LinkInvite, MemberList, MemberParams, MemberQuery,
  MemberView, Message, MoveMember, MoveResult, OrgParams, OrgView, RenameOrg, RoleParams, RoleView, TransferOwnership,
  TransferResult, UpdateRole,
} from '../plugins/orgs/schemas.ts';

const inOrg = { auth: 'bearer', orgParam: 'orgId' } as const satisfies Partial<RouteSpec>;
const read = { ...inOrg, permission: 'org:read' } as const satisfies Partial<RouteSpec>;
const people = { ...inOrg, permission: 'org:members' } as const satisfies Partial<RouteSpec>;
const admin = { ...inOrg, permission: 'org:admin' } as const satisfies Partial<RouteSpec>;
const owner = { ...inOrg, ownerOnly: true } as const satisfies Partial<RouteSpec>;
const roles = { ...admin, plan: 'team' } as const satisfies Partial<RouteSpec>;
/**
 * Facts of a change the answer does not show (target, before/after): the service returns
 * them beside its result as `audit` (plugins/orgs/rules.ts withFacts); no response schema
 * carries that field, so it stays out of the answer.
 */
const noted = (result: { audit?: Record<string, unknown> } | undefined) => result?.audit;
const invited = {
  action: 'member.invited',
  details: (r: Static<typeof InvitationView>) => ({ target: { type: 'invitation', id: r._id, invitationType: r.type, ...(r.email ? { email: r.email } : {}) }, role: r.role }),
} as const;
const CsvDownload = Type.String({ description: 'CSV text, streamed (attachment)' });

export default defineManifest({
  plugin: 'orgs',
  prefix: '/api/orgs',
  reply: 'named',
  required: true,
  description: 'Organizations, members, invitations, custom roles and audit logs',
  routes: [
    { id: 'listOrganizations', method: 'GET', url: '/', auth: 'user', summary: "The caller's organizations, with their role in each",
      response: { 200: Type.Object({ organizations: Type.Array(OrgView) }) }, raises: ['not_found'], handler: 'list' },
    { id: 'createOrganization', method: 'POST', url: '/', auth: 'user', audit: 'org.created', summary: 'Create an organization (the caller becomes owner; plan free)',
      body: CreateOrg, response: { 201: OrgView }, raises: ['orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role', 'plan_required'], handler: 'create' },
    { id: 'getOrganization', method: 'GET', url: '/:orgId', ...read, cliAllowed: true,
      params: OrgParams, response: { 200: OrgView }, handler: 'get' },
    { id: 'renameOrganization', method: 'PUT', url: '/:orgId', ...admin, audit: { action: 'org.updated', details: noted }, summary: 'Rename the organization (owner or admin)',
      params: OrgParams, body: RenameOrg, response: { 200: OrgView }, handler: 'rename' },
    { id: 'deleteOrganization', method: 'DELETE', url: '/:orgId', ...owner, audit: { action: 'org.deleted', details: noted, org: () => null },
      summary: 'Permanently delete the organization and all its data in every plugin (owner only)',
      params: OrgParams, response: { 204: null }, raises: ['orgs.owner_cannot_be_removed', 'orgs.role_escalation'], handler: 'remove' },

    { id: 'listMembers', method: 'GET', url: '/:orgId/members', ...read, summary: 'Members, oldest first (page, limit: default 20, max 100)',
      params: OrgParams, query: MemberQuery, response: { 200: MemberList }, handler: 'listMembers' },
    { id: 'changeMemberRole', method: 'PUT', url: '/:orgId/members/:userId', ...people, audit: { action: 'member.role_changed', details: noted },
      summary: "Change a member's role (admin, member, viewer or a custom role id); the owner's role changes only by transfer (409)",
      params: MemberParams, body: ChangeRole, response: { 200: MemberView }, raises: ['orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.unknown_role', 'plan_required'], handler: 'changeMemberRole' },
    { id: 'removeMember', method: 'DELETE', url: '/:orgId/members/:userId', ...people, audit: { action: 'member.removed', details: noted },
      summary: 'Remove a member; the owner cannot be removed (409)', params: MemberParams, response: { 204: null }, raises: ['orgs.owner_cannot_be_removed', 'orgs.role_escalation'], handler: 'removeMember' },
    { id: 'moveMember', method: 'POST', url: '/:orgId/members/:userId/move', ...people, audit: { action: 'member.moved', details: noted },
      summary: 'Move a member to another organization; the caller needs owner or admin (org:members) in both (403), and membership of the target (else 404)',
      params: MemberParams, body: MoveMember, response: { 200: MoveResult }, raises: ['orgs.already_member', 'orgs.owner_cannot_be_removed', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.same_organization', 'orgs.unknown_role', 'plan_required'], handler: 'moveMember' },
    { id: 'transferOwnership', method: 'POST', url: '/:orgId/transfer-ownership', ...owner, audit: { action: 'org.ownership_transferred', details: noted },
      summary: 'Transfer ownership to a current member (owner only); the previous owner becomes admin',
      params: OrgParams, body: TransferOwnership, response: { 200: TransferResult }, raises: ['forbidden', 'orgs.transfer_to_self'], handler: 'transferOwnership' },
    { id: 'leaveOrganization', method: 'POST', url: '/:orgId/leave', ...inOrg, audit: { action: 'member.left', details: noted },
      summary: 'Leave the organization (any member); the owner must transfer ownership first (409)',
      params: OrgParams, response: { 200: Message }, raises: ['orgs.owner_cannot_be_removed', 'orgs.owner_must_transfer', 'orgs.role_escalation'], handler: 'leave' },

    { id: 'inviteByEmail', method: 'POST', url: '/:orgId/invitations/email', ...people, audit: invited,
      summary: 'Invite by email (role default member); the email carries the single-use accept link; expires after 7 days',
      params: OrgParams, body: EmailInvite, response: { 201: InvitationView }, raises: ['orgs.invitation_pending', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.unknown_role', 'plan_required'], handler: 'inviteByEmail' },
    { id: 'inviteByLink', method: 'POST', url: '/:orgId/invitations/link', ...people, audit: invited,
      summary: 'Create an invitation link (role default member), usable by several people, once each, until it expires (7 days) or is revoked; the link is shown only here',
      params: OrgParams, body: LinkInvite, response: { 201: InvitationView }, raises: ['orgs.invitation_pending', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.unknown_role', 'plan_required'], handler: 'inviteByLink' },
    { id: 'listInvitations', method: 'GET', url: '/:orgId/invitations', ...people, summary: 'Invitations, newest first, optionally by status',
      params: OrgParams, query: InvitationQuery, response: { 200: InvitationList }, handler: 'listInvitations' },
    { id: 'revokeInvitation', method: 'DELETE', url: '/:orgId/invitations/:id', ...people, audit: { action: 'invitation.revoked', details: noted },
      summary: 'Revoke a pending invitation (idempotent; an accepted or expired one answers 409)',
      params: InvitationParams, response: { 204: null }, raises: ['orgs.invitation_not_pending'], handler: 'revokeInvitation' },
    { id: 'acceptInvitation', method: 'POST', url: '/invitations/accept', auth: 'user', audit: { action: 'invitation.accepted', details: noted, org: (r: Static<typeof AcceptResult>) => r.organization._id },
      summary: 'Accept an invitation (not in the spec): the signed-in user joins with the invited role. Email invitations: '
        + 'single use, only for the invited address (403 otherwise). Link invitations: once per user. Unknown token 404, '
        + 'revoked or expired 410, already used or already a member 409.',
      body: AcceptInvitation, response: { 200: AcceptResult }, raises: ['not_found', 'orgs.already_member', 'orgs.invitation_email_mismatch', 'orgs.invitation_expired', 'orgs.invitation_not_found', 'orgs.invitation_revoked', 'orgs.invitation_used', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.unknown_role', 'plan_required'], handler: 'acceptInvitation' },

    { id: 'listRoles', method: 'GET', url: '/:orgId/roles', ...roles, summary: 'Custom roles with their member counts (Team plan and above)',
      params: OrgParams, response: { 200: Type.Object({ roles: Type.Array(RoleView) }) }, handler: 'listRoles' },
    { id: 'createRole', method: 'POST', url: '/:orgId/roles', ...roles, audit: { action: 'role.created', details: (r: Static<typeof RoleView>) => ({ target: { type: 'role', id: r._id, name: r.name }, permissions: r.permissions }) },
      summary: 'Create a custom role from the permission slugs (anything else is a 400); nobody creates a role granting more than their own',
      params: OrgParams, body: CreateRole, response: { 201: RoleView }, raises: ['orgs.invalid_role_name', 'orgs.invitation_pending', 'orgs.owner_role_fixed', 'orgs.role_escalation', 'orgs.role_name_taken', 'orgs.unknown_role'], handler: 'createRole' },
    { id: 'updateRole', method: 'PUT', url: '/:orgId/roles/:roleId', ...roles, audit: { action: 'role.updated', details: noted },
      summary: 'Change a custom role (partial); members holding it get the new permissions at once',
      params: RoleParams, body: UpdateRole, response: { 200: RoleView }, raises: ['orgs.invalid_role_name', 'orgs.role_escalation', 'orgs.role_name_taken'], handler: 'updateRole' },
    { id: 'deleteRole', method: 'DELETE', url: '/:orgId/roles/:roleId', ...roles, audit: { action: 'role.deleted', details: noted },
      summary: 'Delete a custom role; its members (and pending invitations) move to the built-in member role',
      params: RoleParams, response: { 204: null }, raises: ['orgs.owner_cannot_be_removed', 'orgs.role_escalation'], handler: 'deleteRole' },

    { id: 'listOrgAuditLogs', method: 'GET', url: '/:orgId/audit-logs', ...admin,
      summary: "The organization's audit log, newest first (limit default 50, max 100)",
      params: OrgParams, query: AuditQuery, response: { 200: AuditList }, handler: 'listAuditLogs' },
    { id: 'exportOrgAuditLogs', method: 'GET', url: '/:orgId/audit-logs/export', ...admin, plan: 'team', reply: 'raw',
      summary: 'The same query as CSV (text/csv, streamed; Team plan and above). Columns: '
        + 'timestamp, action, actorUserId, actorUsername, targetType, targetId, ip, statusCode, metadata (JSON)',
      params: OrgParams, query: ExportQuery, produces: ['text/csv'], response: { 200: CsvDownload }, handler: 'exportAuditLogs' },
  ],
});
