// SCIM User and Group resources (RFC 7643 §4): the stored fields read from a request body,
// the JSON a resource answers with (a user's `groups`, a group member's `display`), and the
// email an account is reached by.
import { AppError } from '../../core/errors.ts';
import { coerceBoolean, ENTERPRISE_URN } from './scim-protocol.ts';
import type { ScimGroup, ScimUser } from './store.ts';

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

export type Json = Record<string, unknown>;
export const scimError = (status: 'bad_request' | 'conflict' | 'not_found' | 'orgs.role_escalation', message: string, scimType?: string) =>
  new AppError(status, { message, details: scimType ? { scimType } : undefined });
export const notFound = (id: string) => scimError('not_found', `Resource ${id} not found`);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type UserFields = Omit<ScimUser, '_id' | 'orgId' | 'userId' | 'invitationId' | 'createdAt' | 'updatedAt' | 'version'>;

/**
 * The stored fields of a User resource (a POST or PUT body, or a patched resource). `active`
 * defaults to true on creation; a replacement without it keeps it absent (which counts as active).
 */
export function userFields(body: Json, creating = false): UserFields {
  const userName = body.userName;
  if (typeof userName !== 'string' || !userName.trim()) throw scimError('bad_request', 'userName is required', 'invalidValue');
  const active = body.active === undefined ? (creating ? true : undefined) : coerceBoolean(body.active);
  if (active !== undefined && typeof active !== 'boolean') throw scimError('bad_request', 'active must be a boolean', 'invalidValue');
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
    const m = ext.manager && typeof ext.manager === 'object' ? ext.manager as Json : undefined;
    const manager = typeof ext.manager === 'string' ? { value: ext.manager } : m
      ? { ...(str(m.value) ? { value: str(m.value) } : {}), ...(str(m.$ref) ? { ref: str(m.$ref) } : {}), ...(str(m.displayName) ? { displayName: str(m.displayName) } : {}) } : undefined;
    enterprise = Object.fromEntries(Object.entries({
      employeeNumber: str(ext.employeeNumber), department: str(ext.department), costCenter: str(ext.costCenter),
      organization: str(ext.organization), division: str(ext.division), manager,
    }).filter(([, v]) => v !== undefined));
    if (!Object.keys(enterprise).length) enterprise = undefined;
  }
  const fields = {
    userName: userName.trim(), userNameLower: userName.trim().toLowerCase(), active: active as boolean | undefined,
    externalId: str(body.externalId), displayName: str(body.displayName), nickName: str(body.nickName), title: str(body.title),
    userType: str(body.userType), preferredLanguage: str(body.preferredLanguage), locale: str(body.locale), timezone: str(body.timezone),
    profileUrl: str(body.profileUrl), name: name && Object.keys(name).length ? name : undefined,
    emails: multi(body.emails), phoneNumbers: multi(body.phoneNumbers), enterprise,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as UserFields;
}

/**
 * The email an account is reached by: the primary email (else the first) when it is an
 * address, else userName when it is one (RFC 7643: userName is any unique string); null when
 * neither is, and the user stays without an account until an email arrives.
 */
export function emailOf(f: Pick<UserFields, 'userName' | 'emails'>): string | null {
  const listed = (f.emails?.find((e) => e.primary) ?? f.emails?.[0])?.value?.trim();
  if (listed && EMAIL.test(listed)) return listed.toLowerCase();
  if (EMAIL.test(f.userName)) return f.userName.toLowerCase();
  return null;
}

/** A SCIM user's account id, or null while none is linked (no usable email, or invited and not yet accepted). */
export const UNLINKED = 'unlinked:';
/** Absent `active` counts as active. */
export const isActive = (u: { active?: boolean }) => u.active !== false;
export const accountOf = (u: Pick<ScimUser, 'userId'>): string | null => (u.userId.startsWith(UNLINKED) ? null : u.userId);

export function createViews(base: string) {
  const location = (kind: 'Users' | 'Groups', id: string) => `${base}/${kind}/${id}`;
  const meta = (type: 'User' | 'Group', r: ScimUser | ScimGroup) => ({
    resourceType: type, created: r.createdAt.toISOString(), lastModified: r.updatedAt.toISOString(),
    location: location(type === 'User' ? 'Users' : 'Groups', r._id), version: `W/"${r.version}"`,
  });
  const userView = (u: ScimUser, groups: Pick<ScimGroup, '_id' | 'displayName'>[] = []): Json => {
    const out: Json = { schemas: u.enterprise ? [SCHEMA.user, ENTERPRISE_URN] : [SCHEMA.user], id: u._id, userName: u.userName, ...(u.active !== undefined ? { active: u.active } : {}) };
    for (const k of ['externalId', 'displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'profileUrl', 'name', 'emails', 'phoneNumbers'] as const) {
      if (u[k] !== undefined) out[k] = u[k];
    }
    // RFC 7643 §4.1.2: groups are read-only, kept by the Group resources' members.
    if (groups.length) out.groups = groups.map((g) => ({ value: g._id, $ref: location('Groups', g._id), display: g.displayName, type: 'direct' }));
    if (u.enterprise) {
      // `$ref` cannot be a stored field name (MongoDB): kept as `ref`.
      const { manager, ...rest } = u.enterprise;
      const m = manager && { ...(manager.value !== undefined ? { value: manager.value } : {}), ...(manager.ref ? { $ref: manager.ref } : {}), ...(manager.displayName !== undefined ? { displayName: manager.displayName } : {}) };
      out[ENTERPRISE_URN] = { ...rest, ...(m ? { manager: m } : {}) };
    }
    out.meta = meta('User', u);
    return out;
  };
  const groupView = (g: ScimGroup, withMembers: boolean): Json => ({
    schemas: [SCHEMA.group], id: g._id, displayName: g.displayName,
    ...(g.externalId !== undefined ? { externalId: g.externalId } : {}),
    ...(withMembers ? { members: g.members.map((m) => {
      const display = g.displays?.[m];
      return { value: m, $ref: location('Users', m), type: 'User', ...(display ? { display } : {}) };
    }) } : {}),
    meta: meta('Group', g),
  });
  return { location, userView, groupView };
}

const keyOf = (o: Json, name: string) => Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
const asList = (s?: string | string[]) => (Array.isArray(s) ? s : s?.split(',') ?? []).map((a) => a.trim()).filter(Boolean);

/** An attribute path of `attributes` / `excludedAttributes`: in the extension or not, the attribute (none: the whole extension), a sub-attribute. */
function parseAttr(p: string): { ext: boolean; attr?: string; sub?: string } {
  const lower = p.toLowerCase();
  const ext = ENTERPRISE_URN.toLowerCase();
  if (lower === ext) return { ext: true };
  let rest = p;
  let inExt = false;
  if (lower.startsWith(`${ext}:`)) { rest = p.slice(ext.length + 1); inExt = true; } else {
    for (const urn of [SCHEMA.user, SCHEMA.group]) if (lower.startsWith(`${urn.toLowerCase()}:`)) rest = p.slice(urn.length + 1);
  }
  const [attr, sub] = rest.split('.');
  return { ext: inExt, attr, sub };
}

/**
 * RFC 7644 §3.9: `attributes` answers only those (with id and schemas, which are always
 * returned), `excludedAttributes` all but those (never id or schemas). Sub-attributes
 * (`name.givenName`, `emails.value`) and the extension's attributes by their URN are understood.
 */
export function project(resource: Json, attributes?: string | string[], excluded?: string | string[]): Json {
  const inc = asList(attributes).map(parseAttr);
  const exc = asList(excluded).map(parseAttr);
  if (!inc.length && !exc.length) return resource;
  const extKey = keyOf(resource, ENTERPRISE_URN);
  const holderOf = (r: Json, ext: boolean) => (ext ? (extKey && r[extKey] && typeof r[extKey] === 'object' ? r[extKey] as Json : undefined) : r);
  if (inc.length) {
    const out: Json = { schemas: resource.schemas, id: resource.id };
    for (const p of inc) {
      const from = holderOf(resource, p.ext);
      if (!from) continue;
      if (!p.attr) { out[extKey!] = from; continue; }
      const k = keyOf(from, p.attr);
      if (!k || k === 'id' || k === 'schemas') continue;
      const to = p.ext ? (out[extKey!] ??= {}) as Json : out;
      const v = from[k];
      if (!p.sub || !v || typeof v !== 'object') { to[k] = v; continue; }
      const pick = (el: unknown, into: Json = {}) => {
        const sk = el && typeof el === 'object' ? keyOf(el as Json, p.sub!) : undefined;
        return sk ? Object.assign(into, { [sk]: (el as Json)[sk] }) : into;
      };
      if (Array.isArray(v)) {
        const prev = Array.isArray(to[k]) ? to[k] as Json[] : [];
        to[k] = v.map((el, i) => pick(el, prev[i] ?? {}));
      } else to[k] = pick(v, (to[k] as Json | undefined) ?? {});
    }
    return out;
  }
  const out = structuredClone(resource);
  for (const p of exc) {
    const from = holderOf(out, p.ext);
    if (!from) continue;
    if (!p.attr) { delete out[extKey!]; continue; }
    const k = keyOf(from, p.attr);
    if (!k || (!p.ext && (k === 'id' || k === 'schemas'))) continue;
    if (!p.sub) { delete from[k]; continue; }
    for (const el of Array.isArray(from[k]) ? from[k] as Json[] : [from[k]]) {
      const sk = el && typeof el === 'object' ? keyOf(el as Json, p.sub) : undefined;
      if (sk) delete (el as Json)[sk];
    }
  }
  return out;
}
