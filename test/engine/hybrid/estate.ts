// The hybrid-scan estate (issue 34 point 5): a configuration holding types the engine reads
// natively and types it has no reader for, applied into moto by terraform as a user would, its
// state committed as terraform.tfstate; and the out-of-band changes made to both kinds. Used by
// hybrid.test.ts. The endpoint reaches the provider through AWS_ENDPOINT_URL (honoured by
// hashicorp/aws 5.100 for every service, STS included), so the code holds no endpoint setting.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchClient, PutDashboardCommand, PutMetricAlarmCommand } from '@aws-sdk/client-cloudwatch';
import { AuthorizeSecurityGroupIngressCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetHealthCheckCommand, Route53Client, UpdateHealthCheckCommand } from '@aws-sdk/client-route-53';
import { DeleteDocumentCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { findTofu } from '../../../runner-agent/src/engine/tofu.ts';
import { commitFile, git, REGION } from '../world.ts';

export const MIRROR = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
export const TERRAFORM = findTofu();
const hasMirror = existsSync(join(MIRROR, 'registry.terraform.io', 'hashicorp', 'aws'));
export const SKIP = !TERRAFORM ? 'neither tofu nor terraform on PATH' : !hasMirror ? `no provider mirror at ${MIRROR}` : false;

/** A CLI configuration that installs providers from the filesystem mirror only (nothing downloaded). */
export function writeCliConfig(dir: string, mirror = MIRROR): string {
  const rc = join(dir, 'cli.tfrc');
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  return rc;
}

/** Natively read (AWS_READERS has them) and not (no reader: only a provider plan compares them). */
export const NATIVE = ['aws_security_group.web', 'aws_ssm_parameter.flag', 'aws_cloudwatch_metric_alarm.cpu'];
export const NO_READER = ['aws_route53_health_check.web', 'aws_cloudwatch_dashboard.main', 'aws_ssm_document.setup'];
export const NO_READER_TYPES = NO_READER.map((a) => a.split('.')[0]);

export const MAIN_TF = (suffix: string) => `provider "aws" {
  region = "${REGION}"
}

resource "aws_security_group" "web" {
  name        = "hybrid-web-${suffix}"
  description = "web"
  tags        = { Env = "prod" }
}

resource "aws_ssm_parameter" "flag" {
  name  = "/hybrid/${suffix}/flag"
  type  = "String"
  value = "off"
}

resource "aws_cloudwatch_metric_alarm" "cpu" {
  alarm_name          = "hybrid-cpu-${suffix}"
${ALARM_SETTINGS}
}

resource "aws_route53_health_check" "web" {
  fqdn              = "hybrid-${suffix}.example.com"
${HEALTH_CHECK_SETTINGS}
}

resource "aws_cloudwatch_dashboard" "main" {
  dashboard_name = "hybrid-${suffix}"
  dashboard_body = jsonencode({ widgets = [] })
}

resource "aws_ssm_document" "setup" {
  name          = "hybrid-setup-${suffix}"
  document_type = "Command"
  content = jsonencode({
    schemaVersion = "2.2"
    description   = "setup"
    mainSteps     = [{ action = "aws:runShellScript", name = "run", inputs = { runCommand = ["true"] } }]
  })
}
`;

type Json = Record<string, unknown>;
export interface Estate { repo: string; suffix: string; state: { resources: { type: string; name: string; instances: { attributes: Json }[] }[] } }

/** terraform with the user's environment: credentials and the endpoint as environment variables only. */
export function terraform(cwd: string, env: NodeJS.ProcessEnv, bin = TERRAFORM!) {
  return (...args: string[]) => new Promise<string>((resolve, reject) =>
    execFile(bin, args, { cwd, env, maxBuffer: 1 << 30 }, (e, stdout, stderr) => (e ? reject(new Error(`${args[0]}: ${(stderr || stdout).slice(-2000)}`)) : resolve(stdout))));
}

/** Settings of the estate's alarm and health checks, shared with the benchmark's estate (scripts/bench/hybrid-estate.ts). */
export const ALARM_SETTINGS = `  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 2
  metric_name         = "CPUUtilization"
  namespace           = "AWS/EC2"
  period              = 60
  statistic           = "Average"
  threshold           = 80`;
export const HEALTH_CHECK_SETTINGS = `  port              = 80
  type              = "HTTP"
  resource_path     = "/"
  failure_threshold = 3
  request_interval  = 30`;

/**
 * Applies the estate into moto from `scratch/apply`, settles it once (`apply -refresh-only`: a
 * real estate has been refreshed since its apply; right after one the provider's next read fills
 * `tags = {}` and the like), and commits the code and the state to a git repository `scratch/repo`.
 */
export async function applyEstate(scratch: string, rc: string, endpoint: string, creds: { accessKeyId: string; secretAccessKey: string }): Promise<Estate> {
  const suffix = `h${Date.now().toString(36)}${process.pid}`;
  const work = join(scratch, 'apply');
  mkdirSync(work);
  writeFileSync(join(work, 'main.tf'), MAIN_TF(suffix));
  const tf = terraform(work, {
    ...process.env, TF_CLI_CONFIG_FILE: rc, AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: creds.accessKeyId,
    AWS_SECRET_ACCESS_KEY: creds.secretAccessKey, AWS_REGION: REGION, CHECKPOINT_DISABLE: '1',
  });
  await tf('init', '-input=false', '-no-color');
  await tf('apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=20');
  await tf('apply', '-refresh-only', '-auto-approve', '-input=false', '-no-color');
  git(scratch, 'init', '-q', '-b', 'main', 'repo');
  const repo = join(scratch, 'repo');
  copyFileSync(join(work, 'terraform.tfstate'), join(repo, 'terraform.tfstate'));
  commitFile(repo, 'main.tf', MAIN_TF(suffix));
  return { repo, suffix, state: JSON.parse(readFileSync(join(repo, 'terraform.tfstate'), 'utf8')) as Estate['state'] };
}

export function attr(e: Estate, address: string, key: string): string {
  const [type, name] = address.split('.');
  const v = e.state.resources.find((r) => r.type === type && r.name === name)?.instances[0]?.attributes[key];
  if (typeof v !== 'string' || !v) throw new Error(`no ${key} on ${address} in the state`);
  return v;
}

/** One changed attribute on each native instance and each no-reader instance but the document, which is deleted. */
export async function changeOutOfBand(e: Estate, endpoint: string): Promise<void> {
  const cfg = { endpoint, region: REGION, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } };
  const ec2 = new EC2Client(cfg);
  const ssm = new SSMClient(cfg);
  const cw = new CloudWatchClient(cfg);
  const r53 = new Route53Client(cfg);
  try {
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: attr(e, 'aws_security_group.web', 'id'),
      IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
    await ssm.send(new PutParameterCommand({ Name: attr(e, 'aws_ssm_parameter.flag', 'name'), Value: 'on', Type: 'String', Overwrite: true }));
    await cw.send(new PutMetricAlarmCommand({
      AlarmName: attr(e, 'aws_cloudwatch_metric_alarm.cpu', 'alarm_name'), ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 2,
      MetricName: 'CPUUtilization', Namespace: 'AWS/EC2', Period: 60, Statistic: 'Average', Threshold: 95, ActionsEnabled: true,
    }));
    const hc = attr(e, 'aws_route53_health_check.web', 'id');
    const version = (await r53.send(new GetHealthCheckCommand({ HealthCheckId: hc }))).HealthCheck?.HealthCheckVersion;
    await r53.send(new UpdateHealthCheckCommand({ HealthCheckId: hc, HealthCheckVersion: version, FailureThreshold: 5 }));
    await cw.send(new PutDashboardCommand({ DashboardName: attr(e, 'aws_cloudwatch_dashboard.main', 'dashboard_name'),
      DashboardBody: JSON.stringify({ widgets: [{ type: 'text', x: 0, y: 0, width: 6, height: 3, properties: { markdown: 'changed' } }] }) }));
    await ssm.send(new DeleteDocumentCommand({ Name: attr(e, 'aws_ssm_document.setup', 'name') }));
  } finally {
    for (const c of [ec2, ssm, cw, r53]) c.destroy();
  }
}
