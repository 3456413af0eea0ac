// TypeBox schemas of the notification routes.
import { Type } from 'typebox';
import { Timestamp, pageFields, PagedList } from '../../core/schemas.ts';

export const NotificationView = Type.Object({
  _id: Type.String(), orgId: Type.String(), type: Type.String(), title: Type.String(), message: Type.String(), read: Type.Boolean(), createdAt: Timestamp,
  metadata: Type.Object({
    scanId: Type.Optional(Type.String()), repositoryName: Type.Optional(Type.String()),
    repositoryConfigId: Type.Optional(Type.String()), count: Type.Optional(Type.Integer()),
  }),
});
export const ListQuery = Type.Object({
  ...pageFields(),
  unreadOnly: Type.Optional(Type.Boolean()),
});
export const NotificationPage = PagedList(NotificationView);
export const UnreadCount = Type.Object({ count: Type.Integer() });
export const MarkedAll = Type.Object({ updated: Type.Integer() });
export const Message = Type.Object({ message: Type.String() });
