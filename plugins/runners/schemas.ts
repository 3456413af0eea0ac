import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../core/schemas.ts';

const Label = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:/-]+$' });
export const RunnerParams = Type.Object({ runnerId: Id });
export const CreateRunner = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  labels: Type.Array(Label, { maxItems: 32, uniqueItems: true, default: [] }),
});
export type CreateRunner = Static<typeof CreateRunner>;
export const UpdateRunner = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  labels: Type.Optional(Type.Array(Label, { maxItems: 32, uniqueItems: true })),
}, { minProperties: 1 });
export type UpdateRunner = Static<typeof UpdateRunner>;

export const SystemInfo = Type.Object({
  cpu: Type.Optional(Type.Object({ cores: Type.Optional(Type.Integer({ minimum: 0 })), model: Type.Optional(Type.String({ maxLength: 200 })), loadAverage: Type.Optional(Type.Array(Type.Number(), { maxItems: 3 })) })),
  memory: Type.Optional(Type.Object({ totalBytes: Type.Optional(Type.Number({ minimum: 0 })), freeBytes: Type.Optional(Type.Number({ minimum: 0 })) })),
  disk: Type.Optional(Type.Object({ totalBytes: Type.Optional(Type.Number({ minimum: 0 })), freeBytes: Type.Optional(Type.Number({ minimum: 0 })) })),
  os: Type.Optional(Type.String({ maxLength: 200 })),
  hostname: Type.Optional(Type.String({ maxLength: 255 })),
}, { additionalProperties: false });
export const Heartbeat = Type.Object({
  status: Type.Union([Type.Literal('online'), Type.Literal('busy')]),
  version: Type.Optional(Type.String({ maxLength: 50 })),
  systemInfo: Type.Optional(SystemInfo),
});
export type Heartbeat = Static<typeof Heartbeat>;

export const RunnerView = Type.Object({
  _id: Type.String(), name: Type.String(), labels: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('online'), Type.Literal('busy'), Type.Literal('offline')]),
  version: Nullable(Type.String()), lastHeartbeat: Nullable(Timestamp), jobsCompleted: Type.Integer(),
  systemInfo: Nullable(SystemInfo), tokenPrefix: Type.String(), createdAt: Timestamp,
});
export const CreatedRunner = Type.Intersect([RunnerView, Type.Object({ token: Type.String() })]);
export const NewToken = Type.Object({ _id: Type.String(), token: Type.String(), tokenPrefix: Type.String() });
export const HeartbeatAck = Type.Object({ status: Type.String(), lastHeartbeat: Timestamp });
