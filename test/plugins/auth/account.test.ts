import t from 'tap';
import { buildTestApp, register, bearer, startMailbox, mailText, uniqueEmail } from '../../helper.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = '----drift' + Date.now();
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

t.test('password reset by email over real SMTP', async (t) => {
  const mailbox = await startMailbox(t);
  const { app } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const s = await register(app);
  const unknown = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } });
  const known = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: s.email } });
  t.same(known.json(), unknown.json(), 'the answer does not reveal whether the account exists');
  t.equal(mailbox.messages.length, 1, 'only the existing account gets an email');
  const token = mailText(mailbox.messages[0].raw).match(/Token: (rst_[\w-]+)/)?.[1];
  t.ok(token, 'the email carries the reset token');
  const reset = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'brand new password' } });
  t.equal(reset.statusCode, 200);
  const again = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'another new password' } });
  t.equal(again.statusCode, 400, 'a reset token works once');
  const old = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(s.token) });
  t.equal(old.statusCode, 401, 'a reset ends existing sessions');
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: s.email, password: 'brand new password' } });
  t.equal(login.statusCode, 200, 'the new password works');
});

t.test('profile: onboarding, tour, preferences, download and service tokens, quota', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/complete-onboarding', headers: h })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/complete-tour', headers: h })).statusCode, 200);
  const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: h })).json();
  t.equal(me.onboardingCompleted, true);
  t.equal(me.tourCompleted, true);

  const prefs = await app.inject({ method: 'PUT', url: '/api/auth/preferences', headers: h, payload: { theme: 'dark', notifications: { digest: 'daily' } } });
  t.equal(prefs.statusCode, 200);
  t.equal(prefs.json().theme, 'dark');
  t.same(prefs.json().notifications, { email: true, inApp: true, digest: 'daily' }, 'nested settings merge');
  const badPrefs = await app.inject({ method: 'PUT', url: '/api/auth/preferences', headers: h, payload: { theme: 'neon' } });
  t.equal(badPrefs.statusCode, 400);
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/preferences', headers: h })).json().theme, 'dark', 'and persist');

  const dl = await app.inject({ method: 'POST', url: '/api/auth/download-token', headers: h });
  t.equal(dl.statusCode, 200);
  const asBearer = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(dl.json().token) });
  t.equal(asBearer.statusCode, 401, 'a download token is not accepted outside download routes');

  const svcBad = await app.inject({ method: 'POST', url: '/api/auth/service-token', headers: { 'x-service-key': 'wrong-key-0123456789abcdefgh' } });
  t.equal(svcBad.statusCode, 401);
  const svc = await app.inject({ method: 'POST', url: '/api/auth/service-token', headers: { 'x-service-key': 'test-service-key-0123456789abcdef' } });
  t.equal(svc.statusCode, 200, 'the service key gets a JWT');
  t.match(svc.json().token, /^ey/);

  const quota = await app.inject({ method: 'GET', url: '/api/auth/quota', headers: h });
  t.equal(quota.statusCode, 200);
  t.equal(quota.json().plan, 'free');
  t.same(quota.json().limits, { repositories: 1, scansPerDay: 3, cloudAccounts: 0 });
});

t.test('avatar upload: type checked by content, size limited, served back', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const fake = multipart('evil.png', 'image/png', Buffer.from('<script>alert(1)</script>'));
  const rejected = await app.inject({ method: 'POST', url: '/api/auth/avatar', headers: { ...bearer(s.token), ...fake.headers }, payload: fake.payload });
  t.equal(rejected.statusCode, 400, 'a file that is not an image is refused whatever its name and type say');
  const big = multipart('big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]));
  const tooBig = await app.inject({ method: 'POST', url: '/api/auth/avatar', headers: { ...bearer(s.token), ...big.headers }, payload: big.payload });
  t.equal(tooBig.statusCode, 413, 'over 2 MiB is refused');
  const good = multipart('me.png', 'image/png', PNG);
  const ok = await app.inject({ method: 'POST', url: '/api/auth/avatar', headers: { ...bearer(s.token), ...good.headers }, payload: good.payload });
  t.equal(ok.statusCode, 200);
  const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(s.token) })).json();
  t.equal(me.avatar, ok.json().avatar, 'me shows the avatar URL');
  const served = await app.inject({ method: 'GET', url: new URL(me.avatar).pathname });
  t.equal(served.headers['content-type'], 'image/png');
  t.same(served.rawPayload, PNG, 'the same bytes come back');
});

t.test('CLI tokens: shown once, listed without secret, revoked at once', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const other = await register(app);
  const created = await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(s.token), payload: { name: 'deploy', scopes: ['repos:read', 'scans:trigger'] } });
  t.equal(created.statusCode, 201);
  const { token, _id } = created.json();
  t.equal(created.json().allRepositories, false, 'allRepositories defaults to false');
  const stored = await ctx.db.db.collection('cli_tokens').findOne({ _id });
  t.notOk(JSON.stringify(stored).includes(token), 'only a hash is stored');
  const list = await app.inject({ method: 'GET', url: '/api/auth/cli-tokens', headers: bearer(s.token) });
  t.equal(list.json().tokens.length, 1);
  t.notOk(list.body.includes(token), 'the list never shows the token');
  const badScope = await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(s.token), payload: { name: 'x', scopes: ['admin:everything'] } });
  t.equal(badScope.statusCode, 400, 'unknown scopes are refused');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode, 200, 'the token works');
  const foreign = await app.inject({ method: 'DELETE', url: `/api/auth/cli-tokens/${_id}`, headers: bearer(other.token) });
  t.equal(foreign.statusCode, 404, "another user's token is not found");
  const revoked = await app.inject({ method: 'DELETE', url: `/api/auth/cli-tokens/${_id}`, headers: bearer(s.token) });
  t.equal(revoked.statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode, 401, 'a revoked token stops working at once');
  const otherOrg = await app.inject({ method: 'GET', url: '/api/auth/quota', headers: { ...bearer(s.token), 'x-org-id': other.orgId } });
  t.equal(otherOrg.statusCode, 404, "x-org-id of another organization: 404");
});

t.test('account deletion: pending request, one at a time, cancelled by the emailed token', async (t) => {
  const mailbox = await startMailbox(t);
  const { app } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const s = await register(app);
  const res = await app.inject({ method: 'POST', url: '/api/auth/request-deletion', headers: bearer(s.token) });
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'pending');
  t.ok(new Date(res.json().scheduledFor).getTime() > Date.now() + 13 * 24 * 3600 * 1000, 'after the grace period');
  const twice = await app.inject({ method: 'POST', url: '/api/auth/request-deletion', headers: bearer(s.token) });
  t.equal(twice.statusCode, 409, 'one pending request at a time');
  const token = mailText((await mailbox.next()).raw).match(/Cancellation token: (del_[\w-]+)/)?.[1];
  t.ok(token, 'the email carries a cancellation token');
  const bad = await app.inject({ method: 'POST', url: '/api/auth/cancel-deletion', payload: { token: 'del_forged' } });
  t.equal(bad.statusCode, 400, 'a forged cancellation token is refused');
  const cancel = await app.inject({ method: 'POST', url: '/api/auth/cancel-deletion', payload: { token } });
  t.equal(cancel.statusCode, 200);
  const status = await app.inject({ method: 'GET', url: '/api/auth/deletion-status', headers: bearer(s.token) });
  t.equal(status.json().status, 'cancelled');
  const reuse = await app.inject({ method: 'POST', url: '/api/auth/cancel-deletion', payload: { token } });
  t.equal(reuse.statusCode, 400, 'a cancellation token works once');
});

t.test('account deletion: the grace-period job deletes the account and the org it owns alone', async (t) => {
  const { app, ctx } = await buildTestApp(t, { env: { DELETION_GRACE_DAYS: 0 }, runJobs: true });
  const gone = await register(app);
  await app.inject({ method: 'POST', url: '/api/auth/request-deletion', headers: bearer(gone.token) });
  const deadline = Date.now() + 20_000;
  const users = ctx.db.db.collection<{ _id: string }>('users');
  while (Date.now() < deadline && await users.findOne({ _id: gone.userId })) await new Promise((r) => setTimeout(r, 200));
  t.notOk(await users.findOne({ _id: gone.userId }), 'the job deleted the account');
  t.notOk(await ctx.tenancy.org(gone.orgId), 'and the organization it owned alone');
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: gone.email, password: 'correct horse battery' } });
  t.equal(login.statusCode, 401, 'the account can no longer sign in');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(gone.token) })).statusCode, 401, 'its sessions ended');
});
