// Which account a SCIM user is, and whether it is a member. An identity provider's claim (a
// userName or email) is not proof that the organization may take the account in, so SCIM never
// adds an existing account that is not already a member:
//  - already a member: linked; `active` deactivates or reactivates the membership;
//  - the organization verified the email's domain (it owns the identities under it): the
//    account (found, or created without a password) joins with the default role;
//  - anyone else: an email invitation (orgs plugin) the account holder accepts themselves; the
//    SCIM user stays linked to no membership until then, and is linked on its next change.
// Every membership change goes through core/tenancy's rule against the token's creator.
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import type { Grantor } from '../../core/tenancy/grants.ts';
import type { AuthService } from '../auth/service.ts';
import type { Organizations } from '../orgs/service.ts';
import { emailOf, isActive, UNLINKED, type UserFields } from './scim-resources.ts';
import type { ScimActor, ScimRoles } from './scim-roles.ts';

/** Whether an organization has verified an email domain (plugins/sso-scim/domains.ts once merged). */
export type DomainCheck = (orgId: string, domain: string) => Promise<boolean>;

export interface Link { userId: string; invitationId: string | null }

export function createScimAccounts(ctx: AppContext, auth: AuthService, orgs: Organizations, roles: ScimRoles, verified: DomainCheck) {
  const tenancy = ctx.tenancy;

  /** Deactivates or reactivates an existing membership; the owner is never deactivated (it would lock the organization). */
  async function setActive(orgId: string, userId: string, active: boolean, actor: ScimActor): Promise<void> {
    const m = await tenancy.findMembership(orgId, userId);
    if (!m || m.role === 'owner' || Boolean(m.deactivated) !== active) return;
    await tenancy.setMemberActive(orgId, userId, active, { by: await actor.grantor() });
  }

  /** Adds a membership (a concurrent insert of the same one is not an error). */
  async function join(orgId: string, userId: string, role: string, active: boolean, by?: Grantor): Promise<void> {
    try {
      await tenancy.addMember({ orgId, userId, role, deactivated: !active, by });
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'orgs.already_member')) throw err;
    }
  }

  /**
   * The account a SCIM user is linked to and the invitation sent for it, deciding membership as
   * the header says. Idempotent: called on creation and again on each change until linked.
   */
  async function provision(orgId: string, scimId: string, f: UserFields, actor: ScimActor): Promise<Link> {
    const email = emailOf(f);
    // No usable email: a SCIM user no account is reached by (nobody can sign in as it).
    if (!email) return { userId: `${UNLINKED}${scimId}`, invitationId: null };
    const existing = await auth.userDirectory.byEmail(email);
    if (existing && await tenancy.findMembership(orgId, existing._id)) {
      await setActive(orgId, existing._id, isActive(f), actor);
      return { userId: existing._id, invitationId: null };
    }
    const role = await roles.defaultRoleOf(orgId);
    if (await verified(orgId, email.slice(email.lastIndexOf('@') + 1))) {
      // Checked before the account is created: a refused grant creates nothing.
      const grantor = await actor.grantor();
      await tenancy.assertMayGrant(orgId, grantor, role);
      const name = f.displayName ?? ([f.name?.givenName, f.name?.familyName].filter(Boolean).join(' ') || undefined);
      const account = await auth.sso.provision({ email, name, defaultOrgId: orgId });
      await join(orgId, account.userId, role, isActive(f), grantor);
      return { userId: account.userId, invitationId: null };
    }
    const userId = existing?._id ?? `${UNLINKED}${scimId}`;
    // A deactivated user is not invited; activating it later sends the invitation.
    if (!isActive(f)) return { userId, invitationId: null };
    const { invitationId } = await orgs.invite({ orgId, email, role, grantor: await actor.grantor(), invitedBy: actor.label });
    return { userId, invitationId };
  }

  /** DELETE /Users/:id: the membership goes (never the owner's), a pending invitation is withdrawn; the account stays. */
  async function release(orgId: string, userId: string | null, invitationId: string | undefined, actor: ScimActor): Promise<void> {
    if (invitationId) await orgs.withdrawInvitation(orgId, invitationId, actor.label);
    const m = userId ? await tenancy.findMembership(orgId, userId) : null;
    if (!userId || !m || m.role === 'owner') return;
    await tenancy.removeMember(orgId, userId, { by: await actor.grantor(), what: 'remove a member whose role grants more than yours' });
  }

  /**
   * SAML sign-in (service.ts): an account the callback has already proven joins with `roleIfNew`
   * (an existing member keeps their role), and `active` is applied.
   */
  async function syncMembership(orgId: string, userId: string, active: boolean, roleIfNew: () => Promise<string>) {
    let m = await tenancy.findMembership(orgId, userId);
    if (!m) {
      await join(orgId, userId, await roleIfNew(), active);
      m = await tenancy.findMembership(orgId, userId);
    }
    if (m && m.role !== 'owner') await tenancy.setMemberActive(orgId, userId, active);
  }

  return { provision, setActive, release, syncMembership };
}
export type ScimAccounts = ReturnType<typeof createScimAccounts>;
