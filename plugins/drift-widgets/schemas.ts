// TypeBox schemas of the drift widget routes.
import { Type, type Static, type TSchema } from 'typebox';
import { Id, Timestamp } from '../../core/schemas.ts';
import { DriftStatus, Severity } from '../drifts/schemas.ts';
import { WIDGET_TYPES } from './store.ts';

const filterFields = {
  resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  repositoryConfigId: Type.Optional(Id),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};
const DESCRIPTION = 'Drift filters, as in /api/drifts/query; the metric is the number of drifts matching them';
/** The filters as stored and shown: lists are always lists. */
export const WidgetFilters = Type.Object({
  status: Type.Optional(Type.Array(DriftStatus, { maxItems: 4, uniqueItems: true })),
  severity: Type.Optional(Type.Array(Severity, { maxItems: 4, uniqueItems: true })),
  ...filterFields,
}, { additionalProperties: false, description: DESCRIPTION });
export type WidgetFilters = Static<typeof WidgetFilters>;
/** A filter that takes a list also takes one value (`{"severity": "critical"}`), as the query string of /api/drifts/query does. */
const oneOrList = <T extends TSchema>(item: T) => Type.Union([item, Type.Array(item, { maxItems: 4, uniqueItems: true })]);
export const WidgetFiltersInput = Type.Object({
  status: Type.Optional(oneOrList(DriftStatus)),
  severity: Type.Optional(oneOrList(Severity)),
  ...filterFields,
}, { additionalProperties: false, description: `${DESCRIPTION}; status and severity take one value or a list` });
export type WidgetFiltersInput = Static<typeof WidgetFiltersInput>;
/** The stored form: a single value becomes a list of one. */
// Key order kept as given (a ticket's description lists the filters as the user wrote them).
export const filtersOf = (input: WidgetFiltersInput): WidgetFilters => Object.fromEntries(Object.entries(input)
  .map(([k, v]) => [k, (k === 'status' || k === 'severity') && v !== undefined && !Array.isArray(v) ? [v] : v])) as WidgetFilters;
const WidgetType = Type.Enum(WIDGET_TYPES);
export const CreateWidget = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 100 }),
  type: WidgetType,
  filters: Type.Optional(WidgetFiltersInput),
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
