// A widget filter that takes a list also takes one value, stored as a list of one.
import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';

t.test('widget filters: a value or a list', async (t) => {
  const w = await world(t);
  const c = await w.config();
  await w.scanWith(c, [drift('bucket.a', 'critical'), drift('bucket.b', 'low'), drift('role.c', 'critical')]);
  const one = await w.api('POST', '/api/drift-widgets', { title: 'Critical', type: 'count', filters: { severity: 'critical' } });
  t.equal(one.status, 201, '{"severity": "critical"} is accepted');
  t.same(one.body.data.filters, { severity: ['critical'] }, 'stored and shown as a list');
  t.equal(one.body.data.metric, 2);
  const list = await w.api('POST', '/api/drift-widgets', { title: 'Crit+low', type: 'count', filters: { severity: ['critical', 'low'], status: 'detected' } });
  t.same(list.body.data.filters, { severity: ['critical', 'low'], status: ['detected'] });
  t.equal(list.body.data.metric, 3);
  const updated = await w.api('PUT', `/api/drift-widgets/${one.body.data._id}`, { filters: { severity: 'low' } });
  t.same(updated.body.data.filters, { severity: ['low'] }, 'on update too');
  t.equal(updated.body.data.metric, 1);
  const bad = await w.api('POST', '/api/drift-widgets', { title: 'x', type: 'count', filters: { severity: 'urgent' } });
  t.equal(bad.status, 400);
  t.match(bad.body.error.message, /^body\/filters\/severity must be one of: critical, high, medium, low/, 'names the field and the values');
});
