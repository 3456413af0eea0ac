// The rotation must not hide a route for good: every route falls in exactly one bucket, the
// buckets of ROTATION_BUCKETS consecutive days together take every route, and a full run takes all.
import t from 'tap';
import { discoverPlugins } from '../../core/loader.ts';
import { ROTATION_BUCKETS, bucketOf, routeSample } from '../../lib/rotation.ts';

t.test('consecutive days cover every route; CI_FULL and Sundays take all', async (t) => {
  const ids = (await discoverPlugins({ plugins: {} })).flatMap((p) => p.manifest.routes.map((r) => r.id));
  t.ok(ids.length > 100, `${ids.length} routes`);
  const monday = Date.UTC(2026, 10, 23);
  const seen = new Set<string>();
  for (let day = 0; day < ROTATION_BUCKETS; day++) {
    const sample = routeSample({}, new Date(monday + day * 86_400_000));
    const taken = ids.filter((id) => sample.takes(id));
    t.ok(taken.length > 0 && taken.length < ids.length, `day ${day}: ${taken.length} routes`);
    for (const id of taken) seen.add(id);
  }
  t.equal(seen.size, ids.length, 'every route within ROTATION_BUCKETS days');
  for (const id of ids) t.ok(bucketOf(id) >= 0 && bucketOf(id) < ROTATION_BUCKETS);
  const sunday = new Date(Date.UTC(2026, 10, 29));
  t.equal(routeSample({}, sunday).bucket, null, 'Sunday runs every route');
  t.equal(routeSample({ CI_FULL: '1' }, new Date(monday)).bucket, null, 'CI_FULL=1 runs every route');
  t.equal(routeSample({ CONTRACT_SEED: 'all' }, new Date(monday)).bucket, null);
  t.equal(routeSample({ CONTRACT_SEED: '6' }, sunday).bucket, 6 % ROTATION_BUCKETS, 'a seed replays its bucket, even on Sunday');
});
