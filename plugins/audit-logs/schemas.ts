// TypeBox schemas of the general audit trail (SPEC "Audit entry (general audit trail)").
import { Type, type Static } from 'typebox';
import { Id, Nullable, PageQuery, Timestamp } from '../../core/schemas.ts';

export const TrailQuery = Type.Object({
  ...PageQuery(50, 100).properties,
  from: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  userId: Type.Optional(Id),
});
export type TrailQuery = Static<typeof TrailQuery>;

export const TrailEntry = Type.Object({
  _id: Type.String(),
  timestamp: Timestamp,
  userId: Nullable(Type.String()),
  action: Type.String(),
  resourceType: Type.String(),
  resourceId: Nullable(Type.String()),
  details: Type.Object({}, { additionalProperties: true }),
  ipAddress: Type.String(),
  userAgent: Nullable(Type.String()),
});
export type TrailEntry = Static<typeof TrailEntry>;
export const TrailList = Type.Object({ logs: Type.Array(TrailEntry), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
