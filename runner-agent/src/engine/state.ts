// Finding and reading a root module's state: the backend block ("s3" or "local"), the default
// terraform.tfstate beside the .tf files, or an explicit statePath; then state format v4.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { errorName, httpStatus, type AwsContext } from './cloud/aws/context.ts';
import { ScanError } from './errors.ts';
import { insideCheckout, repoPathProblem, S3_STATE_URL } from './paths.ts';
import type { RootModule } from './hcl.ts';

export type StateLocation =
  | { kind: 's3'; bucket: string; key: string; region?: string; describe: string }
  /** `path` is relative to the repository root; readStateText opens it only inside the checkout. */
  | { kind: 'local'; path: string; describe: string };

const HINT = 'set the repository config\'s state path (a path in the repository or s3://bucket/key)';

/** Where the state of `mod` lives. `shown` is the module folder as the user knows it. */
export function locateState(mod: RootModule, shown: string, statePath?: string): StateLocation {
  const where = shown || 'the repository root';
  if (statePath) {
    const s3 = S3_STATE_URL.exec(statePath);
    if (s3) return { kind: 's3', bucket: s3[1], key: s3[2], describe: `s3://${s3[1]}/${s3[2]} (configured state path)` };
    // Configs stored before the API checked statePath may still hold an absolute path or a `..`.
    const problem = repoPathProblem(statePath, shown);
    if (problem) throw new ScanError('state_not_found', `The repository config's statePath "${statePath}" ${problem}: set it to a path in the repository or s3://bucket/key`);
    return { kind: 'local', path: path.posix.join(shown, statePath), describe: `${statePath} (configured state path, relative to ${where})` };
  }
  const b = mod.backend;
  if (!b || b.type === 'local') {
    const rel = typeof b?.config.path === 'string' ? b.config.path : 'terraform.tfstate';
    const from = b ? 'backend "local"' : 'no backend block, so the default local state';
    const problem = repoPathProblem(rel, shown);
    if (problem) throw new ScanError('state_not_found', `The path of backend "local" in ${where} ${problem}; ${HINT}`);
    return { kind: 'local', path: path.posix.join(shown, rel), describe: `${path.posix.join(shown, rel)} (${from})` };
  }
  if (b.type === 's3') {
    const { bucket, key, region } = b.config;
    if (typeof bucket !== 'string' || typeof key !== 'string' || !bucket || !key) {
      throw new ScanError('state_not_found', `backend "s3" in ${shown || 'the repository root'} does not name both bucket and key (partial backend configuration); ${HINT}`);
    }
    return { kind: 's3', bucket, key, region: typeof region === 'string' ? region : undefined, describe: `s3://${bucket}/${key} (backend "s3")` };
  }
  throw new ScanError('state_not_found', `backend "${b.type}" in ${shown || 'the repository root'} is not supported by the scanner; ${HINT}`);
}

/** The state's text; a local state only from inside the checkout at `repoRoot` (paths.ts). */
export async function readStateText(loc: StateLocation, aws: AwsContext | undefined, repoRoot: string): Promise<string> {
  if (loc.kind === 'local') {
    const file = await insideCheckout(repoRoot, loc.path, loc.describe, 'file');
    if (!file) throw new ScanError('state_not_found', `No state file at ${loc.describe}`);
    return readFile(file, 'utf8');
  }
  if (!aws) throw new ScanError('no_credentials', `Reading the state at ${loc.describe} needs cloud_a credentials`);
  try {
    const out = await aws.send<GetObjectCommandOutput>(aws.s3(loc.region), new GetObjectCommand({ Bucket: loc.bucket, Key: loc.key }), 's3:GetObject');
    return (await out.Body?.transformToString('utf8')) ?? '';
  } catch (e) {
    if (['NoSuchKey', 'NoSuchBucket', 'NotFound'].includes(errorName(e)) || httpStatus(e) === 404) {
      throw new ScanError('state_not_found', `No state object at ${loc.describe}: ${errorName(e) === 'NoSuchBucket' ? 'the bucket does not exist' : 'the key does not exist'}`);
    }
    throw e;
  }
}

// Parsing the state's text: state-v4.ts.
export { parseState, readStateDocument, type StateDocument } from './state-v4.ts';
