// SCIM 2.0 Users and Groups (RFC 7643, RFC 7644) for one organization. Which account a user
// is and whether it joins: scim-accounts.ts; roles from mapped groups: scim-roles.ts; Bulk:
// scim-bulk.ts; the resources' JSON: scim-resources.ts.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import type { AuthService } from '../auth/service.ts';
import type { Organizations } from '../orgs/service.ts';
import { applyPatch, compileFilter, matches, parseFilter, type Attrs, type PatchOp } from './scim-protocol.ts';
import { GROUP_ATTRS, USER_ATTRS } from './scim-attributes.ts';
import { accountOf, createViews, isActive, project, DEFAULT_COUNT, MAX_COUNT, notFound, SCHEMA, scimError, userFields, type Json } from './scim-resources.ts';
import { createScimRoles, type ScimActor } from './scim-roles.ts';
import { createScimAccounts, type DomainCheck } from './scim-accounts.ts';
import { createBulk } from './scim-bulk.ts';
import type { ScimGroup, ScimUser, SsoScimStore } from './store.ts';
import type { ListQuery } from './schemas.ts';

export { MAX_BULK, MAX_COUNT, SCHEMA } from './scim-resources.ts';
export type { ScimActor } from './scim-roles.ts';

export interface ScimDeps { ctx: AppContext; store: SsoScimStore; auth: AuthService; orgs: Organizations; base: string; verified: DomainCheck }

export function createScim({ ctx, store, auth, orgs, base, verified }: ScimDeps) {
  const { location, userView, groupView } = createViews(base);
  const roles = createScimRoles(ctx, store);
  const accounts = createScimAccounts(ctx, auth, orgs, roles, verified);

  /** User resources with their groups: one command for the whole page. */
  async function userViews(orgId: string, rows: ScimUser[]): Promise<Json[]> {
    const groups = await store.groupsOfUsers(orgId, rows.map((u) => u._id));
    return rows.map((u) => userView(u, groups.filter((g) => g.members.includes(u._id))));
  }
  /** Group resources, with or without members. */
  const groupViews = async (_orgId: string, rows: ScimGroup[], withMembers = true): Promise<Json[]> => rows.map((g) => groupView(g, withMembers));

  const page = (q: ListQuery) => ({
    startIndex: Math.max(1, q.startIndex ?? 1),
    count: Math.min(MAX_COUNT, Math.max(0, q.count ?? DEFAULT_COUNT)),
  });
  const listResponse = (resources: Json[], total: number, startIndex: number, q: ListQuery) => ({
    schemas: [SCHEMA.list], totalResults: total, itemsPerPage: resources.length, startIndex,
    Resources: resources.map((r) => project(r, q.attributes, q.excludedAttributes)),
  });
  const excludes = (q: ListQuery, attr: string) => Boolean(q.excludedAttributes?.split(',').some((a) => a.trim().toLowerCase() === attr))
    || Boolean(q.attributes && !q.attributes.split(',').some((a) => a.trim().toLowerCase() === attr));

  async function list<T extends { _id: string }>(attrs: Attrs, q: ListQuery, views: (rows: T[]) => Promise<Json[]>,
    pageRows: (query: Json, skip: number, limit: number) => Promise<{ rows: T[]; total: number }>, all: (query: Json) => Promise<T[]>) {
    const { startIndex, count } = page(q);
    if (!q.filter) {
      const { rows, total } = await pageRows({}, startIndex - 1, count);
      return listResponse(await views(rows), total, startIndex, q);
    }
    const filter = parseFilter(q.filter);
    const compiled = compileFilter(attrs, filter);
    if (!compiled.residual) {
      const { rows, total } = await pageRows(compiled.query, startIndex - 1, count);
      return listResponse(await views(rows), total, startIndex, q);
    }
    // Part of the filter has no exact database form: widen, evaluate in memory, page here.
    const hits = (await views(await all(compiled.query))).filter((r) => matches(attrs, filter, r));
    return listResponse(hits.slice(startIndex - 1, startIndex - 1 + count), hits.length, startIndex, q);
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

  async function memberIds(orgId: string, members: unknown): Promise<string[]> {
    const list = Array.isArray(members) ? members as { value?: unknown }[] : [];
    const ids = [...new Set(list.map((m) => m?.value).filter((v): v is string => typeof v === 'string'))];
    if (!ids.length) return [];
    const bad = ids.find((v) => !/^[a-f0-9]{24}$/.test(v));
    const found = bad ? [] : await store.usersByIds(orgId, ids);
    if (bad || found.length !== ids.length) {
      const missing = bad ?? ids.find((v) => !found.some((u) => u._id === v));
      throw scimError('bad_request', `Member ${missing} is not a user of this organization`, 'invalidValue');
    }
    return ids;
  }
  /** The `display` sent for each member (kept and returned as sent). */
  function displaysOf(members: unknown, ids: string[]): Record<string, string> | undefined {
    const list = Array.isArray(members) ? members as { value?: unknown; display?: unknown }[] : [];
    const out: Record<string, string> = {};
    for (const m of list) if (typeof m?.value === 'string' && typeof m.display === 'string' && m.display && ids.includes(m.value)) out[m.value] = m.display;
    return Object.keys(out).length ? out : undefined;
  }
  const displayNameOf = (body: Json) => {
    if (typeof body.displayName !== 'string' || !body.displayName.trim()) throw scimError('bad_request', 'displayName is required', 'invalidValue');
    return body.displayName.trim();
  };
  const groupConflict = (name: string) => scimError('conflict', `A group named ${name} already exists`, 'uniqueness');

  const groups = {
    async create(orgId: string, body: Json, _actor: ScimActor) {
      const displayName = displayNameOf(body);
      const members = await memberIds(orgId, body.members);
      const now = new Date();
      const g: ScimGroup = {
        _id: newId(), orgId, displayName, displayNameLower: displayName.toLowerCase(),
        ...(typeof body.externalId === 'string' ? { externalId: body.externalId } : {}),
        members, mappedRole: null, mappedCustomRoleId: null, mapped: false, createdAt: now, updatedAt: now, version: 1,
      };
      const displays = displaysOf(body.members, members);
      if (displays) g.displays = displays;
      try {
        await store.insertGroup(g);
      } catch (err) {
        if (isDuplicateKey(err)) throw groupConflict(g.displayName);
        throw err;
      }
      return (await groupViews(orgId, [g]))[0];
    },
    async get(orgId: string, id: string, q: ListQuery = {}) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      return project((await groupViews(orgId, [g], !excludes(q, 'members')))[0], q.attributes, q.excludedAttributes);
    },
    list: (orgId: string, q: ListQuery) => list<ScimGroup>(GROUP_ATTRS, q, (rows) => groupViews(orgId, rows, !excludes(q, 'members')),
      (query, skip, limit) => store.pageGroups(orgId, query, skip, limit), (query) => store.allGroups(orgId, query)),
    /** A mapped group's member changes change roles: checked against the token's creator before anything is written. */
    async replace(orgId: string, id: string, body: Json, actor: ScimActor) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      const displayName = displayNameOf(body);
      const members = await memberIds(orgId, body.members);
      const next: ScimGroup = {
        ...g, displayName, displayNameLower: displayName.toLowerCase(),
        externalId: typeof body.externalId === 'string' ? body.externalId : undefined, members, updatedAt: new Date(), version: g.version + 1,
      };
      if (next.externalId === undefined) delete next.externalId;
      const displays = displaysOf(body.members, members);
      if (displays) next.displays = displays; else delete next.displays;
      const after = new Set(members);
      const before = new Set(g.members);
      const touched = g.mapped ? [...g.members.filter((m) => !after.has(m)), ...members.filter((m) => !before.has(m))] : [];
      await roles.changeRoles(orgId, actor, touched, async () => {
        try {
          if (!(await store.replaceGroup(next, g.version))) throw scimError('conflict', 'The group changed meanwhile; retry', 'mutability');
        } catch (err) {
          if (isDuplicateKey(err)) throw groupConflict(next.displayName);
          throw err;
        }
      }, next);
      return (await groupViews(orgId, [next]))[0];
    },
    async patch(orgId: string, id: string, ops: PatchOp[], actor: ScimActor) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      return groups.replace(orgId, id, applyPatch(GROUP_ATTRS, (await groupViews(orgId, [g]))[0], ops), actor);
    },
    async remove(orgId: string, id: string, actor: ScimActor) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      await roles.changeRoles(orgId, actor, g.mapped ? g.members : [], async () => { await store.removeGroup(orgId, id); }, g, true);
    },
  };

  const bulk = createBulk({ users, groups }, location);

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
