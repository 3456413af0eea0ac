// Invitations by email and by link, and the accept step the spec leaves out.
//  - Tokens are stored as SHA-256 hashes: an email invitation's token exists only in the
//    email, a link invitation's only in the creation answer.
//  - Email invitations are single-use and only for the invited address; link invitations
//    can be used by several people until they expire or are revoked, once per person.
//  - Spending is decided by the exactly-once primitive (an insert keyed by a unique index):
//    of concurrent accepts exactly one wins. The claim comes before the membership write, so
//    a crash between them fails closed (the invitation is spent; an admin invites again).
//  - Invitations expire by themselves: accept checks expiresAt, and a scheduled job marks
//    the pending ones past it `expired`.
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { notFound } from '../../core/errors.ts';
import { isBuiltInRole } from '../../core/permissions.ts';
import { pageCount, type Page } from '../../core/schemas.ts';
import type { Invitation, InvitationStore } from './store.ts';
import type { InvitationStatus, InvitationView } from './schemas.ts';
import { alreadyMember } from './members.ts';
import type { UserDirectory } from '../auth/service.ts';
import type { Grantor } from '../../core/tenancy/grants.ts';
import { orgError, resolveRole, type AuditFacts, type Caller } from './rules.ts';

export const INVITATION_TTL_DAYS = 7;

/** An invitation an identity provider asks for (plugins/sso-scim, through the orgs service). */
export interface ProvisionInvite { orgId: string; email: string; role: string; grantor: Grantor; invitedBy: string }
export const EXPIRE_JOB = 'orgs.expire-invitations';
export const EXPIRE_EVERY = '15 minutes';

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Expired as soon as the date passes, even before the job marks it. */
const effectiveStatus = (inv: Invitation): InvitationStatus =>
  (inv.status === 'pending' && inv.expiresAt.getTime() <= Date.now() ? 'expired' : inv.status);

export function invitationView(inv: Invitation, link?: string): InvitationView {
  return {
    _id: inv._id, type: inv.type, ...(inv.email ? { email: inv.email } : {}), ...(link ? { link } : {}),
    role: inv.role, status: inv.status, expiresAt: inv.expiresAt.toISOString(), createdAt: inv.createdAt.toISOString(), invitedBy: inv.invitedBy,
  };
}

export function createInvitations(ctx: AppContext, store: InvitationStore, directory: UserDirectory) {
  const acceptUrl = (token: string) => `${ctx.config.FRONTEND_URL}/invitations/accept?token=${encodeURIComponent(token)}`;

  async function create(caller: Caller, type: Invitation['type'], roleInput: string | undefined, emailInput?: string) {
    const orgId = caller.org.id;
    const { role } = await resolveRole(ctx, caller.org.org, roleInput ?? 'member');
    await ctx.tenancy.assertMayGrant(orgId, caller.org, role, 'invite with a role that grants more than yours');
    const email = emailInput ? normalizeEmail(emailInput) : undefined;
    if (email) {
      const user = await directory.byEmail(email);
      if (user && await ctx.tenancy.findMembership(orgId, user._id)) throw alreadyMember();
      // Best effort on the embedded database (not atomic); two pending copies would be harmless.
      if (await store.pendingFor(orgId, email)) throw orgError('invitation_pending', 'A pending invitation for this email already exists; revoke it to send a new one');
    }
    const token = randomToken('inv_');
    const now = new Date();
    const inv: Invitation = {
      _id: newId(), orgId, type, ...(email ? { email } : {}), role, tokenHash: sha256Hex(token), status: 'pending',
      invitedBy: caller.userId, createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
    };
    await store.insert(inv);
    // Webhooks (member.invited): link invitations name no address, so theirs is empty.
    await ctx.bus.emit('member.invited', orgId, {
      invitationId: inv._id, email: email ?? '', role, invitedBy: { id: caller.userId, ...(caller.email ? { email: caller.email } : {}) },
    });
    if (email) {
      const roleName = isBuiltInRole(role) ? role : (await ctx.tenancy.findRole(orgId, role))?.name ?? 'custom role';
      await ctx.mail.send({
        to: email,
        subject: `You are invited to join ${caller.org.org.name}`,
        text: `${caller.email ?? 'An administrator'} invited you to join the organization "${caller.org.org.name}" as ${roleName}.\n\n`
          + `Accept the invitation (sign in or create an account with this email first): ${acceptUrl(token)}\n\n`
          + `Invitation token: ${token}\n\nThe invitation expires on ${inv.expiresAt.toISOString()}.\n`,
      });
      return invitationView(inv);
    }
    return invitationView(inv, acceptUrl(token));
  }

  return {
    createEmail: (caller: Caller, email: string, role?: string) => create(caller, 'email', role, email),

    /**
     * An identity provider (SCIM) asks for someone who is not a member: an email invitation
     * they accept themselves, under the same rules as one an admin sends (role checked against
     * the grantor; already a member: 409). A pending one for the address is answered as is.
     */
    async provision(input: ProvisionInvite): Promise<{ invitationId: string }> {
      const org = await ctx.tenancy.org(input.orgId);
      if (!org) throw notFound('Organization');
      const caller: Caller = {
        userId: input.invitedBy, isService: false,
        org: { id: org._id, org, role: input.invitedBy, builtInRole: null, permissions: input.grantor.permissions },
        request: { ip: '', userAgent: null, method: 'SCIM', route: '/api/scim/v2/Users' },
      };
      const pending = await store.pendingFor(org._id, normalizeEmail(input.email));
      if (pending && effectiveStatus(pending) === 'pending') return { invitationId: pending._id };
      // Expired by date but not yet marked by the job: marked now, so a fresh one can be sent.
      if (pending) await store.update(org._id, pending._id, { status: 'expired' });
      return { invitationId: (await create(caller, 'email', input.role, input.email))._id };
    },

    /** Withdraws a pending invitation (the identity provider deleted the user); anything else is left as is. */
    async withdraw(orgId: string, id: string, by: string): Promise<void> {
      const inv = await store.get(orgId, id);
      if (inv && effectiveStatus(inv) === 'pending') await store.update(orgId, id, { status: 'revoked', revokedBy: by, revokedAt: new Date() });
    },
    createLink: (caller: Caller, role?: string) => create(caller, 'link', role),

    async list(orgId: string, status: InvitationStatus | undefined, page: Page) {
      const [rows, total] = await Promise.all([store.list(orgId, status, page), store.count(orgId, status)]);
      const invitations = rows.map((inv) => invitationView({ ...inv, status: effectiveStatus(inv) }));
      return { invitations, total, page: page.page, pages: pageCount(total, page.limit) };
    },

    /** Idempotent for revoked invitations; accepted or expired ones cannot be revoked. */
    async revoke(caller: Caller, id: string): Promise<{ audit: AuditFacts }> {
      const inv = await store.get(caller.org.id, id);
      if (!inv) throw notFound('Invitation');
      const audit = { target: { type: 'invitation', id, invitationType: inv.type, ...(inv.email ? { email: inv.email } : {}) } };
      if (inv.status === 'revoked') return { audit };
      const status = effectiveStatus(inv);
      if (status !== 'pending') throw orgError('invitation_not_pending', `This invitation is ${status} and can no longer be revoked`);
      await store.update(caller.org.id, id, { status: 'revoked', revokedBy: caller.userId, revokedAt: new Date() });
      return { audit };
    },

    /** The invited user joins with the invited role; returns the organization joined. */
    async accept(user: { userId: string; email?: string }, token: string): Promise<{ orgId: string; role: string; invitationId: string }> {
      const inv = await store.byTokenHash(sha256Hex(token));
      if (!inv) throw orgError('invitation_not_found', 'Invitation not found: the link is wrong or the invitation was withdrawn');
      if (inv.status === 'revoked') throw orgError('invitation_revoked', 'This invitation has been revoked');
      if (inv.status === 'accepted') throw orgError('invitation_used', 'This invitation has already been used');
      if (inv.status === 'expired' || inv.expiresAt.getTime() <= Date.now()) {
        throw orgError('invitation_expired', `This invitation expired on ${inv.expiresAt.toISOString()}; ask for a new one`);
      }
      if (inv.type === 'email') {
        const email = user.email ?? (await directory.byIds([user.userId]))[0]?.email;
        if (!email || normalizeEmail(email) !== inv.email) {
          throw orgError('invitation_email_mismatch', 'This invitation was sent to another email address; sign in with that address to accept it');
        }
      }
      if (await ctx.tenancy.findMembership(inv.orgId, user.userId)) throw alreadyMember();
      // A custom role deleted since the invitation was sent: its members became members.
      const role = (await ctx.tenancy.permissionsOf(inv.orgId, inv.role)) ? inv.role : 'member';
      const key = inv.type === 'email' ? `invitation:${inv._id}` : `invitation:${inv._id}:${user.userId}`;
      if (!(await ctx.once.claim(key, inv.orgId))) {
        throw inv.type === 'email'
          ? orgError('invitation_used', 'This invitation has already been used')
          : orgError('invitation_used', 'You have already used this invitation link');
      }
      // 409 orgs.already_member when a concurrent accept or move got there first.
      await ctx.tenancy.addMember({ orgId: inv.orgId, userId: user.userId, role });
      if (inv.type === 'email') await store.update(inv.orgId, inv._id, { status: 'accepted', acceptedBy: user.userId, acceptedAt: new Date() });
      return { orgId: inv.orgId, role, invitationId: inv._id };
    },

    expireDue: (now = new Date()) => store.expireDue(now),
  };
}
export type Invitations = ReturnType<typeof createInvitations>;
