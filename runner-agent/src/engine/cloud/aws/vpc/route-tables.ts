// aws_route_table, aws_route_table_association, aws_route: all three read the route tables the
// state names, batched (one DescribeRouteTables per 200 tables, shared for the scan). The fake's
// route tables are the union of what the state records about them across the three types.
import { DescribeRouteTables$, DescribeRouteTablesCommand, type Route, type RouteTable } from '@aws-sdk/client-ec2';
import { genericKey } from '../../../diff.ts';
import { isObject, tagMap } from '../../../values.ts';
import type { LiveAttributes } from '../../../types.ts';
import { MANAGED_ROUTES, routeDestination } from '../../../standalone.ts';
import { ec2Answer, ec2Records, type Ec2Describe } from '../ec2-describe.ts';
import { byRegion, str, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, opt, stateTags, tagList } from '../replay/kit.ts';

const TABLES: Ec2Describe<RouteTable> = {
  command: DescribeRouteTablesCommand, schema: DescribeRouteTables$, what: 'DescribeRouteTables', idsField: 'RouteTableIds',
  filter: 'route-table-id', listField: 'RouteTables', notFound: 'InvalidRouteTableID.NotFound', idOf: (t) => t.RouteTableId ?? '',
};

/** A route's target fields in the provider's names (a gateway endpoint's `vpce-` id is its own field). */
function routeTarget(r: Route): Record<string, string> {
  const gw = r.GatewayId ?? '';
  return {
    gateway_id: gw.startsWith('vpce-') ? '' : gw, vpc_endpoint_id: gw.startsWith('vpce-') ? gw : '', nat_gateway_id: r.NatGatewayId ?? '',
    network_interface_id: r.NetworkInterfaceId ?? '', transit_gateway_id: r.TransitGatewayId ?? '', vpc_peering_connection_id: r.VpcPeeringConnectionId ?? '',
    egress_only_gateway_id: r.EgressOnlyInternetGatewayId ?? '', carrier_gateway_id: r.CarrierGatewayId ?? '', local_gateway_id: r.LocalGatewayId ?? '',
    core_network_arn: r.CoreNetworkArn ?? '',
  };
}

/** Routes the provider lists in a table's `route`: not the local route, not propagated ones. */
const ownRoutes = (t: RouteTable) => (t.Routes ?? []).filter((r) => r.Origin !== 'CreateRouteTable' && r.Origin !== 'EnableVgwRoutePropagation' && r.GatewayId !== 'local');

function tablesOf(ctx: Parameters<TypeReader['read']>[1], items: Parameters<TypeReader['read']>[0], idOf: (a: Record<string, unknown>) => string,
  build: (t: RouteTable, a: Record<string, unknown>) => LiveAttributes | null): Promise<(LiveAttributes | null)[]> {
  return (async () => {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const tables = await ec2Records(ctx, region, TABLES, group.map((g) => idOf(g.item.instance.attributes)));
      for (const { item, index } of group) {
        const t = tables.get(idOf(item.instance.attributes));
        if (t) out[index] = build(t, item.instance.attributes);
      }
    }
    return out;
  })();
}

// ---- the fake's route tables -------------------------------------------------------------

const destination = (a: Record<string, unknown>) => ({
  DestinationCidrBlock: opt(a.cidr_block ?? a.destination_cidr_block), DestinationIpv6CidrBlock: opt(a.ipv6_cidr_block ?? a.destination_ipv6_cidr_block),
  DestinationPrefixListId: opt(a.destination_prefix_list_id),
});
const apiRoute = (a: Record<string, unknown>) => ({
  ...destination(a), GatewayId: opt(a.gateway_id) ?? opt(a.vpc_endpoint_id), NatGatewayId: opt(a.nat_gateway_id), NetworkInterfaceId: opt(a.network_interface_id),
  TransitGatewayId: opt(a.transit_gateway_id), VpcPeeringConnectionId: opt(a.vpc_peering_connection_id), EgressOnlyInternetGatewayId: opt(a.egress_only_gateway_id),
  CarrierGatewayId: opt(a.carrier_gateway_id), LocalGatewayId: opt(a.local_gateway_id), CoreNetworkArn: opt(a.core_network_arn),
  InstanceId: opt(a.instance_id), Origin: opt(a.origin) ?? 'CreateRoute', State: opt(a.state) ?? 'active',
});

function fakeTables(world: FakeWorld): Record<string, unknown>[] {
  const tables = new Map<string, { a: Record<string, unknown>; routes: Map<string, unknown>; assoc: unknown[] }>();
  const table = (id: string, a: Record<string, unknown> = { id }) => {
    let t = tables.get(id);
    if (!t) tables.set(id, t = { a, routes: new Map(), assoc: [] });
    return t;
  };
  for (const a of [...attrsOf(world, 'aws_route_table'), ...attrsOf(world, 'aws_default_route_table')]) {
    const t = table(str(a.id), a);
    for (const r of Array.isArray(a.route) ? a.route.filter(isObject) : []) t.routes.set(JSON.stringify(destination(r)), apiRoute(r));
  }
  for (const a of attrsOf(world, 'aws_route')) table(str(a.route_table_id)).routes.set(JSON.stringify(destination(a)), apiRoute(a));
  for (const a of attrsOf(world, 'aws_route_table_association')) {
    table(str(a.route_table_id)).assoc.push({ RouteTableAssociationId: str(a.id), RouteTableId: str(a.route_table_id), SubnetId: opt(a.subnet_id), GatewayId: opt(a.gateway_id), Main: false, AssociationState: { State: 'associated' } });
  }
  return [...tables.entries()].map(([id, t]) => ({
    RouteTableId: id, VpcId: opt(t.a.vpc_id), OwnerId: opt(t.a.owner_id), Routes: [...t.routes.values()], Associations: t.assoc,
    PropagatingVgws: (Array.isArray(t.a.propagating_vgws) ? t.a.propagating_vgws : []).map((GatewayId) => ({ GatewayId })), Tags: tagList(stateTags(t.a)),
  }));
}
const answers = [ec2Answer(TABLES, fakeTables)];

// ---- readers -----------------------------------------------------------------------------

const routeElement = (r: Route) => ({ cidr_block: r.DestinationCidrBlock ?? '', ipv6_cidr_block: r.DestinationIpv6CidrBlock ?? '', destination_prefix_list_id: r.DestinationPrefixListId ?? '', ...routeTarget(r) });

/** A route's key, or none when an aws_route resource of the same state manages its destination (standalone.ts). */
function routeKey(e: unknown, owner: Record<string, unknown>): string[] {
  const managed = (owner as { [MANAGED_ROUTES]?: Set<string> })[MANAGED_ROUTES];
  return isObject(e) && managed?.has(routeDestination(e)) ? [] : genericKey(e);
}

export const routeTableReader: TypeReader = {
  spec: { sets: { route: routeKey } },
  answers,
  read: (items, ctx) => tablesOf(ctx, items, (a) => str(a.id), (t) => {
    const tags = tagMap(t.Tags);
    return {
      id: t.RouteTableId, vpc_id: t.VpcId, owner_id: t.OwnerId, route: ownRoutes(t).map(routeElement),
      propagating_vgws: (t.PropagatingVgws ?? []).map((g) => g.GatewayId), tags, tags_all: tags,
    };
  }),
};

export const routeTableAssociationReader: TypeReader = {
  spec: {},
  answers,
  read: (items, ctx) => tablesOf(ctx, items, (a) => str(a.route_table_id), (t, a) => {
    const assoc = (t.Associations ?? []).find((x) => x.RouteTableAssociationId === str(a.id) && x.AssociationState?.State !== 'disassociated');
    return assoc ? { id: assoc.RouteTableAssociationId, route_table_id: t.RouteTableId, subnet_id: assoc.SubnetId ?? '', gateway_id: assoc.GatewayId ?? '' } : null;
  }),
};

export const routeReader: TypeReader = {
  spec: {},
  answers,
  read: (items, ctx) => tablesOf(ctx, items, (a) => str(a.route_table_id), (t, a) => {
    const want = destination(a);
    const r = (t.Routes ?? []).find((x) => (x.DestinationCidrBlock ?? undefined) === want.DestinationCidrBlock
      && (x.DestinationIpv6CidrBlock ?? undefined) === want.DestinationIpv6CidrBlock && (x.DestinationPrefixListId ?? undefined) === want.DestinationPrefixListId);
    if (!r) return null;
    return {
      route_table_id: t.RouteTableId, destination_cidr_block: r.DestinationCidrBlock ?? '', destination_ipv6_cidr_block: r.DestinationIpv6CidrBlock ?? '',
      destination_prefix_list_id: r.DestinationPrefixListId ?? '', ...routeTarget(r), origin: r.Origin, state: r.State,
    };
  }),
};
