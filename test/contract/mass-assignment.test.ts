// Mass assignment, for every write route of every manifest (issue #10): a successful call is
// repeated with fields no body may set (orgId, _id, role, plan, status, createdAt, token,
// tokenHash, runnerId, userId and a nested `$set`), each carrying a marker value. Afterwards no
// document of any collection (the stores, the audit trail included) and no answer may hold a
// marker, and no record may have moved into the victim organization named by `orgId`.
// A route with a body and no write fixture fails by name.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { fullUrl } from '../../core/loader.ts';
import { MongoClient } from 'mongodb';
import { buildTestApp, register, bearer, startMailbox, mailText, serviceUrls } from '../helper.ts';
import { routeSample } from '../../lib/rotation.ts';
import { loadFixtures, type WriteWorld } from './fixtures/index.ts';

const hex = () => randomBytes(12).toString('hex');
const fill = (url: string, params: Record<string, string> = {}) => url.replace(/:(\w+)/g, (_, name) => params[name] ?? hex());

t.test('no write route stores or honours a field its body does not declare', async (t) => {
  const { write } = await loadFixtures();
  const mailbox = await startMailbox(t);
  const { app, ctx, plugins, services } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const owner = await register(app);
  const other = await register(app);
  const victim = await register(app);
  for (const s of [owner, other, victim]) await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const w: WriteWorld = {
    app, ctx, services, owner, other,
    register: () => register(app),
    async mailTo(email) {
      for (let i = 0; i < 50; i++) {
        const mail = [...mailbox.messages].reverse().find((m) => m.to.includes(email));
        if (mail) return mailText(mail.raw);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${email}`);
    },
  };

  const tag = randomBytes(4).toString('hex');
  const markers = {
    _id: hex(), runnerId: hex(), userId: hex(),
    role: `role-${tag}`, plan: `plan-${tag}`, status: `status-${tag}`, token: `token-${tag}`, tokenHash: `hash-${tag}`,
    createdAt: '1999-09-09T09:09:09.999Z',
  };
  const extras = { ...markers, orgId: victim.orgId, $set: { orgId: victim.orgId, status: markers.status, role: markers.role } };
  const needles = Object.values(markers);

  // The store read directly, on a connection of the test's own: these full scans are not the
  // app's queries, so the index check does not see them.
  const direct = new MongoClient(serviceUrls().mongoUri);
  await direct.connect();
  t.teardown(() => direct.close());
  const store = direct.db(ctx.config.MONGODB_DB);
  /** Every document of every collection, as JSON text, by collection/_id. */
  async function everything() {
    const docs = new Map<string, string>();
    for (const { name } of await store.listCollections({}, { nameOnly: true }).toArray()) {
      for (const doc of await store.collection(name).find({}).toArray()) docs.set(`${name}/${String(doc._id)}`, JSON.stringify(doc));
    }
    return docs;
  }
  const victimRecords = (docs: Map<string, string>) => new Set([...docs].filter(([, text]) => text.includes(victim.orgId)).map(([key]) => key));

  const sample = routeSample();
  t.comment(sample.describe);
  for (const plugin of plugins.filter((p) => p.enabled)) {
    for (const route of plugin.manifest.routes.filter((r) => r.body)) {
      const url = fullUrl(plugin.manifest, route);
      // Every write route has its fixture, whichever routes this run calls.
      if (!write[route.id]) t.fail(`no write fixture for ${route.id}: add one to test/contract/fixtures/${plugin.manifest.plugin}.ts`);
      if (!sample.takes(route.id)) continue;
      await t.test(`${route.id} ${route.method} ${url}`, async (t) => {
        const fixture = write[route.id];
        if (!fixture) return;
        const call = await fixture(w);
        await ctx.audit.flush();
        const snapshot = await everything();
        const before = victimRecords(snapshot);
        const declared = new Set(Object.keys((route.body as { properties?: object }).properties ?? {}));
        const payload = { ...Object.fromEntries(Object.entries(extras).filter(([k]) => !declared.has(k))), ...call.body };
        const token = route.auth === 'none' || route.auth === 'runner' ? undefined : call.token ?? owner.token;
        const res = await app.inject({
          method: route.method, url: fill(url, call.params), payload,
          headers: { ...(token ? bearer(token) : {}), ...call.headers },
        });
        t.ok(res.statusCode < 300, `the call succeeds (${res.statusCode} ${res.statusCode < 300 ? '' : res.body})`);
        await ctx.audit.flush();
        const after = await everything();
        const written = [...after].filter(([key, text]) => snapshot.get(key) !== text);
        const leaks = written.filter(([, text]) => needles.some((n) => text.includes(n))).map(([key]) => key);
        t.same(leaks, [], `${route.id}: no record holds a forbidden field's value`);
        t.notOk(needles.some((n) => res.body.includes(n)), `${route.id}: the answer echoes no forbidden field`);
        const moved = [...victimRecords(after)].filter((key) => !before.has(key));
        t.same(moved, [], `${route.id}: no record joined the organization named by a body's orgId`);
      });
    }
  }
});

