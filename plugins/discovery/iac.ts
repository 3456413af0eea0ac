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
import { findTofu } from '../../runner-agent/src/engine/tofu.ts';

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
};
/** Nested blocks (lists of objects written as repeated blocks), with the keys each keeps. */
const BLOCKS: Record<string, string[]> = { attribute: ['name', 'type'] };
/** Arguments holding ids of other resources, with the type they name. */
const REFERENCES: Record<string, string> = {
  vpc_id: 'aws_vpc', subnet_id: 'aws_subnet', vpc_security_group_ids: 'aws_security_group', instance: 'aws_instance', role: 'aws_iam_role',
};
/** Arguments whose value is a JSON document (policies): written through jsonencode. */
const JSON_ARGS = new Set(['assume_role_policy', 'policy']);

/** A Terraform name from a cloud id: letters, digits, underscores; starting with a letter. */
export const labelOf = (type: string, resourceId: string) => {
  const tail = resourceId.split(/[/:]/).pop() || resourceId;
  const clean = tail.replace(/[^A-Za-z0-9_]/g, '_').replace(/_+/g, '_').slice(0, 60);
  return /^[A-Za-z]/.test(clean) ? clean : `${type.replace(/^aws_/, '')}_${clean}`;
};

/** An HCL string literal: JSON escapes, with template sequences escaped. */
const hclString = (s: string) => JSON.stringify(s).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
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

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

export interface Codified { iac: string; importCommand: string; address: string }

/**
 * `known`: other discovered resources of the account by resource id → type, for references.
 * `region`: written as a comment (one provider per region is the reader's business).
 */
export function codify(type: string, resourceId: string, region: string, attributes: Record<string, unknown>, known: Map<string, string>): Codified {
  const label = labelOf(type, resourceId);
  const address = `${type}.${label}`;
  const ref = (arg: string, id: unknown): string | undefined => {
    const target = REFERENCES[arg];
    if (typeof id !== 'string' || !target || known.get(id) !== target) return undefined;
    return `${target}.${labelOf(target, id)}.${target === 'aws_iam_role' ? 'arn' : 'id'}`;
  };
  const lines: string[] = [];
  for (const arg of CONFIGURABLE[type] ?? []) {
    let v = attributes[arg];
    if (empty(v)) continue;
    if (arg === 'role' && typeof v === 'string') {
      // A Lambda function's role is an ARN; the reference is to the role named in it.
      const name = v.split('/').pop()!;
      lines.push(`  role = ${known.get(name) === 'aws_iam_role' ? `aws_iam_role.${labelOf('aws_iam_role', name)}.arn` : hclString(v)}`);
      continue;
    }
    if (BLOCKS[arg] && Array.isArray(v)) {
      for (const b of v as Record<string, unknown>[]) {
        lines.push(`  ${arg} {`);
        for (const k of BLOCKS[arg]) if (!empty(b[k])) lines.push(`    ${k} = ${value(b[k], '    ')}`);
        lines.push('  }');
      }
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
    `# ${type} ${resourceId} (${region}), generated by Cloud Discovery`,
    `import {`, `  to = ${address}`, `  id = ${hclString(resourceId)}`, `}`, '',
    `resource "${type}" "${label}" {`, ...lines, `}`, '',
  ].join('\n');
  const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return { iac, importCommand: `terraform import ${address} ${shellQuote(resourceId)}`, address };
}

/** The parser's verdict, then the binary's when one can initialise the AWS provider offline. */
export async function validateHcl(iac: string): Promise<{ valid: boolean; message: string | null; validator: string }> {
  try {
    await parse('main.tf', iac);
  } catch (err) {
    return { valid: false, message: String((err as Error)?.message ?? err).slice(0, 1000), validator: 'hcl2json' };
  }
  const bin = findTofu();
  if (!bin) return { valid: true, message: null, validator: 'hcl2json' };
  const dir = await mkdtemp(path.join(tmpdir(), 'discovery-validate-'));
  try {
    await writeFile(path.join(dir, 'main.tf'), `${iac}\nprovider "aws" {\n  region = "us-east-1"\n}\n`);
    const run = (args: string[]) => new Promise<{ ok: boolean; out: string }>((resolve) => {
      execFile(bin, args, { cwd: dir, timeout: 60_000, env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' } },
        (err, stdout, stderr) => resolve({ ok: !err, out: `${stderr}\n${stdout}`.trim() }));
    });
    const init = await run(['init', '-backend=false', '-input=false', '-no-color']);
    // No provider available here (offline, no plugin cache): the parser's verdict stands.
    if (!init.ok) return { valid: true, message: null, validator: 'hcl2json' };
    const v = await run(['validate', '-no-color']);
    return { valid: v.ok, message: v.ok ? null : v.out.slice(0, 1000), validator: path.basename(bin) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
