// SCIM Groups (RFC 7643 §4.2): create, read, list, replace, patch and delete. A group mapped to a
// role gives it to its members (scim-roles.ts): member changes are checked against the token's
// creator before anything is written.
import { newId } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { applyPatch, type PatchOp } from './scim-protocol.ts';
import { GROUP_ATTRS } from './scim-attributes.ts';
import { notFound, project, scimError, type createViews, type Json } from './scim-resources.ts';
import type { ScimActor, ScimRoles } from './scim-roles.ts';
import { excludes, list } from './scim-lists.ts';
import type { ScimGroup, SsoScimStore } from './store.ts';
import type { ListQuery } from './schemas.ts';

export function createScimGroups(store: SsoScimStore, views: ReturnType<typeof createViews>, roles: ScimRoles) {
  const { groupView } = views;
  /** Group resources, with or without members. */
  const groupViews = async (_orgId: string, rows: ScimGroup[], withMembers = true): Promise<Json[]> => rows.map((g) => groupView(g, withMembers));


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

  return groups;
}
export type ScimGroups = ReturnType<typeof createScimGroups>;
