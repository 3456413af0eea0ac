// TypeBox schemas of the drift widget routes.
import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../core/schemas.ts';
import { DriftStatus, Severity } from '../drifts/schemas.ts';
import { WIDGET_TYPES } from './store.ts';

export const WidgetFilters = Type.Object({
  status: Type.Optional(Type.Array(DriftStatus, { maxItems: 4, uniqueItems: true })),
  severity: Type.Optional(Type.Array(Severity, { maxItems: 4, uniqueItems: true })),
  resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  repositoryConfigId: Type.Optional(Id),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false, description: 'Drift filters, as in /api/drifts/query; the metric is the number of drifts matching them' });
const WidgetType = Type.Enum(WIDGET_TYPES);
export const CreateWidget = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 100 }),
  type: WidgetType,
  filters: Type.Optional(WidgetFilters),
}, { additionalProperties: false });
export type CreateWidget = Static<typeof CreateWidget>;
export const UpdateWidget = Type.Partial(CreateWidget, { additionalProperties: false });
export type UpdateWidget = Static<typeof UpdateWidget>;
export const ReorderBody = Type.Object({ order: Type.Array(Id, { maxItems: 200, uniqueItems: true }) }, { additionalProperties: false });

export const WidgetView = Type.Object({
  _id: Type.String(), title: Type.String(), type: WidgetType, filters: WidgetFilters, order: Type.Integer(),
  metric: Type.Integer(), lastRefreshed: Timestamp, createdAt: Timestamp, updatedAt: Timestamp,
});
export const WidgetList = Type.Array(WidgetView);
export const Message = Type.Object({ message: Type.String() });
