import t from 'tap';
import { autoAction, redact } from '../../core/audit.ts';
import { buildTestApp, register, bearer } from '../helper.ts';

t.test('redaction: sensitive keys, any case, recursively', async (t) => {
  t.same(redact({ password: 'p', nested: { apiKey: 'k', list: [{ WebhookUrl: 'u', ok: 1 }] }, Authorization: 'b', name: 'n', csrfToken: 'c', Cookie: 'x' }), {
    password: '[REDACTED]', nested: { apiKey: '[REDACTED]', list: [{ WebhookUrl: '[REDACTED]', ok: 1 }] }, Authorization: '[REDACTED]', name: 'n', csrfToken: '[REDACTED]', Cookie: '[REDACTED]',
  });
});

t.test('keys the database refuses are escaped, at any depth', async (t) => {
  t.same(redact({ $source: 'x', tags: { 'kubernetes.io/role': 'a', list: [{ $ref: 1 }] } }), { '\uFF04source': 'x', tags: { 'kubernetes\uFF0Eio/role': 'a', list: [{ '\uFF04ref': 1 }] } });
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
