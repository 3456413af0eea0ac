// TypeBox schemas of the account routes, with their Static<> types beside them.
import { Type, type Static } from 'typebox';
import { CLI_SCOPES } from '../../core/permissions.ts';
import { Id, Nullable, Timestamp } from '../../core/schemas.ts';

export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 256 });

export const RegisterBody = Type.Object({ email: Email, password: Password, name: Type.Optional(Type.String({ maxLength: 200 })) });
export type RegisterBody = Static<typeof RegisterBody>;
export const LoginBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 256 }) });
export type LoginBody = Static<typeof LoginBody>;
export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 512 }) });
export const ForgotBody = Type.Object({ email: Type.String({ maxLength: 254 }) });
export const ResetBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }), password: Password });
export const TokenBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }) });

export const SessionUser = Type.Object({ id: Type.String(), email: Type.String(), role: Type.Optional(Type.String()) });
export const SessionTokens = Type.Object({ token: Type.String(), refreshToken: Type.String(), user: SessionUser });

export const Me = Type.Object({
  id: Type.String(), email: Type.String(), name: Nullable(Type.String()), role: Type.String(),
  scmId: Nullable(Type.String()), avatar: Nullable(Type.String()),
  defaultOrgId: Type.String(), onboardingCompleted: Type.Boolean(), tourCompleted: Type.Boolean(),
});

export const Scope = Type.Union(CLI_SCOPES.map((s) => Type.Literal(s)));
export const CreateCliToken = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Scope, { minItems: 1, uniqueItems: true }),
  allRepositories: Type.Boolean({ default: false }),
  repositories: Type.Array(Id, { default: [], maxItems: 500, uniqueItems: true }),
});
export type CreateCliToken = Static<typeof CreateCliToken>;
export const CliTokenView = Type.Object({
  _id: Type.String(), name: Type.String(), prefix: Type.String(), scopes: Type.Array(Type.String()),
  allRepositories: Type.Boolean(), repositories: Type.Array(Type.String()), orgId: Type.String(),
  createdAt: Timestamp, lastUsedAt: Nullable(Timestamp),
});
export const CreatedCliToken = Type.Object({
  _id: Type.String(), token: Type.String(), name: Type.String(), scopes: Type.Array(Type.String()),
  allRepositories: Type.Boolean(), repositories: Type.Array(Type.String()), createdAt: Timestamp,
});
export const TokenIdParams = Type.Object({ tokenId: Id });

export const Preferences = Type.Object({
  theme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('system')])),
  language: Type.Optional(Type.String({ minLength: 2, maxLength: 10 })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  notifications: Type.Optional(Type.Object({
    email: Type.Optional(Type.Boolean()),
    inApp: Type.Optional(Type.Boolean()),
    digest: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('daily'), Type.Literal('weekly')])),
  }, { additionalProperties: false })),
}, { additionalProperties: false });
export type Preferences = Static<typeof Preferences>;

export const Ok = Type.Object({ message: Type.String() });
export const ShortToken = Type.Object({ token: Type.String(), expiresAt: Timestamp });
