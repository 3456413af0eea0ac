// SCIM discovery (RFC 7643 §5-7, RFC 7644 §4): what this service provider supports, its resource
// types and the schemas of the attributes it keeps.
import { ENTERPRISE_URN } from './scim-protocol.ts';
import { MAX_BULK, MAX_COUNT, notFound, SCHEMA } from './scim-resources.ts';

const LIST = SCHEMA.list;
type Attr = { name: string; type: string; multiValued?: boolean; required?: boolean; caseExact?: boolean; mutability?: string; returned?: string; uniqueness?: string; subAttributes?: Attr[]; referenceTypes?: string[]; canonicalValues?: string[] };
const a = (name: string, type = 'string', extra: Partial<Attr> = {}): Attr => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...extra,
});
const multi = (name: string) => a(name, 'complex', { multiValued: true, subAttributes: [a('value'), a('display'), a('type'), a('primary', 'boolean')] });

const USER_ATTRIBUTES: Attr[] = [
  a('userName', 'string', { required: true, uniqueness: 'server' }),
  a('name', 'complex', { subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => a(n)) }),
  a('displayName'), a('nickName'), a('profileUrl', 'reference', { referenceTypes: ['external'] }), a('title'), a('userType'),
  a('preferredLanguage'), a('locale'), a('timezone'), a('active', 'boolean'), multi('emails'), multi('phoneNumbers'),
  a('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [
    a('value', 'string', { mutability: 'readOnly' }), a('$ref', 'reference', { mutability: 'readOnly', referenceTypes: ['Group'] }),
    a('display', 'string', { mutability: 'readOnly' }), a('type', 'string', { mutability: 'readOnly', canonicalValues: ['direct'] }),
  ] }),
];
const GROUP_ATTRIBUTES: Attr[] = [
  a('displayName', 'string', { required: true, uniqueness: 'server' }),
  a('members', 'complex', { multiValued: true, subAttributes: [a('value', 'string', { caseExact: true, mutability: 'immutable' }), a('$ref', 'reference', { referenceTypes: ['User'], mutability: 'immutable' }), a('type', 'string', { canonicalValues: ['User'], mutability: 'immutable' }), a('display', 'string', { mutability: 'readOnly' })] }),
];
const ENTERPRISE_ATTRIBUTES: Attr[] = [
  a('employeeNumber'), a('costCenter'), a('organization'), a('division'), a('department'),
  a('manager', 'complex', { subAttributes: [a('value'), a('$ref', 'reference', { referenceTypes: ['User'] }), a('displayName', 'string', { mutability: 'readOnly' })] }),
];

export function discovery(base: string, bodyLimit: number) {
  const schema = (id: string, name: string, description: string, attributes: Attr[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'], id, name, description, attributes,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
  });
  const schemas = [
    schema(SCHEMA.user, 'User', 'User Account', USER_ATTRIBUTES),
    schema(SCHEMA.group, 'Group', 'Group', GROUP_ATTRIBUTES),
    schema(ENTERPRISE_URN, 'EnterpriseUser', 'Enterprise User', ENTERPRISE_ATTRIBUTES),
  ];
  const resourceTypes = [
    { schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'User', name: 'User', endpoint: '/Users', description: 'User Account', schema: SCHEMA.user,
      schemaExtensions: [{ schema: ENTERPRISE_URN, required: false }], meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` } },
    { schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Group', schema: SCHEMA.group,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` } },
  ];
  return {
    serviceProviderConfig: () => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      documentationUri: `${base.replace(/\/api\/scim\/v2$/, '')}/docs`,
      patch: { supported: true },
      bulk: { supported: true, maxOperations: MAX_BULK, maxPayloadSize: bodyLimit },
      filter: { supported: true, maxResults: MAX_COUNT },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'A SCIM token created at /api/scim/tokens', primary: true }],
      meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
    }),
    resourceType: (id: string) => {
      const found = resourceTypes.find((r) => r.id === id);
      if (!found) throw notFound(id);
      return found;
    },
    schema: (id: string) => {
      const found = schemas.find((r) => r.id.toLowerCase() === id.toLowerCase());
      if (!found) throw notFound(id);
      return found;
    },
    resourceTypes: () => ({ schemas: [LIST], totalResults: resourceTypes.length, itemsPerPage: resourceTypes.length, startIndex: 1, Resources: resourceTypes }),
    schemas: () => ({ schemas: [LIST], totalResults: schemas.length, itemsPerPage: schemas.length, startIndex: 1, Resources: schemas }),
  };
}
