// Runs the third-party SCIM validator scim2-tester (through its CLI, `scim2 test` of the PyPI
// package scim2-cli) against this service on a loopback port: a throw-away database, an
// Enterprise organization and a SCIM token created through the API, then the validator's
// checks. Prints the figures (checks run / passed / failed) and each failure; exits 1 when
// any check fails, 2 when the CLI is missing.
//   npm run scim-validate            (SCIM2_CLI=/path/to/scim2 when it is not on PATH)
// Installed by `npm run services -- up` (and so `npm test`) into .data/venv beside moto.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ScriptError, withApp } from './app-for-scripts.ts';
import { ROOT } from '../core/loader.ts';

const run = promisify(execFile);

export interface ScimFigures { run: number; passed: number; failed: number; failures: string[]; output: string }

/** The scim2 CLI: SCIM2_CLI, else `scim2` on PATH, else the one `npm run services -- up` installs into .data/venv; null when none exists. */
export async function findScimCli(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.SCIM2_CLI) return existsSync(env.SCIM2_CLI) ? env.SCIM2_CLI : null;
  try {
    const { stdout } = await run('sh', ['-c', 'command -v scim2']);
    if (stdout.trim()) return stdout.trim();
  } catch {
    // not on PATH: the venv `npm run services -- up` installs it into, below
  }
  const installed = path.join(env.DRIFT_DATA_DIR ?? path.join(ROOT, '.data'), 'venv', 'bin', 'scim2');
  return existsSync(installed) ? installed : null;
}

/** Reads `scim2 test` output: one line per check, its status first (SUCCESS / ERROR / CRITICAL / SKIPPED). */
export function parseFigures(output: string): ScimFigures {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const checks = lines.filter((l) => /^(SUCCESS|ERROR|CRITICAL|WARNING|SKIPPED)\b/.test(l));
  const failures = checks.filter((l) => /^(ERROR|CRITICAL)\b/.test(l));
  const passed = checks.filter((l) => /^SUCCESS\b/.test(l)).length;
  return { run: passed + failures.length, passed, failed: failures.length, failures, output };
}

/** Starts the service, provisions an Enterprise organization and a SCIM token, runs the validator. */
export async function validateScim(cli: string, env: NodeJS.ProcessEnv = process.env): Promise<ScimFigures> {
  const db = `scim_validate_${process.pid}_${Date.now()}`;
  return withApp(async ({ app, ctx }) => {
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `scim-validate-${process.pid}@example.test`, password: 'scim validator password' } });
      if (reg.statusCode !== 201) throw new ScriptError(`register: ${reg.statusCode} ${reg.body}`);
      const token = reg.json().token as string;
      const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
      const orgId = me.json().defaultOrgId as string;
      await ctx.tenancy.setPlan(orgId, 'enterprise');
      const created = await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: { authorization: `Bearer ${token}`, 'x-org-id': orgId }, payload: { label: 'scim2-tester' } });
      if (created.statusCode !== 201) throw new ScriptError(`SCIM token: ${created.statusCode} ${created.body}`);
      const cliEnv = { ...process.env, SCIM_CLI_HEADERS: `Authorization: Bearer ${created.json().token}`, NO_COLOR: '1' };
      let output: string;
      try {
        const res = await run(cli, ['--url', `http://127.0.0.1:${port}/api/scim/v2`, 'test', '--verbose'], { env: cliEnv, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
        output = `${res.stdout}\n${res.stderr}`;
      } catch (err) {
        // The CLI exits non-zero when checks fail; its output is still the report.
        const e = err as { stdout?: string; stderr?: string };
        output = `${e.stdout ?? ''}\n${e.stderr ?? ''}`;
      }
      return parseFigures(output);
    } finally {
      await ctx.db.db.dropDatabase();
    }
  }, { env, operator: { plugins: {} }, overrides: { MONGODB_DB: db, REDIS_KEY_PREFIX: `${db}:`, LOG_LEVEL: 'silent', MAIL_OUTBOX_DIR: `.data/outbox/${db}` } });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = await findScimCli();
  if (!cli) {
    console.error('scim2 CLI not found: pip install scim2-tester scim2-cli (in a venv), then set SCIM2_CLI or put it on PATH');
    process.exit(2);
  }
  const figures = await validateScim(cli);
  if (process.env.SCIM_VALIDATE_VERBOSE) console.log(figures.output);
  for (const f of figures.failures) console.log(f);
  console.log(`scim2-tester: ${figures.run} checks run, ${figures.passed} passed, ${figures.failed} failed`);
  process.exit(figures.failed || !figures.run ? 1 : 0);
}
