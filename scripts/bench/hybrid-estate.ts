// The hybrid-scan benchmark's estate (issue 34 "Targets"): `size` managed instances applied by
// terraform into a private moto, 80% of types the engine reads natively (security groups, SSM
// parameters, metric alarms) and 20% of types it has no reader for (Route 53 health checks,
// CloudWatch dashboards, SSM documents), settled once with `apply -refresh-only`, then changed
// out of band with the SDK on a spread of both kinds. The endpoint reaches the provider through
// AWS_ENDPOINT_URL only (hashicorp/aws 5.x honours it for every service).
import { CloudWatchClient, PutDashboardCommand, PutMetricAlarmCommand } from '@aws-sdk/client-cloudwatch';
import { CreateTagsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetHealthCheckCommand, Route53Client, UpdateHealthCheckCommand } from '@aws-sdk/client-route-53';
import { DeleteDocumentCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mapLimit } from '../../runner-agent/src/engine/tools.ts';
import { ALARM_SETTINGS, HEALTH_CHECK_SETTINGS } from '../../test/engine/hybrid/estate.ts';

export const CREDS = { accessKeyId: 'bench', secretAccessKey: 'bench', region: 'us-east-1' };

/** Share of the estate per resource name; the last three have no native reader. */
export const MIX = [
  { type: 'aws_security_group', name: 'sg', share: 0.4, native: true },
  { type: 'aws_ssm_parameter', name: 'param', share: 0.2, native: true },
  { type: 'aws_cloudwatch_metric_alarm', name: 'alarm', share: 0.2, native: true },
  { type: 'aws_route53_health_check', name: 'hc', share: 0.08, native: false },
  { type: 'aws_cloudwatch_dashboard', name: 'dash', share: 0.06, native: false },
  { type: 'aws_ssm_document', name: 'doc', share: 0.06, native: false },
] as const;

export type Counts = Record<(typeof MIX)[number]['name'], number>;
export function counts(size: number): Counts {
  const out = Object.fromEntries(MIX.map((m) => [m.name, Math.round(size * m.share)])) as Counts;
  out.sg += size - Object.values(out).reduce((a, b) => a + b, 0); // rounding lands on the largest kind
  return out;
}

export const mainTf = (n: Counts) => `provider "aws" {
  region = "us-east-1"
}

resource "aws_security_group" "sg" {
  count       = ${n.sg}
  name        = "bench-sg-\${count.index}"
  description = "bench"
  tags        = { Team = "bench" }
}

resource "aws_ssm_parameter" "param" {
  count = ${n.param}
  name  = "/bench/param-\${count.index}"
  type  = "String"
  value = "v1"
}

resource "aws_cloudwatch_metric_alarm" "alarm" {
  count               = ${n.alarm}
  alarm_name          = "bench-alarm-\${count.index}"
${ALARM_SETTINGS}
}

resource "aws_route53_health_check" "hc" {
  count             = ${n.hc}
  fqdn              = "hc-\${count.index}.example.com"
${HEALTH_CHECK_SETTINGS}
}

resource "aws_cloudwatch_dashboard" "dash" {
  count          = ${n.dash}
  dashboard_name = "bench-dash-\${count.index}"
  dashboard_body = jsonencode({ widgets = [] })
}

resource "aws_ssm_document" "doc" {
  count         = ${n.doc}
  name          = "bench-doc-\${count.index}"
  document_type = "Command"
  content = jsonencode({
    schemaVersion = "2.2"
    description   = "bench"
    mainSteps     = [{ action = "aws:runShellScript", name = "run", inputs = { runCommand = ["true"] } }]
  })
}
`;

export { terraform, writeCliConfig } from '../../test/engine/hybrid/estate.ts';

type State = { resources: { type: string; name: string; instances: { index_key?: number; attributes: Record<string, unknown> }[] }[] };

/**
 * Out-of-band changes, one attribute each (a document deleted): every 50th security group,
 * parameter and alarm, every 25th health check and dashboard, every 50th document. Returns the
 * changed addresses.
 */
export async function changeOutOfBand(endpoint: string, state: State): Promise<{ native: string[]; provider: string[] }> {
  const cfg = { endpoint, region: CREDS.region, credentials: CREDS };
  const ec2 = new EC2Client(cfg);
  const ssm = new SSMClient(cfg);
  const cw = new CloudWatchClient(cfg);
  const r53 = new Route53Client(cfg);
  const every = (name: string, step: number) => (state.resources.find((r) => r.name === name)?.instances ?? [])
    .filter((i) => (i.index_key ?? 0) % step === 0).map((i) => ({ address: `${MIX.find((m) => m.name === name)!.type}.${name}[${i.index_key}]`, a: i.attributes }));
  const id = (a: Record<string, unknown>) => String(a.id);
  const jobs: { address: string; native: boolean; run: () => Promise<unknown> }[] = [
    ...every('sg', 50).map((x) => ({ address: x.address, native: true, run: () => ec2.send(new CreateTagsCommand({ Resources: [id(x.a)], Tags: [{ Key: 'Owner', Value: 'someone' }] })) })),
    ...every('param', 50).map((x) => ({ address: x.address, native: true, run: () => ssm.send(new PutParameterCommand({ Name: id(x.a), Value: 'v2', Type: 'String', Overwrite: true })) })),
    ...every('alarm', 50).map((x) => ({ address: x.address, native: true, run: () => cw.send(new PutMetricAlarmCommand({
      AlarmName: id(x.a), ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 2, MetricName: 'CPUUtilization', Namespace: 'AWS/EC2',
      Period: 60, Statistic: 'Average', Threshold: 95, ActionsEnabled: true,
    })) })),
    ...every('hc', 25).map((x) => ({ address: x.address, native: false, run: async () => {
      const v = (await r53.send(new GetHealthCheckCommand({ HealthCheckId: id(x.a) }))).HealthCheck?.HealthCheckVersion;
      return r53.send(new UpdateHealthCheckCommand({ HealthCheckId: id(x.a), HealthCheckVersion: v, FailureThreshold: 5 }));
    } })),
    ...every('dash', 25).map((x) => ({ address: x.address, native: false, run: () => cw.send(new PutDashboardCommand({ DashboardName: id(x.a),
      DashboardBody: JSON.stringify({ widgets: [{ type: 'text', x: 0, y: 0, width: 6, height: 3, properties: { markdown: 'changed' } }] }) })) })),
    ...every('doc', 50).map((x) => ({ address: x.address, native: false, run: () => ssm.send(new DeleteDocumentCommand({ Name: id(x.a) })) })),
  ];
  try {
    await mapLimit(jobs, 8, (j) => j.run());
  } finally {
    for (const c of [ec2, ssm, cw, r53]) c.destroy();
  }
  return { native: jobs.filter((j) => j.native).map((j) => j.address), provider: jobs.filter((j) => !j.native).map((j) => j.address) };
}
