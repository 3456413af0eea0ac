import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';

t.test('notifications from scan and drift events: list, unread count, read, delete', async (t) => {
  const w = await world(t);
  const c = await w.config();
  await w.scanWith(c, [drift('bucket.a'), drift('bucket.b')]);
  await w.scanWith(c, [drift('bucket.a')]);
  const failing = await w.scans.trigger(w.owner.orgId, c, null);
  await w.scans.recordScanResult(w.owner.orgId, failing._id, { status: 'failed', error: 'terraform init failed' });

  const list = await w.api('GET', '/api/notifications');
  t.same(list.body.data.map((n: { type: string }) => n.type),
    ['scan_failed', 'drift_resolved', 'scan_completed', 'drift_detected', 'scan_completed'], 'one per event, newest first');
  t.match(list.body.data[0], { title: 'Scan failed: acme/infra', message: 'terraform init failed', read: false, metadata: { scanId: failing._id, repositoryName: 'acme/infra' } });
  t.same(list.body.pagination, { page: 1, limit: 20, total: 5, pages: 1 });
  t.equal((await w.api('GET', '/api/notifications/unread-count')).body.data.count, 5, 'unread count in data.count');

  const first = list.body.data[0]._id;
  t.equal((await w.api('PATCH', `/api/notifications/${first}/read`)).status, 200, 'read one');
  t.equal((await w.api('GET', '/api/notifications/unread-count')).body.data.count, 4);
  t.equal((await w.api('GET', '/api/notifications?unreadOnly=true')).body.data.length, 4, 'unreadOnly');
  t.equal((await w.api('POST', '/api/notifications/mark-all-read')).body.data.updated, 4, 'mark all read');
  t.equal((await w.api('GET', '/api/notifications/unread-count')).body.data.count, 0);
  t.equal((await w.api('DELETE', `/api/notifications/${first}`)).status, 200, 'delete');
  t.equal((await w.api('DELETE', `/api/notifications/${first}`)).status, 404, 'deleting again: 404');

  const stranger = await w.register();
  t.equal((await w.api('GET', '/api/notifications', undefined, stranger)).body.data.length, 0, 'other users do not get them');
  t.equal((await w.api('PATCH', `/api/notifications/${list.body.data[1]._id}/read`, undefined, stranger)).status, 404, "nor can they touch another user's");
});

t.test('a member who turned in-app notifications off gets none', async (t) => {
  const w = await world(t);
  t.equal((await w.api('PUT', '/api/auth/preferences', { notifications: { inApp: false } })).status, 200, 'the owner turns them off');
  await w.scanWith(await w.config(), [drift('bucket.a')]);
  t.equal((await w.api('GET', '/api/notifications/unread-count')).body.data.count, 0, 'and gets none');
  t.equal((await w.api('PUT', '/api/auth/preferences', { notifications: { inApp: true } })).status, 200, 'on again');
  await w.scanWith(await w.config('acme/other'), [drift('bucket.b')]);
  t.equal((await w.api('GET', '/api/notifications/unread-count')).body.data.count, 2, 'scan completed and drift detected');
});
