// The operator CLI as operators run it: a separate process on the same database and Redis as
// an app built here, so what it writes (and the cache invalidations it publishes) must reach
// a running server.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT } from '../../core/loader.ts';
import { bearer, buildTestApp, register, serviceUrls, TEST_SECRETS, uniqueEmail } from '../helper.ts';

const name = `t_ops_cli_${randomBytes(3).toString('hex')}`;
const tmp = mkdtempSync(join(tmpdir(), 'drift-ops-'));
t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
const outboxDir = join(tmp, 'outbox');
const { mongoUri, redisUrl } = serviceUrls();
const env: Partial<Record<string, string>> = {
  MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`,
  NODE_ENV: 'test', MAIL_OUTBOX_DIR: outboxDir,
  // No operator file: every plugin enabled at its manifest tier, whatever this checkout's file says.
  DRIFT_CONFIG: join(tmp, 'absent.json'),
  ...TEST_SECRETS,
};

interface Run { code: number | null; stdout: string; stderr: string }

function ops(args: string[], extraEnv: Record<string, string> = {}, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/ops.ts', ...args], {
      cwd: ROOT, env: { ...process.env, ...env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d; });
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const noStack = (t: Test, r: Run) => t.notMatch(r.stderr, /\n\s+at /, 'no stack trace on stderr');

/** Polls until check() holds: invalidations arrive over Redis pub/sub, a moment after the CLI exits. */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

t.test('usage', async (t) => {
  const [none, unknown, missing] = await Promise.all([ops([]), ops(['frobnicate']), ops(['set-plan', 'only-one-argument'])]);
  t.equal(none.code, 2, 'no command exits 2');
  t.match(none.stderr, /usage: npm run ops -- <command>/, 'and prints the usage on stderr');
  t.equal(none.stdout, '', 'nothing on stdout');

  t.equal(unknown.code, 2, 'an unknown command exits 2');
  t.match(unknown.stderr, /unknown command "frobnicate"/);

  t.equal(missing.code, 2, 'a command with missing arguments exits 2');
  t.match(missing.stderr, /usage: npm run ops -- set-plan <orgId> <free\|pro\|team\|enterprise>/);
});

t.test('plugins', async (t) => {
  const typoFile = join(tmp, 'typo.json');
  writeFileSync(typoFile, JSON.stringify({ plugins: { auht: { enabled: true } } }));
  const brokenFile = join(tmp, 'broken.json');
  writeFileSync(brokenFile, '{ plugins: ');
  const [r, typo, bad] = await Promise.all([ops(['plugins']), ops(['plugins'], { DRIFT_CONFIG: typoFile }), ops(['plugins'], { DRIFT_CONFIG: brokenFile })]);
  t.equal(r.code, 0, 'exits 0');
  const lines = r.stdout.trimEnd().split('\n');
  t.match(lines[0], /^PLUGIN\s+ENABLED\s+PLAN\s+ROUTES/, 'a header names the columns');
  t.match(r.stdout, /^auth\s+yes\s+free \(default\)\s+\d+\s+required$/m, 'auth is listed: enabled, free tier, route count');
  const columns = ['ENABLED', 'PLAN', 'ROUTES'].map((h) => lines[0].indexOf(h));
  const rows = lines.slice(1, -1);
  t.ok(rows.every((l) => columns.every((c) => l[c - 1] === ' ' && l[c] !== ' ')), 'every row starts each column under its header');

  t.equal(typo.code, 1, 'a config naming an unknown plugin exits 1');
  t.match(typo.stderr, /unknown plugin "auht"; did you mean "auth"\?/, 'with the config error and a hint');
  noStack(t, typo);

  t.equal(bad.code, 1, 'an operator file that is not JSON exits 1');
  t.match(bad.stderr, /is not valid JSON/);
  noStack(t, bad);
});

t.test('create-admin, set-plan and outbox against a running app', async (t) => {
  const built = await buildTestApp(t, { env: { MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`, MAIL_OUTBOX_DIR: outboxDir } });
  const { app, ctx } = built;
  const email = uniqueEmail('admin');
  const password = 'admin password 1';

  await t.test('create-admin creates a platform admin who can sign in', async (t) => {
    const r = await ops(['create-admin', email.toUpperCase(), password, 'Ada Admin']);
    t.equal(r.code, 0, 'exits 0');
    const m = /^Created platform admin (\S+): user (\w+), organization (\w+)$/.exec(r.stdout.trim());
    t.ok(m, 'one line with the user id and the organization id');
    t.equal(m?.[1], email, 'the email is normalized as registration does');

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    t.equal(login.statusCode, 200, 'the admin signs in with the password given');
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(login.json().token) });
    t.match(me.json(), { id: m?.[2], email, name: 'Ada Admin', role: 'admin', defaultOrgId: m?.[3] }, '/me shows role admin and the default organization');
    const org = await ctx.tenancy.org(m![3]);
    t.match(org, { plan: 'free', ownerId: m?.[2] }, 'the default organization exists, owned by the admin');

    // The platform trail (orgId null) by action, on its declared index; then this admin's entries.
    const platformTrail = async () => (await ctx.db.db.collection('audit_logs').find({ orgId: null, action: { $in: ['ops.admin_created', 'ops.admin_promoted'] } }).toArray())
      .filter((e) => e.resourceId === m?.[2]);
    const trail = await platformTrail();
    t.match(trail, [{ orgId: null, action: 'ops.admin_created', actorKind: 'operator', route: 'ops create-admin', details: { email } }], 'the operator action is in the platform trail');

    const again = await ops(['create-admin', email, password]);
    t.equal(again.code, 0, 'running it again exits 0');
    t.match(again.stdout, /already a platform admin/, 'and says so');
    t.equal((await platformTrail()).length, 1, 'a run that changed nothing adds no entry');
  });

  await t.test('create-admin promotes an existing user, and a running app sees it', async (t) => {
    const user = await register(app);
    const before = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(user.token) });
    t.equal(before.json().role, 'user', 'a registered user (now cached by the app)');
    const r = await ops(['create-admin', user.email, 'some other password']);
    t.equal(r.code, 0, 'exits 0');
    t.match(r.stdout, new RegExp(`Promoted existing user .*user ${user.userId}, organization ${user.orgId}`), 'says the user was promoted');
    const seen = await eventually(async () => {
      const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(user.token) });
      return me.json().role === 'admin';
    });
    t.ok(seen, 'the running app drops its cached user and shows role admin');
    const promoted = (await ctx.db.db.collection('audit_logs').find({ orgId: null, action: 'ops.admin_promoted' }).toArray()).find((e) => e.resourceId === user.userId);
    t.match(promoted, { orgId: null, actorKind: 'operator' }, 'the promotion is audited');
    const old = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'correct horse battery' } });
    t.equal(old.statusCode, 200, 'the password is unchanged');
  });

  await t.test('create-admin refuses bad input as registration does', async (t) => {
    const [short, notEmail] = await Promise.all([ops(['create-admin', uniqueEmail(), 'short']), ops(['create-admin', 'not-an-email', 'long enough password'])]);
    t.equal(short.code, 2, 'a password under 8 characters exits 2');
    t.match(short.stderr, /password/);
    noStack(t, short);
    t.equal(notEmail.code, 2, 'an invalid email exits 2');
    t.match(notEmail.stderr, /email/);
  });

  await t.test('create-admin reads the password from stdin with "-"', async (t) => {
    const other = uniqueEmail('stdin');
    const r = await ops(['create-admin', other, '-'], {}, 'piped password\n');
    t.equal(r.code, 0, 'exits 0');
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: other, password: 'piped password' } });
    t.equal(login.statusCode, 200, 'the piped password (without its newline) signs in');
  });

  await t.test('set-plan', async (t) => {
    const owner = await register(app);
    t.equal((await ctx.tenancy.org(owner.orgId))?.plan, 'free', 'the app has the organization cached on free');

    const [bad, unknown] = await Promise.all([ops(['set-plan', owner.orgId, 'gold']), ops(['set-plan', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'pro'])]);
    t.equal(bad.code, 2, 'an unknown plan exits 2');
    t.match(bad.stderr, /unknown plan "gold"; valid plans: free, pro, team, enterprise/, 'and lists the valid plans');

    t.equal(unknown.code, 1, 'an unknown organization exits 1');
    t.match(unknown.stderr, /organization aaaaaaaaaaaaaaaaaaaaaaaa not found/);
    noStack(t, unknown);

    const ok = await ops(['set-plan', owner.orgId, 'team']);
    t.equal(ok.code, 0, 'a valid change exits 0');
    t.match(ok.stdout, /plan free -> team/, 'and says what changed');
    const stored = await ctx.tenancy.findOrg(owner.orgId);
    t.equal(stored?.plan, 'team', 'the stored organization has the new plan');
    t.ok(await eventually(async () => (await ctx.tenancy.org(owner.orgId))?.plan === 'team'), 'the running app drops its cached organization');
    const quota = await app.inject({ method: 'GET', url: '/api/auth/quota', headers: bearer(owner.token) });
    t.equal(quota.json().plan, 'team', 'and answers with the new plan');
    // The same path as payment-provider events (core/tenancy/plan-change.ts): audited as a plan change.
    const entries = await ctx.audit.query({ orgId: owner.orgId, action: 'billing.plan_changed' }, { page: 1, limit: 10 });
    t.equal(entries.total, 1, 'one billing.plan_changed entry');
    t.match(entries.entries[0].details, { from: 'free', to: 'team', cause: 'ops.set-plan' }, 'with from, to and cause');
  });

  await t.test('outbox lists the mail the app wrote and prints one decoded', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    t.equal(res.statusCode, 200, 'the app sends a reset mail to the outbox');
    const [empty, list, one, none, nan] = await Promise.all([
      ops(['outbox'], { MAIL_OUTBOX_DIR: join(tmp, 'nothing-here') }), ops(['outbox']), ops(['outbox', '1']), ops(['outbox', '9']), ops(['outbox', 'latest']),
    ]);
    t.equal(empty.code, 0, 'an empty outbox exits 0');
    t.match(empty.stdout, /No mail in/);
    t.equal(list.code, 0, 'outbox exits 0');
    t.match(list.stdout, new RegExp(`^1  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ${email.replace(/[.+]/g, '\\$&')}  Reset your password$`, 'm'), 'one line per mail: number, date, recipient, subject');

    t.equal(one.code, 0, 'outbox 1 exits 0');
    t.match(one.stdout, /^Subject: Reset your password$/m, 'prints the headers');
    t.match(one.stdout, /reset-password\?token=rst_\S+/, 'and the text with the link whole (quoted-printable decoded)');

    t.equal(none.code, 1, 'a message number out of range exits 1');
    t.equal(nan.code, 2, 'a message "number" that is not one exits 2');
  });
});
