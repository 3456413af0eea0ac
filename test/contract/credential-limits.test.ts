// SPEC puts every cloud credential route under the Credentials limit (fail-closed): a route
// that writes or reads credentials and forgets it fails here by name.
import t from 'tap';
import { discoverPlugins, fullUrl } from '../../core/loader.ts';

t.test('every credentials route is under the Credentials limit', async (t) => {
  for (const { manifest } of await discoverPlugins({ plugins: {} })) {
    for (const route of manifest.routes.filter((r) => /credentials/.test(r.url))) {
      t.equal(route.rateLimit, 'credentials', `${route.id} ${route.method} ${fullUrl(manifest, route)}`);
    }
  }
});
