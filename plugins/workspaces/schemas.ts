// TypeBox schemas of the workspace routes.
import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../core/schemas.ts';

export const CreateWorkspace = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
}, { additionalProperties: false });
export type CreateWorkspace = Static<typeof CreateWorkspace>;
export const UpdateWorkspace = Type.Partial(CreateWorkspace, { additionalProperties: false });
export const ReorderBody = Type.Object({ order: Type.Array(Id, { maxItems: 1000, uniqueItems: true }) }, { additionalProperties: false });

export const WorkspaceView = Type.Object({
  _id: Type.String(), name: Type.String(), description: Type.String(), isDefault: Type.Boolean(), order: Type.Integer(),
  repoConfigCount: Type.Integer(), createdAt: Timestamp, updatedAt: Timestamp,
});
export const WorkspaceList = Type.Array(WorkspaceView);
export const Deleted = Type.Object({ message: Type.String() });
