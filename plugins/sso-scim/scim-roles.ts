// The organization role each SCIM-provisioned member holds from the groups mapped to roles,
// and the mapping routes. Every change is planned first, checked against whoever causes it
// (core/tenancy's rule: nobody grants or takes away more than they hold), and only then written:
// a refused change writes nothing.
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { isBuiltInRole } from '../../core/permissions.ts';
import type { Grantor } from '../../core/tenancy/grants.ts';
import { accountOf } from './scim-resources.ts';
import type { ScimGroup, SsoScimStore } from './store.ts';

/** Whoever causes a role change: a user's permissions (mapping route), or a SCIM token's creator's (protocol). */
export interface ScimActor { label: string; grantor(): Promise<Grantor> }
export interface RoleChange { userId: string; email: string; from: string; to: string }

const ROLE_RANK: Record<string, number> = { admin: 4, member: 2, viewer: 1 };

export function createScimRoles(ctx: AppContext, store: SsoScimStore) {
  const tenancy = ctx.tenancy;

  async function defaultRoleOf(orgId: string): Promise<string> {
    const config = await store.config(orgId);
    const role = config?.defaultRole ?? 'member';
    if (isBuiltInRole(role) || (await tenancy.permissionsOf(orgId, role))) return role === 'owner' ? 'member' : role;
    return 'member';
  }

  /** The role a member holds from the mapped groups (highest wins; a custom role ranks between admin and member). */
  function roleFor(scimUserId: string, mapped: ScimGroup[], defaultRole: string, customSize: Map<string, number>): string {
    let best: { role: string; rank: number } | null = null;
    for (const g of mapped) {
      if (!g.members.includes(scimUserId)) continue;
      const candidates: { role: string; rank: number }[] = [];
      if (g.mappedRole) candidates.push({ role: g.mappedRole, rank: ROLE_RANK[g.mappedRole] });
      // Among custom roles, the one granting more permissions.
      if (g.mappedCustomRoleId && customSize.has(g.mappedCustomRoleId)) candidates.push({ role: g.mappedCustomRoleId, rank: 3 + customSize.get(g.mappedCustomRoleId)! / 1000 });
      for (const c of candidates) if (!best || c.rank > best.rank || (c.rank === best.rank && c.role < best.role)) best = c;
    }
    return best?.role ?? defaultRole;
  }

  /**
   * The role changes that follow for these SCIM users when the mapped groups are as stored,
   * with `replaced` standing in for its stored copy (or taken out when `removed`). The owner
   * is never changed; users without a membership have nothing to change.
   */
  async function plan(orgId: string, scimUserIds: string[], replaced?: ScimGroup, removed = false): Promise<RoleChange[]> {
    const ids = [...new Set(scimUserIds)];
    if (!ids.length) return [];
    const [stored, users, defaultRole, roles] = await Promise.all([
      store.mappedGroups(orgId), store.usersByIds(orgId, ids), defaultRoleOf(orgId), tenancy.listRoles(orgId),
    ]);
    let mapped = replaced ? stored.filter((g) => g._id !== replaced._id) : stored;
    if (replaced && !removed && (replaced.mappedRole || replaced.mappedCustomRoleId)) mapped = [...mapped, replaced];
    const customSize = new Map(roles.map((r) => [r._id, r.permissions.length]));
    const changes: RoleChange[] = [];
    for (const u of users) {
      const userId = accountOf(u);
      const m = userId ? await tenancy.findMembership(orgId, userId) : null;
      if (!userId || !m || m.role === 'owner') continue;
      const to = roleFor(u._id, mapped, defaultRole, customSize);
      if (m.role !== to) changes.push({ userId, email: u.userName, from: m.role, to });
    }
    return changes;
  }

  /** Every change must be one the actor could make itself (403 orgs.role_escalation otherwise, nothing written). */
  async function check(orgId: string, actor: ScimActor, changes: RoleChange[]): Promise<void> {
    if (!changes.length) return;
    const grantor = await actor.grantor();
    for (const c of changes) await tenancy.assertMayChange(orgId, grantor, c.from, c.to);
  }

  /** Writes the changes; each is audited as member.role_changed and reaches every process. */
  async function apply(orgId: string, changes: RoleChange[], actor: ScimActor): Promise<void> {
    const by = changes.length ? await actor.grantor() : undefined;
    for (const c of changes) {
      // core/tenancy checks each change against the actor again as it writes it.
      await tenancy.setRole(orgId, c.userId, c.to, { by });
      await ctx.audit.write({
        orgId, action: 'member.role_changed', userId: null, actorName: actor.label, actorKind: 'scim', method: 'SCIM', route: '/api/scim/v2/Groups',
        resourceType: 'orgs', resourceId: c.userId, statusCode: 200,
        details: { target: { type: 'user', id: c.userId, email: c.email }, from: c.from, to: c.to, source: 'scim_group_mapping' },
        ipAddress: '', userAgent: null,
      });
    }
  }

  /** Plans, checks and writes in one step (`write` runs between the check and the role changes). */
  async function changeRoles(orgId: string, actor: ScimActor, ids: string[], write: () => Promise<void>, replaced?: ScimGroup, removed = false) {
    const changes = await plan(orgId, ids, replaced, removed);
    await check(orgId, actor, changes);
    await write();
    await apply(orgId, changes, actor);
  }

  /** Management: groups with their member counts and mappings (one command). */
  async function mappings(orgId: string) {
    const rows = await store.allGroups(orgId);
    return rows.map((g) => ({ id: g._id, displayName: g.displayName, memberCount: g.members.length, mappedRole: g.mappedRole, mappedCustomRoleId: g.mappedCustomRoleId }));
  }

  /**
   * PATCH /api/scim/groups/:id/mapping. The caller must hold the role mapped (it is granted to
   * every member of the group) and every role its members lose by the change.
   */
  async function setMapping(orgId: string, id: string, input: { mappedRole?: 'admin' | 'member' | 'viewer' | null; mappedCustomRoleId?: string | null }, actor: ScimActor) {
    const g = await store.group(orgId, id);
    if (!g) throw new AppError('not_found', { message: 'Group not found' });
    if (input.mappedCustomRoleId && !(await tenancy.findRole(orgId, input.mappedCustomRoleId))) {
      throw new AppError('bad_request', { message: 'mappedCustomRoleId is not a custom role of this organization' });
    }
    if (input.mappedRole && input.mappedCustomRoleId) throw new AppError('bad_request', { message: 'Map a group to mappedRole or to mappedCustomRoleId, not both' });
    // Setting one clears the other; both absent or null clears the mapping.
    const mappedRole = input.mappedCustomRoleId ? null : input.mappedRole ?? null;
    const mappedCustomRoleId = input.mappedRole ? null : input.mappedCustomRoleId ?? null;
    const grantor = await actor.grantor();
    // The mapping itself grants its role, whoever is in the group now or later.
    const granted = mappedRole ?? mappedCustomRoleId;
    if (granted) await tenancy.assertMayGrant(orgId, grantor, granted, 'map a group to a role that grants more than yours');
    const previous = g.mappedRole ?? g.mappedCustomRoleId;
    if (previous && previous !== granted) await tenancy.assertMayRevoke(orgId, grantor, previous, 'change the mapping of a group whose role grants more than yours');
    const next: ScimGroup = { ...g, mappedRole, mappedCustomRoleId, mapped: Boolean(mappedRole || mappedCustomRoleId) };
    let updated: ScimGroup | null = null;
    await changeRoles(orgId, actor, g.members, async () => { updated = await store.setMapping(orgId, id, mappedRole, mappedCustomRoleId); }, next);
    const u = updated as ScimGroup | null;
    if (!u) throw new AppError('not_found', { message: 'Group not found' });
    return { id: u._id, displayName: u.displayName, memberCount: u.members.length, mappedRole: u.mappedRole, mappedCustomRoleId: u.mappedCustomRoleId };
  }

  return { defaultRoleOf, plan, check, apply, changeRoles, mappings, setMapping };
}
export type ScimRoles = ReturnType<typeof createScimRoles>;
