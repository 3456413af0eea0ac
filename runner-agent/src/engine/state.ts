// Finding and reading a root module's state: the backend block ("s3" or "local"), the default
// terraform.tfstate beside the .tf files, or an explicit statePath; then state format v4.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { errorName, httpStatus, type AwsContext } from './cloud/aws/context.ts';
import { ScanError } from './errors.ts';
import { AZURE_BLOB_STATE_URL, GCS_STATE_URL, insideCheckout, repoPathProblem, S3_STATE_URL } from './paths.ts';
import type { RootModule } from './hcl.ts';

export type StateLocation =
  | { kind: 's3'; bucket: string; key: string; region?: string; describe: string }
  | { kind: 'gcs'; bucket: string; object: string; describe: string }
  | { kind: 'azure-blob'; account: string; container: string; blob: string; describe: string }
  /** `path` is relative to the repository root; readStateText opens it only inside the checkout. */
  | { kind: 'local'; path: string; describe: string };

const HINT = 'set the repository config\'s state path (a path in the repository, s3://bucket/key, gs://bucket/object or azblob://account/container/blob)';

/**
 * Readers of the remote states the REST clouds keep (rest-scan.ts gives them with the scan's
 * credentials): the text, or null when the object does not exist.
 */
export interface RemoteStates {
  gcs?(bucket: string, object: string): Promise<string | null>;
  blob?(account: string, container: string, blob: string): Promise<string | null>;
}

/** Where the state of `mod` lives. `shown` is the module folder as the user knows it. */
export function locateState(mod: RootModule, shown: string, statePath?: string): StateLocation {
  const where = shown || 'the repository root';
  if (statePath) {
    const s3 = S3_STATE_URL.exec(statePath);
    if (s3) return { kind: 's3', bucket: s3[1], key: s3[2], describe: `s3://${s3[1]}/${s3[2]} (configured state path)` };
    const gs = GCS_STATE_URL.exec(statePath);
    if (gs) return { kind: 'gcs', bucket: gs[1], object: gs[2], describe: `gs://${gs[1]}/${gs[2]} (configured state path)` };
    const az = AZURE_BLOB_STATE_URL.exec(statePath);
    if (az) return { kind: 'azure-blob', account: az[1], container: az[2], blob: az[3], describe: `azblob://${az[1]}/${az[2]}/${az[3]} (configured state path)` };
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
  const str = (v: unknown) => (typeof v === 'string' && v && !v.includes('${') ? v : undefined);
  if (b.type === 'gcs') {
    const bucket = str(b.config.bucket);
    if (!bucket) throw new ScanError('state_not_found', `backend "gcs" in ${where} does not name its bucket (partial backend configuration); ${HINT}`);
    // The default workspace's state: <prefix>/default.tfstate (the backend's layout).
    const prefix = str(b.config.prefix)?.replace(/\/+$/, '');
    const object = `${prefix ? `${prefix}/` : ''}default.tfstate`;
    return { kind: 'gcs', bucket, object, describe: `gs://${bucket}/${object} (backend "gcs")` };
  }
  if (b.type === 'azurerm') {
    const account = str(b.config.storage_account_name);
    const container = str(b.config.container_name);
    const blob = str(b.config.key);
    if (!account || !container || !blob) {
      throw new ScanError('state_not_found', `backend "azurerm" in ${where} does not name storage_account_name, container_name and key (partial backend configuration); ${HINT}`);
    }
    return { kind: 'azure-blob', account, container, blob, describe: `azblob://${account}/${container}/${blob} (backend "azurerm")` };
  }
  throw new ScanError('state_not_found', `backend "${b.type}" in ${where} is not supported by the scanner; ${HINT}`);
}

/** The state's text; a local state only from inside the checkout at `repoRoot` (paths.ts). */
export async function readStateText(loc: StateLocation, aws: AwsContext | undefined, repoRoot: string, remote: RemoteStates = {}): Promise<string> {
  if (loc.kind === 'local') {
    const file = await insideCheckout(repoRoot, loc.path, loc.describe, 'file');
    if (!file) throw new ScanError('state_not_found', `No state file at ${loc.describe}`);
    return readFile(file, 'utf8');
  }
  if (loc.kind === 'gcs' || loc.kind === 'azure-blob') {
    const read = loc.kind === 'gcs' ? remote.gcs && (() => remote.gcs!(loc.bucket, loc.object)) : remote.blob && (() => remote.blob!(loc.account, loc.container, loc.blob));
    if (!read) throw new ScanError('no_credentials', `Reading the state at ${loc.describe} needs ${loc.kind === 'gcs' ? 'cloud_c' : 'cloud_b'} credentials: scan it as a ${loc.kind === 'gcs' ? 'cloud_c' : 'cloud_b'} repository config`);
    const text = await read();
    if (text === null) throw new ScanError('state_not_found', `No state object at ${loc.describe}`);
    return text;
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
