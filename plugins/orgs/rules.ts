// The organization rules every service here shares: who is acting, which roles exist,
// and how the escalation rule (core/tenancy/grants.ts: nobody grants or manages permissions
// they do not hold) applies to a caller. The
// error codes and statuses are the ones the README's API notes list.
import type { AppContext } from '../../core/context.ts';
import { AppError, type ErrorCode } from '../../core/errors.ts';
import type { OrgContext } from '../../core/guards/principal.ts';
import { isBuiltInRole, type Permission } from '../../core/permissions.ts';
import { assertHolds } from '../../core/tenancy/grants.ts';
import { planAtLeast, type Plan } from '../../core/plans.ts';
import type { Organization } from '../../core/tenancy/store.ts';
import type { DirectoryUser, UserDirectory } from '../auth/service.ts';

/** Who is acting, and in which organization. */
export interface Caller {
  /** The acting user; the service key (admin everywhere) acts as "service". */
  userId: string;
  isService: boolean;
  email?: string;
  org: OrgContext;
  request: { ip: string; userAgent: string | null; method: string; route: string };
}

export const CUSTOM_ROLES_PLAN: Plan = 'team';

type OrgErrorCode = Extract<ErrorCode, `orgs.${string}`> extends `orgs.${infer C}` ? C : never;
/** An organization rule's error: its code and status are rows of the error table (core/errors.ts). */
export const orgError = (code: OrgErrorCode, message: string, details?: unknown) =>
  new AppError(`orgs.${code}`, { message, details });

/**
 * Facts for this request's audit entry (target, before/after), which the result alone does
 * not show. They travel beside the result as `audit`, which the manifest's rule reads
 * (manifests/orgs.ts `noted`); no response schema carries `audit`, so clients never see it.
 */
export type AuditFacts = Record<string, unknown>;
export const withFacts = <T extends object>(value: T, audit: AuditFacts): T & { audit: AuditFacts } => Object.assign(value, { audit });

export const ownerCannotBeRemoved = (what = 'removed') =>
  orgError('owner_cannot_be_removed', `The organization owner cannot be ${what}; transfer ownership first`);

/** The user's name, else the local part of their email. */
export const usernameOf = (u: Pick<DirectoryUser, 'email' | 'name'>) => u.name?.trim() || u.email.split('@')[0];

/** The auth plugin's user directory, by id. */
export async function usersById(directory: UserDirectory, ids: string[]): Promise<Map<string, DirectoryUser>> {
  const users = await directory.byIds(ids);
  return new Map(users.map((u) => [u._id, u]));
}

/**
 * A role as given in a request, checked against the organization: built-in roles as they
 * are; a custom role must exist in this organization, which must be on Team or above.
 */
export async function resolveRole(ctx: AppContext, org: Organization, role: string): Promise<{ role: string; permissions: ReadonlySet<Permission> }> {
  if (role === 'owner') throw orgError('owner_role_fixed', 'The owner role is given only by transferring ownership');
  const permissions = await ctx.tenancy.permissionsOf(org._id, role);
  if (!permissions) throw orgError('unknown_role', `Unknown role "${role}": use admin, member, viewer or a custom role id of this organization`);
  if (!isBuiltInRole(role) && !planAtLeast(org.plan, CUSTOM_ROLES_PLAN)) {
    throw new AppError('plan_required', { message: 'Custom roles require the Team plan or higher', details: { requiredPlan: CUSTOM_ROLES_PLAN, currentPlan: org.plan } });
  }
  return { role, permissions };
}

/** The escalation rule lives in core/tenancy/grants.ts (one rule for every path that changes a role). */
export { assertHolds };

/** The caller may act on a member only if the member's role grants nothing the caller lacks. */
export async function assertCanManage(ctx: AppContext, caller: Caller, memberRole: string, held = caller.org.permissions): Promise<void> {
  // A dangling custom role grants nothing, so anyone with org:members may manage it.
  await ctx.tenancy.assertMayRevoke(caller.org.id, { permissions: held }, memberRole);
}
