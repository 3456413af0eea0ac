// The scan's inventory: every managed resource instance of the states read, with the id the
// engine's reader looks it up by (the same id Cloud Discovery records and `terraform import`
// takes), its region and account. The service keeps it per repository config (the scans
// plugin's managed_resources) so discovery can tell managed resources from orphans.
//
// The id is the state's `id` (resourceIdOf, where.ts) except for the types whose reader and
// import use another attribute: a DB instance's `identifier` (provider v5+ stores the DBI
// resource id in `id`), an IAM role, user, group or instance profile's `name`, an IAM policy's
// `arn`, a bucket's `bucket`, a Lambda function's `function_name`, a DynamoDB table's `name`;
// policy attachments and routes compose their import id (COMPOSED_ID).
import { arnRegion } from './region.ts';
import type { InventoryItem, StateInstance } from './types.ts';
import { accountOf, resourceIdOf } from './where.ts';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The attribute each type's reader (and import) identifies it by, where it is not `id`. */
const ID_ATTRIBUTE: Record<string, string> = {
  aws_db_instance: 'identifier',
  aws_iam_role: 'name', aws_iam_user: 'name', aws_iam_group: 'name', aws_iam_instance_profile: 'name',
  aws_iam_policy: 'arn',
  aws_s3_bucket: 'bucket',
  aws_lambda_function: 'function_name',
  aws_dynamodb_table: 'name',
};

/**
 * Types whose provider id is random or hashed (attachments: `role-2024...`; routes: `r-rtb-...1080289494`):
 * the id is composed as `terraform import` takes it, which is also what Cloud Discovery lists.
 */
const COMPOSED_ID: Record<string, (a: Record<string, unknown>) => string | undefined> = {
  aws_iam_role_policy_attachment: (a) => (text(a.role) && text(a.policy_arn) ? `${text(a.role)}/${text(a.policy_arn)}` : undefined),
  aws_iam_user_policy_attachment: (a) => (text(a.user) && text(a.policy_arn) ? `${text(a.user)}/${text(a.policy_arn)}` : undefined),
  aws_route: (a) => {
    const dest = text(a.destination_cidr_block) ?? text(a.destination_ipv6_cidr_block) ?? text(a.destination_prefix_list_id);
    return text(a.route_table_id) && dest ? `${text(a.route_table_id)}_${dest}` : undefined;
  },
};

/** The id the engine's reader for `type` looks the resource up by. */
export function readerIdOf(type: string, attributes: Record<string, unknown>): string | null {
  const composed = COMPOSED_ID[type]?.(attributes);
  if (composed) return composed;
  const own = ID_ATTRIBUTE[type];
  return (own ? text(attributes[own]) : undefined) ?? resourceIdOf(attributes);
}

const REGION = /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$/;
/** A region the instance's own attributes name (attribute, ARN, zone). */
/** The AWS region an instance's own attributes name (region, ARN, availability zone). */
export function ownRegion(attributes: Record<string, unknown>): string | undefined {
  const own = text(attributes.region);
  if (own && REGION.test(own)) return own;
  const zone = /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)/.exec(text(attributes.availability_zone) ?? '')?.[1];
  return arnRegion(attributes) ?? zone;
}

/** `regions`: the region the scan resolved for an instance (region.ts), when it did. */
export function inventoryOf(instances: StateInstance[], regions: Map<StateInstance, string>): InventoryItem[] {
  return instances.map((i) => ({
    address: i.address, type: i.type, resourceId: readerIdOf(i.type, i.attributes),
    region: regions.get(i) || ownRegion(i.attributes) || null, account: accountOf(i.attributes),
  }));
}
