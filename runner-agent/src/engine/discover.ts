// Cloud Discovery's read of a whole account: for each region and supported type, the type's
// list mode (cloud/aws/list.ts) names the resources, and the type's drift reader
// (AWS_READERS[type].read) reads their attributes, so discovery and drift detection describe a
// resource with the same code. Regions × types fan out with a concurrency limit; the clients
// use the SDK's adaptive retry mode (throttling backs off instead of failing the scan).
import { AWS_READERS, AwsContext } from './cloud/aws/index.ts';
import { AWS_LISTERS, enabledRegions, type Listed, type Lister } from './cloud/aws/list.ts';
import { timeoutError } from './errors.ts';
import { readerIdOf } from './inventory.ts';
import { chunk, mapLimit } from './limit.ts';
import type { AwsCredentials, LiveAttributes, StateInstance } from './types.ts';
import type { BudgetOptions } from './budget/rates.ts';
import { scanBudget } from './budget/scan.ts';

export const DISCOVERABLE_TYPES = Object.keys(AWS_LISTERS);
export const serviceOf = (type: string): Lister['service'] | undefined => AWS_LISTERS[type]?.service;

export interface DiscoveredResource {
  type: string;
  service: string;
  /** The id the type's reader and `terraform import` take. */
  resourceId: string;
  region: string;
  attributes: LiveAttributes;
}

export interface DiscoverInput {
  credentials: AwsCredentials;
  endpoint?: string;
  /** Default: every region the account has enabled. */
  regions?: string[];
  /** Default: DISCOVERABLE_TYPES. */
  types?: string[];
  /** Region × type tasks in flight at once. */
  concurrency?: number;
  /** SDK attempts per call (adaptive retry). */
  maxAttempts?: number;
  /** The API budget's store and the organization's rates (types.ts ScanInput.apiBudget). */
  apiBudget?: BudgetOptions;
  signal?: AbortSignal;
  onProgress?: (p: { regionsDone: number; regionsTotal: number }) => void;
}

export interface DiscoverOutcome {
  regions: string[];
  resources: DiscoveredResource[];
  stats: { sdkCalls: number; sdkCallsByService: Record<string, number>; durationMs: number; throttledCalls: number; waitedMs: number };
}

/** Ids read per reader call. */
const READ_BATCH = 200;

/** A state instance standing for a listed resource: its id, and the attributes the reader needs to find it. */
function stub(type: string, listed: Listed): StateInstance {
  const { id } = listed;
  const attributes: Record<string, unknown> = { id };
  const own = ({ aws_db_instance: 'identifier', aws_iam_role: 'name', aws_iam_user: 'name', aws_iam_group: 'name', aws_iam_instance_profile: 'name',
    aws_iam_policy: 'arn', aws_s3_bucket: 'bucket', aws_lambda_function: 'function_name', aws_dynamodb_table: 'name' } as Record<string, string>)[type];
  if (own) attributes[own] = id;
  Object.assign(attributes, listed.attributes);
  // The bucket reader reads these only when the state holds them.
  if (type === 'aws_s3_bucket') Object.assign(attributes, { tags: {}, versioning: [], server_side_encryption_configuration: [] });
  if (type === 'aws_iam_role' || type === 'aws_iam_user' || type === 'aws_iam_policy') attributes.tags = {};
  if (readerIdOf(type, attributes) !== id) throw new Error(`discover: ${type} id ${id} does not round-trip through readerIdOf`);
  return { address: `${type}.discovered`, type, name: 'discovered', attributes };
}

export async function regionsOf(credentials: AwsCredentials, endpoint?: string): Promise<string[]> {
  const aws = new AwsContext(credentials, credentials.region || 'us-east-1', endpoint);
  try { return await enabledRegions(aws); } finally { aws.destroy(); }
}

export async function discoverAccount(input: DiscoverInput): Promise<DiscoverOutcome> {
  const started = performance.now();
  const region0 = input.credentials.region || 'us-east-1';
  const aws = new AwsContext(input.credentials, region0, input.endpoint, input.signal, scanBudget(input));
  aws.retry = { mode: 'adaptive', maxAttempts: input.maxAttempts ?? 10 };
  try {
    const regions = input.regions?.length ? [...new Set(input.regions)] : await enabledRegions(aws);
    const types = (input.types?.length ? input.types : DISCOVERABLE_TYPES).filter((t) => AWS_LISTERS[t] && AWS_READERS[t]);
    // Global types once (in the first region's slot), regional ones per region.
    const tasks: { type: string; region: string }[] = [];
    for (const [i, region] of regions.entries()) {
      for (const type of types) if (!AWS_LISTERS[type].global || i === 0) tasks.push({ type, region });
    }
    const left = new Map(regions.map((r) => [r, tasks.filter((t) => t.region === r).length]));
    let regionsDone = [...left.values()].filter((n) => n === 0).length;
    input.onProgress?.({ regionsDone, regionsTotal: regions.length });

    const found = await mapLimit(tasks, input.concurrency ?? 8, async ({ type, region }) => {
      if (input.signal?.aborted) throw timeoutError(input.signal);
      const listed = await AWS_LISTERS[type].list(aws, region);
      const out: DiscoveredResource[] = [];
      for (const part of chunk(listed, READ_BATCH)) {
        const items = part.map((l) => ({ instance: stub(type, l), region: l.region }));
        const live = await AWS_READERS[type].read(items, aws);
        if (type === 'aws_s3_bucket') {
          // Public access settings, for the buckets view: through the drift engine's reader of them.
          const blocks = await AWS_READERS.aws_s3_bucket_public_access_block.read(items, aws);
          blocks.forEach((b, k) => { if (live[k]) live[k]!.public_access_block = b ?? null; });
        }
        part.forEach((l, k) => {
          if (live[k] && (AWS_LISTERS[type].keep?.(live[k]!) ?? true)) out.push({ type, service: AWS_LISTERS[type].service, resourceId: l.id, region: l.region, attributes: live[k]! });
        });
      }
      const n = left.get(region)! - 1;
      left.set(region, n);
      if (n === 0) input.onProgress?.({ regionsDone: ++regionsDone, regionsTotal: regions.length });
      return out;
    });
    return {
      regions, resources: found.flat(),
      stats: {
        sdkCalls: aws.totalCalls, sdkCallsByService: { ...aws.calls }, durationMs: Math.round(performance.now() - started),
        throttledCalls: aws.budget.throttledCalls, waitedMs: Math.round(aws.budget.waitedMs),
      },
    };
  } finally {
    aws.destroy();
  }
}
