// TypeBox schemas of the cloud-events routes, with their Static<> types beside them.
import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, pageFields, PagedList } from '../../core/schemas.ts';

export const CreateToken = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type CreateToken = Static<typeof CreateToken>;
export const CreatedToken = Type.Object({
  id: Type.String(), name: Type.String(), prefix: Type.String(),
  token: Type.String({ description: 'ce_… shown once; only its hash is stored' }), createdAt: Timestamp,
});
export const TokenView = Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String(), createdAt: Timestamp, lastUsedAt: Nullable(Timestamp) });
export const TokenIdParams = Type.Object({ id: Id });

/** The body is read by the service (one CloudTrail record, or an array of up to 100): its problems are named there. */
export const Batch = Type.Unknown({ description: 'A CloudTrail record (bare, or as EventBridge delivers it under detail), or an array of at most 100' });
export const Ingested = Type.Object({
  accepted: Type.Integer({ description: 'Write calls stored' }),
  duplicates: Type.Integer({ description: 'Records whose eventID this organization had already sent: nothing changed' }),
  readOnly: Type.Integer({ description: 'Read-only calls (readOnly true, Describe*, Get*, List*, Head*): counted, not stored' }),
  ignored: Type.Integer({ description: 'EventBridge events of another detail-type' }),
});

export const EventQuery = Type.Object({
  ...pageFields(),
  resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'A resource id the call touched, exactly' })),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Substring of the caller's identity ARN, case-insensitive" })),
  eventName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'eventTime at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'eventTime at or before' })),
});
export type EventQuery = Static<typeof EventQuery>;

export const EventView = Type.Object({
  id: Type.String(), eventId: Type.String(), eventTime: Timestamp, eventName: Type.String(), eventSource: Nullable(Type.String()),
  awsRegion: Nullable(Type.String()), recipientAccountId: Nullable(Type.String()),
  userIdentity: Type.Object({ type: Nullable(Type.String()), arn: Nullable(Type.String()), principalId: Nullable(Type.String()), issuer: Nullable(Type.String({ description: 'sessionContext.sessionIssuer.arn' })) }),
  sourceIPAddress: Nullable(Type.String()), userAgent: Nullable(Type.String()), errorCode: Nullable(Type.String()),
  resourceIds: Type.Array(Type.String()), receivedAt: Timestamp,
});
export const EventPage = PagedList(EventView);

export const NoiseRuleView = Type.Object({
  id: Type.String(), resourceType: Type.String(), attribute: Type.String(),
  observations: Type.Integer({ description: 'Changes of the attribute seen with no write event touching the resource' }),
  learnedAt: Nullable(Timestamp), enabled: Type.Boolean(),
});
export const NoiseRuleParams = Type.Object({ id: Id });
export const PatchNoiseRule = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type PatchNoiseRule = Static<typeof PatchNoiseRule>;
