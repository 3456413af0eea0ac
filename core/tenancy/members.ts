// Membership writes: the only code that adds, removes, deactivates, re-roles or moves a member,
// or hands an organization to another owner. Each write enforces the owner rules (rules.ts)
// and, when an acting member is named (`by`: a user's permissions, a SCIM token creator's),
// the rule that nobody grants or takes away more than they hold (grants.ts); then it drops
// the cached membership and organization in every process, so a cached access() sees it at once.
import { newId } from '../crypto.ts';
import { AppError, notFound } from '../errors.ts';
import { isDuplicateKey } from '../db.ts';
import type { Permission } from '../permissions.ts';
import type { Grantor, Grants } from './grants.ts';
import type { Membership, Organization, TenancyStore } from './store.ts';
import { alreadyMember, checkRole, orgError, ownerCannotBeRemoved, ownerRoleFixed } from './rules.ts';

/** Who acts, when a member or token does (absent: the system, e.g. an accepted invitation or SAML sign-in). */
export interface Acting {
  by?: Grantor;
  /** The refusal's wording ("You cannot <what>: ..."). */
  what?: string;
}

export interface MemberWrites {
  /** Adds a member (409 orgs.already_member when they are one); never the owner role. */
  addMember(input: { orgId: string; userId: string; role: string; deactivated?: boolean } & Acting): Promise<Membership>;
  /** Removes a member (404 when not one; 409 for the owner). Returns the membership removed. */
  removeMember(orgId: string, userId: string, acting?: Acting): Promise<Membership>;
  /** Deactivates or reactivates a member (the owner is never deactivated). Returns the membership before. */
  setMemberActive(orgId: string, userId: string, active: boolean, acting?: Acting): Promise<Membership>;
  /** Changes a member's role (`plan`: custom roles need Team, for a role a person picks). Returns the membership before. */
  setRole(orgId: string, userId: string, role: string, acting?: Acting & { plan?: boolean }): Promise<Membership>;
  /** Moves a member to another organization: checked in both, written in the target first. */
  moveMember(input: { userId: string; from: string; to: string; role: string; by?: Grantor; byTarget?: Grantor; what?: string }): Promise<{ before: Membership; moved: Membership }>;
  /** The owner hands the organization to a member and becomes admin. Returns the heir's membership before. */
  transferOwnership(orgId: string, fromUserId: string, toUserId: string): Promise<Membership>;
  /**
   * A deleted account leaves every organization: one it owns passes to the longest-standing
   * admin (else member); one it owns alone goes through `removeOrganization` (the plugin hooks).
   */
  removeAccount(userId: string, removeOrganization: (orgId: string) => Promise<void>): Promise<void>;
}

interface Deps {
  store: TenancyStore;
  grants: Grants;
  permissionsOf(orgId: string, role: string): Promise<ReadonlySet<Permission> | null>;
  dropMember(orgId: string, userId: string): Promise<void>;
  dropOrg(orgId: string): Promise<void>;
}

export function createMemberWrites({ store, grants, permissionsOf, dropMember, dropOrg }: Deps): MemberWrites {
  async function memberOf(orgId: string, userId: string, what = 'Member'): Promise<Membership> {
    const m = await store.findMembership(orgId, userId);
    if (!m) throw notFound(what);
    return m;
  }
  async function orgOf(orgId: string): Promise<Organization> {
    const org = await store.findOrg(orgId);
    if (!org) throw notFound('Organization');
    return org;
  }
  async function insert(m: Membership): Promise<void> {
    try {
      await store.insertMembership(m);
    } catch (err) {
      if (isDuplicateKey(err)) throw alreadyMember();
      throw err;
    } finally {
      await dropMember(m.orgId, m.userId);
    }
  }

  return {
    async addMember({ orgId, userId, role, deactivated, by, what }) {
      await checkRole(permissionsOf, await orgOf(orgId), role, false);
      if (by) await grants.assertMayGrant(orgId, by, role, what);
      const m: Membership = { _id: newId(), orgId, userId, role, joinedAt: new Date(), ...(deactivated ? { deactivated: true } : {}) };
      await insert(m);
      return m;
    },

    async removeMember(orgId, userId, { by, what } = {}) {
      const m = await memberOf(orgId, userId);
      if (m.role === 'owner') throw ownerCannotBeRemoved();
      if (by) await grants.assertMayRevoke(orgId, by, m.role, what);
      await store.removeMembership(orgId, userId);
      await dropMember(orgId, userId);
      return m;
    },

    async setMemberActive(orgId, userId, active, { by, what } = {}) {
      const m = await memberOf(orgId, userId);
      if (Boolean(m.deactivated) !== active) return m;
      if (m.role === 'owner') throw ownerCannotBeRemoved('deactivated');
      if (by) await grants.assertMayRevoke(orgId, by, m.role, what ?? `${active ? 'reactivate' : 'deactivate'} a member whose role grants more than yours`);
      await store.setMemberDeactivated(orgId, userId, !active);
      await dropMember(orgId, userId);
      return m;
    },

    async setRole(orgId, userId, role, { by, what, plan = false } = {}) {
      const m = await memberOf(orgId, userId);
      if (m.role === 'owner') throw ownerRoleFixed();
      if (by) await grants.assertMayRevoke(orgId, by, m.role);
      await checkRole(permissionsOf, await orgOf(orgId), role, plan);
      if (by) await grants.assertMayGrant(orgId, by, role, what);
      if (m.role !== role) {
        await store.setMemberRole(orgId, userId, role);
        await dropMember(orgId, userId);
      }
      return m;
    },

    /** The target membership is written first: a crash between the writes leaves the user in both (nothing lost), never in neither. */
    async moveMember({ userId, from, to, role, by, byTarget, what }) {
      if (from === to) throw orgError('same_organization', 'targetOrgId is this organization');
      const before = await memberOf(from, userId);
      if (before.role === 'owner') throw ownerCannotBeRemoved('moved');
      if (by) await grants.assertMayRevoke(from, by, before.role);
      await checkRole(permissionsOf, await orgOf(to), role, true);
      if (byTarget) await grants.assertMayGrant(to, byTarget, role, what);
      const moved: Membership = { _id: newId(), orgId: to, userId, role, joinedAt: new Date() };
      await insert(moved);
      await store.removeMembership(from, userId);
      await dropMember(from, userId);
      return { before, moved };
    },

    /** The heir is promoted first, so a crash part-way leaves two owners rather than none. */
    async transferOwnership(orgId, fromUserId, toUserId) {
      if (toUserId === fromUserId) throw orgError('transfer_to_self', 'You already own this organization');
      const heir = await memberOf(orgId, toUserId, 'Member (newOwnerId must be a current member of the organization)');
      if ((await store.findMembership(orgId, fromUserId))?.role !== 'owner') {
        throw new AppError('forbidden', { message: 'Only the owner transfers ownership' });
      }
      await store.setMemberRole(orgId, toUserId, 'owner');
      await store.setOwnerId(orgId, toUserId);
      await store.setMemberRole(orgId, fromUserId, 'admin');
      await dropMember(orgId, toUserId);
      await dropMember(orgId, fromUserId);
      await dropOrg(orgId);
      return heir;
    },

    async removeAccount(userId, removeOrganization) {
      for (const m of await store.listUserMemberships(userId)) {
        if (m.role === 'owner') {
          const others = await store.otherMembers(m.orgId, userId);
          const heir = others.find((o) => o.role === 'admin') ?? others[0];
          if (heir) {
            await store.setMemberRole(m.orgId, heir.userId, 'owner');
            await store.setOwnerId(m.orgId, heir.userId);
            await dropMember(m.orgId, heir.userId);
          } else {
            await removeOrganization(m.orgId);
          }
          await dropOrg(m.orgId);
        }
        await store.removeMembership(m.orgId, userId);
        await dropMember(m.orgId, userId);
      }
    },
  };
}
