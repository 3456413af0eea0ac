// SCIM 2.0 Users, Groups and Bulk (RFC 7643, RFC 7644) for one organization, and the role
// each provisioned member holds from the groups mapped to roles.
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { isBuiltInRole } from '../../core/permissions.ts';
import type { AuthService } from '../auth/service.ts';
import { ENTERPRISE_URN, GROUP_ATTRS, parseFilter, USER_ATTRS, type Attrs } from './filter.ts';
import { compileFilter, matches } from './filter-match.ts';
import { applyPatch, coerceBoolean, type PatchOp } from './patch.ts';
import type { ScimGroup, ScimUser, SsoScimStore } from './store.ts';
import type { BulkBody, ListQuery, ScimGroupBody, ScimUserBody } from './schemas.ts';

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  bulkRequest: 'urn:ietf:params:scim:api:messages:2.0:BulkRequest',
  bulkResponse: 'urn:ietf:params:scim:api:messages:2.0:BulkResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
} as const;
export const MAX_COUNT = 200;
export const DEFAULT_COUNT = 100;
export const MAX_BULK = 100;

type Json = Record<string, unknown>;
const scimError = (status: 'bad_request' | 'conflict' | 'not_found', message: string, scimType?: string) =>
  new AppError(status, { message, details: scimType ? { scimType } : undefined });
const notFound = (id: string) => scimError('not_found', `Resource ${id} not found`);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ROLE_RANK: Record<string, number> = { admin: 4, member: 2, viewer: 1 };

export interface ScimDeps { ctx: AppContext; store: SsoScimStore; auth: AuthService; base: string }

export function createScim({ ctx, store, auth, base }: ScimDeps) {
  const tenancy = ctx.tenancy;
  const location = (kind: 'Users' | 'Groups', id: string) => `${base}/${kind}/${id}`;

  const userView = (u: ScimUser): Json => {
    const out: Json = {
      schemas: u.enterprise ? [SCHEMA.user, ENTERPRISE_URN] : [SCHEMA.user],
      id: u._id, userName: u.userName, active: u.active,
    };
    for (const k of ['externalId', 'displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'profileUrl', 'name', 'emails', 'phoneNumbers'] as const) {
      if (u[k] !== undefined) out[k] = u[k];
    }
    if (u.enterprise) out[ENTERPRISE_URN] = u.enterprise;
    out.meta = { resourceType: 'User', created: u.createdAt.toISOString(), lastModified: u.updatedAt.toISOString(), location: location('Users', u._id), version: `W/"${u.version}"` };
    return out;
  };
  const groupView = (g: ScimGroup, withMembers = true): Json => ({
    schemas: [SCHEMA.group], id: g._id, displayName: g.displayName,
    ...(g.externalId !== undefined ? { externalId: g.externalId } : {}),
    ...(withMembers ? { members: g.members.map((m) => ({ value: m, $ref: location('Users', m), type: 'User' })) } : {}),
    meta: { resourceType: 'Group', created: g.createdAt.toISOString(), lastModified: g.updatedAt.toISOString(), location: location('Groups', g._id), version: `W/"${g.version}"` },
  });

  /** The stored fields of a User resource (a POST or PUT body, or a patched resource). */
  function userFields(body: Json): Omit<ScimUser, '_id' | 'orgId' | 'userId' | 'createdAt' | 'updatedAt' | 'version'> {
    const userName = body.userName;
    if (typeof userName !== 'string' || !userName.trim()) throw scimError('bad_request', 'userName is required', 'invalidValue');
    const active = body.active === undefined ? true : coerceBoolean(body.active);
    if (typeof active !== 'boolean') throw scimError('bad_request', 'active must be a boolean', 'invalidValue');
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const multi = (v: unknown) => (Array.isArray(v) ? v.filter((e) => e && typeof e === 'object' && typeof (e as Json).value === 'string').map((e) => {
      const el = e as Json;
      const primary = coerceBoolean(el.primary);
      return { value: el.value as string, ...(str(el.type) ? { type: str(el.type) } : {}), ...(typeof primary === 'boolean' ? { primary } : {}), ...(str(el.display) ? { display: str(el.display) } : {}) };
    }) : undefined);
    const nameIn = body.name && typeof body.name === 'object' ? body.name as Json : undefined;
    const name = nameIn && Object.fromEntries(Object.entries(nameIn).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    const extKey = Object.keys(body).find((k) => k.toLowerCase() === ENTERPRISE_URN.toLowerCase());
    const ext = extKey && body[extKey] && typeof body[extKey] === 'object' ? body[extKey] as Json : undefined;
    let enterprise: ScimUser['enterprise'];
    if (ext) {
      const manager = typeof ext.manager === 'string' ? { value: ext.manager } : ext.manager && typeof ext.manager === 'object'
        ? { ...(str((ext.manager as Json).value) ? { value: str((ext.manager as Json).value) } : {}), ...(str((ext.manager as Json).displayName) ? { displayName: str((ext.manager as Json).displayName) } : {}) } : undefined;
      enterprise = Object.fromEntries(Object.entries({
        employeeNumber: str(ext.employeeNumber), department: str(ext.department), costCenter: str(ext.costCenter),
        organization: str(ext.organization), division: str(ext.division), manager,
      }).filter(([, v]) => v !== undefined));
      if (!Object.keys(enterprise).length) enterprise = undefined;
    }
    const fields = {
      userName: userName.trim(), userNameLower: userName.trim().toLowerCase(), active,
      externalId: str(body.externalId), displayName: str(body.displayName), nickName: str(body.nickName), title: str(body.title),
      userType: str(body.userType), preferredLanguage: str(body.preferredLanguage), locale: str(body.locale), timezone: str(body.timezone),
      profileUrl: str(body.profileUrl), name: name && Object.keys(name).length ? name : undefined,
      emails: multi(body.emails), phoneNumbers: multi(body.phoneNumbers), enterprise,
    };
    return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ReturnType<typeof userFields>;
  }

  /** The account email of a User: userName when it is an email, else the primary (or first) email. */
  function emailOf(f: ReturnType<typeof userFields>): string {
    if (EMAIL.test(f.userName)) return f.userName.toLowerCase();
    const email = (f.emails?.find((e) => e.primary) ?? f.emails?.[0])?.value;
    if (email && EMAIL.test(email)) return email.toLowerCase();
    throw scimError('bad_request', 'userName (or a primary email) must be an email address', 'invalidValue');
  }

  /** The role a member holds from the mapped groups (highest wins), else the default role. */
  async function roleFor(orgId: string, scimUserId: string, mapped: ScimGroup[], defaultRole: string, customPermissions: Map<string, number>): Promise<string> {
    let best: { role: string; rank: number } | null = null;
    for (const g of mapped) {
      if (!g.members.includes(scimUserId)) continue;
      const candidates: { role: string; rank: number }[] = [];
      if (g.mappedRole) candidates.push({ role: g.mappedRole, rank: ROLE_RANK[g.mappedRole] });
      // A custom role ranks between admin and member; among custom roles, the one granting more permissions.
      if (g.mappedCustomRoleId && customPermissions.has(g.mappedCustomRoleId)) candidates.push({ role: g.mappedCustomRoleId, rank: 3 + customPermissions.get(g.mappedCustomRoleId)! / 1000 });
      for (const c of candidates) if (!best || c.rank > best.rank || (c.rank === best.rank && c.role < best.role)) best = c;
    }
    void orgId;
    return best?.role ?? defaultRole;
  }

  async function defaultRoleOf(orgId: string): Promise<string> {
    const config = await store.config(orgId);
    const role = config?.defaultRole ?? 'member';
    if (isBuiltInRole(role) || (await tenancy.permissionsOf(orgId, role))) return role === 'owner' ? 'member' : role;
    return 'member';
  }

  /**
   * Recomputes the organization role of these SCIM users from the mapped groups. The owner is
   * never changed; every change is audited as member.role_changed and reaches every process
   * through the membership cache's invalidation.
   */
  async function recompute(orgId: string, scimUserIds: string[]): Promise<void> {
    const ids = [...new Set(scimUserIds)];
    if (!ids.length) return;
    const [mapped, users, defaultRole, roles] = await Promise.all([
      store.mappedGroups(orgId), store.usersByIds(orgId, ids), defaultRoleOf(orgId), tenancy.store.listRoles(orgId),
    ]);
    const customPermissions = new Map(roles.map((r) => [r._id, r.permissions.length]));
    for (const u of users) {
      const target = await roleFor(orgId, u._id, mapped, defaultRole, customPermissions);
      const m = await tenancy.store.findMembership(orgId, u.userId);
      if (!m || m.role === 'owner' || m.role === target) continue;
      await tenancy.store.setMemberRole(orgId, u.userId, target);
      await tenancy.invalidateMembership(orgId, u.userId);
      await ctx.audit.write({
        orgId, action: 'member.role_changed', userId: null, actorName: 'SCIM', actorKind: 'scim', method: 'SCIM', route: '/api/scim/v2/Groups',
        resourceType: 'orgs', resourceId: u.userId, statusCode: 200,
        details: { target: { type: 'user', id: u.userId, email: u.userName }, from: m.role, to: target, source: 'scim_group_mapping' },
        ipAddress: '', userAgent: null,
      });
    }
  }

  /** Joins the account to the organization (an existing member keeps their role), and applies `active`. */
  async function syncMembership(orgId: string, userId: string, active: boolean, roleIfNew: () => Promise<string>) {
    let m = await tenancy.store.findMembership(orgId, userId);
    if (!m) {
      const role = await roleIfNew();
      try {
        await tenancy.store.insertMembership({ _id: newId(), orgId, userId, role, joinedAt: new Date(), ...(active ? {} : { deactivated: true }) });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      await tenancy.invalidateMembership(orgId, userId);
      m = await tenancy.store.findMembership(orgId, userId);
    }
    // The owner is never deactivated by SCIM (it would lock the organization).
    if (m && m.role !== 'owner' && Boolean(m.deactivated) === active) {
      await tenancy.store.setMemberDeactivated(orgId, userId, !active);
      await tenancy.invalidateMembership(orgId, userId);
    }
  }

  const page = (q: ListQuery) => {
    const startIndex = Math.max(1, q.startIndex ?? 1);
    const count = Math.min(MAX_COUNT, Math.max(0, q.count ?? DEFAULT_COUNT));
    return { startIndex, count };
  };
  const listResponse = (resources: Json[], total: number, startIndex: number) => ({
    schemas: [SCHEMA.list], totalResults: total, itemsPerPage: resources.length, startIndex, Resources: resources,
  });
  const excludes = (q: ListQuery, attr: string) => Boolean(q.excludedAttributes?.split(',').some((a) => a.trim().toLowerCase() === attr))
    || Boolean(q.attributes && !q.attributes.split(',').some((a) => a.trim().toLowerCase() === attr));

  async function list<T extends { _id: string }>(attrs: Attrs, q: ListQuery, view: (r: T) => Json,
    pageRows: (query: Json, skip: number, limit: number) => Promise<{ rows: T[]; total: number }>, all: (query: Json) => Promise<T[]>) {
    const { startIndex, count } = page(q);
    if (!q.filter) {
      const { rows, total } = await pageRows({}, startIndex - 1, count);
      return listResponse(rows.map(view), total, startIndex);
    }
    const filter = parseFilter(q.filter);
    const compiled = compileFilter(attrs, filter);
    if (!compiled.residual) {
      const { rows, total } = await pageRows(compiled.query, startIndex - 1, count);
      return listResponse(rows.map(view), total, startIndex);
    }
    // Part of the filter has no exact database form: widen, evaluate in memory, page here.
    const hits = (await all(compiled.query)).map(view).filter((r) => matches(attrs, filter, r));
    return listResponse(hits.slice(startIndex - 1, startIndex - 1 + count), hits.length, startIndex);
  }

  const users = {
    async create(orgId: string, body: ScimUserBody | Json) {
      const f = userFields(body as Json);
      if (await store.userByName(orgId, f.userNameLower)) throw scimError('conflict', `A user with userName ${f.userName} already exists`, 'uniqueness');
      const email = emailOf(f);
      const name = f.displayName ?? ([f.name?.givenName, f.name?.familyName].filter(Boolean).join(' ') || undefined);
      const account = await auth.sso.provision({ email, name, defaultOrgId: orgId });
      const now = new Date();
      const user: ScimUser = { _id: newId(), orgId, userId: account.userId, ...f, createdAt: now, updatedAt: now, version: 1 };
      try {
        await store.insertUser(user);
      } catch (err) {
        if (isDuplicateKey(err)) throw scimError('conflict', `A user with userName ${f.userName} (or its account) is already provisioned`, 'uniqueness');
        throw err;
      }
      await syncMembership(orgId, account.userId, user.active, () => defaultRoleOf(orgId));
      return userView(user);
    },
    async get(orgId: string, id: string) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      return userView(u);
    },
    list: (orgId: string, q: ListQuery) => list<ScimUser>(USER_ATTRS, q, userView,
      (query, skip, limit) => store.pageUsers(orgId, query, skip, limit), (query) => store.allUsers(orgId, query)),
    /** PUT and PATCH end here: the resource's new JSON replaces the stored one (the account stays linked). */
    async replace(orgId: string, id: string, body: Json) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      const f = userFields(body);
      if (f.userNameLower !== u.userNameLower && await store.userByName(orgId, f.userNameLower)) {
        throw scimError('conflict', `A user with userName ${f.userName} already exists`, 'uniqueness');
      }
      const next: ScimUser = { _id: u._id, orgId, userId: u.userId, ...f, createdAt: u.createdAt, updatedAt: new Date(), version: u.version + 1 };
      try {
        if (!(await store.replaceUser(next, u.version))) throw scimError('conflict', 'The user changed meanwhile; retry', 'mutability');
      } catch (err) {
        if (isDuplicateKey(err)) throw scimError('conflict', `A user with userName ${f.userName} already exists`, 'uniqueness');
        throw err;
      }
      if (next.active !== u.active) await syncMembership(orgId, u.userId, next.active, () => defaultRoleOf(orgId));
      return userView(next);
    },
    async patch(orgId: string, id: string, ops: PatchOp[]) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      return users.replace(orgId, id, applyPatch(USER_ATTRS, userView(u), ops));
    },
    /** Removes the user from the organization and its groups; the account stays. */
    async remove(orgId: string, id: string) {
      const u = await store.user(orgId, id);
      if (!u) throw notFound(id);
      await store.pullMember(orgId, u._id);
      await store.removeUser(orgId, id);
      const m = await tenancy.store.findMembership(orgId, u.userId);
      if (m && m.role !== 'owner') {
        await tenancy.store.removeMembership(orgId, u.userId);
        await tenancy.invalidateMembership(orgId, u.userId);
      }
    },
  };

  async function memberIds(orgId: string, members: { value?: unknown }[] | undefined): Promise<string[]> {
    const ids = [...new Set((members ?? []).map((m) => m?.value).filter((v): v is string => typeof v === 'string'))];
    if (!ids.length) return [];
    const bad = ids.find((v) => !/^[a-f0-9]{24}$/.test(v));
    const found = bad ? [] : await store.usersByIds(orgId, ids);
    if (bad || found.length !== ids.length) {
      const missing = bad ?? ids.find((v) => !found.some((u) => u._id === v));
      throw scimError('bad_request', `Member ${missing} is not a user of this organization`, 'invalidValue');
    }
    return ids;
  }

  const groups = {
    async create(orgId: string, body: ScimGroupBody | Json) {
      const b = body as Json;
      if (typeof b.displayName !== 'string' || !b.displayName.trim()) throw scimError('bad_request', 'displayName is required', 'invalidValue');
      const members = await memberIds(orgId, b.members as Json[] | undefined);
      const now = new Date();
      const g: ScimGroup = {
        _id: newId(), orgId, displayName: b.displayName.trim(), displayNameLower: b.displayName.trim().toLowerCase(),
        ...(typeof b.externalId === 'string' ? { externalId: b.externalId } : {}),
        members, mappedRole: null, mappedCustomRoleId: null, mapped: false, createdAt: now, updatedAt: now, version: 1,
      };
      try {
        await store.insertGroup(g);
      } catch (err) {
        if (isDuplicateKey(err)) throw scimError('conflict', `A group named ${g.displayName} already exists`, 'uniqueness');
        throw err;
      }
      return groupView(g);
    },
    async get(orgId: string, id: string, q: ListQuery = {}) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      return groupView(g, !excludes(q, 'members'));
    },
    list: (orgId: string, q: ListQuery) => list<ScimGroup>(GROUP_ATTRS, q, (g) => groupView(g, !excludes(q, 'members')),
      (query, skip, limit) => store.pageGroups(orgId, query, skip, limit), (query) => store.allGroups(orgId, query)),
    async replace(orgId: string, id: string, body: Json) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      if (typeof body.displayName !== 'string' || !body.displayName.trim()) throw scimError('bad_request', 'displayName is required', 'invalidValue');
      const members = await memberIds(orgId, body.members as Json[] | undefined);
      const next: ScimGroup = {
        ...g, displayName: body.displayName.trim(), displayNameLower: body.displayName.trim().toLowerCase(),
        externalId: typeof body.externalId === 'string' ? body.externalId : undefined, members, updatedAt: new Date(), version: g.version + 1,
      };
      if (next.externalId === undefined) delete next.externalId;
      try {
        if (!(await store.replaceGroup(next, g.version))) throw scimError('conflict', 'The group changed meanwhile; retry', 'mutability');
      } catch (err) {
        if (isDuplicateKey(err)) throw scimError('conflict', `A group named ${next.displayName} already exists`, 'uniqueness');
        throw err;
      }
      if (g.mapped) {
        const before = new Set(g.members);
        const after = new Set(members);
        await recompute(orgId, [...g.members.filter((m) => !after.has(m)), ...members.filter((m) => !before.has(m))]);
      }
      return groupView(next);
    },
    async patch(orgId: string, id: string, ops: PatchOp[]) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      return groups.replace(orgId, id, applyPatch(GROUP_ATTRS, groupView(g), ops));
    },
    async remove(orgId: string, id: string) {
      const g = await store.group(orgId, id);
      if (!g) throw notFound(id);
      await store.removeGroup(orgId, id);
      if (g.mapped) await recompute(orgId, g.members);
    },
  };

  /** RFC 7644 §3.7: operations in order, `bulkId:<id>` references resolved (also to later operations), failOnErrors honoured. */
  async function bulk(orgId: string, body: BulkBody) {
    if (body.Operations.length > MAX_BULK) {
      throw new AppError('payload_too_large', { message: `A bulk request carries at most ${MAX_BULK} operations`, details: { scimType: 'tooMany' } });
    }
    const resolved = new Map<string, string>();
    const results: Json[] = new Array(body.Operations.length);
    let errors = 0;
    const BULK_REF = /bulkId:([A-Za-z0-9._~-]+)/g;
    const refsOf = (v: unknown, out: Set<string>) => {
      if (typeof v === 'string') for (const m of v.matchAll(BULK_REF)) out.add(m[1]);
      else if (Array.isArray(v)) v.forEach((x) => refsOf(x, out));
      else if (v && typeof v === 'object') Object.values(v).forEach((x) => refsOf(x, out));
      return out;
    };
    const substitute = (v: unknown): unknown => {
      if (typeof v === 'string') return v.replace(BULK_REF, (all, id: string) => resolved.get(id) ?? all);
      if (Array.isArray(v)) return v.map(substitute);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x)]));
      return v;
    };
    const declared = new Set(body.Operations.map((o) => o.bulkId).filter(Boolean) as string[]);
    let pending = body.Operations.map((op, index) => ({ op, index }));
    // Passes until nothing moves: an operation waits for the bulkIds it references.
    while (pending.length) {
      const waiting: typeof pending = [];
      let progressed = false;
      for (const { op, index } of pending) {
        if (body.failOnErrors && errors >= body.failOnErrors) break;
        const refs = [...refsOf(op.path, refsOf(op.data, new Set()))];
        if (refs.some((r) => !resolved.has(r) && declared.has(r) && pending.some((p) => p.op.bulkId === r && p.index !== index))) {
          waiting.push({ op, index });
          continue;
        }
        progressed = true;
        const method = op.method.toUpperCase();
        const out: Json = { method, ...(op.bulkId ? { bulkId: op.bulkId } : {}) };
        try {
          const unresolved = refs.find((r) => !resolved.has(r));
          if (unresolved) throw scimError('conflict', `bulkId ${unresolved} is not defined by a successful operation`, 'invalidValue');
          const path = substitute(op.path) as string;
          const data = substitute(op.data) as Json;
          const m = /^\/(Users|Groups)(?:\/([a-f0-9]{24}))?$/.exec(path);
          if (!m) throw scimError('bad_request', `Unknown path ${path}`, 'invalidPath');
          const [, kind, id] = m;
          const svc = kind === 'Users' ? users : groups;
          if (method === 'POST' && !id) {
            if (!data || typeof data !== 'object') throw scimError('bad_request', 'POST needs data', 'invalidSyntax');
            const created = await svc.create(orgId, data);
            if (op.bulkId) resolved.set(op.bulkId, created.id as string);
            Object.assign(out, { location: location(kind as 'Users', created.id as string), status: '201' });
          } else if (id && method === 'PUT') {
            const r = await svc.replace(orgId, id, data ?? {});
            Object.assign(out, { location: location(kind as 'Users', id), status: '200', version: (r.meta as Json).version });
          } else if (id && method === 'PATCH') {
            const ops = (data?.Operations ?? []) as PatchOp[];
            if (!Array.isArray(ops) || !ops.length || ops.some((o) => !o || typeof o.op !== 'string')) throw scimError('bad_request', 'PATCH needs Operations', 'invalidSyntax');
            const r = await svc.patch(orgId, id, ops);
            Object.assign(out, { location: location(kind as 'Users', id), status: '200', version: (r.meta as Json).version });
          } else if (id && method === 'DELETE') {
            await svc.remove(orgId, id);
            Object.assign(out, { location: location(kind as 'Users', id), status: '204' });
          } else {
            throw scimError('bad_request', `${method} ${path} is not a bulk operation`, 'invalidSyntax');
          }
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          errors++;
          const scimType = (err.details as { scimType?: string } | undefined)?.scimType;
          Object.assign(out, { status: String(err.statusCode), response: { schemas: [SCHEMA.error], status: String(err.statusCode), ...(scimType ? { scimType } : {}), detail: err.message } });
        }
        results[index] = out;
      }
      if (body.failOnErrors && errors >= body.failOnErrors) break;
      if (!progressed) {
        // A circle of references: each waiting operation fails.
        for (const { op, index } of waiting) {
          errors++;
          results[index] = { method: op.method.toUpperCase(), ...(op.bulkId ? { bulkId: op.bulkId } : {}), status: '409', response: { schemas: [SCHEMA.error], status: '409', scimType: 'invalidValue', detail: 'Circular bulkId reference' } };
        }
        break;
      }
      pending = waiting;
    }
    return { schemas: [SCHEMA.bulkResponse], Operations: results.filter(Boolean) };
  }

  /** Management: groups with their member counts and mappings (one command). */
  async function mappings(orgId: string) {
    const rows = await store.allGroups(orgId);
    return rows.map((g) => ({ id: g._id, displayName: g.displayName, memberCount: g.members.length, mappedRole: g.mappedRole, mappedCustomRoleId: g.mappedCustomRoleId }));
  }

  async function setMapping(orgId: string, id: string, input: { mappedRole?: 'admin' | 'member' | 'viewer' | null; mappedCustomRoleId?: string | null }) {
    const g = await store.group(orgId, id);
    if (!g) throw new AppError('not_found', { message: 'Group not found' });
    if (input.mappedCustomRoleId && !(await tenancy.store.findRole(orgId, input.mappedCustomRoleId))) {
      throw new AppError('bad_request', { message: 'mappedCustomRoleId is not a custom role of this organization' });
    }
    if (input.mappedRole && input.mappedCustomRoleId) throw new AppError('bad_request', { message: 'Map a group to mappedRole or to mappedCustomRoleId, not both' });
    // Setting one clears the other; both absent or null clears the mapping.
    const mappedRole = input.mappedCustomRoleId ? null : input.mappedRole ?? null;
    const mappedCustomRoleId = input.mappedRole ? null : input.mappedCustomRoleId ?? null;
    const updated = await store.setMapping(orgId, id, mappedRole, mappedCustomRoleId);
    if (!updated) throw new AppError('not_found', { message: 'Group not found' });
    await recompute(orgId, updated.members);
    return { id: updated._id, displayName: updated.displayName, memberCount: updated.members.length, mappedRole: updated.mappedRole, mappedCustomRoleId: updated.mappedCustomRoleId };
  }

  return { users, groups, bulk, mappings, setMapping, recompute, syncMembership, defaultRoleOf };
}
export type Scim = ReturnType<typeof createScim>;
