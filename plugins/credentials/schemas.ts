// TypeBox schemas of the cloud credential routes (SPEC "AI providers, chat, credentials"),
// with their Static<> types beside them. Response schemas list every field: Fastify
// serializes through them, so nothing unlisted (a sealed blob, an _id) can leak.
import { Type, type Static } from 'typebox';
import { Message, Nullable, Timestamp } from '../../core/schemas.ts';

// Bounds keep a credential document small; real values are far below them.
const Field = (maxLength: number) => Type.String({ minLength: 1, maxLength });

export const CloudACredentials = Type.Object({
  accessKeyId: Field(128),
  secretAccessKey: Field(256),
  region: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$' }),
  sessionToken: Type.Optional(Field(4096)),
});
export type CloudACredentials = Static<typeof CloudACredentials>;

export const CloudBCredentials = Type.Object({
  subscriptionId: Field(128),
  tenantId: Field(128),
  clientId: Field(128),
  clientSecret: Field(512),
});
export type CloudBCredentials = Static<typeof CloudBCredentials>;

/** The service account key is the provider's JSON key file, kept as given. */
export const ServiceAccountKey = Type.Object({}, { additionalProperties: true, minProperties: 1, maxProperties: 64 });
export const CloudCCredentials = Type.Object({
  projectId: Field(128),
  serviceAccountKey: ServiceAccountKey,
});
export type CloudCCredentials = Static<typeof CloudCCredentials> & { serviceAccountKey: Record<string, unknown> };

// Summaries: `hasCredentials` alone when nothing is stored, every field otherwise.
export const CloudASummary = Type.Object({
  hasCredentials: Type.Boolean(),
  accessKeyId: Type.Optional(Type.String({ description: 'Masked: first and last 4 characters' })),
  region: Type.Optional(Type.String()),
  lastUpdated: Type.Optional(Timestamp),
});
export const CloudBSummary = Type.Object({
  hasCredentials: Type.Boolean(),
  subscriptionId: Type.Optional(Type.String({ description: 'Masked' })),
  tenantId: Type.Optional(Type.String({ description: 'Masked' })),
  clientId: Type.Optional(Type.String({ description: 'Masked' })),
  lastUpdated: Type.Optional(Timestamp),
});
export const CloudCSummary = Type.Object({
  hasCredentials: Type.Boolean(),
  projectId: Type.Optional(Type.String()),
  clientEmail: Type.Optional(Type.String({ description: "The service account's client_email, when the key has one" })),
  lastUpdated: Type.Optional(Timestamp),
});

// Full values (GET .../full): the stored values as given, and when they were stored.
export const CloudAFull = Type.Object({
  accessKeyId: Type.String(),
  secretAccessKey: Type.String(),
  region: Type.String(),
  sessionToken: Type.Optional(Type.String()),
  lastUpdated: Timestamp,
});
export const CloudBFull = Type.Object({
  subscriptionId: Type.String(),
  tenantId: Type.String(),
  clientId: Type.String(),
  clientSecret: Type.String(),
  lastUpdated: Timestamp,
});
export const CloudCFull = Type.Object({
  projectId: Type.String(),
  serviceAccountKey: Type.Object({}, { additionalProperties: true }),
  lastUpdated: Timestamp,
});

export const RotationStatus = Type.Object({
  rotationRequired: Type.Boolean(),
  rotationRecommended: Type.Boolean(),
  daysUntilRequired: Nullable(Type.Integer({ minimum: 0 })),
  lastRotatedAt: Nullable(Timestamp),
  thresholds: Type.Object({ warningDays: Type.Integer(), requiredDays: Type.Integer() }),
});
export type RotationStatus = Static<typeof RotationStatus>;

export const Deleted = Message;
