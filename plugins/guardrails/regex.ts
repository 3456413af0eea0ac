// The regular expressions of `matches` rules, on RE2 (the re2js package: a pure JavaScript port
// of RE2, no native build). RE2 matches in time linear in the tested string, whatever the
// pattern: no backtracking, so no pattern like ^a*a*a*a*a*a*b$ can take the n^6 steps Node's
// own engine takes (issue 32). Linear is not free: the time is about (string length) x
// (program size), so both are capped below, and the whole evaluation runs in a worker with a
// time limit (evaluator.ts). Pure code: the write-time check and the evaluation use the same
// compiler, so a pattern accepted is a pattern that runs.
import { RE2JS } from 're2js';

/** Characters of a pattern as written. */
export const MAX_PATTERN_LENGTH = 200;
/**
 * Instructions of the compiled program. The worst patterns at 500 (`(?i)\pL{500}\pN`,
 * `a.{500}`) test a 100,000-character string in about 0.25 s on the 2-CPU machine; at 1,000
 * one took 5.6 s. Ordinary patterns are far below: `^CC-[0-9]{4}$` is 11, `[a-z0-9-]{1,63}` 127.
 */
export const MAX_PROGRAM_SIZE = 500;
/**
 * Characters of a string a pattern is tested on. A longer string does not match (the rule is
 * violated there): testing only its beginning could pass `^[a-z-]+$` on a value whose tail
 * breaks it, and a rule asserts what must hold, so the safe answer is "not shown to hold".
 */
export const MAX_TESTED_LENGTH = 100_000;

/** Read as written: a JavaScript-style pattern (\uXXXX, \u{...}, \cX) translated to RE2's syntax. */
function compileOrThrow(source: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(source));
}

/** Why a pattern is refused at write time, or undefined when it is accepted. */
export function patternProblem(source: string): string | undefined {
  if (source.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  let re: RE2JS;
  try {
    re = compileOrThrow(source);
  } catch (err) {
    // RE2's own words ("invalid or unsupported Perl syntax: `(?=`", "invalid escape sequence: `\1`",
    // "missing closing ]"), without its "error parsing regexp: " prefix.
    const why = String((err as Error).message).replace(/^error parsing regexp: /, '');
    return `is not a valid regular expression for the linear-time engine (RE2 syntax; lookahead, lookbehind and back-references are not supported): ${why}`;
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM_SIZE) return `is too large for the engine (${size} instructions compiled, at most ${MAX_PROGRAM_SIZE}): use smaller repetition counts`;
  return undefined;
}

/** A compiled pattern, or null for one the engine refuses (stored before this check existed). */
const cache = new Map<string, RE2JS | null>();
function compiled(source: string): RE2JS | null {
  let re = cache.get(source);
  if (re === undefined) {
    try {
      re = patternProblem(source) ? null : compileOrThrow(source);
    } catch {
      re = null;
    }
    if (cache.size > 1000) cache.clear();
    cache.set(source, re);
  }
  return re;
}

/**
 * Whether `value` contains a match of `source` (as RegExp.prototype.test: unanchored unless the
 * pattern anchors). False for a string longer than MAX_TESTED_LENGTH and for a pattern the
 * engine refuses: the rule is then violated rather than silently passed (docs/guardrails.md).
 */
export function patternMatches(source: string, value: string): boolean {
  if (value.length > MAX_TESTED_LENGTH) return false;
  const re = compiled(source);
  return re !== null && re.test(value);
}
