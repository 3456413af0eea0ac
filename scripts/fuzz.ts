// `npm run fuzz`: schemathesis over the operations of the OpenAPI document the service serves
// (one bucket of them a day, every one on Sundays or with CI_FULL=1: lib/rotation.ts), as a fresh user whose organization is on the Team plan (so the Enterprise-only
// operations check their plan gate), then over the Enterprise-only operations again as the
// owner of an Enterprise organization (past the gate: webhooks, SSO, SCIM management, and the
// SCIM protocol with that organization's SCIM token). Fails (exit 1) on any 5xx or response
// that breaks the documented schema. Bounded: a few minutes on 2 cores.
//
// The service runs in this process on a free loopback port with a database and Redis key
// prefix of its own (dropped at the end), so runs never collide with each other or with tests.
// Routes that end the session or delete the user/organization would cut every later request
// off (a first attempt logged itself out after 3 s); they are left out of the main run and
// each fuzzed last, alone, with a user of its own.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { AppContext } from '../core/context.ts';
import { ensureServices } from './services.ts';
import { ensureSchemathesis } from './fuzz/venv.ts';
import { readJson, readJunit, summarize, type RunResult } from './fuzz/report.ts';
import { enterpriseCaller, enterpriseRun, gateErrors, gateOnlyToml, type DocOp } from './fuzz/enterprise.ts';
import { routeSample } from '../lib/rotation.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DATA = join(ROOT, '.data');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[`FUZZ_${name.toUpperCase().replace(/-/g, '_')}`] ?? dflt;

const MAX_EXAMPLES = Number(opt('max-examples', '25'));
// The Enterprise pass (32 operations, the SCIM ones with large schemas and a stateful phase that
// chains them) with fewer cases each, so the whole run stays within its minutes.
const ENTERPRISE_MAX_EXAMPLES = Number(opt('enterprise-max-examples', '15'));
const SEED = opt('seed', '');
const WORKERS = opt('workers', '2');
// A hard stop for each schemathesis run (seconds), on top of its own bounds: a run that hangs
// fails CI. 480, not 270: on a slow day the main pass alone neared 270 s on this 2-CPU machine.
const TIMEOUT = Number(opt('timeout', '480'));
// Sent with the bearer token: a 5xx or a schema violation fails the run. status_code and
// content_type conformance are on too: every operation documents each status it answers, one
// entry each, no range: those its manifest's guards derive (core/openapi-errors.ts: 400, 401,
// 403, 404, 413, 415, 429, 503...) and those its handler raises (the entry's `raises`), so they
// flag what the document truly lacks (a 409 not declared, a 200 not listed, a 502).
const CHECKS = opt('checks', 'not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance');

// operationIds that revoke the caller's token or delete the caller's user/organization
// (manifests/auth.ts, manifests/orgs.ts).
const SESSION_ENDING = ['logout', 'requestDeletion', 'deleteOrganization'];
// Named rate limits counted per user or per organization (x-rate-limit in the document): one
// shared user would spend them in seconds and then only ever see 429, so each such operation
// is called as a user (and organization) of its own. The per-IP `auth` limit cannot be spread.
const PER_CALLER_LIMITS = ['credentials', 'strict', 'scan'];
// Audit-log reads filter a collection every fuzzed write adds to (about 1 s a request on the
// embedded FerretDB by the end): fewer fuzzing cases keep the run within its minutes.
const SLOW = ['listAuditTrail', 'listOrgAuditLogs', 'exportOrgAuditLogs'];
const SLOW_MAX_EXAMPLES = 8;

const log = (line: string) => console.error(line);

interface Account { token: string; userId: string; orgId: string; email: string }

async function main(): Promise<number> {
  const t0 = Date.now();
  const st = ensureSchemathesis(join(DATA, 'fuzz-venv'), log);
  const services = await ensureServices({ log: (l) => { if (!/already running|external/.test(l)) log(l); } });
  process.env.MONGODB_URI ||= services.mongoUri;
  process.env.REDIS_URL ||= services.redisUrl;

  const run = `fuzz_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dir = join(DATA, 'fuzz', run);
  mkdirSync(dir, { recursive: true });
  // Imported after the URLs are set, as scripts/start.ts does.
  const { loadConfig } = await import('../core/config.ts');
  const { buildApp } = await import('../core/app.ts');
  const config = loadConfig(process.env, {
    MONGODB_DB: run, REDIS_KEY_PREFIX: `${run}:`, NODE_ENV: 'production', LOG_LEVEL: 'error',
    JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // Set so the service-key route is live (and refuses the fuzzer's made-up keys).
    SERVICE_KEY: randomBytes(24).toString('hex'), ACCESS_TOKEN_TTL: 3600,
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    // Billing configured against stripe-mock, so its routes answer as in production rather
    // than 503 "Billing is not configured" (a 5xx the fuzzer would count as a server error).
    STRIPE_SECRET_KEY: 'sk_test_fuzz', STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}`,
    STRIPE_PRICE_PRO: 'price_fuzz_pro', STRIPE_PRICE_TEAM: 'price_fuzz_team', STRIPE_PRICE_ENTERPRISE: 'price_fuzz_enterprise',
    STRIPE_API_BASE: services.stripeMockUrl,
    // The tracker configured likewise (503 "not configured" otherwise); its OAuth and API bases
    // point at a closed loopback port, so nothing leaves the machine.
    TRACKER_CLIENT_ID: 'fuzz-client', TRACKER_CLIENT_SECRET: randomBytes(16).toString('hex'),
    TRACKER_AUTH_URL: 'http://127.0.0.1:9', TRACKER_API_URL: 'http://127.0.0.1:9',
    // The source host likewise (503 "Source host … is not configured" otherwise): an OAuth app
    // and a GitHub app whose key is made now, both pointing at the closed port.
    SCM_CLIENT_ID: 'fuzz-client', SCM_CLIENT_SECRET: randomBytes(16).toString('hex'),
    SCM_WEB_URL: 'http://127.0.0.1:9', SCM_API_URL: 'http://127.0.0.1:9',
    SCM_APP_ID: '1', SCM_APP_SLUG: 'fuzz-app',
    SCM_APP_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  config.operator = { plugins: {} }; // every plugin, as in the committed OpenAPI document
  // Errors go to a file: the stack of each 5xx is the first thing a fixer wants.
  const serverLog = join(dir, 'server.log');
  const { app, ctx, services: plugins } = await buildApp({ config, logger: { level: 'error', file: serverLog } })
    .catch(async (e: unknown) => { await services.stop(); throw e; });
  const results: RunResult[] = [];
  let base = '';
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const doc = await readDocument(base);
    // Every account is made now: fuzzing register/login spends the per-IP auth rate limit.
    const user = await account(base, ctx);
    // A platform admin, so the admin routes are fuzzed too rather than answering 403 throughout.
    if (!(await plugins.auth?.accounts.setRole(user.email, 'admin'))) throw new Error('could not make the fuzz user a platform admin');
    const own = new Map<string, Account>();
    for (const id of doc.limited) own.set(id, await account(base, ctx));
    const last = await Promise.all(SESSION_ENDING.map(() => account(base, ctx)));

    // Like the route-walking contract tests, a run fuzzes one bucket of operations (lib/rotation.ts).
    const sample = routeSample();
    log(`fuzz: operations of ${sample.describe}`);
    // The Enterprise owner, made before the main run spends the per-IP auth limit.
    const owner = await account(base, ctx, 'enterprise');
    const ent = enterpriseRun(doc.ops, await enterpriseCaller(base, owner), (id) => sample.takes(id));

    const mainFilter = sample.bucket === null ? SESSION_ENDING.flatMap((id) => ['--exclude-operation-id', id])
      : doc.ops.flatMap(({ operationId: id }) => id && sample.takes(id) && !SESSION_ENDING.includes(id) ? ['--include-operation-id', id] : []);
    const first = await schemathesis(st, base, dir, 'main', user, mainFilter, MAX_EXAMPLES, own, WORKERS, gateOnlyToml(doc.ops));
    // Runner, service-key, download and public routes (a setup link's own token) may answer
    // the user's token with nothing but 401/403. A user or bearer route that does means the
    // session died mid-run (or auth broke): most of the run then tested nothing, so it fails.
    for (const op of first.missingAuth ?? []) if (!doc.foreignAuth.has(op)) first.errors.push(`${op} answered only 401/403 to the fuzz user's token`);
    results.push(first, ...await retryCrashes(first, (filter) => schemathesis(st, base, dir, 'retry', user, filter, MAX_EXAMPLES, own, '1')));
    // The Enterprise-only operations past their plan gate (the main run saw 403 plan_required).
    if (ent.filter.length) {
      const enterprise = await schemathesis(st, base, dir, 'enterprise', owner, ent.filter, ENTERPRISE_MAX_EXAMPLES, new Map(), WORKERS, ent.toml);
      enterprise.errors.push(...gateErrors(doc.ops, enterprise.missingAuth ?? []));
      results.push(enterprise, ...await retryCrashes(enterprise, (filter) => schemathesis(st, base, dir, 'enterprise-retry', owner, filter, ENTERPRISE_MAX_EXAMPLES, new Map(), '1', ent.toml)));
    }
    // Each session-ending route last and alone, with its own user: once it has succeeded,
    // the rest of its cases check the 401s of a dead session.
    for (const [i, id] of SESSION_ENDING.entries()) {
      if (sample.takes(id)) results.push(await schemathesis(st, base, dir, id, last[i], ['--include-operation-id', id], Math.min(MAX_EXAMPLES, 10)));
    }
  } finally {
    await dropRun(ctx, config.REDIS_KEY_PREFIX);
    await app.close();
    await services.stop();
  }
  const summary = summarize(results, base, serverLog);
  console.log(summary.text);
  // The reports (JUnit, JSON, schemathesis' log, server.log) are kept only when they matter.
  if (summary.failed === 0) rmSync(dir, { recursive: true, force: true });
  console.log(`fuzz: ${((Date.now() - t0) / 1000).toFixed(0)}s${summary.failed ? `, reports in ${dir}` : ''}`);
  return summary.failed ? 1 : 0;
}

/**
 * schemathesis' own crashes (hypothesis' source introspection is not thread-safe: "AST
 * constructor recursion depth mismatch" with 2 workers) are not findings: the operations they
 * hit are fuzzed again, alone, on one worker, and only a second crash counts.
 */
async function retryCrashes(first: RunResult, rerun: (filter: string[]) => Promise<RunResult>): Promise<RunResult[]> {
  if (!first.toolErrors.length || first.failures.length) return [];
  const again = await rerun(first.toolErrors.flatMap((op) => ['--include-name', op]));
  if (!again.errors.length && !again.failures.length && again.exitCode === 0) {
    first.errors = first.errors.filter((e) => !first.toolErrors.some((op) => e.startsWith(`${op}: `)));
    first.exitCode = 0;
  }
  return [again];
}

/** From the served document: operationIds under a per-user or per-organization rate limit, and
 * the operations ("METHOD /path") that do not take the user's bearer token (x-auth). */
async function readDocument(base: string): Promise<{ ops: DocOp[]; limited: string[]; foreignAuth: Set<string> }> {
  type Op = Omit<DocOp, 'key'> & { 'x-rate-limit'?: string };
  const doc = await (await fetch(`${base}/docs/json`)).json() as { paths: Record<string, Record<string, Op>> };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, ...op })));
  return {
    ops,
    limited: ops.filter((op) => op.operationId && PER_CALLER_LIMITS.includes(op['x-rate-limit'] ?? '') && op['x-auth'] !== 'none').map((op) => op.operationId!),
    foreignAuth: new Set(ops.filter((op) => op['x-auth'] !== 'user' && op['x-auth'] !== 'bearer').map((op) => op.key)),
  };
}

/** A fresh user through the API, its default organization moved to the plan (Team by default). */
async function account(base: string, ctx: AppContext, plan: 'team' | 'enterprise' = 'team'): Promise<Account> {
  const email = `fuzz-${randomBytes(6).toString('hex')}@example.com`;
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: `fuzz ${randomBytes(9).toString('base64')}` }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { token, user } = await reg.json() as { token: string; user: { id: string } };
  const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  const { defaultOrgId } = await me.json() as { defaultOrgId: string };
  if (!(await ctx.tenancy.setPlan(defaultOrgId, plan))) throw new Error(`set-plan ${defaultOrgId} ${plan} failed`);
  return { token, userId: user.id, orgId: defaultOrgId, email };
}

/** One schemathesis run; its JUnit report is the result (the console output is only shown). */
async function schemathesis(st: string, base: string, dir: string, name: string, acct: Account, filter: string[], maxExamples: number, own = new Map<string, Account>(), workers = WORKERS, extra: string[] = []): Promise<RunResult> {
  const junit = join(dir, `${name}.junit.xml`);
  const json = join(dir, `${name}.json`);
  // The org id every /api/orgs/{orgId} route takes is pinned to the caller's organization:
  // made-up ids only ever reach the 404 of the membership guard.
  const toml = join(dir, `${name}.toml`);
  const header = (a: Account) => `headers = { Authorization = "Bearer ${a.token}" }`;
  writeFileSync(toml, [
    header(acct),
    // No cache carried between runs (it lives in ./.schemathesis): each run starts the same.
    '[cache]', 'enabled = false',
    // In the file, not on the command line: a CLI option would override the per-operation one.
    '[generation]', `max-examples = ${maxExamples}`,
    '[parameters]', `"path.orgId" = "${acct.orgId}"`,
    ...[...own].flatMap(([id, a]) => ['[[operations]]', `include-operation-id = "${id}"`, header(a)]),
    ...SLOW.flatMap((id) => ['[[operations]]', `include-operation-id = "${id}"`, `generation.max-examples = ${Math.min(maxExamples, SLOW_MAX_EXAMPLES)}`]),
    ...extra, '',
  ].join('\n'));
  const argv = [
    '--config-file', toml, 'run', `${base}/docs/json`, '--url', base,
    '--checks', CHECKS, '--workers', workers,
    // Deterministic generation by default: the same code gives the same cases, so a CI
    // failure reproduces locally. `--seed=N` explores other cases by hand.
    ...(SEED ? ['--seed', SEED] : ['--generation-deterministic']),
    '--request-timeout', '20', '--suppress-health-check', 'all', '--no-color',
    '--report', 'junit,json', '--report-junit-path', junit, '--report-json-path', json, ...filter,
  ];
  const out = join(dir, `${name}.log`);
  log(`fuzz: ${name}: schemathesis ${argv.join(' ')}`);
  const code = await new Promise<number>((resolve, reject) => {
    // Run in the run's folder so nothing it writes lands in the checkout.
    const child = spawn(st, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCHEMATHESIS_HOOKS: '' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => { log(`fuzz: ${name}: stopped after ${TIMEOUT}s`); child.kill('SIGINT'); }, TIMEOUT * 1000);
    child.on('error', reject);
    child.on('close', (c) => { clearTimeout(timer); writeFileSync(out, Buffer.concat(chunks)); resolve(c ?? 1); });
  });
  return { name, exitCode: code, ...readJson(json), ...readJunit(junit) };
}

/** Drops the run's database and Redis keys (as test/helper.ts does for a test file). */
async function dropRun(ctx: AppContext, prefix: string): Promise<void> {
  await ctx.db.db.dropDatabase().catch(() => undefined);
  const keys = await ctx.redis.main.keys('*').catch(() => [] as string[]);
  // keys() returns them with the prefix; del() would add it again.
  if (keys.length) await ctx.redis.main.del(...keys.map((k) => k.slice(prefix.length))).catch(() => 0);
}

process.exit(await main().catch((e: unknown) => { console.error(`fuzz: ${e instanceof Error ? e.stack : String(e)}`); return 2; }));
