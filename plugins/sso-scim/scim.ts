// SCIM 2.0 (RFC 7643, RFC 7644) for one organization, composed: Users (scim-users.ts), Groups
// (scim-groups.ts), Bulk (scim-bulk.ts), search over both (here). Which account a user is and
// whether it joins: scim-accounts.ts; roles from mapped groups: scim-roles.ts; the resources'
// JSON: scim-resources.ts; the protocol itself: lib/scim.
import type { AppContext } from '../../core/context.ts';
import type { AuthService } from '../auth/service.ts';
import type { Organizations } from '../orgs/service.ts';
import { createViews, SCHEMA, type Json } from './scim-resources.ts';
import { createScimRoles } from './scim-roles.ts';
import { createScimAccounts, type DomainCheck } from './scim-accounts.ts';
import { createScimUsers } from './scim-users.ts';
import { createScimGroups } from './scim-groups.ts';
import { createBulk } from './scim-bulk.ts';
import { page } from './scim-lists.ts';
import type { SsoScimStore } from './store.ts';
import type { ListQuery } from './schemas.ts';

export { MAX_BULK, MAX_COUNT, SCHEMA } from './scim-resources.ts';
export type { ScimActor } from './scim-roles.ts';

export interface ScimDeps { ctx: AppContext; store: SsoScimStore; auth: AuthService; orgs: Organizations; base: string; verified: DomainCheck }

export function createScim({ ctx, store, auth, orgs, base, verified }: ScimDeps) {
  const views = createViews(base);
  const roles = createScimRoles(ctx, store);
  const accounts = createScimAccounts(ctx, auth, orgs, roles, verified);
  const users = createScimUsers(ctx, store, views, roles, accounts);
  const groups = createScimGroups(store, views, roles);
  const bulk = createBulk({ users, groups }, views.location);

  /**
   * POST /.search (RFC 7644 §3.4.3) over both resource types: users, then groups, paged as one
   * list. A filter naming an attribute only one type has matches nothing of the other.
   */
  async function searchAll(orgId: string, q: ListQuery) {
    const { startIndex, count } = page(q);
    const noMatch = { totalResults: 0, Resources: [] as Json[] };
    const tolerant = async (fn: () => Promise<{ totalResults: number; Resources: Json[] }>) => {
      try { return { ok: true, r: await fn() }; } catch (err) {
        if ((err as { details?: { scimType?: string } }).details?.scimType !== 'invalidFilter') throw err;
        return { ok: false, r: noMatch, err };
      }
    };
    const u = await tolerant(() => users.list(orgId, { ...q, startIndex, count }));
    const rest = count - u.r.Resources.length;
    const g = await tolerant(() => groups.list(orgId, { ...q, startIndex: Math.max(1, startIndex - u.r.totalResults), count: rest }));
    if (!u.ok && !g.ok) throw u.err;
    const resources = [...u.r.Resources, ...g.r.Resources];
    return { schemas: [SCHEMA.list], totalResults: u.r.totalResults + g.r.totalResults, itemsPerPage: resources.length, startIndex, Resources: resources };
  }

  return {
    users, groups, bulk, searchAll,
    mappings: roles.mappings, setMapping: roles.setMapping, defaultRoleOf: roles.defaultRoleOf, changeRoles: roles.changeRoles,
    syncMembership: accounts.syncMembership,
  };
}
export type Scim = ReturnType<typeof createScim>;
