// Abuse cases of issue 32 point 4 for the tracker connection: whoever completes an
// organization's authorize URL must be the browser, and the user, that started it. Played
// as the other party against a loopback server answering as Atlassian's OAuth 2.0 (3LO) does.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { fakeAtlassian } from './fake-atlassian.ts';

t.test('the tracker callback completes only in the browser and for the user that started it, once', async (t) => {
  const fake = await fakeAtlassian(t);
  const b = await buildTestApp(t, { env: fake.env });
  const owner = await register(b.app); // the organization's admin
  const stranger = await register(b.app); // another tenant, whose Jira site would be connected
  const initiate = async (token: string) => {
    const res = await b.app.inject({ method: 'GET', url: '/api/tracker/oauth/initiate', headers: bearer(token) });
    t.equal(res.statusCode, 200, res.body);
    const raw = res.headers['set-cookie'];
    const cookie = (Array.isArray(raw) ? raw[0] : raw ?? '').split(';')[0];
    return { state: new URL(res.json().data.authorizationUrl).searchParams.get('state')!, cookie, setCookie: String(raw ?? '') };
  };
  const callback = (state: string, opts: { cookie?: string; headers?: Record<string, string> } = {}) =>
    b.app.inject({ method: 'GET', url: `/api/tracker/oauth/callback?state=${state}&code=${fake.state.code}`, headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers } });
  const connected = async () => (await b.app.inject({ method: 'GET', url: '/api/tracker/config', headers: bearer(owner.token) })).json().data.connected;

  const s1 = await initiate(owner.token);
  const noCookie = await callback(s1.state);
  t.equal(noCookie.statusCode, 403, 'another browser (no cookie): 403');
  t.equal(noCookie.json().error?.code, 'oauth.browser_mismatch');
  t.equal(await connected(), false, 'nothing connected');
  t.equal((await callback(s1.state, { cookie: s1.cookie })).statusCode, 400, 'the refused attempt spent the state');

  const s2 = await initiate(owner.token);
  const theirs = await initiate(stranger.token);
  const otherCookie = await callback(s2.state, { cookie: theirs.cookie });
  t.equal(otherCookie.statusCode, 403, "another browser's cookie: 403");
  t.equal(await connected(), false);

  const s3 = await initiate(owner.token);
  const otherUser = await callback(s3.state, { cookie: s3.cookie, headers: bearer(stranger.token) });
  t.equal(otherUser.statusCode, 403, 'another signed-in user: 403');
  t.equal(otherUser.json().error?.code, 'oauth.user_mismatch');
  t.equal(await connected(), false);

  const s4 = await initiate(owner.token);
  t.match(s4.setCookie, /HttpOnly/i);
  t.match(s4.setCookie, /SameSite=Lax/i);
  t.match(s4.setCookie, /Path=\/api\/tracker\/oauth\/callback/i);
  const ok = await callback(s4.state, { cookie: s4.cookie });
  t.equal(ok.statusCode, 200, ok.body);
  t.equal(ok.json().data.connected, true, 'the same browser and user: connected');
  t.match(String(ok.headers['set-cookie']), /Max-Age=0/i, 'the cookie is cleared');
  t.equal((await callback(s4.state, { cookie: s4.cookie })).statusCode, 400, 'replaying a state: 400');

  await b.app.inject({ method: 'DELETE', url: '/api/tracker/disconnect', headers: bearer(owner.token) });
  const s5 = await initiate(owner.token);
  t.equal((await b.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(owner.token) })).statusCode, 200);
  const ended = await callback(s5.state, { cookie: s5.cookie });
  t.equal(ended.statusCode, 403, 'signed out since the start: 403');
  t.equal(ended.json().error?.code, 'oauth.session_ended');
});
