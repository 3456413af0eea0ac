import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../core/schemas.ts';

export const OrgView = Type.Object({
  _id: Type.String(), name: Type.String(), role: Type.String(), memberCount: Type.Integer(),
  plan: Type.String(), createdAt: Timestamp,
});
export type OrgView = Static<typeof OrgView>;
export const CreateOrg = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export type CreateOrg = Static<typeof CreateOrg>;
export const OrgParams = Type.Object({ orgId: Id });
