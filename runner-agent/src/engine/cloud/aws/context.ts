// One scan's AWS clients: endpoint override (moto), request timeouts, the caller's abort signal,
// a count of every request sent (stats.sdkCalls), and the API budget every request waits on
// (budget/: one bucket per account, region and service). Clients are created per region on demand.
import { ACMClient } from '@aws-sdk/client-acm';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CodeBuildClient } from '@aws-sdk/client-codebuild';
import { CodeCommitClient } from '@aws-sdk/client-codecommit';
import { CodeDeployClient } from '@aws-sdk/client-codedeploy';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EC2Client } from '@aws-sdk/client-ec2';
import { ECRClient } from '@aws-sdk/client-ecr';
import { ECSClient } from '@aws-sdk/client-ecs';
import { EFSClient } from '@aws-sdk/client-efs';
import { EKSClient } from '@aws-sdk/client-eks';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { IAMClient } from '@aws-sdk/client-iam';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { RDSClient } from '@aws-sdk/client-rds';
import { Route53Client } from '@aws-sdk/client-route-53';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import type { AwsCredentials } from '../../types.ts';
import { toScanError } from '../../errors.ts';
import { isAwsThrottle, ScanBudget } from '../../budget/index.ts';
import { awsAccountOf } from '../../budget/aws-account.ts';

/** Bounded concurrency for per-resource APIs (S3, IAM), which have no batch reads. */
export const PER_RESOURCE_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 30_000;
/** Throttled answers one request is retried after (each after a backoff and a new token) before the SDK's own retries see it. */
const THROTTLE_RETRIES = 6;

interface Sendable<O> { send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<O> }

/** One SDK client class per service, keyed by the service's signing name (also the key of stats.sdkCallsByService), but for SIGNING_NAMES. */
export const AWS_CLIENTS = {
  ec2: EC2Client, s3: S3Client, iam: IAMClient, route53: Route53Client, elasticloadbalancing: ElasticLoadBalancingV2Client,
  rds: RDSClient, ecr: ECRClient, ecs: ECSClient, lambda: LambdaClient, dynamodb: DynamoDBClient, logs: CloudWatchLogsClient,
  kms: KMSClient, sns: SNSClient, sqs: SQSClient, autoscaling: AutoScalingClient,
  acm: ACMClient, apigateway: APIGatewayClient, cloudfront: CloudFrontClient, monitoring: CloudWatchClient,
  codebuild: CodeBuildClient, codecommit: CodeCommitClient, codedeploy: CodeDeployClient, elasticfilesystem: EFSClient,
  eks: EKSClient, secretsmanager: SecretsManagerClient, ssm: SSMClient, apigatewayv2: ApiGatewayV2Client, events: EventBridgeClient,
};
/** Services whose SigV4 signing name is not their key above (API Gateway v2 signs as v1 does). */
export const SIGNING_NAMES: Partial<Record<string, string>> = { apigatewayv2: 'apigateway' };
export type AwsService = keyof typeof AWS_CLIENTS;
type ClientOf<S extends AwsService> = InstanceType<(typeof AWS_CLIENTS)[S]>;
type AnyClient = ClientOf<AwsService>;

export class AwsContext {
  readonly calls: Record<string, number> = {};
  private readonly clients = new Map<string, AnyClient>();
  readonly cache = new Map<string, unknown>();
  /**
   * The SDK's retry strategy for clients created from now on: `standard` (3 attempts) for drift
   * scans; Cloud Discovery sets `adaptive` (client-side rate limiting: throttling backs off).
   */
  retry: { mode: 'standard' | 'adaptive'; maxAttempts: number } = { mode: 'standard', maxAttempts: 3 };

  readonly credentials: AwsCredentials;
  readonly defaultRegion: string;
  readonly endpoint?: string;
  readonly signal?: AbortSignal;
  /** The scan's API budget (this process's buckets unless the caller handed in another store). */
  readonly budget: ScanBudget;
  private account?: Promise<string>;

  constructor(credentials: AwsCredentials, defaultRegion: string, endpoint?: string, signal?: AbortSignal, budget?: ScanBudget) {
    this.credentials = credentials;
    this.defaultRegion = defaultRegion;
    this.endpoint = endpoint;
    this.signal = signal;
    // Without a budget handed in: this process's buckets, default rates unless the endpoint is overridden (moto, the replay fake).
    this.budget = budget ?? new ScanBudget({ defaults: !endpoint }, signal);
  }

  /** The account the buckets are keyed by (STS, once per scan and key pair). */
  private accountId(): Promise<string> {
    return (this.account ??= awsAccountOf(this.credentials, this.endpoint));
  }

  get totalCalls(): number { return Object.values(this.calls).reduce((a, b) => a + b, 0); }

  private client<S extends AwsService>(service: S, region: string): ClientOf<S> {
    const key = `${service}:${region}`;
    let c = this.clients.get(key) as ClientOf<S> | undefined;
    if (!c) {
      const { accessKeyId, secretAccessKey, sessionToken } = this.credentials;
      const Ctor = AWS_CLIENTS[service] as unknown as new (cfg: Record<string, unknown>) => ClientOf<S>;
      c = new Ctor({
        region,
        credentials: { accessKeyId, secretAccessKey, sessionToken },
        ...(this.endpoint ? { endpoint: this.endpoint } : {}),
        ...(service === 's3' ? { forcePathStyle: true } : {}),
        maxAttempts: this.retry.maxAttempts,
        retryMode: this.retry.mode,
        requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: 5_000 },
      });
      // Every request that goes out (the SDK's retries included: that is what a rate limit sees)
      // waits for a token and is counted; a throttled answer halves the bucket, and the request is
      // sent again after a backoff and a new token. The middleware sits before the signer, so a
      // request is signed once its token is due (a long wait never sends a stale signature).
      const stack = c.middlewareStack as unknown as { addRelativeTo(mw: unknown, opts: Record<string, unknown>): void };
      stack.addRelativeTo((next: (a: unknown) => Promise<unknown>) => async (args: unknown) => {
        const account = this.budget.active ? await this.accountId() : 'unknown';
        for (let throttles = 0; ; throttles++) {
          await this.budget.acquire('aws', account, region, service);
          this.calls[service] = (this.calls[service] ?? 0) + 1;
          try {
            return await next(args);
          } catch (e) {
            if (!isAwsThrottle(e)) throw e;
            await this.budget.throttled('aws', account, region, service);
            if (throttles >= THROTTLE_RETRIES) throw e;
            await this.budget.backoff(throttles + 1);
          }
        }
      }, { name: 'driftCallCounter', relation: 'before', toMiddleware: 'httpSigningMiddleware' });
      this.clients.set(key, c);
    }
    return c;
  }

  ec2(region = this.defaultRegion) { return this.client('ec2', region); }
  s3(region = this.defaultRegion) { return this.client('s3', region); }
  elbv2(region = this.defaultRegion) { return this.client('elasticloadbalancing', region); }
  rds(region = this.defaultRegion) { return this.client('rds', region); }
  ecr(region = this.defaultRegion) { return this.client('ecr', region); }
  ecs(region = this.defaultRegion) { return this.client('ecs', region); }
  lambda(region = this.defaultRegion) { return this.client('lambda', region); }
  dynamodb(region = this.defaultRegion) { return this.client('dynamodb', region); }
  logs(region = this.defaultRegion) { return this.client('logs', region); }
  kms(region = this.defaultRegion) { return this.client('kms', region); }
  sns(region = this.defaultRegion) { return this.client('sns', region); }
  sqs(region = this.defaultRegion) { return this.client('sqs', region); }
  autoscaling(region = this.defaultRegion) { return this.client('autoscaling', region); }
  acm(region = this.defaultRegion) { return this.client('acm', region); }
  apigateway(region = this.defaultRegion) { return this.client('apigateway', region); }
  apigatewayv2(region = this.defaultRegion) { return this.client('apigatewayv2', region); }
  events(region = this.defaultRegion) { return this.client('events', region); }
  cloudwatch(region = this.defaultRegion) { return this.client('monitoring', region); }
  codebuild(region = this.defaultRegion) { return this.client('codebuild', region); }
  codecommit(region = this.defaultRegion) { return this.client('codecommit', region); }
  codedeploy(region = this.defaultRegion) { return this.client('codedeploy', region); }
  efs(region = this.defaultRegion) { return this.client('elasticfilesystem', region); }
  eks(region = this.defaultRegion) { return this.client('eks', region); }
  secretsmanager(region = this.defaultRegion) { return this.client('secretsmanager', region); }
  ssm(region = this.defaultRegion) { return this.client('ssm', region); }
  // IAM and Route 53 are global; their endpoints live in us-east-1 (moto answers on the same override).
  iam() { return this.client('iam', 'us-east-1'); }
  route53() { return this.client('route53', 'us-east-1'); }
  cloudfront() { return this.client('cloudfront', 'us-east-1'); }

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
