// In-app notifications (SPEC "Notifications", B). They belong to the signed-in user, across
// the organizations they are a member of, so the routes take a user session (auth user):
// CLI tokens do not read a person's inbox.
import { defineManifest } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import { ListQuery, MarkedAll, Message, NotificationPage, UnreadCount } from '../plugins/notifications/schemas.ts';

export default defineManifest({
  plugin: 'notifications',
  prefix: '/api/notifications',
  reply: 'envelope',
  description: "The user's notifications: scan completed or failed, drift detected or resolved",
  routes: [
    { id: 'listNotifications', method: 'GET', url: '/', auth: 'user', reply: 'named', summary: 'Newest first; {success, data, pagination}', query: ListQuery, response: { 200: NotificationPage }, handler: 'list' },
    { id: 'getUnreadNotificationCount', method: 'GET', url: '/unread-count', auth: 'user', response: { 200: UnreadCount }, handler: 'unreadCount' },
    { id: 'markAllNotificationsRead', method: 'POST', url: '/mark-all-read', auth: 'user', response: { 200: MarkedAll }, handler: 'markAllRead' },
    { id: 'markNotificationRead', method: 'PATCH', url: '/:id/read', auth: 'user', params: IdParams, response: { 200: Message }, handler: 'markRead' },
    { id: 'deleteNotification', method: 'DELETE', url: '/:id', auth: 'user', params: IdParams, response: { 200: Message }, handler: 'remove' },
  ],
});
