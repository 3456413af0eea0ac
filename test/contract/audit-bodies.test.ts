// Every audited route keeps one entry per mutation whatever its body held (issue #10): arrays
// nested in arrays, keys the database refuses, NUL, deep nesting and credentials inside URLs.
// Each route is called by a fresh user (logout and deletion end their own session only), with
// its own organization where the route names one and unknown ids elsewhere: a refused request
// is a mutation attempt and is audited too.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { fullUrl } from '../../core/loader.ts';
import { buildTestApp, register, bearer, type Session } from '../helper.ts';
import { routeSample } from '../../lib/rotation.ts';

const hex = () => randomBytes(12).toString('hex');
const deep = (levels: number): unknown => (levels ? { next: deep(levels - 1) } : 'bottom');

t.test('every audited route leaves one entry per request, whatever the body', async (t) => {
  const { app, ctx, plugins } = await buildTestApp(t);
  // What the user did since `from`, in its organization or (an organization's deletion) the platform trail.
  const entriesOf = async (orgId: string, userId: string, from: Date) => {
    const trail = ctx.db.db.collection('audit_logs');
    const since = { userId, timestamp: { $gte: from } };
    return [...await trail.find({ orgId, ...since }).toArray(), ...await trail.find({ orgId: null, ...since }).toArray()];
  };
  let users = 0;
  const secret = `pw-${randomBytes(4).toString('hex')}`;
  const bodies: [string, string][] = [
    ['nested arrays and keys the database refuses', JSON.stringify({ role: 'member', name: 'x', x: [[1, [2]]], 'a.b': 1, $where: 'y', list: [{ $ref: 1 }] })],
    ['a key holding NUL', '{"name":"x","a\\u0000b":1}'],
    ['deep nesting and a URL with credentials', JSON.stringify({ name: 'x', repositoryUrl: `https://deploy:${secret}@git.example.com/o/r.git`, tree: deep(30) })],
  ];

  const sample = routeSample();
  t.comment(sample.describe);
  for (const plugin of plugins.filter((p) => p.enabled)) {
    for (const route of plugin.manifest.routes) {
      if (route.method === 'GET' || (route.auth !== 'user' && route.auth !== 'bearer') || !sample.takes(route.id)) continue;
      const url = fullUrl(plugin.manifest, route);
      await t.test(`${route.id} ${route.method} ${url}`, async (t) => {
        let user: Session | undefined;
        for (const [what, payload] of bodies) {
          // A fresh user whenever the last call succeeded: it may have ended the session or the organization.
          if (!user) {
            user = await register(app, undefined, undefined, `192.0.2.${++users % 250}`);
            await ctx.tenancy.setPlan(user.orgId, 'enterprise');
          }
          const caller = user;
          await ctx.audit.flush();
          const from = new Date();
          const path = url.replace(/:(\w+)/g, (_, name) => (name === route.orgParam ? caller.orgId : hex()));
          const res = await app.inject({ method: route.method, url: path, payload, headers: { ...bearer(caller.token), 'content-type': 'application/json' } });
          t.ok(res.statusCode < 500, `${what}: answered ${res.statusCode}, not a server error`);
          if (res.statusCode < 300) user = undefined;
          await ctx.audit.flush();
          const entries = await entriesOf(caller.orgId, caller.userId, from);
          t.equal(entries.length, 1, `${what}: one audit entry`);
          t.notOk(JSON.stringify(entries).includes(secret), `${what}: no URL credentials in the trail`);
        }
      });
    }
  }
});
