// aws_launch_configuration: DescribeLaunchConfigurations by name, 50 names a call (the API's
// limit), every page. Launch configurations are immutable: a drift is mostly a deletion, or one
// replaced under the same name.
import {
  DescribeLaunchConfigurations$, DescribeLaunchConfigurationsCommand, type DescribeLaunchConfigurationsCommandOutput, type LaunchConfiguration,
} from '@aws-sdk/client-auto-scaling';
import { chunk } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { answer, byRegion, str, type TypeReader } from '../reader.ts';
import { attrsOf, bool, list, opt } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

export const launchConfigurationReader: TypeReader = {
  spec: {},
  answers: [answer<{ LaunchConfigurationNames?: string[] }>('autoscaling', DescribeLaunchConfigurations$, (input, world) => {
    const wanted = new Set(input.LaunchConfigurationNames ?? []);
    return { LaunchConfigurations: attrsOf(world, 'aws_launch_configuration').filter((a) => !wanted.size || wanted.has(nameOf(a))).map((a) => ({
      LaunchConfigurationName: nameOf(a), ImageId: opt(a.image_id), InstanceType: opt(a.instance_type), KeyName: opt(a.key_name),
      SecurityGroups: list(a.security_groups), IamInstanceProfile: opt(a.iam_instance_profile), InstanceMonitoring: { Enabled: bool(a.enable_monitoring) ?? true },
      SpotPrice: opt(a.spot_price), EbsOptimized: bool(a.ebs_optimized) ?? false, AssociatePublicIpAddress: bool(a.associate_public_ip_address),
      PlacementTenancy: opt(a.placement_tenancy), CreatedTime: new Date(0),
    })) };
  })],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const found = new Map<string, LaunchConfiguration>();
      for (const names of chunk([...new Set(group.map((g) => nameOf(g.item.instance.attributes)))], 50)) {
        let token: string | undefined;
        do {
          const page = await ctx.send<DescribeLaunchConfigurationsCommandOutput>(ctx.autoscaling(region),
            new DescribeLaunchConfigurationsCommand({ LaunchConfigurationNames: names, NextToken: token }), 'autoscaling:DescribeLaunchConfigurations');
          for (const c of page.LaunchConfigurations ?? []) if (c.LaunchConfigurationName) found.set(c.LaunchConfigurationName, c);
          token = page.NextToken;
        } while (token);
      }
      for (const { item, index } of group) {
        const c = found.get(nameOf(item.instance.attributes));
        if (!c) continue;
        const state = item.instance.attributes;
        out[index] = {
          name: c.LaunchConfigurationName, image_id: c.ImageId, instance_type: c.InstanceType, key_name: c.KeyName ?? '', security_groups: c.SecurityGroups ?? [],
          iam_instance_profile: c.IamInstanceProfile ?? '', enable_monitoring: c.InstanceMonitoring?.Enabled ?? true, spot_price: c.SpotPrice ?? '',
          ebs_optimized: c.EbsOptimized ?? false, associate_public_ip_address: c.AssociatePublicIpAddress ?? false,
          // The API answers "default" where the provider kept null for a tenancy never set.
          placement_tenancy: !state.placement_tenancy && (c.PlacementTenancy ?? 'default') === 'default' ? state.placement_tenancy : c.PlacementTenancy ?? '',
        };
      }
    }
    return out;
  },
};
