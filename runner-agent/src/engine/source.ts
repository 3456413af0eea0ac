// Getting the repository: a shallow git clone of one branch into a temporary folder (removed
// afterwards), or a local folder used in place.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScanError, timeoutError } from './errors.ts';
import type { ScanInput } from './types.ts';

export interface Checkout { root: string; commit?: string; cleanup(): Promise<void> }

/** Credentials in a clone URL (https://token@host/...) never reach a message. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^/@\s]+@/, '//***@');

function git(args: string[], cwd: string | undefined, signal?: AbortSignal): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, {
      cwd, signal, maxBuffer: 16 << 20,
      // Never wait for a password prompt: a private repository without credentials fails at once.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', LC_ALL: 'C' },
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

export async function checkout(source: ScanInput['source'], signal?: AbortSignal): Promise<Checkout> {
  if (source.kind === 'path') {
    if (!existsSync(source.path) || !statSync(source.path).isDirectory()) {
      throw new ScanError('source_unavailable', `Repository folder ${source.path} does not exist or is not a folder`);
    }
    const root = path.resolve(source.path);
    return { root, commit: await folderCommit(root, signal), cleanup: async () => undefined };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'drift-scan-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await git(['clone', '--quiet', '--depth', '1', '--single-branch', '--branch', source.branch, '--', source.url, dir], undefined, signal);
    const { stdout } = await git(['rev-parse', 'HEAD'], dir, signal);
    return { root: dir, commit: stdout.trim(), cleanup };
  } catch (e) {
    await cleanup();
    if (signal?.aborted) throw timeoutError(signal);
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw new ScanError('source_unavailable', 'git is not installed on the machine running the scan');
    throw new ScanError('source_unavailable',
      `Could not clone branch "${source.branch}" of ${redactUrl(source.url)}: ${redactUrl(summarize(err.stderr ?? err.message))}`, { cause: e });
  }
}
