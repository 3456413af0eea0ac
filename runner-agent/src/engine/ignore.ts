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
import { insideCheckout } from './paths.ts';
import { globRegExp } from './values.ts';

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
