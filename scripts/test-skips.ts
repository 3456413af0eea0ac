// After `tap` (npm test and .ci/run): every skipped or todo test of this run with its reason,
// read from the TAP output tap keeps per test file (.tap/test-results/<file>.tap). Only files
// written since this run began count (scripts/test-before.ts leaves .data/test-run-started).
// With --strict, a skip whose reason is not a known environment gap (test/allowed-skips.json,
// each entry with why it is allowed) exits 1: a test this machine can run was not run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../core/loader.ts';

export interface Skipped { file: string; name: string; kind: 'SKIP' | 'TODO'; reason: string }

/** The skipped and todo points of one file's TAP output (subtests at any depth). */
export function skipsOf(file: string, tap: string): Skipped[] {
  const out: Skipped[] = [];
  for (const line of tap.split('\n')) {
    const point = /^\s*(?:not )?ok \d+(?: - (.*?))?\s+# (SKIP|TODO)\b\s*(.*)$/i.exec(line);
    if (point) { out.push({ file, name: point[1] ?? '', kind: point[2].toUpperCase() as 'SKIP' | 'TODO', reason: point[3].trim() }); continue; }
    const plan = /^\s*1\.\.0\s+# (?:SKIP|skip)\b\s*(.*)$/.exec(line);
    if (plan) out.push({ file, name: '(whole file)', kind: 'SKIP', reason: plan[1].trim() });
  }
  return out;
}

export function allowedPatterns(path = join(ROOT, 'test', 'allowed-skips.json')): { reason: RegExp; why: string }[] {
  const list = JSON.parse(readFileSync(path, 'utf8')) as { allowed: { reason: string; why: string }[] };
  return list.allowed.map((a) => ({ reason: new RegExp(a.reason), why: a.why }));
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.tap') ? [join(dir, e.name)] : []));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const strict = process.argv.includes('--strict');
  const results = join(ROOT, '.tap', 'test-results');
  const marker = join(ROOT, '.data', 'test-run-started');
  const since = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const skipped = walk(results).filter((f) => statSync(f).mtimeMs >= since)
    .flatMap((f) => skipsOf(relative(results, f).replace(/\.tap$/, ''), readFileSync(f, 'utf8')));
  const allowed = allowedPatterns();
  const refused = skipped.filter((s) => s.kind === 'SKIP' && !allowed.some((a) => a.reason.test(s.reason)));
  console.log(`# skipped or todo: ${skipped.length}${skipped.length ? '' : ' (none)'}`);
  for (const s of skipped) {
    const gap = s.kind === 'SKIP' && !refused.includes(s) ? 'known environment gap' : s.kind === 'TODO' ? 'todo' : 'NOT an allowed environment gap';
    console.log(`#   ${s.kind} ${s.file}: ${s.name} -- ${s.reason || '(no reason given)'} [${gap}]`);
  }
  if (strict && refused.length) {
    console.error(`# ${refused.length} test(s) skipped that this machine should run (reason not in test/allowed-skips.json): failing`);
    process.exit(1);
  }
}
