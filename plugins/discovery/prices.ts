// The static price table Cloud Discovery's cost estimates use: on-demand list prices, Linux,
// us-east-1, USD, typed into this file. The build could not reach the AWS pricing pages or the
// Price List API (and moto, which the tests run against, does not implement pricing:GetProducts),
// so the table claims neither a source it was checked against nor a date: the costs answer says
// `priceSource: "list prices (built-in table)"` and `pricesAsOf: null` (docs/discovery.md).
// Other regions are priced as us-east-1 (most are 0-30% higher): an estimate, not a bill.
// A month is 730 hours. Types absent from the table cost 0 in the estimate (documented in
// docs/discovery.md); S3 buckets cost 0 because the size of their contents is not read.
export const PRICES_AS_OF: string | null = null;
export const PRICES_SOURCE = 'list prices (built-in table)';
export const HOURS_PER_MONTH = 730;

/** EC2 on-demand USD per hour. */
export const EC2_HOURLY: Record<string, number> = {
  't2.nano': 0.0058, 't2.micro': 0.0116, 't2.small': 0.023, 't2.medium': 0.0464, 't2.large': 0.0928,
  't3.nano': 0.0052, 't3.micro': 0.0104, 't3.small': 0.0208, 't3.medium': 0.0416, 't3.large': 0.0832, 't3.xlarge': 0.1664, 't3.2xlarge': 0.3328,
  't4g.micro': 0.0084, 't4g.small': 0.0168, 't4g.medium': 0.0336, 't4g.large': 0.0672,
  'm5.large': 0.096, 'm5.xlarge': 0.192, 'm5.2xlarge': 0.384, 'm5.4xlarge': 0.768,
  'm6i.large': 0.096, 'm6i.xlarge': 0.192, 'm6i.2xlarge': 0.384, 'm7i.large': 0.1008, 'm7g.large': 0.0816,
  'c5.large': 0.085, 'c5.xlarge': 0.17, 'c5.2xlarge': 0.34, 'c6i.large': 0.085, 'c6i.xlarge': 0.17, 'c7g.large': 0.0725,
  'r5.large': 0.126, 'r5.xlarge': 0.252, 'r6i.large': 0.126, 'r6i.xlarge': 0.252,
};

/** RDS Single-AZ on-demand USD per hour (MySQL/PostgreSQL). Multi-AZ doubles it. */
export const RDS_HOURLY: Record<string, number> = {
  'db.t3.micro': 0.017, 'db.t3.small': 0.034, 'db.t3.medium': 0.068, 'db.t3.large': 0.136,
  'db.t4g.micro': 0.016, 'db.t4g.small': 0.032, 'db.t4g.medium': 0.065,
  'db.m5.large': 0.171, 'db.m5.xlarge': 0.342, 'db.m6g.large': 0.152, 'db.m6i.large': 0.171,
  'db.r5.large': 0.24, 'db.r5.xlarge': 0.48, 'db.r6g.large': 0.215,
};

/** EBS USD per GB-month by volume type. */
export const EBS_GB_MONTH: Record<string, number> = { gp2: 0.1, gp3: 0.08, io1: 0.125, io2: 0.125, st1: 0.045, sc1: 0.015, standard: 0.05 };
/** RDS storage USD per GB-month (gp2/gp3). */
export const RDS_STORAGE_GB_MONTH = 0.115;
/** An Elastic IP not associated with anything: USD 0.005 per hour. */
export const IDLE_EIP_HOURLY = 0.005;
/** A NAT gateway: USD 0.045 per hour (data processed, USD 0.045/GB, not estimated). */
export const NAT_GATEWAY_HOURLY = 0.045;
/** A load balancer's hourly charge by type (capacity units not estimated). */
export const LB_HOURLY: Record<string, number> = { application: 0.0225, network: 0.0225, gateway: 0.0125 };
/** A customer managed KMS key: USD 1 per month (requests not estimated). */
export const KMS_KEY_MONTHLY = 1;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const round = (n: number) => Math.round(n * 100) / 100;

/** Estimated USD per month of one discovered resource from its attributes. */
export function monthlyCost(type: string, a: Record<string, unknown>): number {
  switch (type) {
    case 'aws_instance': return round((EC2_HOURLY[str(a.instance_type)] ?? 0) * HOURS_PER_MONTH);
    case 'aws_db_instance': {
      const hourly = (RDS_HOURLY[str(a.instance_class)] ?? 0) * (a.multi_az === true ? 2 : 1);
      return round(hourly * HOURS_PER_MONTH + num(a.allocated_storage) * RDS_STORAGE_GB_MONTH);
    }
    case 'aws_ebs_volume': return round(num(a.size) * (EBS_GB_MONTH[str(a.type) || 'gp2'] ?? EBS_GB_MONTH.gp2));
    case 'aws_eip': return str(a.association_id) || str(a.instance) || str(a.network_interface) ? 0 : round(IDLE_EIP_HOURLY * HOURS_PER_MONTH);
    case 'aws_nat_gateway': return round(NAT_GATEWAY_HOURLY * HOURS_PER_MONTH);
    case 'aws_lb': return round((LB_HOURLY[str(a.load_balancer_type) || 'application'] ?? 0) * HOURS_PER_MONTH);
    case 'aws_kms_key': return a.key_state === 'PendingDeletion' ? 0 : KMS_KEY_MONTHLY;
    default: return 0;
  }
}
