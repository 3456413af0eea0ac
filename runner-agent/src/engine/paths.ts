// Every file the engine opens from a config path (iacPaths, statePath) or from the repository
// (.tf files, terraform.tfstate, a backend "local" path, .driftignore) stays inside the checkout.
// The service runs the built-in executor on its own host: an absolute path, a `..` or a symbolic
// link in a cloned repository must not make it read the host's files (issue #10). The same rules
// answer the API's 400 at create and update (plugins/repo-configs), so a config the API accepts is
// one the engine reads.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ScanError } from './errors.ts';

/** `s3://bucket/key`, as locateState reads it. */
export const S3_STATE_URL = /^s3:\/\/([^/]+)\/(.+)$/;
/** `gs://bucket/object` (Cloud Storage, read with cloud_c credentials). */
export const GCS_STATE_URL = /^gs:\/\/([a-z0-9][a-z0-9._-]{1,221})\/(.+)$/;
/** `azblob://account/container/blob` (Azure Blob Storage, read with cloud_b credentials). */
export const AZURE_BLOB_STATE_URL = /^azblob:\/\/([a-z0-9]{3,24})\/([a-z0-9$][a-z0-9-]{1,62})\/(.+)$/;
const REMOTE_STATE = 'must be s3://bucket/key, gs://bucket/object, azblob://account/container/blob or a path in the repository';

/**
 * Why `p` cannot name a place inside the repository when read relative to `from` (a folder of the
 * repository, '' = its root), or undefined when it can. Lexical only: symbolic links are
 * insideCheckout's part.
 */
export function repoPathProblem(p: string, from = ''): string | undefined {
  if (p.includes('\0')) return 'must not contain a NUL character';
  if (p.includes('\\')) return 'must use forward slashes (a backslash is not a path separator here)';
  if (p.startsWith('~')) return 'must not start with ~ (there is no home folder in a repository)';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'must be relative to the repository, not an absolute path';
  const clean = path.posix.normalize(path.posix.join(from || '.', p));
  if (clean === '..' || clean.startsWith('../')) return 'must not lead outside the repository (a ".." leaves it)';
  return undefined;
}

/** statePath: `s3://bucket/key`, `gs://bucket/object`, `azblob://account/container/blob`, or a path in the repository relative to each IaC path. */
export function statePathProblem(p: string, iacPaths: readonly string[] = []): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(p)) {
    return [S3_STATE_URL, GCS_STATE_URL, AZURE_BLOB_STATE_URL].some((re) => re.test(p)) ? undefined : REMOTE_STATE;
  }
  for (const from of iacPaths.length ? iacPaths : ['']) {
    const problem = repoPathProblem(p, repoPathProblem(from) ? '' : from);
    if (problem) return from ? `${problem} (read from IaC path "${from}")` : problem;
  }
  return undefined;
}

const within = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
const MAX_LINKS = 40;

/**
 * The real path of `rel` (relative to the checkout `root`) when it and every symbolic link on the
 * way stay inside the checkout's real path; undefined when nothing is there. `what` names the
 * config field or the repository-relative file for the message. Links are followed by hand, so
 * a link leading outside is refused whether or not its target exists (no probing of the host),
 * and nothing is read.
 */
export async function insideCheckout(root: string, rel: string, what: string, expect?: 'file' | 'folder'): Promise<string | undefined> {
  const problem = repoPathProblem(rel);
  if (problem) throw new ScanError('source_unavailable', `${what} ${problem}`);
  const realRoot = await realpath(root);
  const outside = () => new ScanError('source_unavailable',
    `${what} is, or passes through, a symbolic link that leads outside the repository; the scanner reads only files inside the checkout`);
  const todo = path.posix.normalize(rel).split('/').filter((s) => s && s !== '.');
  let cur = realRoot;
  let links = 0;
  while (todo.length) {
    // Normalized, and a leading '..' refused above: every part names an entry of `cur`.
    const next = path.join(cur, todo.shift()!);
    const st = await lstat(next).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined;
      throw e;
    });
    if (!st) return undefined;
    if (!st.isSymbolicLink()) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new ScanError('source_unavailable', `${what} passes through more than ${MAX_LINKS} symbolic links`);
    const target = path.resolve(cur, await readlink(next));
    if (!within(realRoot, target)) throw outside();
    todo.unshift(...path.relative(realRoot, target).split(path.sep).filter(Boolean));
    cur = realRoot;
  }
  if (expect) {
    const st = await lstat(cur);
    if (expect === 'file' && !st.isFile()) throw new ScanError('source_unavailable', `${what} is not a file`);
    if (expect === 'folder' && !st.isDirectory()) throw new ScanError('source_unavailable', `${what} is not a folder`);
  }
  return cur;
}
