// TypeBox schemas of the SSO and SCIM routes. SCIM resources name only the attributes this
// service keeps (RFC 7643 §4 and the enterprise extension); others an identity provider sends
// are dropped by the engine's closed schemas.
import { Type, type Static, type TSchema } from 'typebox';
import { Id, Nullable, Timestamp } from '../../core/schemas.ts';
import { ENTERPRISE_URN } from './scim-protocol.ts';

const Text = (max = 1024) => Type.String({ maxLength: max });
const RoleName = Type.String({ minLength: 1, maxLength: 100, description: 'admin, member, viewer or the id of a custom role of the organization' });

export const SamlSettings = Type.Object({
  entryPoint: Type.String({ format: 'uri', pattern: '^https://', maxLength: 2048, description: "The identity provider's SSO URL (HTTP-Redirect binding)" }),
  issuer: Type.String({ minLength: 1, maxLength: 1024, description: 'Our entity ID as the identity provider knows it: the AuthnRequest Issuer and the expected Audience' }),
  cert: Type.String({ minLength: 1, maxLength: 20_000, description: "The identity provider's signing certificate, PEM X.509" }),
  signatureAlgorithm: Type.Union([Type.Literal('sha1'), Type.Literal('sha256'), Type.Literal('sha512')], { default: 'sha256' }),
  wantAuthnResponseSigned: Type.Boolean({ default: true }),
});
export const SsoConfigBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 100, default: 'custom' }),
  saml: SamlSettings,
  enforcedDomains: Type.Array(Type.String({ minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$' }), { maxItems: 50, default: [] }),
  defaultRole: Type.String({ minLength: 1, maxLength: 100, default: 'member' }),
  enabled: Type.Boolean({ default: false }),
});
export type SsoConfigBody = Static<typeof SsoConfigBody>;

export const SsoConfigView = Type.Object({
  provider: Type.String(),
  saml: Type.Object({ entryPoint: Type.String(), issuer: Type.String(), cert: Type.String({ description: 'Always ****' }), signatureAlgorithm: Type.String(), wantAuthnResponseSigned: Type.Boolean() }),
  enforcedDomains: Type.Array(Type.String()),
  defaultRole: Type.String(),
  enabled: Type.Boolean(),
  callbackUrl: Type.String({ description: 'The Assertion Consumer Service URL to give the identity provider' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const SsoConfigRead = Type.Object({ configured: Type.Boolean(), config: Type.Optional(SsoConfigView) });
export const Success = Type.Object({ success: Type.Literal(true) });

export const SamlLoginQuery = Type.Object({ orgId: Type.Optional(Type.String({ maxLength: 100 })), RelayState: Type.Optional(Text(1024)) });
export const SamlCallbackBody = Type.Object({ SAMLResponse: Type.Optional(Type.String({ maxLength: 1_000_000 })), RelayState: Type.Optional(Text(1024)) });
export const ExchangeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) });
export const ExchangeAnswer = Type.Object({
  token: Type.String(), refreshToken: Type.String(),
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String() }),
});

// Verified domains (domains.ts)
export const DomainBody = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253, description: 'An email domain of the organization (example.com); Unicode names are stored as punycode' }) });
export const DomainParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) });
export const DomainView = Type.Object({
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')]),
  record: Type.Object({
    name: Type.String({ description: '_drift-verification.<domain>' }), type: Type.Literal('TXT'),
    value: Type.String({ description: 'drift-verification=<token>: publish it as a TXT record at name' }),
  }),
  createdAt: Timestamp,
  verifiedAt: Nullable(Timestamp),
});
export const DomainList = Type.Object({ domains: Type.Array(DomainView) });

// Links of an identity to one's own account (links.ts)
export const StartLinkAnswer = Type.Object({ redirectUrl: Type.String({ description: "The identity provider's sign-in URL; the callback then sends the browser to {FRONTEND_URL}/auth/sso-link?code=<code>&orgId=<orgId>" }) });
export const ConfirmLinkBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) });
export const LinkView = Type.Object({ orgId: Type.String(), nameId: Type.String({ description: 'The NameID the identity provider asserted' }), createdAt: Timestamp });
export const LinkList = Type.Object({ links: Type.Array(LinkView) });

// Management
export const CreateScimToken = Type.Object({ label: Type.String({ minLength: 1, maxLength: 100, default: 'SCIM Token' }) });
export const ScimTokenView = Type.Object({ id: Type.String(), label: Type.String(), prefix: Type.String(), createdAt: Timestamp, lastUsedAt: Nullable(Timestamp) });
export const ScimTokenCreated = Type.Object({ id: Type.String(), label: Type.String(), token: Type.String({ description: 'Shown once' }), prefix: Type.String(), createdAt: Timestamp });
export const ScimTokenList = Type.Object({ tokens: Type.Array(ScimTokenView) });
export const TokenParams = Type.Object({ id: Id });
export const MessageView = Type.Object({ message: Type.String() });
export const GroupMappingView = Type.Object({
  id: Type.String(), displayName: Type.String(), memberCount: Type.Integer(),
  mappedRole: Nullable(Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')])),
  mappedCustomRoleId: Nullable(Type.String()),
});
export const GroupMappingList = Type.Object({ groups: Type.Array(GroupMappingView) });
export const MappingBody = Type.Object({
  mappedRole: Type.Optional(Nullable(Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]))),
  mappedCustomRoleId: Type.Optional(Nullable(Id)),
});

// SCIM protocol
const Multi = Type.Array(Type.Object({
  value: Type.Optional(Text()), type: Type.Optional(Text(100)), display: Type.Optional(Text()),
  primary: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 10 })])),
}), { maxItems: 50 });
const Enterprise = Type.Object({
  employeeNumber: Type.Optional(Text()), department: Type.Optional(Text()), costCenter: Type.Optional(Text()),
  organization: Type.Optional(Text()), division: Type.Optional(Text()),
  manager: Type.Optional(Type.Union([Type.Object({ value: Type.Optional(Text()), displayName: Type.Optional(Text()) }), Type.String({ maxLength: 1024 })])),
});
export const ScimUserBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(200), { maxItems: 10 })),
  userName: Type.String({ minLength: 1, maxLength: 320 }),
  externalId: Type.Optional(Text()),
  displayName: Type.Optional(Text()), nickName: Type.Optional(Text()), title: Type.Optional(Text()), userType: Type.Optional(Text()),
  preferredLanguage: Type.Optional(Text()), locale: Type.Optional(Text()), timezone: Type.Optional(Text()), profileUrl: Type.Optional(Text()),
  name: Type.Optional(Type.Object({
    formatted: Type.Optional(Text()), familyName: Type.Optional(Text()), givenName: Type.Optional(Text()), middleName: Type.Optional(Text()),
    honorificPrefix: Type.Optional(Text()), honorificSuffix: Type.Optional(Text()),
  })),
  emails: Type.Optional(Multi),
  phoneNumbers: Type.Optional(Multi),
  active: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 10 })])),
  [ENTERPRISE_URN]: Type.Optional(Enterprise),
});
export type ScimUserBody = Static<typeof ScimUserBody>;
export const ScimGroupBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(200), { maxItems: 10 })),
  displayName: Type.String({ minLength: 1, maxLength: 256 }),
  externalId: Type.Optional(Text()),
  members: Type.Optional(Type.Array(Type.Object({ value: Type.String({ maxLength: 100 }), display: Type.Optional(Text()), type: Type.Optional(Text(20)) }), { maxItems: 100_000 })),
});
export type ScimGroupBody = Static<typeof ScimGroupBody>;
export const PatchBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(200), { maxItems: 10 })),
  Operations: Type.Array(Type.Object({
    op: Type.String({ minLength: 1, maxLength: 20 }),
    path: Type.Optional(Text(1024)),
    value: Type.Optional(Type.Unknown()),
  }, { additionalProperties: true }), { minItems: 1, maxItems: 1000 }),
});
export type PatchBody = Static<typeof PatchBody>;
export const BulkBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(200), { maxItems: 10 })),
  failOnErrors: Type.Optional(Type.Integer({ minimum: 0 })),
  Operations: Type.Array(Type.Object({
    method: Type.String({ minLength: 1, maxLength: 10 }),
    path: Type.String({ minLength: 1, maxLength: 300 }),
    bulkId: Type.Optional(Text(200)),
    version: Type.Optional(Text(200)),
    data: Type.Optional(Type.Unknown()),
  })),
});
export type BulkBody = Static<typeof BulkBody>;
export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 2000 })),
  startIndex: Type.Optional(Type.Integer({ minimum: -2147483648 })),
  count: Type.Optional(Type.Integer({ minimum: -2147483648 })),
  attributes: Type.Optional(Text()),
  excludedAttributes: Type.Optional(Text()),
});
export type ListQuery = Static<typeof ListQuery>;
export const ScimIdParams = Type.Object({ id: Id });
/** Discovery ids: a resource type's name, a schema's URN. */
// At most the router's maxParamLength (100): a longer parameter is refused before the route (414).
export const DiscoveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
/** RFC 7644 §3.4.3: a query in the body of POST .search. */
export const SearchBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(200), { maxItems: 10 })),
  filter: Type.Optional(Type.String({ maxLength: 2000 })),
  startIndex: Type.Optional(Type.Integer({ minimum: -2147483648 })),
  count: Type.Optional(Type.Integer({ minimum: -2147483648 })),
  attributes: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  excludedAttributes: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  sortBy: Type.Optional(Text(200)),
  sortOrder: Type.Optional(Text(20)),
});
export type SearchBody = Static<typeof SearchBody>;
/** A .search body as the list query it is. */
export const searchQuery = (b: SearchBody): ListQuery => ({
  filter: b.filter, startIndex: b.startIndex, count: b.count,
  attributes: b.attributes?.join(','), excludedAttributes: b.excludedAttributes?.join(','),
});

/** A SCIM resource or message: its shape is the schema its `schemas` names (RFC 7643). */
export const ScimResource: TSchema = Type.Object({ schemas: Type.Array(Type.String()) }, { additionalProperties: true });
