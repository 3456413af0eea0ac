// What every service here shares: who is acting, the audit facts beside a result, user names.
// The organization rules themselves (owner, roles, no escalation) are core/tenancy's.
import type { AppContext } from '../../core/context.ts';
import type { OrgContext } from '../../core/guards/principal.ts';
import type { Permission } from '../../core/permissions.ts';
import { checkRole } from '../../core/tenancy/rules.ts';
import type { Organization } from '../../core/tenancy/index.ts';
import type { DirectoryUser, UserDirectory } from '../auth/service.ts';

export { CUSTOM_ROLES_PLAN, orgError, ownerCannotBeRemoved } from '../../core/tenancy/rules.ts';

/** Who is acting, and in which organization. */
export interface Caller {
  /** The acting user; the service key (admin everywhere) acts as "service". */
  userId: string;
  isService: boolean;
  email?: string;
  org: OrgContext;
  request: { ip: string; userAgent: string | null; method: string; route: string };
}

/**
 * Facts for this request's audit entry (target, before/after), which the result alone does
 * not show. They travel beside the result as `audit`, which the manifest's rule reads
 * (manifests/orgs.ts `noted`); no response schema carries `audit`, so clients never see it.
 */
export type AuditFacts = Record<string, unknown>;
export const withFacts = <T extends object>(value: T, audit: AuditFacts): T & { audit: AuditFacts } => Object.assign(value, { audit });

/** The user's name, else the local part of their email. */
export const usernameOf = (u: Pick<DirectoryUser, 'email' | 'name'>) => u.name?.trim() || u.email.split('@')[0];

/** The auth plugin's user directory, by id. */
export async function usersById(directory: UserDirectory, ids: string[]): Promise<Map<string, DirectoryUser>> {
  const users = await directory.byIds(ids);
  return new Map(users.map((u) => [u._id, u]));
}

/**
 * A role as given in a request, checked against the organization (core/tenancy/rules.ts): built-in
 * roles as they are; a custom role must exist here, on Team or above.
 */
export async function resolveRole(ctx: AppContext, org: Organization, role: string): Promise<{ role: string; permissions: ReadonlySet<Permission> }> {
  return { role, permissions: await checkRole((orgId, r) => ctx.tenancy.permissionsOf(orgId, r), org, role) };
}
