// aws_lb / aws_alb, aws_lb_listener, aws_lb_target_group: Describe calls by ARN, 20 a call (an
// unknown ARN fails the whole call, so that batch is retried ARN by ARN), tags 20 ARNs a
// DescribeTags call; a load balancer's settings cost one DescribeLoadBalancerAttributes each.
import {
  DescribeListenersCommand, DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand, DescribeTagsCommand, DescribeTargetGroupsCommand,
  type Action, type DescribeLoadBalancerAttributesCommandOutput, type DescribeTagsCommandOutput, type Listener, type LoadBalancer, type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { byRegion, str, type ReadItem, type TypeReader } from '../reader.ts';
import { ELBV2_ANSWERS } from './elbv2.answers.ts';

const PER_CALL = 20;
const NOT_FOUND = new Set(['LoadBalancerNotFound', 'LoadBalancerNotFoundException', 'ListenerNotFound', 'ListenerNotFoundException', 'TargetGroupNotFound', 'TargetGroupNotFoundException']);

/** `call` over ids, PER_CALL at a time; a batch failing on an unknown id is retried one id at a time. */
async function byArns<R>(ids: string[], call: (part: string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const part of chunk([...new Set(ids)].filter(Boolean), PER_CALL)) {
    try {
      out.push(...await call(part));
    } catch (e) {
      if (!NOT_FOUND.has(errorName(e))) throw e;
      for (const id of part) {
        try { out.push(...await call([id])); } catch (e2) { if (!NOT_FOUND.has(errorName(e2))) throw e2; }
      }
    }
  }
  return out;
}

async function tagsOf(ctx: AwsContext, region: string, arns: string[]): Promise<Map<string, Record<string, string>>> {
  const found = await byArns(arns, async (part) => (await ctx.send<DescribeTagsCommandOutput>(ctx.elbv2(region), new DescribeTagsCommand({ ResourceArns: part }), 'elasticloadbalancing:DescribeTags')).TagDescriptions ?? []);
  return new Map(found.map((t) => [t.ResourceArn ?? '', tagMap(t.Tags)]));
}

/** Reads records by the state's ARN per region, then their tags, then maps each to attributes. */
function arnReader<R>(what: string, call: (ctx: AwsContext, region: string, arns: string[]) => Promise<R[]>, arnOf: (r: R) => string | undefined,
  live: (r: R, tags: Record<string, string>, ctx: AwsContext, region: string) => Promise<LiveAttributes> | LiveAttributes): TypeReader {
  return {
    spec: what === 'listener' ? { sets: { default_action: actionKey } } : {},
    answers: ELBV2_ANSWERS,
    async read(items: ReadItem[], ctx: AwsContext) {
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      for (const [region, group] of byRegion(items)) {
        const records = new Map((await call(ctx, region, group.map((g) => str(g.item.instance.attributes.arn || g.item.instance.attributes.id)))).map((r) => [arnOf(r) ?? '', r]));
        const tags = await tagsOf(ctx, region, [...records.keys()]);
        await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
          const r = records.get(str(item.instance.attributes.arn || item.instance.attributes.id));
          if (r) out[index] = await live(r, tags.get(arnOf(r) ?? '') ?? {}, ctx, region);
        });
      }
      return out;
    },
  };
}

const SETTINGS: Record<string, string> = {
  'deletion_protection.enabled': 'enable_deletion_protection', 'idle_timeout.timeout_seconds': 'idle_timeout',
  'routing.http.drop_invalid_header_fields.enabled': 'drop_invalid_header_fields', 'routing.http2.enabled': 'enable_http2',
  'load_balancing.cross_zone.enabled': 'enable_cross_zone_load_balancing',
};

export const loadBalancerReader = arnReader<LoadBalancer>('lb', async (ctx, region, arns) => byArns(arns, async (part) =>
  (await ctx.send<{ LoadBalancers?: LoadBalancer[] }>(ctx.elbv2(region), new DescribeLoadBalancersCommand({ LoadBalancerArns: part }), 'elasticloadbalancing:DescribeLoadBalancers')).LoadBalancers ?? []),
(lb) => lb.LoadBalancerArn, async (lb, tags, ctx, region) => {
  const attrs = await ctx.send<DescribeLoadBalancerAttributesCommandOutput>(ctx.elbv2(region), new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: lb.LoadBalancerArn }), 'elasticloadbalancing:DescribeLoadBalancerAttributes');
  const settings: Record<string, unknown> = {};
  for (const a of attrs.Attributes ?? []) {
    const name = SETTINGS[a.Key ?? ''];
    if (name) settings[name] = a.Value === 'true' ? true : a.Value === 'false' ? false : /^\d+$/.test(a.Value ?? '') ? Number(a.Value) : a.Value;
  }
  return {
    arn: lb.LoadBalancerArn, name: lb.LoadBalancerName, dns_name: lb.DNSName, zone_id: lb.CanonicalHostedZoneId, internal: lb.Scheme === 'internal',
    load_balancer_type: lb.Type, security_groups: lb.SecurityGroups ?? [], subnets: (lb.AvailabilityZones ?? []).map((z) => z.SubnetId), ip_address_type: lb.IpAddressType,
    vpc_id: lb.VpcId, ...settings, tags, tags_all: tags,
  };
});

/** A listener action as the provider's element: type, order, target group and its redirect / fixed response, for set comparison. */
export function actionElement(a: Action) {
  return {
    type: a.Type, order: a.Order, target_group_arn: a.TargetGroupArn ?? '',
    redirect: a.RedirectConfig ? [{ host: a.RedirectConfig.Host, path: a.RedirectConfig.Path, port: a.RedirectConfig.Port, protocol: a.RedirectConfig.Protocol, query: a.RedirectConfig.Query, status_code: a.RedirectConfig.StatusCode }] : [],
    fixed_response: a.FixedResponseConfig ? [{ content_type: a.FixedResponseConfig.ContentType, message_body: a.FixedResponseConfig.MessageBody ?? '', status_code: a.FixedResponseConfig.StatusCode }] : [],
  };
}
function actionKey(e: unknown): string[] {
  const o = (e ?? {}) as Record<string, unknown>;
  const pick = (v: unknown) => JSON.stringify(Array.isArray(v) && v[0] ? Object.entries(v[0] as object).filter(([, x]) => x !== '' && x !== null && x !== undefined).sort() : []);
  return [`${str(o.type)}|${str(o.target_group_arn)}|${pick(o.redirect)}|${pick(o.fixed_response)}`];
}

export const listenerReader = arnReader<Listener>('listener', async (ctx, region, arns) => byArns(arns, async (part) =>
  (await ctx.send<{ Listeners?: Listener[] }>(ctx.elbv2(region), new DescribeListenersCommand({ ListenerArns: part }), 'elasticloadbalancing:DescribeListeners')).Listeners ?? []),
(l) => l.ListenerArn, (l, tags) => ({
  // ssl_policy as the API answers it: the provider stores that, even on a plain HTTP listener
  // (moto names a policy there; AWS none), so blanking it there reported drift Terraform does not.
  arn: l.ListenerArn, load_balancer_arn: l.LoadBalancerArn, port: l.Port, protocol: l.Protocol, ssl_policy: l.SslPolicy ?? '',
  certificate_arn: l.Certificates?.find((c) => c.IsDefault !== false)?.CertificateArn ?? '', alpn_policy: l.AlpnPolicy?.[0] ?? '',
  default_action: (l.DefaultActions ?? []).map(actionElement), tags, tags_all: tags,
}));

export const targetGroupReader = arnReader<TargetGroup>('tg', async (ctx, region, arns) => byArns(arns, async (part) =>
  (await ctx.send<{ TargetGroups?: TargetGroup[] }>(ctx.elbv2(region), new DescribeTargetGroupsCommand({ TargetGroupArns: part }), 'elasticloadbalancing:DescribeTargetGroups')).TargetGroups ?? []),
(t) => t.TargetGroupArn, (t, tags) => ({
  arn: t.TargetGroupArn, name: t.TargetGroupName, port: t.Port, protocol: t.Protocol ?? '', protocol_version: t.ProtocolVersion, vpc_id: t.VpcId ?? '',
  target_type: t.TargetType, ip_address_type: t.IpAddressType,
  health_check: [{
    enabled: t.HealthCheckEnabled, healthy_threshold: t.HealthyThresholdCount, unhealthy_threshold: t.UnhealthyThresholdCount, interval: t.HealthCheckIntervalSeconds,
    timeout: t.HealthCheckTimeoutSeconds, path: t.HealthCheckPath ?? '', port: t.HealthCheckPort, protocol: t.HealthCheckProtocol, matcher: t.Matcher?.HttpCode ?? t.Matcher?.GrpcCode ?? '',
  }],
  tags, tags_all: tags,
}));

