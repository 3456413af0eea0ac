// aws_kms_alias: one paged ListAliases per region (100 aliases a page) serves every alias of
// the scan; an alias missing from the listing is deleted.
import { ListAliases$, ListAliasesCommand, type AliasListEntry, type ListAliasesCommandOutput } from '@aws-sdk/client-kms';
import type { LiveAttributes } from '../../../types.ts';
import { answer, byRegion, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, opt } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

export const kmsAliasReader: TypeReader = {
  spec: {},
  answers: [answer('kms', ListAliases$, (_input, world) => ({
    Aliases: attrsOf(world, 'aws_kms_alias').map((a) => ({ AliasName: nameOf(a), AliasArn: opt(a.arn), TargetKeyId: opt(a.target_key_id) })), Truncated: false,
  }))],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const aliases = await once(ctx, `kms:aliases:${region}`, async () => {
        const all = new Map<string, AliasListEntry>();
        let marker: string | undefined;
        do {
          const page = await ctx.send<ListAliasesCommandOutput>(ctx.kms(region), new ListAliasesCommand({ Limit: 100, Marker: marker }), 'kms:ListAliases');
          for (const a of page.Aliases ?? []) if (a.AliasName) all.set(a.AliasName, a);
          marker = page.Truncated ? page.NextMarker : undefined;
        } while (marker);
        return all;
      });
      for (const { item, index } of group) {
        const a = aliases.get(nameOf(item.instance.attributes));
        // The state may name the key by id or ARN; the listing gives its id.
        const target = str(item.instance.attributes.target_key_id);
        // A name_prefix alias keeps `name` null in older states: the id names it then.
        const name = str(item.instance.attributes.name) ? a?.AliasName : undefined;
        if (a) out[index] = { name, arn: a.AliasArn, target_key_id: target.endsWith(`/${a.TargetKeyId}`) ? target : a.TargetKeyId };
      }
    }
    return out;
  },
};
