// schemathesis (PyPI) in a virtualenv of its own under .data/, installed once at a pinned
// version: the fuzz run must not depend on whatever Python packages the machine has.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

// Pinned to the version the harness was written and measured with (its CLI and report
// formats change between minor releases).
export const SCHEMATHESIS_VERSION = '4.32.5';

function installedVersion(bin: string): string | undefined {
  if (!existsSync(bin)) return undefined;
  try {
    // "schemathesis, version 4.32.5"
    return /version (\S+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }))?.[1];
  } catch {
    return undefined;
  }
}

/** Returns the path of the `schemathesis` executable, installing it when missing or another version. */
export function ensureSchemathesis(venv: string, log: (line: string) => void): string {
  const bin = join(venv, 'bin', 'schemathesis');
  if (installedVersion(bin) === SCHEMATHESIS_VERSION) return bin;
  const python = process.env.PYTHON ?? 'python3';
  if (!existsSync(join(venv, 'bin', 'python'))) {
    log(`fuzz: creating virtualenv ${venv}`);
    execFileSync(python, ['-m', 'venv', venv], { stdio: 'inherit' });
  }
  log(`fuzz: installing schemathesis==${SCHEMATHESIS_VERSION}`);
  execFileSync(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], { stdio: 'inherit' });
  const got = installedVersion(bin);
  if (got !== SCHEMATHESIS_VERSION) throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} did not install (found ${got ?? 'nothing'})`);
  return bin;
}
