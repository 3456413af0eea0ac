// core/browser-binding.ts on its own (issue 32 point 4): the cookie's attributes and when it
// is Secure, reading it back among other cookies, the proof's order of refusals; and the
// manifest rule that a JWT in a query string only starts a redirect flow (GET routes only).
import t from 'tap';
import { browserBinding, proveBinding, secureCookies, type SessionCheck } from '../../core/browser-binding.ts';
import { sha256Hex } from '../../core/crypto.ts';
import { validateManifests, ManifestError, type LoadedPlugin } from '../../core/loader.ts';
import type { Manifest, RouteSpec } from '../../core/manifest.ts';

t.test('the cookie: HttpOnly, SameSite=Lax, the callback path, 10 minutes; Secure unless plain http on loopback', async (t) => {
  const b = browserBinding({ name: 'drift_x', callbackUrl: 'https://drift.example.com/base/api/x/callback', publicUrl: 'https://drift.example.com/base' });
  const { setCookie, nonceHash } = b.issue();
  t.match(setCookie, /^drift_x=[A-Za-z0-9_-]{40,};/);
  for (const attr of [/Max-Age=600/, /Path=\/base\/api\/x\/callback/, /HttpOnly/, /Secure/, /SameSite=Lax/]) t.match(setCookie, attr);
  const nonce = setCookie.split(';')[0].split('=')[1];
  t.equal(sha256Hex(nonce), nonceHash, 'the state keeps only the hash of what the browser holds');
  t.equal(b.read(`other=1; drift_x=${nonce}; more=2`), nonce, 'found among other cookies');
  t.equal(b.read('other=1'), undefined);
  t.equal(b.read(undefined), undefined);
  t.match(b.clear(), /^drift_x=; Max-Age=0;/);
  t.not(b.issue().nonceHash, nonceHash, 'a new nonce per start');

  t.equal(secureCookies('http://localhost:3000'), false, 'development on loopback');
  t.equal(secureCookies('http://127.0.0.1:3000'), false);
  t.equal(secureCookies('http://[::1]:3000'), false);
  t.equal(secureCookies('http://drift.internal'), true, 'plain http elsewhere: Secure anyway (fails closed)');
  t.equal(secureCookies('https://localhost'), true);
  t.notMatch(browserBinding({ name: 'a', callbackUrl: 'http://localhost:3000/cb', publicUrl: 'http://localhost:3000' }).issue().setCookie, /Secure/);
});

t.test('the proof: browser first, then the session sent along, then the starting session', async (t) => {
  const live = new Set(['s1']);
  const sessions: SessionCheck = {
    userOfAccessToken: async (token) => (token === 'jwt-u1' ? { userId: 'u1' } : token === 'jwt-u2' ? { userId: 'u2' } : null),
    isLive: async (_userId, sessionId) => sessionId !== null && live.has(sessionId),
  };
  const start = { userId: 'u1', sessionId: 's1', nonceHash: sha256Hex('n1') };
  t.equal(await proveBinding(start, { nonce: 'n1', bearer: undefined }, sessions), null);
  t.equal(await proveBinding(start, { nonce: 'n1', bearer: 'jwt-u1' }, sessions), null, 'the same user signed in');
  t.equal(await proveBinding(start, { nonce: undefined, bearer: 'jwt-u1' }, sessions), 'browser_mismatch', 'no cookie, even with the right session');
  t.equal(await proveBinding(start, { nonce: 'n2', bearer: undefined }, sessions), 'browser_mismatch');
  t.equal(await proveBinding({ userId: 'u1', sessionId: 's1' }, { nonce: 'n1', bearer: undefined }, sessions), 'browser_mismatch', 'a state recorded without a binding');
  t.equal(await proveBinding(start, { nonce: 'n1', bearer: 'jwt-u2' }, sessions), 'user_mismatch');
  t.equal(await proveBinding(start, { nonce: 'n1', bearer: 'garbage' }, sessions), 'user_mismatch', 'an invalid session sent along');
  live.delete('s1');
  t.equal(await proveBinding(start, { nonce: 'n1', bearer: undefined }, sessions), 'session_ended');
});

t.test("auth 'user-redirect' is for GET routes only", async (t) => {
  const route = (extra: Partial<RouteSpec>): RouteSpec => ({ id: 'startThing', method: 'GET', url: '/start', auth: 'user-redirect', response: { 302: null }, handler: 'start', ...extra });
  const plugin = (r: RouteSpec): LoadedPlugin => {
    const m: Manifest = { plugin: 'things', prefix: '/api/things', reply: 'raw', routes: [r] };
    return { manifest: m, enabled: true, plan: undefined, definition: { manifest: m, needs: [], build: () => ({ handlers: {} }) } };
  };
  t.doesNotThrow(() => validateManifests([plugin(route({}))]));
  t.throws(() => validateManifests([plugin(route({ method: 'POST' }))]),
    new ManifestError('manifests/things.ts route "startThing": auth "user-redirect" is for GET routes that start a browser redirect flow'));
});
