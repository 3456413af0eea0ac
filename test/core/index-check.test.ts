import t from 'tap';
import { covers, filterParts, uncoveredQueries } from '../../core/index-check.ts';
import type { CollectionSpec } from '../../core/db.ts';

const parts = (f: Record<string, unknown>) => filterParts(f)[0];

t.test('equality fields must be the leading keys, then sort', async (t) => {
  const idx = { orgId: 1, status: 1, detectedAt: -1 };
  t.ok(covers(idx, parts({ orgId: 'o' }), null), 'leading equality');
  t.ok(covers(idx, parts({ orgId: 'o', status: 'x' }), { detectedAt: -1 }), 'equality then sort');
  t.ok(covers(idx, parts({ orgId: 'o', status: 'x' }), { detectedAt: 1 }), 'sort reversed');
  t.notOk(covers(idx, parts({ status: 'x' }), null), 'skipping the leading key is a scan');
  t.notOk(covers(idx, parts({ orgId: 'o' }), { detectedAt: -1 }), 'sort not right after the equality prefix');
  t.notOk(covers(idx, parts({ orgId: 'o', other: 1 }), null), 'an equality field the index lacks');
  t.ok(covers(idx, parts({ orgId: 'o', status: { $in: ['a', 'b'] } }), null), '$in counts as equality');
  t.ok(covers({ revokedAt: 1 }, parts({ revokedAt: { $gte: 1 } }), null), 'range on the leading key');
  t.notOk(covers({ a: 1 }, parts({}), null), 'an empty filter is a scan');
  t.ok(covers({ a: 1 }, parts({ _id: 'x', b: 2 }), null), '_id equality uses the _id index');
  t.notOk(covers({ a: 1, b: 1 }, parts({ a: 1 }), { b: 1, c: 1 }), 'sort longer than the index');
  t.notOk(covers({ a: 1, b: 1, c: 1 }, parts({ a: 1 }), { b: 1, c: -1 }), 'mixed sort directions');
});

t.test('$or: every branch must be covered', async (t) => {
  const spec: CollectionSpec = { name: 'c', owner: 'plugins/x', indexes: [{ key: { orgId: 1, a: 1 } }] };
  const specs = new Map([['c', spec]]);
  t.equal(uncoveredQueries([{ collection: 'c', command: 'find', filter: { orgId: 1, $or: [{ a: 1 }, { _id: 2 }] }, sort: null }], specs).length, 0);
  const bad = uncoveredQueries([{ collection: 'c', command: 'find', filter: { orgId: 1, $or: [{ a: 1 }, { b: 2 }] }, sort: null }], specs);
  t.equal(bad.length, 1, 'one uncovered branch fails the query');
  t.equal(bad[0].owner, 'plugins/x', 'naming the store');
  const undeclared = uncoveredQueries([{ collection: 'nobody', command: 'find', filter: { a: 1 }, sort: null }], specs);
  t.match(undeclared[0].owner, /no store declares/, 'collections no store declares are reported');
});
