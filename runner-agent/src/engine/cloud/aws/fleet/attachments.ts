// aws_volume_attachment: read from the volume (DescribeVolumes by id, batched and cached with
// aws_ebs_volume). aws_lb_target_group_attachment: DescribeTargetHealth once per target group
// for the scan, shared by every attachment to it.
import { DescribeVolumes$, DescribeVolumesCommand, type Volume } from '@aws-sdk/client-ec2';
import {
  DescribeTargetHealth$, DescribeTargetHealthCommand, type DescribeTargetHealthCommandOutput, type TargetHealthDescription,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { errorName, PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { ec2Records, type Ec2Describe } from '../ec2-describe.ts';
import { ebsVolumeReader } from '../ec2/compute.ts';
import { overlayAnswer } from '../ec2net/overlay.ts';
import { answer, byRegion, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, num, opt } from '../replay/kit.ts';

// The same description ebsVolumeReader uses (ec2-compute.ts): one cached call serves both.
const VOLUMES: Ec2Describe<Volume> = {
  command: DescribeVolumesCommand, schema: DescribeVolumes$, what: 'DescribeVolumes', idsField: 'VolumeIds', filter: 'volume-id',
  listField: 'Volumes', notFound: 'InvalidVolume.NotFound', idOf: (v) => v.VolumeId ?? '',
};

const volumesAnswer = overlayAnswer({
  base: ebsVolumeReader.answers[0]!, schema: DescribeVolumes$, listField: 'Volumes', idsField: 'VolumeIds', idFilter: 'volume-id',
  notFound: VOLUMES.notFound, idOf: (r) => str(r.VolumeId),
  extend: (records, world) => {
    const byId = new Map(records.map((r) => [str(r.VolumeId), { ...r, Attachments: [] as unknown[] }]));
    for (const a of attrsOf(world, 'aws_volume_attachment')) {
      const id = str(a.volume_id);
      const v = byId.get(id) ?? { VolumeId: id, State: 'in-use', Attachments: [] as unknown[] };
      v.Attachments.push({ VolumeId: id, InstanceId: opt(a.instance_id), Device: opt(a.device_name), State: 'attached' });
      byId.set(id, v);
    }
    return [...byId.values()];
  },
});

export const volumeAttachmentReader: TypeReader = {
  spec: {},
  answers: [volumesAnswer],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const volumes = await ec2Records(ctx, region, VOLUMES, group.map((g) => str(g.item.instance.attributes.volume_id)));
      for (const { item, index } of group) {
        const state = item.instance.attributes;
        const v = volumes.get(str(state.volume_id));
        // The attachment to the state's instance; detached (or attached elsewhere), it is gone.
        const x = v?.Attachments?.find((a) => a.InstanceId === str(state.instance_id) && a.State !== 'detached' && a.State !== 'detaching');
        if (x) out[index] = { volume_id: x.VolumeId, instance_id: x.InstanceId, device_name: x.Device };
      }
    }
    return out;
  },
};

const targetsOf = (ctx: Parameters<TypeReader['read']>[1], region: string, arn: string) => once(ctx, `elbv2:DescribeTargetHealth:${arn}`, async () => {
  try {
    const out = await ctx.send<DescribeTargetHealthCommandOutput>(ctx.elbv2(region), new DescribeTargetHealthCommand({ TargetGroupArn: arn }), 'elasticloadbalancing:DescribeTargetHealth');
    return out.TargetHealthDescriptions ?? [];
  } catch (e) {
    if (errorName(e) === 'TargetGroupNotFound' || errorName(e) === 'TargetGroupNotFoundException') return undefined;
    throw e;
  }
});

const samePort = (d: TargetHealthDescription, port: unknown) => port === null || port === undefined || port === '' || d.Target?.Port === Number(port);

export const targetGroupAttachmentReader: TypeReader = {
  spec: {},
  answers: [answer<{ TargetGroupArn: string }>('elasticloadbalancing', DescribeTargetHealth$, (input, world) => {
    const mine = [...attrsOf(world, 'aws_lb_target_group_attachment'), ...attrsOf(world, 'aws_alb_target_group_attachment')].filter((a) => str(a.target_group_arn) === input.TargetGroupArn);
    const groups = [...attrsOf(world, 'aws_lb_target_group'), ...attrsOf(world, 'aws_alb_target_group')].filter((a) => str(a.arn || a.id) === input.TargetGroupArn);
    if (!mine.length && !groups.length) throw new FakeError('TargetGroupNotFound', `Target groups '${input.TargetGroupArn}' not found`, 400);
    return { TargetHealthDescriptions: mine.map((a) => ({
      Target: { Id: str(a.target_id), Port: num(a.port), AvailabilityZone: opt(a.availability_zone) }, TargetHealth: { State: 'healthy' },
    })) };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const state = instance.attributes;
    const targets = await targetsOf(ctx, region, str(state.target_group_arn));
    const d = targets?.find((t) => t.Target?.Id === str(state.target_id) && samePort(t, state.port));
    if (!d) return null;
    return { target_group_arn: str(state.target_group_arn), target_id: d.Target?.Id, port: d.Target?.Port, availability_zone: d.Target?.AvailabilityZone ?? '' };
  }),
};
