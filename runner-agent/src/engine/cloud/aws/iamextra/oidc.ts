// aws_iam_openid_connect_provider: one GetOpenIDConnectProvider per provider (IAM has no batch
// read; the answer carries the tags). Who the provider lets in is its url, client ids and
// thumbprints: a client id or thumbprint gained out of band widens the trust (rules.ts here).
import { GetOpenIDConnectProvider$, GetOpenIDConnectProviderCommand, type GetOpenIDConnectProviderCommandOutput } from '@aws-sdk/client-iam';
import { mapLimit } from '../../../limit.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, type TypeReader } from '../reader.ts';
import { attrsOf, list, stateTags, tagList } from '../replay/kit.ts';
import { iamGet, noSuch } from './iam-kit.ts';

/** The API answers the url without its scheme; the provider keeps what the code wrote. */
const bareUrl = (u: unknown) => str(u).replace(/^https:\/\//, '');
const urlAs = (live: string | undefined, state: unknown) => (live !== undefined && bareUrl(state) === bareUrl(live) ? str(state) : live);

export const oidcProviderReader: TypeReader = {
  spec: {},
  answers: [answer<{ OpenIDConnectProviderArn: string }>('iam', GetOpenIDConnectProvider$, (input, world) => {
    const a = attrsOf(world, 'aws_iam_openid_connect_provider').find((x) => str(x.arn || x.id) === input.OpenIDConnectProviderArn);
    if (!a) throw noSuch(`OpenIDConnect Provider ${input.OpenIDConnectProviderArn}`);
    return { Url: bareUrl(a.url), ClientIDList: list(a.client_id_list), ThumbprintList: list(a.thumbprint_list), CreateDate: new Date(0), Tags: tagList(stateTags(a)) };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const arn = str(instance.attributes.arn || instance.attributes.id);
    const p = await iamGet<GetOpenIDConnectProviderCommandOutput>(ctx, new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn }), 'iam:GetOpenIDConnectProvider');
    if (!p) return null;
    const tags = tagMap(p.Tags);
    return { arn, url: urlAs(p.Url, instance.attributes.url), client_id_list: p.ClientIDList ?? [], thumbprint_list: p.ThumbprintList ?? [], tags, tags_all: tags };
  }),
};
