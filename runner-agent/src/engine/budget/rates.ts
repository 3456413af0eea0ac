// Default rates of the API budget, per cloud and service, each below the provider's documented
// limit for reads, and the organization's override (`apiRates`: requests per second per service).
//
// | cloud / service        | default (per s, burst) | documented limit                                                        |
// |------------------------|------------------------|-------------------------------------------------------------------------|
// | aws ec2                | 10, 50                 | Describe* (non-mutating): bucket 100, refill 20/s per account and region |
// |                        |                        | (docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html)        |
// | aws iam                | 5, 10                  | IAM publishes no per-second read rate; it throttles per account globally; |
// |                        |                        | kept low (one us-east-1 control plane for every region)                 |
// | aws route53            | 4, 4                   | 5 requests per second per account (Route 53 quotas, "API requests")      |
// | aws s3                 | 50, 100                | 5,500 GET/HEAD per second per prefix (S3 performance guidelines)         |
// | aws ecs                | 10, 25                 | Describe*/List*: bucket 50, refill 20/s (ECS API request throttling)     |
// | aws lambda             | 10, 20                 | GetFunction 100/s, GetPolicy 15/s (Lambda quotas, control plane)         |
// | aws ssm                | 10, 20                 | GetParameter(s) 40/s default throughput (SSM quotas)                     |
// | aws (any other)        | 8, 16                  | most control planes document 10-20 reads/s per account and region        |
// | azure (per RP)         | 3, 30                  | ARM: 12,000 reads per hour per subscription (3.3/s), since 2024 a bucket |
// |                        |                        | of 250 refilled 25/s per subscription and region (learn.microsoft.com/   |
// |                        |                        | azure/azure-resource-manager/management/request-limits-and-throttling)  |
// | google compute         | 15, 30                 | 1,500 read and 1,500 list requests per minute per project (25/s)         |
// |                        |                        | (cloud.google.com/compute/api-quota)                                    |
// | google (any other API) | 5, 10                  | per-API defaults of the API's quota page, typically 600-6,000/min/project|
//
// The clouds' own retries stay: a throttled answer halves the bucket (bucket.ts) and the call is
// retried after a backoff.
import type { BucketStore, Rate } from './bucket.ts';

export type BudgetCloud = 'aws' | 'azure' | 'google';

/**
 * What a scan's input carries: the shared store (absent: this process's buckets) and the
 * organization's rates. `defaults: false` (the engine's choice for an endpoint override: moto,
 * the replay fake, a test's server, none of which has the providers' limits) leaves services
 * without an organization rate unlimited.
 */
export interface BudgetOptions { store?: BucketStore; rates?: ApiRates; defaults?: boolean }

const DEFAULTS: Record<BudgetCloud, Record<string, Rate>> = {
  aws: {
    ec2: { perSecond: 10, burst: 50 }, iam: { perSecond: 5, burst: 10 }, route53: { perSecond: 4, burst: 4 },
    s3: { perSecond: 50, burst: 100 }, ecs: { perSecond: 10, burst: 25 }, lambda: { perSecond: 10, burst: 20 }, ssm: { perSecond: 10, burst: 20 },
    '*': { perSecond: 8, burst: 16 },
  },
  azure: { '*': { perSecond: 3, burst: 30 } },
  google: { compute: { perSecond: 15, burst: 30 }, '*': { perSecond: 5, burst: 10 } },
};

/**
 * An organization's rates: requests per second keyed `<cloud>:<service>` (`aws:ec2`,
 * `azure:Microsoft.Network`, `google:compute`) or `<cloud>:*` for every other service of a cloud.
 */
export type ApiRates = Record<string, number>;

/** Most keys one organization may set, and the bounds of each rate. */
export const API_RATES_MAX_KEYS = 50;
export const API_RATE_MIN = 0.1;
export const API_RATE_MAX = 1000;
export const API_RATE_KEY = /^(aws|azure|google):(\*|[A-Za-z0-9][A-Za-z0-9._-]{0,99})$/;

/** Why a rates object is refused (for the API's 400), or undefined when it is valid. */
export function apiRatesProblem(rates: unknown): string | undefined {
  if (!rates || typeof rates !== 'object' || Array.isArray(rates)) return 'apiRates must be an object of "<cloud>:<service>": requests per second';
  const entries = Object.entries(rates as Record<string, unknown>);
  if (entries.length > API_RATES_MAX_KEYS) return `apiRates holds at most ${API_RATES_MAX_KEYS} services`;
  for (const [k, v] of entries) {
    if (!API_RATE_KEY.test(k)) return `apiRates key "${k.slice(0, 120)}" is not "<aws|azure|google>:<service>" (or "<cloud>:*")`;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < API_RATE_MIN || v > API_RATE_MAX) return `apiRates["${k}"] must be a number of requests per second between ${API_RATE_MIN} and ${API_RATE_MAX}`;
  }
  return undefined;
}

/**
 * The rate of one service: the organization's (its burst keeps the default's burst-to-rate ratio,
 * at least 1), else the default (undefined: unlimited, when `defaults` is off). Keys compare
 * case-insensitively (ARM namespaces vary in case).
 */
export function rateFor(cloud: BudgetCloud, service: string, overrides?: ApiRates, defaults = true): Rate | undefined {
  const table = DEFAULTS[cloud];
  const lower = service.toLowerCase();
  const base = Object.entries(table).find(([k]) => k.toLowerCase() === lower)?.[1] ?? table['*'];
  const own = overrides && Object.entries(overrides).find(([k]) => k.toLowerCase() === `${cloud}:${lower}`)?.[1];
  const perSecond = own ?? overrides?.[`${cloud}:*`];
  if (perSecond === undefined) return defaults ? base : undefined;
  return { perSecond, burst: Math.max(1, Math.round((perSecond * base.burst) / base.perSecond)) };
}
