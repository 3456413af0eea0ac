// TypeBox schemas of the drift AI routes, with their Static<> types beside them.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/schemas.ts';

export const Strategy = Type.Union([Type.Literal('accept'), Type.Literal('revert')]);
export const GenerateFixQuery = Type.Object({
  strategy: Type.Optional(Type.Union([Type.Literal('accept'), Type.Literal('revert')], {
    description: 'accept: write the live values into the code; revert: keep the code and re-apply it. Default: revert for critical and high severity, else accept',
  })),
});
export const FixView = Type.Object({
  fixCode: Type.String({ description: 'A unified diff (git format) against the file that declares the resource, at the scanned commit; empty when no file changes' }),
  explanation: Type.String(),
  strategy: Strategy,
  exact: Type.Array(Type.String(), { description: 'Attributes the diff writes exactly' }),
  advice: Type.Array(Type.Object({ attribute: Type.String(), text: Type.String() }), { description: 'Attributes written as expressions (variables, locals, calls): what to change instead' }),
  file: Nullable(Type.String()),
  commit: Nullable(Type.String()),
  generatedAt: Timestamp,
  approved: Type.Boolean(),
});
export const ApprovalView = Type.Object({ approved: Type.Literal(true), approvedBy: Type.String(), approvedAt: Timestamp, strategy: Strategy });
export const PrView = Type.Object({ prUrl: Type.String(), prNumber: Type.Integer(), branch: Type.String() });
