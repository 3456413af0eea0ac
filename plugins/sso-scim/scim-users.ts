// SCIM Users (RFC 7643 §4.1): create, read, list, replace, patch and delete. Which account a
// user is and whether it joins: scim-accounts.ts; roles from mapped groups: scim-roles.ts.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { applyPatch, type PatchOp } from './scim-protocol.ts';
import { USER_ATTRS } from './scim-attributes.ts';
import { accountOf, isActive, notFound, project, scimError, userFields, type createViews, type Json } from './scim-resources.ts';
import type { ScimActor, ScimRoles } from './scim-roles.ts';
import type { ScimAccounts } from './scim-accounts.ts';
import { list } from './scim-lists.ts';
import type { ScimUser, SsoScimStore } from './store.ts';
import type { ListQuery } from './schemas.ts';

export function createScimUsers(ctx: AppContext, store: SsoScimStore, views: ReturnType<typeof createViews>, roles: ScimRoles, accounts: ScimAccounts) {
  const { userView } = views;
  /** User resources with their groups: one command for the whole page. */
  async function userViews(orgId: string, rows: ScimUser[]): Promise<Json[]> {
    const groups = await store.groupsOfUsers(orgId, rows.map((u) => u._id));
    return rows.map((u) => userView(u, groups.filter((g) => g.members.includes(u._id))));
  }

  const conflict = (userName: string) => scimError('conflict', `A user with userName ${userName} (or its account) is already provisioned`, 'uniqueness');

  const users = {
    async create(orgId: string, body: Json, actor: ScimActor) {
      const f = userFields(body, true);
      if (await store.userByName(orgId, f.userNameLower)) throw conflict(f.userName);
      const _id = newId();
      const link = await accounts.provision(orgId, _id, f, actor);
      const now = new Date();
      const user: ScimUser = { _id, orgId, userId: link.userId, ...(link.invitationId ? { invitationId: link.invitationId } : {}), ...f, createdAt: now, updatedAt: now, version: 1 };
      try {
        await store.insertUser(user);
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(f.userName);
        throw err;
      }
      return userView(user);
    },
    async get(orgId: string, id: string, q: ListQuery = {}) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      return project((await userViews(orgId, [u]))[0], q.attributes, q.excludedAttributes);
    },
    list: (orgId: string, q: ListQuery) => list<ScimUser>(USER_ATTRS, q, (rows) => userViews(orgId, rows),
      (query, skip, limit) => store.pageUsers(orgId, query, skip, limit), (query) => store.allUsers(orgId, query)),
    /**
     * PUT and PATCH end here: the resource's new JSON replaces the stored one. A user linked to a
     * member keeps its account; one that is not yet (no email, invitation not accepted) is
     * provisioned again, and its role follows its mapped groups once it is a member.
     */
    async replace(orgId: string, id: string, body: Json, actor: ScimActor) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      const f = userFields(body);
      if (f.userNameLower !== u.userNameLower && await store.userByName(orgId, f.userNameLower)) throw conflict(f.userName);
      const account = accountOf(u);
      const member = account ? await ctx.tenancy.findMembership(orgId, account) : null;
      const link = member ? { userId: u.userId, invitationId: null } : await accounts.provision(orgId, u._id, f, actor);
      if (member && isActive(f) !== isActive(u)) await accounts.setActive(orgId, u.userId, isActive(f), actor);
      const invitationId = link.invitationId ?? (member ? undefined : u.invitationId);
      const next: ScimUser = { _id: u._id, orgId, userId: link.userId, ...(invitationId ? { invitationId } : {}), ...f, createdAt: u.createdAt, updatedAt: new Date(), version: u.version + 1 };
      try {
        if (!(await store.replaceUser(next, u.version))) throw scimError('conflict', 'The user changed meanwhile; retry', 'mutability');
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(f.userName);
        throw err;
      }
      if (!member && accountOf(next)) await roles.changeRoles(orgId, actor, [next._id], async () => {});
      return (await userViews(orgId, [next]))[0];
    },
    async patch(orgId: string, id: string, ops: PatchOp[], actor: ScimActor) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      return users.replace(orgId, id, applyPatch(USER_ATTRS, (await userViews(orgId, [u]))[0], ops), actor);
    },
    /** Removes the user from the organization and its groups; the account stays. */
    async remove(orgId: string, id: string, actor: ScimActor) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      await accounts.release(orgId, accountOf(u), u.invitationId, actor);
      await store.pullMember(orgId, u._id);
      await store.removeUser(orgId, id);
    },
  };

  return users;
}
export type ScimUsers = ReturnType<typeof createScimUsers>;
