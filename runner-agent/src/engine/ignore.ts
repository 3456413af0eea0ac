// What is never reported as drift. Two layers, both matched against attribute paths such as
// `tags.Env` or `versioning_configuration.0.status`:
//   1. IGNORED_ATTRIBUTES: computed or noisy attributes per resource type (data, reviewed here);
//   2. the repository's `.driftignore` at its root (format below, and in the README).
//
// .driftignore: one pattern per line; `#` starts a comment; blank lines are skipped.
//   <selector>.<attribute path>      e.g.  aws_instance.tags.LastSeen
//                                          aws_instance.web.tags.LastSeen
//                                          module.net.aws_security_group.app["a"].description
//   `*` matches any run of characters: aws_instance.*.tags.LastSeen, *.tags.Team
//   A pattern also covers everything under it: `aws_s3_bucket.logs.tags` ignores every tag of that
//   bucket, `aws_iam_role.legacy` every attribute of it (changes only; a deleted resource is still
//   reported, since a gone resource is never noise).
// The selector is a resource type or a resource address; each diff is tried as
// `<type>.<attribute>`, `<address>.<attribute>` and, inside modules, as the address without its
// module path, so `aws_instance.*.tags.LastSeen` also covers `module.app.aws_instance.web`.
import { readFile } from 'node:fs/promises';
import { formatAddress, parseAddress } from './address.ts';
import { AZURE_MORE_IGNORED } from './cloud/azure/more/ignore.ts';
import { AZURE_NETWORK_IGNORED } from './cloud/azure/network/ignore.ts';
import { AZURE_RESOURCES_IGNORED } from './cloud/azure/resources/ignore.ts';
import { insideCheckout } from './paths.ts';
import { globRegExp } from './values.ts';
import { PLATFORM_IGNORED } from './cloud/google/platform/index.ts';
import { GCP_DATA_IGNORED } from './cloud/google/data/ignore.ts';
import { MORE_IGNORED } from './cloud/google/more/index.ts';
import { COMPUTE_IGNORED } from './cloud/google/compute/ignored.ts';
import { ACM_IGNORED } from './cloud/aws/acm/index.ts';
import { APIGATEWAY_IGNORED } from './cloud/aws/apigateway/index.ts';
import { CLOUDFRONT_IGNORED } from './cloud/aws/cloudfront/index.ts';
import { EKS_IGNORED } from './cloud/aws/eks/index.ts';
import { LAMBDA_EXTRA_IGNORED } from './cloud/aws/lambdaextra/index.ts';

/** Attribute patterns per resource type; `*` applies to every type. */
export const IGNORED_ATTRIBUTES: Record<string, string[]> = {
  '*': ['id', 'arn', 'tags_all', 'timeouts', 'region'],
  aws_instance: [
    'private_dns', 'public_dns', 'public_ip', 'primary_network_interface_id', 'cpu_core_count',
    'cpu_threads_per_core', 'cpu_options', 'instance_state', 'password_data', 'outpost_arn', 'host_id',
    'ipv6_address_count', 'ipv6_addresses', 'network_interface', 'root_block_device', 'ebs_block_device',
    'ephemeral_block_device', 'launch_template', 'instance_lifecycle', 'spot_instance_request_id',
    'private_dns_name_options', 'metadata_options', 'capacity_reservation_specification',
    'maintenance_options', 'enclave_options', 'credit_specification', 'user_data_replace_on_change',
    'get_password_data', 'secondary_private_ips', 'associate_public_ip_address', 'security_groups',
  ],
  aws_security_group: ['owner_id', 'name_prefix', 'revoke_rules_on_delete'],
  aws_default_security_group: ['owner_id', 'name_prefix', 'revoke_rules_on_delete'],
  aws_default_route_table: ['owner_id', 'default_route_table_id'],
  aws_security_group_rule: ['security_group_rule_id'],
  aws_vpc_security_group_ingress_rule: ['security_group_rule_id', 'tags_all'],
  aws_vpc_security_group_egress_rule: ['security_group_rule_id', 'tags_all'],
  aws_s3_bucket: [
    'bucket_domain_name', 'bucket_regional_domain_name', 'hosted_zone_id', 'bucket_prefix', 'force_destroy',
    'acceleration_status', 'request_payer', 'website_domain', 'website_endpoint', 'object_lock_enabled',
    'versioning.*.mfa_delete',
  ],
  aws_s3_bucket_versioning: ['expected_bucket_owner', 'mfa', 'versioning_configuration.*.mfa_delete'],
  aws_s3_bucket_server_side_encryption_configuration: ['expected_bucket_owner'],
  aws_iam_role: ['create_date', 'unique_id', 'name_prefix', 'force_detach_policies'],
  aws_iam_policy: ['policy_id', 'name_prefix', 'attachment_count'],
  // Computed identifiers and values the API fills in (duplicates of the id, owners, generated names).
  aws_vpc: ['owner_id', 'dhcp_options_id', 'main_route_table_id', 'default_network_acl_id', 'default_route_table_id', 'default_security_group_id', 'ipv6_association_id'],
  aws_subnet: ['owner_id', 'availability_zone_id', 'ipv6_cidr_block_association_id'],
  aws_default_vpc: ['owner_id', 'dhcp_options_id', 'main_route_table_id', 'default_network_acl_id', 'default_route_table_id', 'default_security_group_id', 'ipv6_association_id', 'force_destroy', 'existing_default_vpc'],
  aws_default_subnet: ['owner_id', 'availability_zone_id', 'ipv6_cidr_block_association_id', 'force_destroy', 'existing_default_subnet'],
  aws_kms_alias: ['name_prefix', 'target_key_arn'],
  aws_internet_gateway: ['owner_id'],
  aws_route_table: ['owner_id'],
  aws_route: ['origin', 'state', 'instance_owner_id'],
  aws_eip: ['allocation_id', 'association_id', 'network_border_group', 'public_ipv4_pool', 'private_ip'],
  aws_network_interface: ['owner_id', 'mac_address', 'private_dns_name', 'interface_type', 'attachment.*.attachment_id', 'attachment.*.network_card_index'],
  aws_nat_gateway: ['network_interface_id'],
  aws_key_pair: ['key_pair_id', 'fingerprint', 'key_name_prefix', 'public_key'],
  aws_launch_template: ['latest_version', 'name_prefix', 'update_default_version'],
  aws_iam_instance_profile: ['unique_id', 'create_date', 'name_prefix'],
  aws_iam_user: ['unique_id', 'force_destroy'],
  aws_iam_group: ['unique_id'],
  aws_db_instance: ['status', 'address', 'endpoint', 'hosted_zone_id', 'resource_id', 'latest_restorable_time', 'engine_version_actual', 'apply_immediately', 'availability_zone'],
  aws_db_subnet_group: ['name_prefix', 'supported_network_types', 'vpc_id'],
  aws_lb: ['dns_name', 'zone_id', 'arn_suffix', 'name_prefix', 'vpc_id'],
  aws_alb: ['dns_name', 'zone_id', 'arn_suffix', 'name_prefix', 'vpc_id'],
  aws_lb_target_group: ['arn_suffix', 'name_prefix', 'load_balancer_arns'],
  aws_ecr_repository: ['registry_id', 'repository_url', 'force_delete'],
  aws_ecs_task_definition: ['revision', 'arn_without_revision', 'skip_destroy', 'track_latest'],
  aws_ecs_service: ['force_new_deployment', 'wait_for_steady_state', 'iam_role', 'triggers'],
  aws_lambda_function: ['last_modified', 'qualified_arn', 'qualified_invoke_arn', 'invoke_arn', 'version', 'source_code_hash', 'source_code_size', 'signing_job_arn', 'signing_profile_version_arn', 'publish', 'filename', 's3_bucket', 's3_key', 's3_object_version', 'code_sha256', 'skip_destroy', 'vpc_config.*.vpc_id'],
  aws_dynamodb_table: ['stream_arn', 'stream_label', 'ttl', 'replica', 'restore_date_time', 'restore_source_name', 'restore_to_latest_time'],
  aws_cloudwatch_log_group: ['name_prefix', 'skip_destroy'],
  aws_kms_key: ['key_id', 'deletion_window_in_days', 'bypass_policy_lockout_safety_check', 'custom_key_store_id', 'xks_key_id'],
  aws_sns_topic: ['owner', 'name_prefix', 'beginning_archive_time'],
  aws_sqs_queue: ['url', 'name_prefix'],
  aws_route53_zone: ['name_servers', 'primary_name_server', 'force_destroy', 'delegation_set_id'],
  aws_route53_record: ['fqdn', 'allow_overwrite'],
  ...AZURE_NETWORK_IGNORED,
  ...AZURE_MORE_IGNORED,
  ...COMPUTE_IGNORED,
  aws_autoscaling_group: ['name_prefix', 'force_delete', 'force_delete_warm_pool', 'wait_for_capacity_timeout', 'min_elb_capacity', 'wait_for_elb_capacity', 'predicted_capacity'],
  ...PLATFORM_IGNORED,
  ...GCP_DATA_IGNORED,
  ...MORE_IGNORED,
  ...AZURE_RESOURCES_IGNORED,
  ...EKS_IGNORED,
  ...APIGATEWAY_IGNORED,
  ...LAMBDA_EXTRA_IGNORED,
  ...CLOUDFRONT_IGNORED,
  ...ACM_IGNORED,
};

export interface IgnoreRules {
  /** True when the diff at `attribute` of this resource is not to be reported. */
  ignores(resourceType: string, address: string, attribute: string): boolean;
  /** Number of repository patterns in force. */
  patternCount: number;
}

export function parseIgnoreFile(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.replace(/(^|\s)#.*$/, '').trim()).filter(Boolean);
}

export function buildIgnoreRules(repoPatterns: string[], table: Record<string, string[]> = IGNORED_ATTRIBUTES): IgnoreRules {
  const builtIn = new Map<string, RegExp[]>();
  for (const [type, attrs] of Object.entries(table)) builtIn.set(type, attrs.map((a) => globRegExp(a, true)));
  const repo = repoPatterns.map((p) => globRegExp(p, true));
  return {
    patternCount: repoPatterns.length,
    ignores(resourceType, address, attribute) {
      for (const key of ['*', resourceType]) {
        if (builtIn.get(key)?.some((re) => re.test(attribute))) return true;
      }
      if (repo.length === 0) return false;
      const keys = [`${resourceType}.${attribute}`, `${address}.${attribute}`];
      if (address.startsWith('module.')) keys.push(`${localAddress(address)}.${attribute}`);
      return repo.some((re) => keys.some((k) => re.test(k)));
    },
  };
}

/** `module.a.aws_instance.web[0]` -> `aws_instance.web[0]`. */
function localAddress(address: string): string {
  try {
    const { type, name, indexKey } = parseAddress(address);
    return formatAddress({ type, name, indexKey });
  } catch {
    return address;
  }
}

/** Reads `<root>/.driftignore` (missing file = no patterns); a link out of the checkout is refused (paths.ts). */
export async function loadIgnoreFile(repoRoot: string): Promise<string[]> {
  const file = await insideCheckout(repoRoot, '.driftignore', '.driftignore', 'file');
  return file ? parseIgnoreFile(await readFile(file, 'utf8')) : [];
}
