// TypeBox schemas of the organization routes (SPEC "Organization, members, invitations"),
// with their Static<> types beside them.
import { Type, type Static } from 'typebox';
import { PERMISSIONS } from '../../core/permissions.ts';
import { Id, Nullable, PageQuery, Timestamp } from '../../core/schemas.ts';

export const OrgView = Type.Object({
  _id: Type.String(), name: Type.String(), role: Type.String(), memberCount: Type.Integer(),
  plan: Type.String(), createdAt: Timestamp,
});
export type OrgView = Static<typeof OrgView>;
export const CreateOrg = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export type CreateOrg = Static<typeof CreateOrg>;
export const RenameOrg = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export type RenameOrg = Static<typeof RenameOrg>;

export const OrgParams = Type.Object({ orgId: Id });
export const MemberParams = Type.Object({ orgId: Id, userId: Id });
export const InvitationParams = Type.Object({ orgId: Id, id: Id });
export const RoleParams = Type.Object({ orgId: Id, roleId: Id });

/** A role a member can be given: a built-in role below owner, or a custom role id of the organization. */
const assignable = (options: { default?: string } = {}) => Type.Union([
  Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer'),
  Type.String({ pattern: '^[a-f0-9]{24}$', description: 'Custom role id of the same organization (Team plan and above)' }),
], { description: '`admin`, `member`, `viewer`, or a custom role id; ownership moves only through transfer-ownership', ...options });
export const AssignableRole = assignable();
const RoleWithDefault = Type.Optional(assignable({ default: 'member' }));

export const MemberView = Type.Object({
  userId: Type.String(), username: Type.String(), email: Type.String(), role: Type.String(), joinedAt: Timestamp,
});
export type MemberView = Static<typeof MemberView>;
export const MemberList = Type.Object({ members: Type.Array(MemberView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
export const MemberQuery = PageQuery(20, 100);
export const ChangeRole = Type.Object({ role: AssignableRole });
export type ChangeRole = Static<typeof ChangeRole>;
export const MoveMember = Type.Object({ targetOrgId: Id, role: RoleWithDefault });
export type MoveMember = Static<typeof MoveMember>;
export const MoveResult = Type.Object({ message: Type.String(), targetOrgId: Type.String(), member: MemberView });
export const TransferOwnership = Type.Object({ newOwnerId: Id });
export type TransferOwnership = Static<typeof TransferOwnership>;
export const TransferResult = Type.Object({ message: Type.String(), ownerId: Type.String(), previousOwnerRole: Type.String() });
export const Message = Type.Object({ message: Type.String() });

export const InvitationStatus = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('revoked'), Type.Literal('expired')]);
export type InvitationStatus = Static<typeof InvitationStatus>;
export const EmailInvite = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: RoleWithDefault });
export type EmailInvite = Static<typeof EmailInvite>;
// The body is optional (null when absent: Fastify validates a missing body as null).
export const LinkInvite = Type.Union([Type.Object({ role: RoleWithDefault }), Type.Null()], { description: 'Optional; role defaults to member' });
export type LinkInvite = Static<typeof LinkInvite>;
export const InvitationView = Type.Object({
  _id: Type.String(),
  type: Type.Union([Type.Literal('email'), Type.Literal('link')]),
  email: Type.Optional(Type.String()),
  link: Type.Optional(Type.String({ description: 'Link invitations, in the creation answer only: the token is stored hashed' })),
  role: Type.String(),
  status: InvitationStatus,
  expiresAt: Timestamp,
  createdAt: Timestamp,
  invitedBy: Type.String(),
});
export type InvitationView = Static<typeof InvitationView>;
export const InvitationQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  status: Type.Optional(InvitationStatus),
});
export type InvitationQuery = Static<typeof InvitationQuery>;
export const InvitationList = Type.Object({ invitations: Type.Array(InvitationView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
export const AcceptInvitation = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512, description: 'The token of the emailed link or of the invitation link' }) });
export const AcceptResult = Type.Object({ message: Type.String(), organization: OrgView });

export const PermissionSlug = Type.Enum([...PERMISSIONS], { type: 'string', description: 'Custom-role permission slug' });
const RoleName = Type.String({ minLength: 1, maxLength: 50 });
const RoleDescription = Type.String({ maxLength: 500 });
const RolePermissions = Type.Array(PermissionSlug, { uniqueItems: true, maxItems: PERMISSIONS.length, description: 'Exactly the custom-role permission slugs; billing and organization deletion are never assignable' });
export const CreateRole = Type.Object({ name: RoleName, description: Type.Optional(RoleDescription), permissions: RolePermissions });
export type CreateRole = Static<typeof CreateRole>;
export const UpdateRole = Type.Object({
  name: Type.Optional(RoleName), description: Type.Optional(RoleDescription), permissions: Type.Optional(RolePermissions),
}, { minProperties: 1 });
export type UpdateRole = Static<typeof UpdateRole>;
export const RoleView = Type.Object({
  _id: Type.String(), name: Type.String(), description: Type.String(), permissions: Type.Array(Type.String()),
  memberCount: Type.Integer(), createdAt: Timestamp,
});
export type RoleView = Static<typeof RoleView>;

const AuditFilters = {
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Exact action name, e.g. member.role_changed' })),
  actorId: Type.Optional(Id),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive' })),
};
export const AuditQuery = Type.Object({ ...PageQuery(50, 100).properties, ...AuditFilters });
export type AuditQuery = Static<typeof AuditQuery>;
export const ExportQuery = Type.Object(AuditFilters);
export type ExportQuery = Static<typeof ExportQuery>;
const Open = Type.Object({}, { additionalProperties: true });
export const OrgAuditEntry = Type.Object({
  _id: Type.String(),
  action: Type.String(),
  actor: Type.Object({ userId: Nullable(Type.String()), username: Nullable(Type.String()) }),
  target: Open,
  metadata: Open,
  ip: Type.String(),
  timestamp: Timestamp,
});
export type OrgAuditEntry = Static<typeof OrgAuditEntry>;
export const AuditList = Type.Object({ logs: Type.Array(OrgAuditEntry), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
