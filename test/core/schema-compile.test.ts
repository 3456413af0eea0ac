// The suite compiles schemas lazily (test/helper.ts); the service compiles every route's
// validators and serializers at boot. This file builds the service's way, so a schema that
// cannot compile fails here, and checks that both ways answer alike.
import t from 'tap';
import type { App } from '../../core/app.ts';
import { buildTestApp, register, bearer } from '../helper.ts';

async function answers({ app }: App) {
  const s = await register(app);
  const calls = [
    { method: 'POST', url: '/api/auth/login', payload: { email: 42 } },
    { method: 'GET', url: '/api/drifts?page=zero', headers: { ...bearer(s.token), 'x-org-id': s.orgId } },
    { method: 'GET', url: '/api/auth/me', headers: bearer(s.token) },
  ] as const;
  const out = [];
  for (const c of calls) {
    const res = await app.inject({ ...c });
    const body = res.json();
    out.push({ status: res.statusCode, error: body.error ?? null, fields: Object.keys(body.data ?? body.user ?? body).sort() });
  }
  return out;
}

t.test('every route compiles at boot, and lazy compilation answers the same', async (t) => {
  const eager = await answers(await buildTestApp(t, { lazySchemas: false }));
  const lazy = await answers(await buildTestApp(t, { lazySchemas: true }));
  t.same(lazy, eager, 'the same statuses, errors and response fields');
  t.equal(eager[0].status, 400, 'a body of the wrong type is refused');
  t.equal(eager[1].status, 400, 'a query of the wrong type is refused');
  t.equal(eager[2].status, 200);
  t.ok(eager[2].fields.length > 2, 'the answer carries its fields');
});
