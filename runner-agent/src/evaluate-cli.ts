// drift-runner evaluate --plan plan.json --repository <id> --url <api> --token <ci_...> [--json]
// For CI pipelines, between `terraform plan -out` and `apply`: sends the plan (the JSON of
// `terraform show -json` / `tofu show -json`) to POST /api/guardrails/evaluate and prints what
// the guardrails deployed to the repository say. Exit status: 0 allowed (warnings included),
// 1 blocked, 2 pending approval, 3 bad usage, unreadable plan or a refused request.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { VERSION } from './api.ts';

export const EVALUATE_USAGE = `Usage: drift-runner evaluate --plan <plan.json> --repository <repository config id> [options]
  --plan FILE          the JSON of \`terraform show -json tfplan\` (or tofu show -json)
  --repository ID      the repository config the guardrails are deployed to
  --url URL            DRIFT_API_URL     the drift API, e.g. https://drift.example.com
  --token TOKEN        DRIFT_CLI_TOKEN   a CLI token (ci_...) with the scans:trigger scope
  --json               print the service's answer as JSON
Exit status: 0 allowed, 1 blocked, 2 pending approval, 3 error.`;

interface Violation { address: string; path: string; operator: string; expected?: unknown; actual: unknown; action: string }
interface Result { name: string; enforcement: string; decision: string; violationCount: number; violations: Violation[]; unknownCount: number }
export interface Evaluation { _id: string; decision: 'allowed' | 'blocked' | 'pending'; approvalId: string | null; resourceChanges: number; evaluated: number; results: Result[] }

const EXIT = { allowed: 0, blocked: 1, pending: 2 } as const;
const ERROR = 3;
/** Violations printed per guardrail; --json has the (server-bounded) whole list. */
const SHOWN = 20;

/**
 * Only what the evaluation reads: a plan's prior state, configuration and `before` values
 * often make up most of its size, and the rest of it never needs to leave the pipeline.
 */
export function slimPlan(plan: { format_version?: unknown; resource_changes?: unknown }) {
  const changes = Array.isArray(plan.resource_changes) ? plan.resource_changes : [];
  return {
    format_version: plan.format_version,
    resource_changes: changes.map((rc: Record<string, any>) => ({
      address: rc.address, type: rc.type, mode: rc.mode, name: rc.name, module_address: rc.module_address, index: rc.index,
      change: { actions: rc.change?.actions, after: rc.change?.after, after_unknown: rc.change?.after_unknown, after_sensitive: rc.change?.after_sensitive },
    })),
  };
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? 'unknown');

export function describe(e: Evaluation, repository: string): string {
  const lines = [`Guardrails for repository ${repository}: ${e.decision.toUpperCase()} (${e.results.length} guardrail(s); ${e.evaluated} of ${e.resourceChanges} resource changes create, update or replace)`];
  for (const r of e.results) {
    const mark = r.violationCount === 0 ? 'ok  ' : r.decision === 'blocked' ? 'FAIL' : r.decision === 'pending' ? 'HOLD' : r.enforcement === 'dry_run' ? 'dry ' : 'warn';
    const what = r.violationCount === 0 ? 'no violation' : `${r.violationCount} violation(s)${r.enforcement === 'dry_run' ? ', dry run: recorded only' : r.enforcement === 'warn' ? ', warning' : ''}`;
    lines.push(`  [${mark}] ${r.name} (${r.enforcement}): ${what}`);
    for (const v of r.violations.slice(0, SHOWN)) {
      const rule = v.expected === undefined ? v.operator : `${v.operator} ${show(v.expected)}`;
      lines.push(`         ${v.address} (${v.action})  ${v.path} = ${show(v.actual)}, expected ${rule}`);
    }
    if (r.violationCount > SHOWN) lines.push(`         ... and ${r.violationCount - SHOWN} more`);
    if (r.unknownCount) lines.push(`         ${r.unknownCount} value(s) known only after apply could not be checked`);
  }
  if (e.decision === 'pending') lines.push(`Approval required: evaluation ${e.approvalId}; another member approves it with POST /api/guardrails/evaluations/${e.approvalId}/approve`);
  if (e.decision === 'blocked') lines.push(`Blocked: fix the plan, or an owner or admin may bypass evaluation ${e._id} with a reason (POST /api/guardrails/evaluations/${e._id}/bypass)`);
  return `${lines.join('\n')}\n`;
}

export async function evaluateMain(argv: string[], env: NodeJS.ProcessEnv, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const fail = (message: string, usage = false) => { err.write(`drift-runner evaluate: ${message}\n${usage ? `${EVALUATE_USAGE}\n` : ''}`); return ERROR; };
  let values: { plan?: string; repository?: string; url?: string; token?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: { plan: { type: 'string' }, repository: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (e) {
    return fail((e as Error).message, true);
  }
  if (values.help) { out.write(`${EVALUATE_USAGE}\n`); return 0; }
  const url = (values.url ?? env.DRIFT_API_URL)?.replace(/\/+$/, '');
  const token = values.token ?? env.DRIFT_CLI_TOKEN;
  if (!values.plan) return fail('--plan is required', true);
  if (!values.repository) return fail('--repository is required', true);
  if (!url || !/^https?:\/\//.test(url)) return fail('--url (or DRIFT_API_URL) must be the http(s) URL of the drift API', true);
  if (!token?.startsWith('ci_')) return fail('--token (or DRIFT_CLI_TOKEN) must be a CLI token (ci_...)', true);

  let plan: { format_version?: unknown; resource_changes?: unknown };
  try {
    plan = JSON.parse(await readFile(values.plan, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code ? `cannot read ${values.plan}: ${code}` : `${values.plan} is not JSON (${(e as Error).message}); give the output of terraform show -json`);
  }
  if (!plan || typeof plan !== 'object' || typeof plan.format_version !== 'string') return fail(`${values.plan} has no format_version: give the output of terraform show -json <plan file>`);

  let status: number;
  let text: string;
  try {
    const res = await request(`${url}/api/guardrails/evaluate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': `drift-runner/${VERSION}` },
      body: JSON.stringify({ repositoryId: values.repository, plan: slimPlan(plan) }),
      signal: AbortSignal.timeout(120_000),
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (e) {
    const x = e as Error & { code?: string; cause?: { code?: string } };
    return fail(`${url} unreachable (${x.code ?? x.cause?.code ?? x.name})`);
  }
  let json: Evaluation & { error?: { code?: string; message?: string } };
  try { json = JSON.parse(text); } catch { return fail(`the service answered ${status} with something other than JSON`); }
  if (status !== 201) return fail(`the service refused the evaluation (${status} ${json.error?.code ?? ''}): ${json.error?.message ?? text.slice(0, 200)}`);
  out.write(values.json ? `${JSON.stringify(json)}\n` : describe(json, values.repository));
  return EXIT[json.decision] ?? ERROR;
}
