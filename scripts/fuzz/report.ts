// Reads schemathesis' own reports, not its console text: the JSON run report for the figures
// (operations tested, cases generated) and the JUnit XML for each failing operation's
// failures with one reproduction (the curl line schemathesis prints).
import { existsSync, readFileSync } from 'node:fs';

/** Failure codes (`st explain <code>`) by what they mean for us; any of them fails the run. */
export const KINDS = {
  'server error': ['ST101', 'ST102'], // 5xx, also for an undeclared request Content-Type
  'schema violation': ['ST108', 'ST109', 'ST110', 'ST111'], // body or header against its documented schema
  'undocumented status': ['ST103'],
  'content type': ['ST104', 'ST105', 'ST106'], // missing, undocumented or malformed Content-Type
} as const;
export type Kind = keyof typeof KINDS | 'other';
export const kindOf = (code: string): Kind =>
  (Object.keys(KINDS) as (keyof typeof KINDS)[]).find((k) => (KINDS[k] as readonly string[]).includes(code)) ?? 'other';

export interface Failure { operation: string; code: string; title: string; kind: Kind; status?: string; curl?: string; reqId?: string }
export interface RunResult {
  name: string;
  exitCode: number;
  /** From the JSON report; undefined when schemathesis wrote none (it crashed or was stopped). */
  operations?: number;
  cases?: number;
  complete?: boolean;
  /** Operations that only ever answered 401/403 ("METHOD /path"). */
  missingAuth?: string[];
  errors: string[];
  failures: Failure[];
}

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** One Failure per (operation, test case, failure code) found in the JUnit XML. */
export function readJunit(file: string): { failures: Failure[]; errors: string[] } {
  const failures: Failure[] = [];
  const errors: string[] = [];
  if (!existsSync(file)) return { failures, errors: [`no JUnit report (${file})`] };
  const xml = readFileSync(file, 'utf8');
  // A passing testcase is self-closing; only the others have a body.
  for (const tc of xml.matchAll(/<testcase name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const operation = unescape(tc[1]);
    for (const f of (tc[2] ?? '').matchAll(/<(failure|error)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
      const body = unescape(f[2]);
      if (f[1] === 'error') { errors.push(`${operation}: ${body.split('\n').find((l) => l.trim()) ?? 'error'}`); continue; }
      // A failure element lists numbered test cases, each with its failed checks, the
      // response status and a "Reproduce with:" curl line.
      for (const testCase of body.split(/^\d+\. Test Case ID: /m).slice(1)) {
        const status = /^\[(\d{3})\]/m.exec(testCase)?.[1];
        // One curl per step: a stateful scenario lists every request, the failing one last.
        const curl = testCase.split('Reproduce with:')[1]?.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('curl ')).join('\n    ');
        // A 500 names its request id ("Internal server error (request req-4c9)"): the key to its stack.
        const reqId = /\(request (req-[\w-]+)\)/.exec(testCase)?.[1];
        for (const m of testCase.matchAll(/^- (ST\d{3}) (.+)$/gm)) {
          failures.push({ operation, code: m[1], title: m[2].trim(), kind: kindOf(m[1]), status, curl, reqId });
        }
      }
    }
  }
  return { failures, errors };
}

/** Figures from the JSON run report. */
export function readJson(file: string): Pick<RunResult, 'operations' | 'cases' | 'complete' | 'missingAuth'> {
  if (!existsSync(file)) return {};
  const r = JSON.parse(readFileSync(file, 'utf8')) as {
    operations?: { tested?: number }; test_cases?: { generated?: number }; complete?: boolean; warnings?: { missing_auth?: string[] };
  };
  return { operations: r.operations?.tested, cases: r.test_cases?.generated, complete: r.complete, missingAuth: r.warnings?.missing_auth ?? [] };
}

export interface Summary { text: string; failed: number }

/** The service's error log (pino JSON lines): the cause of each 500 by request id, and the
 * errors logged outside any response (a lost audit write answers 2xx but is still a bug). */
export function readServerLog(file: string): { causes: Map<string, string>; other: Map<string, number> } {
  const causes = new Map<string, string>();
  const other = new Map<string, number>();
  if (!existsSync(file)) return { causes, other };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let e: { reqId?: string; msg?: string; err?: { message?: string; stack?: string } };
    try { e = JSON.parse(line); } catch { continue; }
    // The first frame in our own code, not in node_modules or node internals.
    const frame = e.err?.stack?.split('\n').find((l) => /^\s+at /.test(l) && !/node_modules|node:/.test(l))?.trim().replace(/^at /, '');
    // FerretDB prefixes its messages with Go call sites: [msg_insert.go:168 ...] ...
    const message = (e.err?.message ?? e.msg ?? '').split('\n')[0].replace(/^(\[[^\]]*\]\s*)+/, '').slice(0, 160);
    const text = `${message}${frame ? ` @ ${frame.replace(/.*\((.*)\)$/, '$1').replace(/^.*?\/(core|plugins|scripts)\//, '$1/')}` : ''}`;
    if (e.reqId && e.msg === 'unhandled error') causes.set(e.reqId, text);
    else if (e.msg) other.set(e.msg, (other.get(e.msg) ?? 0) + 1);
  }
  return { causes, other };
}

/** Compact summary: figures, then each failing operation with its codes and one reproduction. */
export function summarize(results: RunResult[], base: string, serverLog: string): Summary {
  const { causes, other } = readServerLog(serverLog);
  const all = results.flatMap((r) => r.failures);
  const lines: string[] = [];
  const ops = results.reduce((n, r) => n + (r.operations ?? 0), 0);
  const cases = results.reduce((n, r) => n + (r.cases ?? 0), 0);
  const byKind = (k: Kind) => all.filter((f) => f.kind === k);
  const count = (k: Kind) => `${byKind(k).length} on ${new Set(byKind(k).map((f) => f.operation)).size} operations`;
  lines.push(`schemathesis: ${ops} operations tested, ${cases} cases generated (${results.map((r) => `${r.name}: ${r.operations ?? '?'} ops / ${r.cases ?? '?'} cases`).join('; ')})`);
  lines.push(`  server errors (5xx):   ${count('server error')}`);
  lines.push(`  schema violations:     ${count('schema violation')}`);
  lines.push(`  undocumented status:   ${count('undocumented status')}`);
  lines.push(`  content-type problems: ${count('content type')}`);
  if (byKind('other').length) lines.push(`  other failures:        ${count('other')}`);
  const problems = results.flatMap((r) => [
    ...r.errors.map((e) => `${r.name}: ${e}`),
    ...(r.exitCode !== 0 && !r.failures.length ? [`${r.name}: schemathesis exited ${r.exitCode} without a reported failure (see its log)`] : []),
    ...(r.complete === false ? [`${r.name}: run did not complete`] : []),
    // A filter that matches nothing (a renamed operationId) must not pass as a clean run.
    ...(r.operations === 0 ? [`${r.name}: no operation tested`] : []),
  ]);
  for (const p of problems) lines.push(`  run problem: ${p}`);
  // Reported, not failed on: the checks above are what CI gates.
  for (const [msg, n] of other) lines.push(`  server log: "${msg}" x${n} (not a failed check; see server.log)`);

  // One line per (operation, code), with the first case's reproduction.
  const seen = new Map<string, Failure & { n: number }>();
  for (const f of all) {
    const key = `${f.operation}\t${f.code}`;
    const prev = seen.get(key);
    if (prev) prev.n++; else seen.set(key, { ...f, n: 1 });
  }
  const order: Kind[] = ['server error', 'schema violation', 'undocumented status', 'content type', 'other'];
  const sorted = [...seen.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.operation.localeCompare(b.operation));
  if (sorted.length) lines.push('', 'failures (operation, code, cases; one reproduction; Authorization is your bearer token):');
  for (const f of sorted) {
    lines.push(`- ${f.operation}  ${f.code} ${f.title} [${f.kind}${f.status ? `, got ${f.status}` : ''}] x${f.n}`);
    if (f.curl) lines.push(`    ${f.curl.split(base).join('$BASE')}`);
    const cause = f.reqId && causes.get(f.reqId);
    if (cause) lines.push(`    cause: ${cause}`);
  }
  // Fuzzed bodies and causes may hold control characters: keep the terminal and CI log clean.
  const text = lines.join('\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return { text, failed: all.length + problems.length };
}
