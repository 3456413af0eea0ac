// SCIM User and Group resources (RFC 7643 §4): the stored fields read from a request body,
// the JSON a resource answers with (a user's `groups`, a group member's `display`), and the
// email an account is reached by.
import { AppError } from '../../core/errors.ts';
import { ENTERPRISE_URN } from './filter.ts';
import { coerceBoolean } from './patch.ts';
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

/** The stored fields of a User resource (a POST or PUT body, or a patched resource). */
export function userFields(body: Json): UserFields {
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
    const m = ext.manager && typeof ext.manager === 'object' ? ext.manager as Json : undefined;
    const manager = typeof ext.manager === 'string' ? { value: ext.manager } : m
      ? { ...(str(m.value) ? { value: str(m.value) } : {}), ...(str(m.displayName) ? { displayName: str(m.displayName) } : {}) } : undefined;
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
export const accountOf = (u: Pick<ScimUser, 'userId'>): string | null => (u.userId.startsWith(UNLINKED) ? null : u.userId);

export function createViews(base: string) {
  const location = (kind: 'Users' | 'Groups', id: string) => `${base}/${kind}/${id}`;
  const meta = (type: 'User' | 'Group', r: ScimUser | ScimGroup) => ({
    resourceType: type, created: r.createdAt.toISOString(), lastModified: r.updatedAt.toISOString(),
    location: location(type === 'User' ? 'Users' : 'Groups', r._id), version: `W/"${r.version}"`,
  });
  const userView = (u: ScimUser, groups: Pick<ScimGroup, '_id' | 'displayName'>[] = []): Json => {
    const out: Json = { schemas: u.enterprise ? [SCHEMA.user, ENTERPRISE_URN] : [SCHEMA.user], id: u._id, userName: u.userName, active: u.active };
    for (const k of ['externalId', 'displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'profileUrl', 'name', 'emails', 'phoneNumbers'] as const) {
      if (u[k] !== undefined) out[k] = u[k];
    }
    // RFC 7643 §4.1.2: groups are read-only, kept by the Group resources' members.
    if (groups.length) out.groups = groups.map((g) => ({ value: g._id, $ref: location('Groups', g._id), display: g.displayName, type: 'direct' }));
    if (u.enterprise) out[ENTERPRISE_URN] = u.enterprise;
    out.meta = meta('User', u);
    return out;
  };
  const displayOf = (u: Pick<ScimUser, 'displayName' | 'userName'> | undefined) => u?.displayName ?? u?.userName;
  const groupView = (g: ScimGroup, members: Map<string, Pick<ScimUser, 'displayName' | 'userName'>> | null): Json => ({
    schemas: [SCHEMA.group], id: g._id, displayName: g.displayName,
    ...(g.externalId !== undefined ? { externalId: g.externalId } : {}),
    ...(members ? { members: g.members.map((m) => {
      const display = displayOf(members.get(m));
      return { value: m, $ref: location('Users', m), type: 'User', ...(display ? { display } : {}) };
    }) } : {}),
    meta: meta('Group', g),
  });
  return { location, userView, groupView };
}
