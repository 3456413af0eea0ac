// Codify a discovered resource: HCL for its type with the configurable attributes the type's
// reader returns (computed ones such as arn, owner_id, state are left out), references to
// other discovered resources of the account written as references (`aws_vpc.vpc_0abc.id`),
// an `import {}` block and the `terraform import` command. Validation parses the text with the
// project's HCL parser (@cdktf/hcl2json, as runner-agent/src/engine/hcl.ts) and, when a
// tofu/terraform binary can initialise the AWS provider here, runs `validate` too.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { commentText, findTofu, hclString } from '../../runner-agent/src/engine/discovery.ts';

/** Configurable arguments per type, in the order written; everything else the reader returns is computed or not settable. */
export const CONFIGURABLE: Record<string, string[]> = {
  aws_instance: ['ami', 'instance_type', 'subnet_id', 'vpc_security_group_ids', 'key_name', 'iam_instance_profile', 'monitoring', 'ebs_optimized', 'source_dest_check', 'tags'],
  aws_security_group: ['name', 'description', 'vpc_id', 'tags'],
  aws_vpc: ['cidr_block', 'instance_tenancy', 'enable_dns_support', 'enable_dns_hostnames', 'tags'],
  aws_subnet: ['vpc_id', 'cidr_block', 'availability_zone', 'map_public_ip_on_launch', 'tags'],
  aws_ebs_volume: ['availability_zone', 'size', 'type', 'iops', 'throughput', 'encrypted', 'kms_key_id', 'snapshot_id', 'tags'],
  aws_eip: ['domain', 'instance', 'tags'],
  aws_s3_bucket: ['bucket', 'tags'],
  aws_iam_role: ['name', 'path', 'description', 'assume_role_policy', 'max_session_duration', 'permissions_boundary', 'tags'],
  aws_iam_policy: ['name', 'path', 'description', 'policy', 'tags'],
  aws_iam_user: ['name', 'path', 'permissions_boundary', 'tags'],
  aws_db_instance: ['identifier', 'engine', 'engine_version', 'instance_class', 'allocated_storage', 'max_allocated_storage', 'storage_type', 'iops', 'storage_encrypted',
    'kms_key_id', 'username', 'db_name', 'db_subnet_group_name', 'vpc_security_group_ids', 'parameter_group_name', 'publicly_accessible', 'multi_az', 'port',
    'backup_retention_period', 'backup_window', 'maintenance_window', 'deletion_protection', 'copy_tags_to_snapshot', 'auto_minor_version_upgrade', 'tags'],
  aws_lambda_function: ['function_name', 'role', 'handler', 'runtime', 'memory_size', 'timeout', 'description', 'architectures', 'package_type', 'tags'],
  aws_dynamodb_table: ['name', 'billing_mode', 'hash_key', 'range_key', 'read_capacity', 'write_capacity', 'attribute', 'stream_enabled', 'table_class', 'tags'],
  // EC2 networking and compute. A route table's routes are written as the aws_route resources discovered with it.
  aws_internet_gateway: ['vpc_id', 'tags'],
  aws_route_table: ['vpc_id', 'propagating_vgws', 'tags'],
  aws_route: ['route_table_id', 'destination_cidr_block', 'destination_ipv6_cidr_block', 'destination_prefix_list_id', 'gateway_id', 'nat_gateway_id',
    'network_interface_id', 'transit_gateway_id', 'vpc_peering_connection_id', 'egress_only_gateway_id', 'carrier_gateway_id', 'local_gateway_id', 'vpc_endpoint_id', 'core_network_arn'],
  aws_route_table_association: ['subnet_id', 'gateway_id', 'route_table_id'],
  aws_nat_gateway: ['allocation_id', 'subnet_id', 'connectivity_type', 'tags'],
  aws_network_interface: ['subnet_id', 'description', 'private_ips', 'security_groups', 'source_dest_check', 'tags'],
  // public_key: the key pair's public key material (DescribeKeyPairs with IncludePublicKey).
  aws_key_pair: ['key_name', 'public_key', 'tags'],
  aws_launch_template: ['name', 'description', 'image_id', 'instance_type', 'key_name', 'user_data', 'vpc_security_group_ids', 'tags'],
  aws_vpc_security_group_ingress_rule: ['security_group_id', 'ip_protocol', 'from_port', 'to_port', 'cidr_ipv4', 'cidr_ipv6', 'prefix_list_id', 'referenced_security_group_id', 'description', 'tags'],
  aws_vpc_security_group_egress_rule: ['security_group_id', 'ip_protocol', 'from_port', 'to_port', 'cidr_ipv4', 'cidr_ipv6', 'prefix_list_id', 'referenced_security_group_id', 'description', 'tags'],
  // S3 bucket configuration resources (provider v4+).
  aws_s3_bucket_versioning: ['bucket', 'versioning_configuration'],
  aws_s3_bucket_server_side_encryption_configuration: ['bucket', 'rule'],
  aws_s3_bucket_public_access_block: ['bucket', 'block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'],
  aws_s3_bucket_policy: ['bucket', 'policy'],
  // IAM.
  aws_iam_role_policy: ['name', 'role', 'policy'],
  aws_iam_role_policy_attachment: ['role', 'policy_arn'],
  aws_iam_user_policy: ['name', 'user', 'policy'],
  aws_iam_user_policy_attachment: ['user', 'policy_arn'],
  aws_iam_instance_profile: ['name', 'path', 'role', 'tags'],
  aws_iam_group: ['name', 'path'],
  aws_iam_access_key: ['user', 'status'],
  // Other services.
  aws_kms_key: ['description', 'customer_master_key_spec', 'is_enabled', 'enable_key_rotation', 'multi_region', 'policy', 'tags'],
  aws_kms_alias: ['name', 'target_key_id'],
  aws_sqs_queue: ['name', 'fifo_queue', 'visibility_timeout_seconds', 'message_retention_seconds', 'max_message_size', 'delay_seconds', 'receive_wait_time_seconds', 'policy',
    'redrive_policy', 'redrive_allow_policy', 'kms_master_key_id', 'sqs_managed_sse_enabled', 'content_based_deduplication', 'deduplication_scope', 'fifo_throughput_limit', 'tags'],
  aws_sns_topic: ['name', 'display_name', 'policy', 'delivery_policy', 'kms_master_key_id', 'fifo_topic', 'content_based_deduplication', 'tags'],
  aws_cloudwatch_log_group: ['name', 'retention_in_days', 'kms_key_id', 'tags'],
  aws_ecr_repository: ['name', 'image_tag_mutability', 'image_scanning_configuration', 'encryption_configuration', 'tags'],
  aws_ecs_cluster: ['name', 'setting', 'tags'],
  aws_ecs_task_definition: ['family', 'container_definitions', 'cpu', 'memory', 'network_mode', 'requires_compatibilities', 'execution_role_arn', 'task_role_arn', 'pid_mode', 'ipc_mode', 'tags'],
  aws_ecs_service: ['name', 'cluster', 'task_definition', 'desired_count', 'launch_type', 'scheduling_strategy', 'platform_version', 'enable_ecs_managed_tags', 'propagate_tags',
    'enable_execute_command', 'health_check_grace_period_seconds', 'network_configuration', 'load_balancer', 'tags'],
  aws_db_subnet_group: ['name', 'description', 'subnet_ids', 'tags'],
  aws_lb: ['name', 'internal', 'load_balancer_type', 'security_groups', 'subnets', 'ip_address_type', 'enable_deletion_protection', 'enable_cross_zone_load_balancing', 'tags'],
  aws_lb_target_group: ['name', 'port', 'protocol', 'protocol_version', 'vpc_id', 'target_type', 'ip_address_type', 'health_check', 'tags'],
  aws_lb_listener: ['load_balancer_arn', 'port', 'protocol', 'ssl_policy', 'certificate_arn', 'alpn_policy', 'default_action', 'tags'],
  // availability_zones only when no subnets are named (the two conflict): see codify.
  aws_autoscaling_group: ['name', 'min_size', 'max_size', 'desired_capacity', 'default_cooldown', 'health_check_type', 'health_check_grace_period', 'launch_configuration',
    'launch_template', 'vpc_zone_identifier', 'availability_zones', 'target_group_arns', 'load_balancers', 'termination_policies', 'max_instance_lifetime', 'capacity_rebalance'],
  aws_route53_zone: ['name', 'comment', 'vpc', 'tags'],
  aws_route53_record: ['zone_id', 'name', 'type', 'ttl', 'set_identifier', 'health_check_id', 'records', 'alias', 'weighted_routing_policy', 'failover_routing_policy', 'latency_routing_policy'],
};
/**
 * Nested blocks are the lists of objects (written as repeated blocks, recursively); where only
 * some of an object's keys are arguments, the keys each keeps.
 */
const BLOCKS: Record<string, string[]> = {
  attribute: ['name', 'type'],
  // id and name conflict: the id names the template.
  launch_template: ['id', 'version'],
  // The listener's action: the target group by ARN, or a redirect / fixed response.
  default_action: ['type', 'target_group_arn', 'redirect', 'fixed_response'],
};
/** Arguments holding ids (names, ARNs) of other resources, with the type they name. */
const REFERENCES: Record<string, string> = {
  vpc_id: 'aws_vpc', subnet_id: 'aws_subnet', vpc_security_group_ids: 'aws_security_group', instance: 'aws_instance', role: 'aws_iam_role',
  security_group_id: 'aws_security_group', security_groups: 'aws_security_group', subnet_ids: 'aws_subnet', subnets: 'aws_subnet', vpc_zone_identifier: 'aws_subnet',
  route_table_id: 'aws_route_table', gateway_id: 'aws_internet_gateway', nat_gateway_id: 'aws_nat_gateway', network_interface_id: 'aws_network_interface',
  allocation_id: 'aws_eip', user: 'aws_iam_user', policy_arn: 'aws_iam_policy', target_key_id: 'aws_kms_key', cluster: 'aws_ecs_cluster',
  load_balancer_arn: 'aws_lb', target_group_arn: 'aws_lb_target_group', target_group_arns: 'aws_lb_target_group', zone_id: 'aws_route53_zone',
  bucket: 'aws_s3_bucket',
};
/** Arguments whose value is a JSON document (policies, container definitions): written through jsonencode. */
const JSON_ARGS = new Set(['assume_role_policy', 'policy', 'redrive_policy', 'redrive_allow_policy', 'delivery_policy', 'container_definitions']);
/** Types whose id is composed of several parts (`role/arn`, `rtb_cidr`, `ZONE_name_TYPE`): the label is made of the whole id. */
const WHOLE_ID_LABEL = new Set(['aws_route', 'aws_iam_role_policy_attachment', 'aws_iam_user_policy_attachment', 'aws_iam_role_policy', 'aws_iam_user_policy', 'aws_route53_record']);

/**
 * The id `terraform import` takes, where it is not the id the reader reads by: a route table
 * association's `subnet/rtb` (or `gateway/rtb`), an ECS service's `cluster/service` and an ECS
 * cluster's name (the reader reads both by ARN).
 */
export function importIdOf(type: string, resourceId: string, attributes: Record<string, unknown>): string {
  const s = (k: string) => (typeof attributes[k] === 'string' ? attributes[k] as string : '');
  const name = (arn: string) => arn.split('/').pop() ?? arn;
  if (type === 'aws_route_table_association' && s('route_table_id') && (s('subnet_id') || s('gateway_id'))) return `${s('subnet_id') || s('gateway_id')}/${s('route_table_id')}`;
  if (type === 'aws_ecs_service' && s('cluster') && s('name')) return `${name(s('cluster'))}/${s('name')}`;
  if (type === 'aws_ecs_cluster' && s('name')) return s('name');
  return resourceId;
}

/** A Terraform name from a cloud id: letters, digits, underscores; starting with a letter. */
export const labelOf = (type: string, resourceId: string) => {
  const parts = resourceId.split('/');
  const tail = WHOLE_ID_LABEL.has(type) ? resourceId.replace(/arn:aws[\w-]*:iam::\d+:policy\//, '')
    // ELB ARNs end in name/hash (a listener's: lb-name/lb-hash/hash), a task definition's in family:revision.
    : (type === 'aws_lb' || type === 'aws_lb_target_group') && parts.length > 2 ? parts.slice(-2).join('_')
      : type === 'aws_lb_listener' && parts.length > 3 ? `${parts[parts.length - 3]}_${parts[parts.length - 1]}`
        : type === 'aws_ecs_task_definition' ? parts[parts.length - 1]
          : (resourceId.split(/[/:]/).pop() || resourceId);
  const clean = tail.replace(/[^A-Za-z0-9_]/g, '_').replace(/_+/g, '_').replace(/_$/, '').slice(0, 60);
  return /^[A-Za-z]/.test(clean) ? clean : `${type.replace(/^aws_/, '')}_${clean}`;
};

const ident = (k: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : hclString(k));

function value(v: unknown, indent: string): string {
  if (typeof v === 'string') return hclString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => value(x, indent)).join(', ')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, x]) => `${indent}  ${hclString(k)} = ${value(x, `${indent}  `)}`).join('\n')}\n${indent}}`;
  }
  return 'null';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

export interface Codified { iac: string; importCommand: string; address: string }

/**
 * `known`: other discovered resources of the account by resource id → type, for references.
 * `region`: written as a comment (one provider per region is the reader's business).
 */
export function codify(type: string, resourceId: string, region: string, attributes: Record<string, unknown>, known: Map<string, string>): Codified {
  const label = labelOf(type, resourceId);
  const address = `${type}.${label}`;
  const importId = importIdOf(type, resourceId, attributes);
  // A reference when the id names a discovered resource of the type the argument takes: by ARN (`.arn`), by name (IAM) or by id.
  const ref = (arg: string, id: unknown): string | undefined => {
    const target = REFERENCES[arg];
    if (typeof id !== 'string' || !target || known.get(id) !== target) return undefined;
    const attr = id.startsWith('arn:') ? 'arn' : ['aws_iam_role', 'aws_iam_user', 'aws_iam_group'].includes(target) ? 'name' : target === 'aws_s3_bucket' ? 'bucket' : 'id';
    return `${target}.${labelOf(target, id)}.${attr}`;
  };
  const blocks = (arg: string, list: Record<string, unknown>[], indent: string): string[] => list.flatMap((b) => {
    const inner: string[] = [];
    for (const [k, x] of Object.entries(b)) {
      if ((BLOCKS[arg] && !BLOCKS[arg].includes(k)) || empty(x)) continue;
      if (Array.isArray(x) && x.every(isPlainObject)) inner.push(...blocks(k, x as Record<string, unknown>[], `${indent}  `));
      else inner.push(`${indent}  ${ident(k)} = ${ref(k, x) ?? value(x, `${indent}  `)}`);
    }
    return [`${indent}${arg} {`, ...inner, `${indent}}`];
  });
  const lines: string[] = [];
  for (const arg of CONFIGURABLE[type] ?? []) {
    let v = attributes[arg];
    if (empty(v)) continue;
    if (type === 'aws_autoscaling_group' && arg === 'availability_zones' && !empty(attributes.vpc_zone_identifier)) continue;
    if (arg === 'role' && typeof v === 'string' && v.startsWith('arn:')) {
      // A Lambda function's role is an ARN; the reference is to the role named in it.
      const name = v.split('/').pop()!;
      lines.push(`  role = ${known.get(name) === 'aws_iam_role' ? `aws_iam_role.${labelOf('aws_iam_role', name)}.arn` : hclString(v)}`);
      continue;
    }
    if (Array.isArray(v) && v.length && v.every(isPlainObject)) {
      lines.push(...blocks(arg, v as Record<string, unknown>[], '  '));
      continue;
    }
    if (JSON_ARGS.has(arg) && typeof v === 'string') {
      try { lines.push(`  ${arg} = jsonencode(${value(JSON.parse(decodeURIComponent(v)), '  ')})`); continue; } catch { /* written as the string it is */ }
    }
    if (Array.isArray(v) && REFERENCES[arg]) {
      lines.push(`  ${arg} = [${v.map((id) => ref(arg, id) ?? value(id, '  ')).join(', ')}]`);
      continue;
    }
    const r = ref(arg, v);
    if (arg === 'tags' && v && typeof v === 'object') v = Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => !k.startsWith('aws:')));
    if (empty(v)) continue;
    lines.push(`  ${ident(arg)} = ${r ?? value(v, '  ')}`);
  }
  const iac = [
    // The comment line shows the id and region as text: no control character may end the line.
    commentText(`# ${type} ${resourceId} (${region}), generated by Cloud Discovery`),
    `import {`, `  to = ${address}`, `  id = ${hclString(importId)}`, `}`, '',
    `resource "${type}" "${label}" {`, ...lines, `}`, '',
  ].join('\n');
  const shellQuote = (q: string) => `'${q.replace(/'/g, `'\\''`)}'`;
  return { iac, importCommand: `terraform import ${address} ${shellQuote(importId)}`, address };
}

/** The parser's verdict, then the binary's when one can initialise the AWS provider offline. */
/**
 * `valid`: true or false from terraform/tofu validate when one initialised; false when the HCL
 * does not parse; null (with the reason in `message`) when only the parser ran: a syntax check
 * is not a validation against the provider's schema.
 */
export async function validateHcl(iac: string): Promise<{ valid: boolean | null; message: string | null; validator: string }> {
  try {
    await parse('main.tf', iac);
  } catch (err) {
    return { valid: false, message: String((err as Error)?.message ?? err).slice(0, 1000), validator: 'hcl2json' };
  }
  const bin = findTofu();
  if (!bin) return { valid: null, message: 'Not validated: the HCL parses (hcl2json), but no terraform or tofu is on PATH to validate it against the provider schema', validator: 'hcl2json' };
  const dir = await mkdtemp(path.join(tmpdir(), 'discovery-validate-'));
  try {
    await writeFile(path.join(dir, 'main.tf'), `${iac}\nprovider "aws" {\n  region = "us-east-1"\n}\n`);
    const run = (args: string[]) => new Promise<{ ok: boolean; out: string }>((resolve) => {
      execFile(bin, args, { cwd: dir, timeout: 60_000, env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' } },
        (err, stdout, stderr) => resolve({ ok: !err, out: `${stderr}\n${stdout}`.trim() }));
    });
    const init = await run(['init', '-backend=false', '-input=false', '-no-color']);
    // No provider available here (offline, no plugin mirror): only the parser's syntax check ran.
    if (!init.ok) {
      const why = init.out.split('\n').map((l) => l.trim()).find((l) => /^Error:/.test(l)) ?? init.out.split('\n')[0] ?? '';
      return { valid: null, message: `Not validated: the HCL parses (hcl2json), but ${path.basename(bin)} init failed (${why.slice(0, 300)})`, validator: 'hcl2json' };
    }
    const v = await run(['validate', '-no-color']);
    return { valid: v.ok, message: v.ok ? null : v.out.slice(0, 1000), validator: path.basename(bin) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
