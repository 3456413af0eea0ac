import t from 'tap';
import { buildTestApp, register, bearer, uniqueEmail } from '../../helper.ts';

t.test('register, login, me, refresh rotation and reuse, logout', async (t) => {
  const { app } = await buildTestApp(t);
  const email = uniqueEmail();
  const s = await register(app, email);
  t.match(s.token, /^ey/, 'register returns a JWT');
  t.match(s.refreshToken, /^rt_/, 'and a refresh token');

  const dup = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: email.toUpperCase(), password: 'another password' } });
  t.equal(dup.statusCode, 409, 'the same email (any case) cannot register twice');
  t.equal(dup.json().error.code, 'conflict');

  const short = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: uniqueEmail(), password: 'short' } });
  t.equal(short.statusCode, 400, 'passwords under 8 characters are refused');

  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(s.token) });
  t.equal(me.statusCode, 200);
  t.same(me.json(), { id: s.userId, email, name: null, role: 'user', scmId: null, avatar: null, defaultOrgId: s.orgId, onboardingCompleted: false, tourCompleted: false });

  const wrong = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong password' } });
  const unknown = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: uniqueEmail(), password: 'wrong password' } });
  t.equal(wrong.statusCode, 401);
  t.same(wrong.json(), unknown.json(), 'a wrong password and an unknown email get the same answer');

  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'correct horse battery' } });
  t.equal(login.statusCode, 200);
  t.same(login.json().user, { id: s.userId, email, role: 'user' }, 'login returns id, email and role');

  const r1 = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: s.refreshToken } });
  t.equal(r1.statusCode, 200, 'refresh works once');
  const next = r1.json();
  t.not(next.refreshToken, s.refreshToken, 'and rotates the refresh token');

  const reuse = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: s.refreshToken } });
  t.equal(reuse.statusCode, 401, 'a spent refresh token is refused');
  const after = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: next.refreshToken } });
  t.equal(after.statusCode, 401, 'and its reuse revoked the whole family');
  const stale = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(next.token) });
  t.equal(stale.statusCode, 401, 'access tokens of the revoked session stop working');

  const l = login.json();
  const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(l.token) });
  t.equal(out.statusCode, 200);
  const gone = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(l.token) });
  t.equal(gone.statusCode, 401, 'logout ends the session');
  const noRefresh = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: l.refreshToken } });
  t.equal(noRefresh.statusCode, 401, 'and its refresh token');
});

t.test('forged and expired tokens are refused', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const [h, p] = s.token.split('.');
  const forged = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(`${h}.${p}.AAAA`) });
  t.equal(forged.statusCode, 401);
  t.equal(forged.json().error.code, 'invalid_token');
  const garbage = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer('not-a-token') });
  t.equal(garbage.statusCode, 401);
});

t.test('refresh spent by 20 concurrent callers: one winner, family revoked', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const results = await Promise.all(Array.from({ length: 20 }, () =>
    app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: s.refreshToken } })));
  t.equal(results.filter((r) => r.statusCode === 200).length, 1, 'exactly one refresh succeeds');
});
