// A small attribute table for the library's own tests, in the shape of RFC 7643's User and Group
// (stored fields named as the resource's JSON, a lower-case copy of userName), so these tests
// depend on no service.
import { multiValued, str, type Attrs } from '../../../lib/scim/index.ts';

export const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const element = { value: str('value'), type: str('type'), primary: { field: 'primary', type: 'boolean' as const }, display: str('display') };

export const USER: Attrs = {
  id: str('_id', { caseExact: true, keyed: true }),
  externalid: str('externalId', { caseExact: true, keyed: true }),
  username: str('userName', { lower: 'userNameLower', keyed: true }),
  displayname: str('displayName'), title: str('title'),
  active: { field: 'active', type: 'boolean' },
  name: { field: 'name', type: 'complex', subs: { givenname: str('givenName'), familyname: str('familyName') } },
  emails: multiValued('emails', element),
  phonenumbers: multiValued('phoneNumbers', element),
  meta: { field: null, type: 'complex', subs: { created: { field: 'createdAt', type: 'dateTime' }, lastmodified: { field: 'updatedAt', type: 'dateTime' } } },
  'enterprise:department': str('enterprise.department'),
  'enterprise:manager': { field: 'enterprise.manager', type: 'complex', subs: { value: str('value', { caseExact: true }), displayname: str('displayName') } },
};

export const GROUP: Attrs = {
  id: str('_id', { caseExact: true, keyed: true }),
  displayname: str('displayName', { lower: 'displayNameLower', keyed: true }),
  members: { field: 'members', type: 'complex', multi: true, subs: { value: str('', { caseExact: true }), display: str(null) } },
};

/** A thrown ScimError with this scimType (tap matches the fields given). */
export const scimType = (type: string) => ({ name: 'ScimError', scimType: type, status: 400 }) as object as Error;
