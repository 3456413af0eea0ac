// The built-in templates on the plan documents of plans/: every template finds what it is
// meant to find (each at least once) and nothing else; unknown-until-apply values are listed,
// never reported as violations.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { evaluatePlan, type PlanDocument } from '../../../plugins/guardrails/plan.ts';
import { ruleProblems } from '../../../plugins/guardrails/policy-rules.ts';
import { TEMPLATES } from '../../../plugins/guardrails/templates.ts';

const DIR = join(import.meta.dirname, 'plans');

/** plan file -> template id -> "address path" of each violation, checked by reading the plans. */
const EXPECTED: Record<string, Record<string, string[]>> = {
  '01-create.json': {
    'no-ssh-from-internet': ['aws_security_group.web ingress[0].cidr_blocks'],
    'no-rdp-from-internet': ['aws_vpc_security_group_ingress_rule.rdp cidr_ipv4'],
    's3-public-access-blocked': ['aws_s3_bucket_public_access_block.logs block_public_policy'],
    's3-no-public-acl': ['aws_s3_bucket_acl.logs acl'],
    'ebs-encrypted': ['aws_instance.web root_block_device[0].encrypted'],
    'no-public-ip-on-instances': ['aws_instance.web associate_public_ip_address'],
    'imdsv2-required': ['aws_instance.web metadata_options[0].http_tokens'],
    'iam-no-wildcard-action': ['aws_iam_policy.admin policy'],
    'instance-type-allow-list': ['aws_instance.web instance_type'],
    'required-tags': ['aws_instance.web tags.Owner'],
    'environment-tag-values': ['aws_instance.web tags.Environment'],
    'cost-center-tag-format': ['aws_instance.web tags.CostCenter'],
  },
  '02-update-delete-noop.json': {
    'ebs-encrypted': ['aws_instance.app root_block_device[0].encrypted'],
    'imdsv2-required': ['aws_instance.app metadata_options[0].http_tokens'],
    'instance-type-allow-list': ['aws_instance.app instance_type'],
    'ebs-volume-size-limit': ['aws_ebs_volume.scratch size'],
    'environment-tag-values': ['aws_ebs_volume.scratch tags.Environment'],
    'cost-center-tag-format': ['aws_instance.app tags.CostCenter'],
  },
  '03-replace.json': {
    'ebs-encrypted': ['aws_ebs_volume.data encrypted'],
    'rds-instance-class-allow-list': ['aws_db_instance.orders instance_class'],
    'no-provisioned-iops-volumes': ['aws_ebs_volume.data type'],
    'cost-center-tag-format': ['aws_db_instance.orders tags.CostCenter'],
  },
  '04-modules-count-for-each.json': {
    'no-ssh-from-internet': ['module.network.aws_security_group_rule.ssh[0] cidr_blocks'],
    'no-rdp-from-internet': ['module.network.aws_security_group_rule.ssh[0] cidr_blocks'],
    'no-public-ip-on-instances': ['module.network.aws_subnet.private[1] map_public_ip_on_launch'],
    'ebs-volume-size-limit': ['module.data.module.disks.aws_ebs_volume.this["cache"] size'],
    'required-tags': ['module.storage.aws_s3_bucket.this["audit"] tags.Owner'],
  },
  '05-unknown-after-apply.json': {
    'cost-center-tag-format': ['aws_instance.worker tags.CostCenter'],
  },
  '06-sensitive.json': {
    'rds-not-public': ['aws_db_instance.billing publicly_accessible'],
  },
  '07-templates.json': {
    'no-ssh-from-internet': ['aws_security_group.ssh_v6 ingress[0].ipv6_cidr_blocks'],
    'no-rdp-from-internet': ['aws_security_group_rule.rdp cidr_blocks'],
    's3-encryption-required': ['aws_s3_bucket_server_side_encryption_configuration.none rule'],
    's3-no-public-acl': ['aws_s3_bucket.website acl'],
    'rds-storage-encrypted': ['aws_db_instance.legacy storage_encrypted', 'aws_rds_cluster.aurora storage_encrypted'],
    'iam-no-wildcard-action': ['aws_iam_role_policy.ci policy'],
    'no-provisioned-iops-volumes': ['aws_ebs_volume.fast type'],
  },
};

t.test('templates: at least 12, across security, cost and tagging, with rules that pass the write-time check', async (t) => {
  t.ok(TEMPLATES.length >= 12, `${TEMPLATES.length} templates`);
  t.same([...new Set(TEMPLATES.map((x) => x.category))].sort(), ['cost', 'security', 'tagging']);
  t.equal(new Set(TEMPLATES.map((x) => x._id)).size, TEMPLATES.length, 'ids are unique');
  for (const tpl of TEMPLATES) t.same(ruleProblems(tpl.rules), [], `${tpl._id}: rules valid`);
});

t.test('each template on each plan finds exactly the expected violations', async (t) => {
  const found = new Set<string>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
    const plan = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as PlanDocument;
    const result = evaluatePlan(plan, TEMPLATES.map((x) => ({ _id: x._id, name: x.name, enforcement: x.enforcement, rules: x.rules })));
    for (const r of result.results) {
      const got = r.violations.map((v) => `${v.address} ${v.path}`);
      t.same(got, EXPECTED[file]?.[r.guardrailId] ?? [], `${file}: ${r.guardrailId}`);
      if (got.length) found.add(r.guardrailId);
    }
  }
  t.same(TEMPLATES.map((x) => x._id).filter((id) => !found.has(id)), [], 'every template finds a violation in some plan');
});

t.test('values unknown until apply are listed, not violations', async (t) => {
  const plan = JSON.parse(readFileSync(join(DIR, '05-unknown-after-apply.json'), 'utf8')) as PlanDocument;
  const result = evaluatePlan(plan, TEMPLATES.map((x) => ({ _id: x._id, name: x.name, enforcement: x.enforcement, rules: x.rules })));
  const unknown = Object.fromEntries(result.results.filter((r) => r.unknownCount).map((r) => [r.guardrailId, r.unknowns.map((u) => `${u.address} ${u.path}`)]));
  t.same(unknown['instance-type-allow-list'], ['aws_instance.worker instance_type']);
  t.same(unknown['imdsv2-required'], ['aws_instance.worker metadata_options[0].http_tokens']);
  t.same(unknown['ebs-volume-size-limit'], ['aws_ebs_volume.sized size']);
  t.ok(unknown['no-ssh-from-internet'].includes('aws_security_group.dynamic ingress[0].cidr_blocks'), 'a CIDR known only after apply, on port 22');
  t.equal(result.decision, 'allowed', 'only the dry-run template has a violation here');
});
