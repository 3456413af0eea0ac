import t from 'tap';
import { MongoNetworkError } from 'mongodb';
import { autoAction, redact } from '../../core/audit.ts';
import { createAuditSpool } from '../../core/audit-spool.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { buildTestApp, register, bearer } from '../helper.ts';

t.test('redaction: sensitive keys, any case, recursively', async (t) => {
  t.same(redact({ password: 'p', nested: { apiKey: 'k', list: [{ WebhookUrl: 'u', ok: 1 }] }, Authorization: 'b', name: 'n', csrfToken: 'c', Cookie: 'x' }), {
    password: '[REDACTED]', nested: { apiKey: '[REDACTED]', list: [{ WebhookUrl: '[REDACTED]', ok: 1 }] }, Authorization: '[REDACTED]', name: 'n', csrfToken: '[REDACTED]', Cookie: '[REDACTED]',
  });
});

t.test('keys the database refuses are escaped, at any depth', async (t) => {
  t.same(redact({ $source: 'x', tags: { 'kubernetes.io/role': 'a', list: [{ $ref: 1 }] } }), { '\uFF04source': 'x', tags: { 'kubernetes\uFF0Eio/role': 'a', list: [{ '\uFF04ref': 1 }] } });
});

t.test('credentials inside URLs are redacted in any string, refused body or not', async (t) => {
  t.same(redact({ repositoryUrl: 'https://deploy:hunter2@git.example.com/o/r.git', note: 'clone git+ssh://tok@host/x then https://plain.example.com/a@b' }), {
    repositoryUrl: 'https://[REDACTED]@git.example.com/o/r.git',
    note: 'clone git+ssh://[REDACTED]@host/x then https://plain.example.com/a@b',
  });
  t.same(redact([['https://u:p@h/x']]), ['["https://[REDACTED]@h/x"]'], 'inside an array kept as text too');
});

t.test('what the database refuses becomes storable: nested arrays, NUL, depth, size', async (t) => {
  t.same(redact({ x: [[1, [2]], 3] }), { x: ['[1,[2]]', 3] }, 'an array inside an array is kept as its JSON text');
  t.same(redact({ 'a\u0000b': 'c\u0000d' }), { 'a\uFFFDb': 'c\uFFFDd' }, 'NUL made visible in keys and strings');
  t.same(redact([[{ password: 'p' }]]), ['[{"password":"[REDACTED]"}]'], 'secrets redacted before an array becomes text');
  let deep: unknown = 'bottom';
  for (let i = 0; i < 100; i++) deep = { next: deep };
  t.match(JSON.stringify(redact(deep)), /\[nested too deep\]/, 'depth bounded');
  t.equal((redact('x'.repeat(10_000)) as string).length, 2000 + '…[truncated]'.length, 'long strings cut');
  t.equal((redact(Array.from({ length: 500 }, (_, i) => i)) as unknown[]).length, 101, 'long arrays cut, with a note');
});

t.test('a failed audit write waits in Redis and is written once the database answers again', async (t) => {
  const { ctx } = await buildTestApp(t);
  const trail = ctx.db.db.collection('audit_logs');
  let down = true;
  const insert = async (e: object) => {
    if (down) throw new MongoNetworkError('injected: the database is unreachable');
    await trail.insertOne(e as never).catch((err) => { if (!isDuplicateKey(err)) throw err; });
  };
  const spool = createAuditSpool(ctx.redis.main, insert, { error() {}, warn() {} });
  t.teardown(() => spool.stop());
  const entries = [1, 2, 3].map((i) => ({ _id: `spooled-${i}`, orgId: null, action: 'test.spooled', timestamp: new Date() }));
  for (const e of entries) await insert(e).catch((err) => spool.keep(e, err));
  t.equal(await spool.drain(), 0, 'nothing written while the database is down');
  t.equal(await trail.countDocuments({ orgId: null, action: 'test.spooled' }), 0);
  down = false;
  // Two drains at once (two processes): each entry is written exactly once.
  const other = createAuditSpool(ctx.redis.main, insert, { error() {}, warn() {} });
  t.teardown(() => other.stop());
  await Promise.all([spool.drain(), other.drain()]);
  const written = await trail.find({ orgId: null, action: 'test.spooled' }).toArray();
  t.same(written.map((e) => e._id).sort(), entries.map((e) => e._id), 'every kept entry written once');
  t.ok(written.every((e) => e.timestamp instanceof Date), 'dates survive the round trip');
  t.equal(await ctx.redis.main.llen('audit:retry'), 0, 'the list is empty');
  t.match(spool.stats(), { spooled: 3 }, 'counted');
});

t.test('auto action names', async (t) => {
  t.equal(autoAction('PUT', '/api/orgs/:orgId'), 'http.put.orgs.orgId');
  t.equal(autoAction('DELETE', '/api/auth/cli-tokens/:tokenId'), 'http.delete.auth.cli-tokens.tokenId');
});

t.test('the trail records mutations after the response, with curated names and redacted bodies', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(s.token) });
  await app.inject({ method: 'POST', url: '/api/orgs', headers: { ...bearer(s.token), 'user-agent': 'audit-test' }, payload: { name: 'Audited' } });
  await app.inject({ method: 'PUT', url: '/api/auth/preferences', headers: bearer(s.token), payload: { theme: 'dark' } });
  await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: s.email, password: 'not the password' } });
  await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'rst_nope', password: 'new password 1' } });
  await ctx.audit.flush();
  // Entries of the caller's organization, and of anonymous requests (failed sign-in, bad reset token).
  const entries = await ctx.db.db.collection('audit_logs').find({ orgId: { $in: [s.orgId, null] } }).sort({ timestamp: -1 }).toArray();
  const actions = entries.map((e) => e.action);
  t.ok(actions.includes('auth.signup'), 'signup is audited');
  t.ok(actions.includes('org.created'), 'curated action from the manifest');
  t.ok(actions.includes('http.put.auth.preferences'), 'derived action for the rest');
  t.ok(actions.includes('auth.login_failed'), 'login failures are audited');
  t.notOk(entries.some((e) => e.method === 'GET'), 'reads are not audited');
  const created = entries.find((e) => e.action === 'org.created')!;
  t.equal(created.userId, s.userId, 'actor');
  t.equal(created.statusCode, 201, 'status');
  t.equal(created.userAgent, 'audit-test', 'user agent');
  t.equal(created.route, '/api/orgs', 'matched route');
  t.ok(created.ipAddress, 'ip');
  const reset = entries.find((e) => e.action === 'auth.password_reset')!;
  t.same(reset.body, { token: '[REDACTED]', password: '[REDACTED]' }, 'body redacted');
  t.equal(reset.statusCode, 400, 'failed attempts are recorded with their status');
});
