// List mode of the readers: the resources of one type in one region (or, for IAM, S3 and
// Route 53, the account), as the ids the type's reader reads them by (inventory.ts readerIdOf).
// The attributes are then read through the reader itself (AWS_READERS[type].read), so a
// resource discovered and a resource compared are described by the same code. Cloud Discovery
// uses this. The listers live by service in list-ec2.ts, list-iam.ts and list-services.ts.
//
// Reader types with no lister, on purpose: aws_security_group_rule (the legacy rule type; the
// same rules are listed as aws_vpc_security_group_ingress_rule / _egress_rule, one per rule
// id), the aliases aws_alb, aws_alb_listener, aws_alb_target_group (listed as aws_lb*), and
// aws_default_vpc / _subnet / _security_group / _route_table (the same objects are listed as
// aws_vpc, aws_subnet, aws_security_group, aws_route_table).
import { DescribeRegionsCommand, type DescribeRegionsCommandOutput } from '@aws-sdk/client-ec2';
import type { AwsContext } from './context.ts';
import { EC2_LISTERS } from './list-ec2.ts';
import { IAM_LISTERS } from './list-iam.ts';
import type { Lister } from './list-kit.ts';
import { SERVICE_LISTERS } from './list-services.ts';

export type { Listed, Lister } from './list-kit.ts';

export const AWS_LISTERS: Record<string, Lister> = { ...EC2_LISTERS, ...SERVICE_LISTERS, ...IAM_LISTERS };

/** Reader types listed under another type's name (see above). */
export const NOT_LISTED: Record<string, string> = {
  aws_security_group_rule: 'aws_vpc_security_group_ingress_rule / aws_vpc_security_group_egress_rule',
  aws_alb: 'aws_lb', aws_alb_listener: 'aws_lb_listener', aws_alb_target_group: 'aws_lb_target_group',
  aws_default_vpc: 'aws_vpc', aws_default_subnet: 'aws_subnet', aws_default_security_group: 'aws_security_group', aws_default_route_table: 'aws_route_table',
};

/** The regions the account has enabled (EC2 DescribeRegions), sorted. */
export async function enabledRegions(ctx: AwsContext): Promise<string[]> {
  const out = await ctx.send<DescribeRegionsCommandOutput>(ctx.ec2(ctx.defaultRegion), new DescribeRegionsCommand({}), 'ec2:DescribeRegions');
  return (out.Regions ?? []).filter((r) => r.OptInStatus !== 'not-opted-in').map((r) => r.RegionName!).filter(Boolean).sort();
}
