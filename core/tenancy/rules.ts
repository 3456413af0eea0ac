// The organization rules the write API (members.ts, roles.ts) enforces for every caller, and
// the errors they answer with (rows of core/errors.ts): an organization has exactly one owner,
// who is not removed, demoted or deactivated except by a transfer; roles exist in the
// organization (custom roles only on Team or above); nobody is a member twice.
import { AppError, type ErrorCode } from '../errors.ts';
import { isBuiltInRole, type Permission } from '../permissions.ts';
import { planAtLeast, type Plan } from '../plans.ts';
import type { Organization } from './store.ts';

export const CUSTOM_ROLES_PLAN: Plan = 'team';

type OrgErrorCode = Extract<ErrorCode, `orgs.${string}`> extends `orgs.${infer C}` ? C : never;
/** An organization rule's error: its code and status are rows of the error table (core/errors.ts). */
export const orgError = (code: OrgErrorCode, message: string, details?: unknown) =>
  new AppError(`orgs.${code}`, { message, details });

export const ownerCannotBeRemoved = (what = 'removed') =>
  orgError('owner_cannot_be_removed', `The organization owner cannot be ${what}; transfer ownership first`);
export const ownerRoleFixed = () => orgError('owner_role_fixed', "The owner's role changes only by transferring ownership");
export const alreadyMember = () => orgError('already_member', 'This user is already a member of the organization');

/**
 * A role as given in a request, checked against the organization: built-in roles as they are;
 * a custom role must exist in this organization, which must be on Team or above (`plan` false:
 * skip the plan check, for roles an identity provider's mapping already gave).
 */
export async function checkRole(permissionsOf: (orgId: string, role: string) => Promise<ReadonlySet<Permission> | null>,
  org: Organization, role: string, plan = true): Promise<ReadonlySet<Permission>> {
  if (role === 'owner') throw orgError('owner_role_fixed', 'The owner role is given only by transferring ownership');
  const permissions = await permissionsOf(org._id, role);
  if (!permissions) throw orgError('unknown_role', `Unknown role "${role}": use admin, member, viewer or a custom role id of this organization`);
  if (plan && !isBuiltInRole(role) && !planAtLeast(org.plan, CUSTOM_ROLES_PLAN)) {
    throw new AppError('plan_required', { message: 'Custom roles require the Team plan or higher', details: { requiredPlan: CUSTOM_ROLES_PLAN, currentPlan: org.plan } });
  }
  return permissions;
}
