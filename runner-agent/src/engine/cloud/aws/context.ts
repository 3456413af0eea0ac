// One scan's AWS clients: endpoint override (moto), request timeouts, the caller's abort signal,
// and a count of every request sent (stats.sdkCalls). Clients are created per region on demand.
import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { S3Client } from '@aws-sdk/client-s3';
import type { AwsCredentials } from '../../types.ts';
import { toScanError } from '../../errors.ts';

/** Bounded concurrency for per-resource APIs (S3, IAM), which have no batch reads. */
export const PER_RESOURCE_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 30_000;

interface Sendable<O> { send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<O> }
type AnyClient = EC2Client | S3Client | IAMClient;

export class AwsContext {
  readonly calls: Record<string, number> = {};
  private readonly clients = new Map<string, AnyClient>();
  readonly cache = new Map<string, unknown>();

  constructor(
    readonly credentials: AwsCredentials,
    readonly defaultRegion: string,
    readonly endpoint?: string,
    readonly signal?: AbortSignal,
  ) {}

  get totalCalls(): number { return Object.values(this.calls).reduce((a, b) => a + b, 0); }

  private client<C extends AnyClient>(service: string, region: string, make: (cfg: Record<string, unknown>) => C): C {
    const key = `${service}:${region}`;
    let c = this.clients.get(key) as C | undefined;
    if (!c) {
      const { accessKeyId, secretAccessKey, sessionToken } = this.credentials;
      c = make({
        region,
        credentials: { accessKeyId, secretAccessKey, sessionToken },
        ...(this.endpoint ? { endpoint: this.endpoint } : {}),
        maxAttempts: 3,
        requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: 5_000 },
      });
      // Count every request that goes out, retries included: that is what a rate limit sees.
      const stack = c.middlewareStack as unknown as { add(mw: unknown, opts: Record<string, unknown>): void };
      stack.add((next: (a: unknown) => Promise<unknown>) => async (args: unknown) => {
        this.calls[service] = (this.calls[service] ?? 0) + 1;
        return next(args);
      }, { step: 'finalizeRequest', name: 'driftCallCounter', priority: 'low' });
      this.clients.set(key, c);
    }
    return c;
  }

  ec2(region = this.defaultRegion): EC2Client { return this.client('ec2', region, (cfg) => new EC2Client(cfg)); }
  s3(region = this.defaultRegion): S3Client { return this.client('s3', region, (cfg) => new S3Client({ ...cfg, forcePathStyle: true })); }
  // IAM is global; its endpoint lives in us-east-1 (moto answers on the same override).
  iam(): IAMClient { return this.client('iam', 'us-east-1', (cfg) => new IAMClient(cfg)); }

  /** Sends one command with the scan's abort signal; errors the user can act on become ScanErrors. */
  async send<O>(client: AnyClient, command: unknown, what: string): Promise<O> {
    try {
      return await (client as unknown as Sendable<O>).send(command, { abortSignal: this.signal });
    } catch (e) {
      throw toScanError(e, what, { signal: this.signal, endpoint: this.endpoint });
    }
  }

  destroy(): void {
    for (const c of this.clients.values()) c.destroy();
    this.clients.clear();
  }
}

/** SDK error name or HTTP status, for "not found" checks. */
export function errorName(e: unknown): string {
  const err = e as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name ?? err?.Code ?? '';
}
export const httpStatus = (e: unknown): number | undefined => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
