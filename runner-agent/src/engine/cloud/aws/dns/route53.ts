// aws_route53_zone: GetHostedZone per zone, tags 10 zones a ListTagsForResources call;
// aws_route53_record: one paged ListResourceRecordSets per zone (300 records a page) serves
// every record of that zone. Names compare lower-case without the trailing dot; TXT values
// without the quotes the API wraps them in, as the provider stores them.
import {
  GetHostedZone$, GetHostedZoneCommand, ListResourceRecordSets$, ListResourceRecordSetsCommand, ListTagsForResources$, ListTagsForResourcesCommand,
  type GetHostedZoneCommandOutput, type ListResourceRecordSetsCommandOutput, type ListTagsForResourcesCommandOutput, type ResourceRecordSet,
} from '@aws-sdk/client-route-53';
import { genericKey } from '../../../diff.ts';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const zoneId = (id: unknown) => str(id).replace(/^\/hostedzone\//, '');
/** `Www.Example.com.` and `\052.example.com` as the provider stores them: `www.example.com`, `*.example.com`. */
const dnsName = (n: unknown) => str(n).replace(/\\052/g, '*').replace(/\\100/g, '@').replace(/\.$/, '').toLowerCase();
const unquote = (type: string, v: string) => (type === 'TXT' || type === 'SPF' ? v.replace(/^"(.*)"$/s, '$1').replace(/" "/g, '') : v);
const quote = (type: string, v: string) => (type === 'TXT' || type === 'SPF' ? `"${v}"` : v);
const NO_ZONE = ['NoSuchHostedZone'];

function fakeZone(world: FakeWorld, id: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_route53_zone').find((x) => zoneId(x.zone_id || x.id) === zoneId(id));
  if (a) return a;
  if (attrsOf(world, 'aws_route53_record').some((r) => zoneId(r.zone_id) === zoneId(id))) return { zone_id: zoneId(id), name: '' };
  throw new FakeError('NoSuchHostedZone', `No hosted zone found with ID: ${zoneId(id)}`, 404);
}

const answers = [
  answer<{ Id: string }>('route53', GetHostedZone$, (input, world) => {
    const a = fakeZone(world, input.Id);
    const vpcs = Array.isArray(a.vpc) ? a.vpc.filter(isObject) : [];
    return {
      HostedZone: { Id: `/hostedzone/${zoneId(input.Id)}`, Name: `${str(a.name)}.`, CallerReference: 'replay', Config: { Comment: opt(a.comment), PrivateZone: vpcs.length > 0 } },
      DelegationSet: list(a.name_servers).length ? { NameServers: list(a.name_servers) } : undefined,
      VPCs: vpcs.length ? vpcs.map((v) => ({ VPCId: str(v.vpc_id), VPCRegion: opt(v.vpc_region) })) : undefined,
    };
  }),
  answer<{ ResourceIds: string[] }>('route53', ListTagsForResources$, (input, world) => ({
    ResourceTagSets: input.ResourceIds.map((id) => ({ ResourceType: 'hostedzone', ResourceId: zoneId(id), Tags: tagList(stateTags(fakeZone(world, id))) })),
  })),
  answer<{ HostedZoneId: string }>('route53', ListResourceRecordSets$, (input, world) => {
    fakeZone(world, input.HostedZoneId);
    const records = attrsOf(world, 'aws_route53_record').filter((r) => zoneId(r.zone_id) === zoneId(input.HostedZoneId));
    return { IsTruncated: false, MaxItems: 300, ResourceRecordSets: records.map((r) => {
      const type = str(r.type);
      const alias = block(r.alias);
      return {
        Name: `${str(r.fqdn || r.name)}.`, Type: type, TTL: opt(alias.name) ? undefined : num(r.ttl), SetIdentifier: opt(r.set_identifier), HealthCheckId: opt(r.health_check_id),
        ResourceRecords: opt(alias.name) ? undefined : list(r.records).map((Value) => ({ Value: quote(type, Value) })),
        AliasTarget: opt(alias.name) ? { DNSName: `${str(alias.name)}.`, HostedZoneId: str(alias.zone_id), EvaluateTargetHealth: bool(alias.evaluate_target_health) ?? false } : undefined,
        Weight: num(block(r.weighted_routing_policy).weight), Failover: opt(block(r.failover_routing_policy).type), Region: opt(block(r.latency_routing_policy).region),
      };
    }) };
  }),
];

export const route53ZoneReader: TypeReader = {
  spec: { sets: { vpc: genericKey } },
  answers,
  async read(items, ctx) {
    const ids = items.map((i) => zoneId(i.instance.attributes.zone_id || i.instance.attributes.id));
    const tags = new Map<string, Record<string, string>>();
    for (const part of chunk([...new Set(ids)], 10)) {
      const out = await unlessAbsent(ctx.send<ListTagsForResourcesCommandOutput>(ctx.route53(), new ListTagsForResourcesCommand({ ResourceType: 'hostedzone', ResourceIds: part }), 'route53:ListTagsForResources'), NO_ZONE);
      for (const s of out?.ResourceTagSets ?? []) tags.set(s.ResourceId ?? '', tagMap(s.Tags));
    }
    return mapLimit(ids, PER_RESOURCE_CONCURRENCY, async (id): Promise<LiveAttributes | null> => {
      const z = await unlessAbsent(ctx.send<GetHostedZoneCommandOutput>(ctx.route53(), new GetHostedZoneCommand({ Id: id }), 'route53:GetHostedZone'), NO_ZONE);
      if (!z?.HostedZone) return null;
      const t = tags.get(id) ?? {};
      return {
        zone_id: id, name: dnsName(z.HostedZone.Name), comment: z.HostedZone.Config?.Comment ?? '', name_servers: z.DelegationSet?.NameServers ?? [],
        vpc: (z.VPCs ?? []).map((v) => ({ vpc_id: v.VPCId, vpc_region: v.VPCRegion })), tags: t, tags_all: t,
      };
    });
  },
};

/** Every record of a zone, once per scan; undefined when the zone is gone. */
function zoneRecords(ctx: AwsContext, zone: string): Promise<ResourceRecordSet[] | undefined> {
  return once(ctx, `route53:records:${zone}`, async () => {
    const all: ResourceRecordSet[] = [];
    let next: { StartRecordName?: string; StartRecordType?: string; StartRecordIdentifier?: string } = {};
    for (;;) {
      const page = await unlessAbsent(ctx.send<ListResourceRecordSetsCommandOutput>(ctx.route53(), new ListResourceRecordSetsCommand({ HostedZoneId: zone, MaxItems: 300, ...next } as never), 'route53:ListResourceRecordSets'), NO_ZONE);
      if (!page) return undefined;
      all.push(...(page.ResourceRecordSets ?? []));
      if (!page.IsTruncated) return all;
      next = { StartRecordName: page.NextRecordName, StartRecordType: page.NextRecordType, StartRecordIdentifier: page.NextRecordIdentifier };
    }
  });
}

export const route53RecordReader: TypeReader = {
  spec: {},
  answers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }): Promise<LiveAttributes | null> => {
    const a = instance.attributes;
    const records = await zoneRecords(ctx, zoneId(a.zone_id));
    const want = dnsName(a.fqdn || a.name);
    const r = records?.find((x) => dnsName(x.Name) === want && x.Type === str(a.type) && (x.SetIdentifier ?? '') === str(a.set_identifier));
    if (!r) return null;
    const type = r.Type ?? '';
    return {
      zone_id: zoneId(a.zone_id), name: a.name, type, ttl: r.AliasTarget ? a.ttl : r.TTL, set_identifier: r.SetIdentifier ?? '', health_check_id: r.HealthCheckId ?? '',
      records: r.AliasTarget ? [] : (r.ResourceRecords ?? []).map((v) => unquote(type, v.Value ?? '')),
      alias: r.AliasTarget ? [{ name: dnsName(r.AliasTarget.DNSName), zone_id: r.AliasTarget.HostedZoneId, evaluate_target_health: r.AliasTarget.EvaluateTargetHealth }] : [],
      weighted_routing_policy: r.Weight !== undefined ? [{ weight: r.Weight }] : [], failover_routing_policy: r.Failover ? [{ type: r.Failover }] : [],
      latency_routing_policy: r.Region ? [{ region: r.Region }] : [],
    };
  }),
};
