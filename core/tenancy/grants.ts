// Nobody grants more than they hold (DESIGN.md): the one rule every path that changes a role
// goes through (member role changes, moves, invitations, custom-role edits, SSO defaultRole,
// SCIM group mappings and the roles SCIM provisioning gives). A grantor is whoever acts (a
// user's permissions in the organization, or a SCIM token's creator's, read live): every
// permission of the role granted, and of the role taken away, must be one the grantor holds.
import { AppError } from '../errors.ts';
import type { Permission } from '../permissions.ts';

/** Whoever changes a role: the permissions they hold in the organization, now. */
export interface Grantor { permissions: ReadonlySet<Permission> }

/** No permissions at all: a grantor that may change nobody's role (e.g. a token whose creator left). */
export const NO_GRANTOR: Grantor = { permissions: new Set() };

/** The escalation rule on a set of permissions: every one in `wanted` must be held. */
export function assertHolds(held: ReadonlySet<Permission>, wanted: Iterable<Permission>, what: string): void {
  const missing = [...new Set(wanted)].filter((p) => !held.has(p));
  if (missing.length) {
    throw new AppError('orgs.role_escalation', { message: `You cannot ${what}: it involves permissions your role does not hold`, details: { missingPermissions: missing } });
  }
}

export interface Grants {
  /** Throws 403 orgs.role_escalation unless the grantor holds every permission `role` grants in the organization. */
  assertMayGrant(orgId: string, grantor: Grantor, role: string, what?: string): Promise<void>;
  /** The same for a role taken away (changing or removing a member who holds it). */
  assertMayRevoke(orgId: string, grantor: Grantor, role: string, what?: string): Promise<void>;
  /** A member's role moving from `from` to `to`: both directions at once. */
  assertMayChange(orgId: string, grantor: Grantor, from: string | null, to: string | null, what?: string): Promise<void>;
}

/**
 * The rule over a role lookup (Tenancy.permissionsOf). The owner role holds more than any set of
 * permission slugs (deletion, transfer), so only ownership transfer gives or takes it; an unknown
 * or deleted custom role grants nothing and needs nothing.
 */
export function createGrants(permissionsOf: (orgId: string, role: string) => Promise<ReadonlySet<Permission> | null>): Grants {
  async function check(orgId: string, grantor: Grantor, role: string, what: string) {
    if (role === 'owner') {
      throw new AppError('orgs.role_escalation', { message: `You cannot ${what}: the owner role changes hands only by transferring ownership`, details: { missingPermissions: [], role } });
    }
    const perms = await permissionsOf(orgId, role);
    if (perms) assertHolds(grantor.permissions, perms, what);
  }
  return {
    assertMayGrant: (orgId, grantor, role, what = 'give a role that grants more than yours') => check(orgId, grantor, role, what),
    assertMayRevoke: (orgId, grantor, role, what = 'manage a member whose role grants more than yours') => check(orgId, grantor, role, what),
    async assertMayChange(orgId, grantor, from, to, what) {
      if (from === to) return;
      if (from) await check(orgId, grantor, from, what ?? 'manage a member whose role grants more than yours');
      if (to) await check(orgId, grantor, to, what ?? 'give a role that grants more than yours');
    },
  };
}
