// Getting the repository: a shallow git clone of one branch into a temporary folder (removed
// afterwards), or a local folder used in place.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScanError, timeoutError } from './errors.ts';
import type { CloneGuard, ScanInput } from './types.ts';

export interface Checkout { root: string; commit?: string; cleanup(): Promise<void> }

/** Credentials in a clone URL (https://token@host/...) never reach a message. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^/@\s]+@/, '//***@');

/**
 * A confined clone reads no configuration of the host's user or system (url.*.insteadOf
 * rewrites, credential helpers, LFS filters, proxies set there): only what the guard sets.
 */
const confinedEnv = (url: string) => ({
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  // Overrides protocol.*.allow (an inherited value would widen it): the one scheme the guard let through.
  GIT_ALLOW_PROTOCOL: new URL(url).protocol.replace(/:$/, ''),
});

function git(args: string[], cwd: string | undefined, signal?: AbortSignal, extraEnv: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, {
      cwd, signal, maxBuffer: 16 << 20,
      // Never wait for a password prompt: a private repository without credentials fails at once.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', LC_ALL: 'C', ...extraEnv },
    }, (err, stdout, stderr) => (err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr })));
  });
}

/** The last meaningful lines of git's stderr, for a message. */
function summarize(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('Cloning into'));
  return lines.slice(-3).join(' ').slice(0, 500) || 'no output';
}

/**
 * HEAD of a local folder that is itself a git work tree's top; undefined for a plain folder or
 * one inside another repository (whose files the commit would not name relative to the folder).
 */
async function folderCommit(root: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const top = (await git(['rev-parse', '--show-toplevel'], root, signal)).stdout.trim();
    if (await realpath(top) !== await realpath(root)) return undefined;
    return (await git(['rev-parse', 'HEAD'], root, signal)).stdout.trim() || undefined;
  } catch {
    return undefined; // no git, not a repository, or no commit yet
  }
}

/**
 * `guard` (the built-in executor's): the URL is checked before git runs and cloned through the
 * settings it returns; a failure then says the same thing whatever git met (a refused, closed or
 * silent port, a redirect, a missing repository), so scan errors do not map the network.
 */
export async function checkout(source: ScanInput['source'], signal?: AbortSignal, guard?: CloneGuard): Promise<Checkout> {
  if (source.kind === 'path') {
    if (!existsSync(source.path) || !statSync(source.path).isDirectory()) {
      throw new ScanError('source_unavailable', `Repository folder ${source.path} does not exist or is not a folder`);
    }
    const root = path.resolve(source.path);
    return { root, commit: await folderCommit(root, signal), cleanup: async () => undefined };
  }
  const target = guard ? await guard(source.url) : { url: source.url, config: [] };
  const confined = guard && target.config.length > 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'drift-scan-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const settings = target.config.flatMap((c) => ['-c', c]);
    await git([...settings, 'clone', '--quiet', '--depth', '1', '--single-branch', '--no-recurse-submodules', '--branch', source.branch, '--', target.url, dir],
      undefined, signal, confined ? confinedEnv(target.url) : {});
    const { stdout } = await git(['rev-parse', 'HEAD'], dir, signal);
    return { root: dir, commit: stdout.trim(), cleanup };
  } catch (e) {
    await cleanup();
    if (signal?.aborted) throw timeoutError(signal);
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw new ScanError('source_unavailable', 'git is not installed on the machine running the scan');
    if (confined) {
      throw new ScanError('source_unavailable',
        `Branch "${source.branch}" of ${redactUrl(source.url)} could not be cloned: check the URL, the branch and that the repository is reachable from the service with the credentials in the URL`, { cause: e });
    }
    throw new ScanError('source_unavailable',
      `Could not clone branch "${source.branch}" of ${redactUrl(source.url)}: ${redactUrl(summarize(err.stderr ?? err.message))}`, { cause: e });
  }
}
