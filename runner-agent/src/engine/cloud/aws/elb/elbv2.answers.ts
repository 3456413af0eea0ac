// Replay answers for the ELBv2 readers: load balancers, listeners and target groups from the
// state (aws_lb and its older name aws_alb), unknown ARNs failing the call as the API does.
import {
  DescribeListeners$, DescribeLoadBalancerAttributes$, DescribeLoadBalancers$, DescribeTags$, DescribeTargetGroups$,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { isObject } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const lbs = (w: FakeWorld) => [...attrsOf(w, 'aws_lb'), ...attrsOf(w, 'aws_alb')];
const arnOf = (a: Record<string, unknown>) => str(a.arn || a.id);

function pick(all: Record<string, unknown>[], arns: string[] | undefined, code: string): Record<string, unknown>[] {
  if (!arns?.length) return all;
  return arns.map((arn) => {
    const a = all.find((x) => arnOf(x) === arn);
    if (!a) throw new FakeError(code, `One or more resources not found: '${arn}'`);
    return a;
  });
}

const lbSettings = (a: Record<string, unknown>) => ({
  'deletion_protection.enabled': a.enable_deletion_protection, 'idle_timeout.timeout_seconds': a.idle_timeout,
  'routing.http.drop_invalid_header_fields.enabled': a.drop_invalid_header_fields, 'routing.http2.enabled': a.enable_http2,
  'load_balancing.cross_zone.enabled': a.enable_cross_zone_load_balancing,
});

export const ELBV2_ANSWERS = [
  answer<{ LoadBalancerArns?: string[] }>('elasticloadbalancing', DescribeLoadBalancers$, (input, world) => ({
    LoadBalancers: pick(lbs(world), input.LoadBalancerArns, 'LoadBalancerNotFound').map((a) => ({
      LoadBalancerArn: arnOf(a), LoadBalancerName: opt(a.name), DNSName: opt(a.dns_name), CanonicalHostedZoneId: opt(a.zone_id), Scheme: bool(a.internal) ? 'internal' : 'internet-facing',
      Type: opt(a.load_balancer_type) ?? 'application', SecurityGroups: list(a.security_groups), AvailabilityZones: list(a.subnets).map((SubnetId) => ({ SubnetId, ZoneName: 'replay' })),
      IpAddressType: opt(a.ip_address_type), VpcId: opt(a.vpc_id),
    })),
  })),
  answer<{ LoadBalancerArn: string }>('elasticloadbalancing', DescribeLoadBalancerAttributes$, (input, world) => {
    const [a] = pick(lbs(world), [input.LoadBalancerArn], 'LoadBalancerNotFound');
    return { Attributes: Object.entries(lbSettings(a)).filter(([, v]) => opt(v) !== undefined).map(([Key, v]) => ({ Key, Value: String(v) })) };
  }),
  answer<{ ListenerArns?: string[] }>('elasticloadbalancing', DescribeListeners$, (input, world) => ({
    Listeners: pick(attrsOf(world, 'aws_lb_listener'), input.ListenerArns, 'ListenerNotFound').map((a) => ({
      ListenerArn: arnOf(a), LoadBalancerArn: opt(a.load_balancer_arn), Port: num(a.port), Protocol: opt(a.protocol), SslPolicy: opt(a.ssl_policy),
      Certificates: opt(a.certificate_arn) ? [{ CertificateArn: str(a.certificate_arn), IsDefault: true }] : undefined, AlpnPolicy: opt(a.alpn_policy) ? [str(a.alpn_policy)] : undefined,
      DefaultActions: (Array.isArray(a.default_action) ? a.default_action.filter(isObject) : []).map((d) => {
        const r = block(d.redirect);
        const f = block(d.fixed_response);
        return {
          Type: opt(d.type), Order: num(d.order), TargetGroupArn: opt(d.target_group_arn),
          RedirectConfig: opt(r.status_code) ? { Host: opt(r.host), Path: opt(r.path), Port: opt(r.port), Protocol: opt(r.protocol), Query: opt(r.query), StatusCode: str(r.status_code) } : undefined,
          FixedResponseConfig: opt(f.status_code) ? { ContentType: opt(f.content_type), MessageBody: opt(f.message_body), StatusCode: str(f.status_code) } : undefined,
        };
      }),
    })),
  })),
  answer<{ TargetGroupArns?: string[] }>('elasticloadbalancing', DescribeTargetGroups$, (input, world) => ({
    TargetGroups: pick(attrsOf(world, 'aws_lb_target_group'), input.TargetGroupArns, 'TargetGroupNotFound').map((a) => {
      const h = block(a.health_check);
      return {
        TargetGroupArn: arnOf(a), TargetGroupName: opt(a.name), Port: num(a.port), Protocol: opt(a.protocol), ProtocolVersion: opt(a.protocol_version), VpcId: opt(a.vpc_id),
        TargetType: opt(a.target_type), IpAddressType: opt(a.ip_address_type), HealthCheckEnabled: bool(h.enabled), HealthyThresholdCount: num(h.healthy_threshold),
        UnhealthyThresholdCount: num(h.unhealthy_threshold), HealthCheckIntervalSeconds: num(h.interval), HealthCheckTimeoutSeconds: num(h.timeout), HealthCheckPath: opt(h.path),
        HealthCheckPort: opt(h.port), HealthCheckProtocol: opt(h.protocol), Matcher: opt(h.matcher) ? { HttpCode: str(h.matcher) } : undefined,
      };
    }),
  })),
  answer<{ ResourceArns?: string[] }>('elasticloadbalancing', DescribeTags$, (input, world) => {
    const all = [...lbs(world), ...attrsOf(world, 'aws_lb_listener'), ...attrsOf(world, 'aws_lb_target_group')];
    return { TagDescriptions: pick(all, input.ResourceArns, 'LoadBalancerNotFound').map((a) => ({ ResourceArn: arnOf(a), Tags: tagList(stateTags(a)) })) };
  }),
];
