// aws_eip_association and aws_main_route_table_association. An EIP association is read from its
// address (DescribeAddresses by allocation id, batched and shared with aws_eip): re-associated
// elsewhere, the drift names the new instance. The main route table of each VPC comes from one
// DescribeRouteTables per region filtered on association.main (one table per VPC), memoised.
import {
  DescribeAddresses$, DescribeAddressesCommand, DescribeRouteTables$, DescribeRouteTablesCommand, type Address,
  type DescribeRouteTablesCommandOutput, type RouteTable,
} from '@aws-sdk/client-ec2';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { ec2Records, type Ec2Describe } from '../ec2-describe.ts';
import { eipReader } from '../vpc/network.ts';
import { byRegion, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, opt } from '../replay/kit.ts';
import { routeTableReader } from '../vpc/route-tables.ts';
import { overlayAnswer } from './overlay.ts';

// The same description eipReader uses (ec2-network.ts): the cache key is shared, so one call serves both.
const ADDRESSES: Ec2Describe<Address> = {
  command: DescribeAddressesCommand, schema: DescribeAddresses$, what: 'DescribeAddresses', idsField: 'AllocationIds', filter: 'allocation-id',
  listField: 'Addresses', notFound: 'InvalidAllocationID.NotFound', idOf: (a) => a.AllocationId ?? '',
};

const addressesAnswer = overlayAnswer({
  base: eipReader.answers[0]!, schema: DescribeAddresses$, listField: 'Addresses', idsField: 'AllocationIds', idFilter: 'allocation-id',
  notFound: ADDRESSES.notFound, idOf: (r) => str(r.AllocationId),
  extend: (records, world) => {
    const byId = new Map(records.map((r) => [str(r.AllocationId), { ...r }]));
    for (const a of attrsOf(world, 'aws_eip_association')) {
      const id = str(a.allocation_id);
      if (!id) continue;
      byId.set(id, {
        ...(byId.get(id) ?? { AllocationId: id, Domain: 'vpc', PublicIp: opt(a.public_ip) }), AssociationId: str(a.id),
        InstanceId: opt(a.instance_id), NetworkInterfaceId: opt(a.network_interface_id), PrivateIpAddress: opt(a.private_ip_address),
      });
    }
    return [...byId.values()];
  },
});

export const eipAssociationReader: TypeReader = {
  spec: {},
  answers: [addressesAnswer],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const records = await ec2Records(ctx, region, ADDRESSES, group.map((g) => str(g.item.instance.attributes.allocation_id)));
      for (const { item, index } of group) {
        const e = records.get(str(item.instance.attributes.allocation_id));
        if (e?.AssociationId) {
          out[index] = {
            allocation_id: e.AllocationId, instance_id: e.InstanceId ?? '', network_interface_id: e.NetworkInterfaceId ?? '',
            private_ip_address: e.PrivateIpAddress ?? '', public_ip: e.PublicIp,
          };
        }
      }
    }
    return out;
  },
};

const isMain = (t: Record<string, unknown>) => Array.isArray(t.Associations) && t.Associations.some((x) => (x as { Main?: boolean }).Main);

const routeTablesAnswer = overlayAnswer({
  base: routeTableReader.answers[0]!, schema: DescribeRouteTables$, listField: 'RouteTables', idsField: 'RouteTableIds', idFilter: 'route-table-id',
  notFound: 'InvalidRouteTableID.NotFound', idOf: (r) => str(r.RouteTableId),
  extend: (records, world) => {
    const byId = new Map(records.map((r) => [str(r.RouteTableId), { ...r }]));
    for (const a of attrsOf(world, 'aws_main_route_table_association')) {
      const id = str(a.route_table_id);
      const t = byId.get(id) ?? { RouteTableId: id, Routes: [], Associations: [] };
      const assoc = { RouteTableAssociationId: str(a.id), RouteTableId: id, Main: true, AssociationState: { State: 'associated' } };
      byId.set(id, { ...t, VpcId: t.VpcId ?? opt(a.vpc_id), Associations: [...(t.Associations as unknown[] ?? []), assoc] });
    }
    return [...byId.values()];
  },
  filters: { 'association.main': (r, v) => v.includes(String(isMain(r))), 'vpc-id': (r, v) => v.includes(str(r.VpcId)) },
});

/** The main route table of every VPC in the region, by VPC id. */
const mainTables = (ctx: Parameters<TypeReader['read']>[1], region: string) => once(ctx, `ec2:mainRouteTables:${region}`, async () => {
  const out = new Map<string, RouteTable>();
  let token: string | undefined;
  do {
    const page = await ctx.send<DescribeRouteTablesCommandOutput>(ctx.ec2(region),
      new DescribeRouteTablesCommand({ Filters: [{ Name: 'association.main', Values: ['true'] }], NextToken: token }), 'ec2:DescribeRouteTables');
    for (const t of page.RouteTables ?? []) if (t.VpcId && t.Associations?.some((x) => x.Main)) out.set(t.VpcId, t);
    token = page.NextToken;
  } while (token);
  return out;
});

export const mainRouteTableAssociationReader: TypeReader = {
  spec: {},
  answers: [routeTablesAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const t = (await mainTables(ctx, region)).get(str(instance.attributes.vpc_id));
    // A VPC always has a main table: none means the VPC is gone, and the association with it.
    return t ? { vpc_id: t.VpcId, route_table_id: t.RouteTableId } : null;
  }),
};
