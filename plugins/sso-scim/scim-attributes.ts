// The SCIM resources' attributes as the protocol library (lib/scim) sees them: User (RFC 7643
// §4.1, with the enterprise extension §4.3) and Group (§4.2), each mapped to the field this
// plugin stores it in (store.ts), with the lower-case copies and indexes the compiler may use.
import { multiValued, str, type AttrDef, type Attrs } from '../../lib/scim/index.ts';

const META: Record<string, AttrDef> = {
  created: { field: 'createdAt', type: 'dateTime' }, lastmodified: { field: 'updatedAt', type: 'dateTime' },
  resourcetype: str(null, { caseExact: true }), location: str(null, { caseExact: true }), version: str(null, { caseExact: true }),
};

/** Lower-case `attr` or `attr.sub` -> definition; enterprise attributes under `enterprise:`. */
export const USER_ATTRS: Attrs = {
  id: str('_id', { caseExact: true, keyed: true }),
  externalid: str('externalId', { caseExact: true, keyed: true }),
  username: str('userName', { lower: 'userNameLower', keyed: true }),
  displayname: str('displayName'), nickname: str('nickName'), title: str('title'), usertype: str('userType'),
  preferredlanguage: str('preferredLanguage'), locale: str('locale'), timezone: str('timezone'), profileurl: str('profileUrl'),
  active: { field: 'active', type: 'boolean' },
  name: { field: 'name', type: 'complex', subs: {
    formatted: str('formatted'), familyname: str('familyName'), givenname: str('givenName'), middlename: str('middleName'),
    honorificprefix: str('honorificPrefix'), honorificsuffix: str('honorificSuffix'),
  } },
  emails: multiValued('emails', { value: str('value'), type: str('type'), primary: { field: 'primary', type: 'boolean' }, display: str('display') }),
  phonenumbers: multiValued('phoneNumbers', { value: str('value'), type: str('type'), primary: { field: 'primary', type: 'boolean' }, display: str('display') }),
  // Read-only, kept by the groups (decided in memory on the resource).
  groups: { field: null, type: 'complex', multi: true, subs: { value: str(null, { caseExact: true }), display: str(null), type: str(null), $ref: str(null, { caseExact: true }) } },
  meta: { field: null, type: 'complex', subs: META },
  'enterprise:employeenumber': str('enterprise.employeeNumber'),
  'enterprise:department': str('enterprise.department'),
  'enterprise:costcenter': str('enterprise.costCenter'),
  'enterprise:organization': str('enterprise.organization'),
  'enterprise:division': str('enterprise.division'),
  'enterprise:manager': { field: 'enterprise.manager', type: 'complex', subs: { value: str('value', { caseExact: true }), displayname: str('displayName'), $ref: str(null, { caseExact: true }) } },
};

export const GROUP_ATTRS: Attrs = {
  id: str('_id', { caseExact: true, keyed: true }),
  externalid: str('externalId', { caseExact: true, keyed: true }),
  displayname: str('displayName', { lower: 'displayNameLower', keyed: true }),
  // Members are stored as the ids of the SCIM users (`members`); `display` is the user's, read when answering.
  members: { field: 'members', type: 'complex', multi: true, subs: { value: str('', { caseExact: true }), display: str(null), type: str(null), $ref: str(null, { caseExact: true }) } },
  meta: { field: null, type: 'complex', subs: META },
};
