// Issue 32 point 9: the claims a user's own credentials carry (CLI tokens, download tokens,
// invitation tokens, the service key, a payment-provider event) played by an attacker from
// another organization. Each case also runs the legitimate call, so a check that refused
// everything would fail here. docs/security.md cites these tests by name.
import t from 'tap';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { buildTestApp, register, bearer, startMailbox, mailText, uniqueEmail, TEST_SECRETS, type Session } from '../helper.ts';
import type { App } from '../../core/app.ts';
import { checkoutSession, deliver, event, PRICE, planChanges, signed } from '../plugins/billing/helper.ts';

type Inject = App['app']['inject'];
const code = (res: { json(): { error?: { code?: string } } }) => res.json().error?.code;

/** Joins `who` to `org` with `role` through a link invitation its owner makes. */
async function join(app: App['app'], owner: Session, who: Session, role = 'member') {
  const link = (await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: { role } })).json().link as string;
  const token = new URL(link).searchParams.get('token')!;
  const res = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(who.token), payload: { token } });
  if (res.statusCode !== 200) throw new Error(`join: ${res.body}`);
}

async function cliToken(inject: Inject, s: Session, orgId: string, scopes: string[]) {
  const res = await inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: { ...bearer(s.token), 'x-org-id': orgId }, payload: { name: 'ci', scopes, allRepositories: true } });
  if (res.statusCode !== 201) throw new Error(`cli token: ${res.body}`);
  return res.json().token as string;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
function sign(token: string, method: string, path: string) {
  const ts = Date.now(); const nonce = randomUUID();
  return { 'x-cli-signature': createHmac('sha256', token).update(`${ts}:${nonce}:${method}:${path}:${sha('')}`).digest('hex'), 'x-cli-timestamp': String(ts), 'x-cli-nonce': nonce };
}

t.test("CLI token: org B's token never reaches org A, even held by a member of both", async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const a = await register(app);
  const b = await register(app);
  for (const s of [a, b]) await ctx.tenancy.setPlan(s.orgId, 'team');
  const configA = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(a.token), payload: { repositoryName: 'a/infra', branch: 'main', provider: 'cloud_a' } })).json().data._id;
  // b is also an admin of org A: its session reaches A, its org-B token must not.
  await join(app, a, b, 'admin');
  const scopes = ['repos:read', 'repos:write', 'scans:read', 'scans:trigger', 'drifts:read'];
  const tokenB = await cliToken(app.inject.bind(app), b, b.orgId, scopes);
  const asB = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') => app.inject({ method, url, headers: { ...bearer(tokenB), ...headers } });

  t.equal((await app.inject({ method: 'GET', url: `/api/repo-configs/${configA}`, headers: { ...bearer(b.token), 'x-org-id': a.orgId } })).statusCode, 200, "control: b's session reaches org A's config");
  t.equal((await asB('/api/repo-configs')).statusCode, 200, "control: the token works in its own organization");
  const cases: [string, string, Record<string, string>, 'GET' | 'POST'][] = [
    ['x-org-id of org A', '/api/repo-configs', { 'x-org-id': a.orgId }, 'GET'],
    ["org A's id in the path", `/api/orgs/${a.orgId}`, {}, 'GET'],
    ["org A's config by id", `/api/repo-configs/${configA}`, {}, 'GET'],
    ["org A's config by id, x-org-id A", `/api/repo-configs/${configA}`, { 'x-org-id': a.orgId }, 'GET'],
    ["a scan of org A's config", `/api/scans/trigger/${configA}`, { 'x-org-id': a.orgId }, 'POST'],
    ['x-org-id of org A, correctly signed', '/api/repo-configs', { 'x-org-id': a.orgId, ...sign(tokenB, 'GET', '/api/repo-configs') }, 'GET'],
  ];
  for (const [what, url, headers, method] of cases) {
    const res = await asB(url, headers, method);
    t.equal(res.statusCode, 404, `${what}: 404`);
  }
  t.same((await asB('/api/repo-configs')).json().data.map((c: { _id: string }) => c._id), [], "org B's list holds nothing of org A");
  t.equal((await app.inject({ method: 'GET', url: '/api/scans', headers: bearer(a.token) })).json().data.length, 0, 'no scan was started in org A');

  // A token made for org A dies with the membership that made it.
  const tokenBinA = await cliToken(app.inject.bind(app), b, a.orgId, scopes);
  t.equal((await app.inject({ method: 'GET', url: '/api/repo-configs', headers: bearer(tokenBinA) })).statusCode, 200, 'control: a token made in org A works there');
  t.equal((await app.inject({ method: 'DELETE', url: `/api/orgs/${a.orgId}/members/${b.userId}`, headers: bearer(a.token) })).statusCode, 204, 'b removed from org A');
  t.equal((await app.inject({ method: 'GET', url: '/api/repo-configs', headers: bearer(tokenBinA) })).statusCode, 404, 'its org-A token: 404 at once');
});

t.test('CLI token scopes never exceed the role: a viewer\'s token with scans:trigger cannot trigger', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const a = await register(app);
  const v = await register(app);
  await ctx.tenancy.setPlan(a.orgId, 'team');
  const configA = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(a.token), payload: { repositoryName: 'a/infra', branch: 'main', provider: 'cloud_a' } })).json().data._id;
  await join(app, a, v, 'viewer');
  const token = await cliToken(app.inject.bind(app), v, a.orgId, ['scans:read', 'scans:trigger']);
  const res = await app.inject({ method: 'POST', url: `/api/scans/trigger/${configA}`, headers: bearer(token) });
  t.equal(res.statusCode, 403, "the viewer's token: 403");
  t.equal(code(res), 'permission_denied');
  t.equal((await app.inject({ method: 'GET', url: '/api/scans', headers: bearer(token) })).statusCode, 200, 'control: the read scope its role holds works');
});

t.test("download token: org B's user cannot export org A's drifts", async (t) => {
  const { app } = await buildTestApp(t);
  const a = await register(app);
  const b = await register(app);
  const dl = async (s: Session) => (await app.inject({ method: 'POST', url: '/api/auth/download-token', headers: bearer(s.token) })).json().token as string;
  const exportAs = async (token: string, orgId?: string) => app.inject({ method: 'GET', url: `/api/drifts/export?token=${encodeURIComponent(token)}`, headers: orgId ? { 'x-org-id': orgId } : {} });
  t.equal((await exportAs(await dl(a), a.orgId)).statusCode, 200, "control: org A's own download token exports org A");
  const theirs = await exportAs(await dl(b), a.orgId);
  t.equal(theirs.statusCode, 404, "org B's download token naming org A: 404");
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(await dl(b)) })).statusCode, 401, 'and it is no bearer token anywhere else');
});

t.test('invitation: a token for org A is spent only by the invited address, not by a signed-in user of org B', async (t) => {
  const mailbox = await startMailbox(t);
  const { app, ctx } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const a = await register(app);
  const email = uniqueEmail('invitee');
  t.equal((await app.inject({ method: 'POST', url: `/api/orgs/${a.orgId}/invitations/email`, headers: bearer(a.token), payload: { email, role: 'admin' } })).statusCode, 201);
  const token = mailText((await mailbox.next()).raw).match(/Invitation token: (inv_[\w-]+)/)![1];
  // The attacker owns org B and got hold of the token (a forwarded mail, a shared screen).
  const attacker = await register(app);
  const res = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(attacker.token), payload: { token } });
  t.equal(res.statusCode, 403, "org B's owner: 403");
  t.equal(code(res), 'orgs.invitation_email_mismatch');
  t.equal(await ctx.tenancy.findMembership(a.orgId, attacker.userId), null, 'not a member of org A');
  const invitee = await register(app, email);
  t.equal((await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(invitee.token), payload: { token } })).statusCode, 200, 'control: the invited address accepts it (the refusal did not spend it)');
});

t.test('service key and service tokens: only the deployment\'s own key mints one', async (t) => {
  const { app } = await buildTestApp(t);
  const a = await register(app);
  const mint = (key: string) => app.inject({ method: 'POST', url: '/api/auth/service-token', headers: { 'x-service-key': key } });
  t.equal((await mint('another-deployment-key-0123456789')).statusCode, 401, 'another deployment\'s key: 401');
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/service-token', headers: bearer(a.token) })).statusCode, 401, "a user's session instead of the key: 401");
  // A service JWT forged with another secret (the typ claim is not enough).
  const forged = createSigner({ key: 'not-this-deployments-secret-0123456789', algorithm: 'HS256' })({ sub: 'service', typ: 'service' });
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${a.orgId}`, headers: { ...bearer(forged), 'x-org-id': a.orgId } })).statusCode, 401, 'a forged service JWT: 401');
  const real = (await mint(TEST_SECRETS.SERVICE_KEY)).json().token as string;
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${a.orgId}`, headers: { ...bearer(real), 'x-org-id': a.orgId } })).statusCode, 200, 'control: the real key\'s token reaches the organization it names');
  const asUser = await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: { ...bearer(real), 'x-org-id': a.orgId }, payload: { name: 'x', scopes: ['repos:read'] } });
  t.equal(asUser.statusCode, 401, 'a service token is no user session: it cannot mint CLI tokens in anyone\'s name');
});

t.test("payment provider: an event naming org A's customer, forged or replayed, changes nothing", async (t) => {
  const b = await buildTestApp(t);
  const a = await register(b.app);
  const session = checkoutSession({ orgId: a.orgId, price: PRICE.pro });
  const genuine = signed(event('checkout.session.completed', session));
  t.equal((await deliver(b.app, genuine.body, genuine.header)).statusCode, 200, 'control: the genuine checkout');
  // org B's owner forges an upgrade of org A (or of its own org through A's customer) with a secret of their own.
  const forged = signed(event('customer.subscription.updated', {
    id: session.subscription, object: 'subscription', customer: session.customer, status: 'active', metadata: { orgId: a.orgId },
    items: { object: 'list', data: [{ id: 'si_x', object: 'subscription_item', price: { id: PRICE.enterprise, object: 'price' }, current_period_end: Math.floor(Date.now() / 1000) + 86_400 }] },
  }), { secret: 'whsec_attackers_own_0000000000' });
  const res = await deliver(b.app, forged.body, forged.header);
  t.equal(res.statusCode, 400, 'signed with another secret: 400');
  t.equal(res.json().error?.message, 'Invalid signature');
  t.equal((await deliver(b.app, genuine.body, genuine.header)).statusCode, 200, 'the genuine event replayed: acknowledged');
  const changes = await planChanges(b, a.orgId);
  t.same(changes.map((c) => c.details.to), ['pro'], 'one plan change: the genuine one, once');
});

t.test("password: org B's owner cannot take org A's admin account through sign-in, sign-up or reset", async (t) => {
  const mailbox = await startMailbox(t);
  const { app } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const victim = await register(app, uniqueEmail('victim'), 'victim password 1');
  const attacker = await register(app);
  const login = (email: string, password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const wrong = await login(victim.email, 'guessed password');
  t.equal(wrong.statusCode, 401, 'a guessed password: 401');
  t.same(wrong.json(), (await login(uniqueEmail(), 'guessed password')).json(), 'the same answer as an unknown email');
  const again = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: victim.email.toUpperCase(), password: 'attacker password' } });
  t.equal(again.statusCode, 409, "signing up with the victim's email in another case: 409");
  // The attacker asks a reset for the victim (the mail goes to the victim) and for itself.
  await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: victim.email } });
  await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: attacker.email } });
  t.same(mailbox.messages.map((m) => m.to), [[victim.email], [attacker.email]], "the victim's reset link goes to the victim's address only");
  const own = mailText(mailbox.messages[1].raw).match(/Token: (rst_[\w-]+)/)![1];
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: own, password: 'attacker set this' } })).statusCode, 200, "the attacker's own token resets…");
  t.equal((await login(victim.email, 'attacker set this')).statusCode, 401, "…the attacker's account, never the victim's");
  t.equal((await login(victim.email, 'victim password 1')).statusCode, 200, "the victim's password is unchanged");
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(victim.token) })).statusCode, 200, "and the victim's session lives");
});
