// aws_acm_certificate: DescribeCertificate and ListTagsForCertificate per certificate (ACM's
// ListCertificates carries neither the options nor the tags), at most PER_RESOURCE_CONCURRENCY at once.
import {
  DescribeCertificate$, DescribeCertificateCommand, ListTagsForCertificate$, ListTagsForCertificateCommand, type CertificateDetail,
  type DescribeCertificateCommandOutput, type ListTagsForCertificateCommandOutput,
} from '@aws-sdk/client-acm';
import { mapLimit } from '../../../limit.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, FakeError, list, opt, stateTags, tagList } from '../replay/kit.ts';

const arnOf = (a: Record<string, unknown>) => str(a.arn || a.id);

/**
 * The provider's attributes: SANs without the domain name itself (an imported certificate's state
 * may hold it among them, as public states do: then it stays); an imported certificate's method is NONE.
 */
export function certificateAttributes(c: CertificateDetail, tags: Record<string, string>, state: Record<string, unknown> = {}): Record<string, unknown> {
  const method = c.Type === 'AMAZON_ISSUED' ? c.DomainValidationOptions?.[0]?.ValidationMethod ?? '' : 'NONE';
  const keepDomain = list(state.subject_alternative_names).includes(str(c.DomainName));
  return {
    domain_name: c.DomainName, subject_alternative_names: (c.SubjectAlternativeNames ?? []).filter((s) => keepDomain || s !== c.DomainName),
    validation_method: method, key_algorithm: c.KeyAlgorithm, certificate_authority_arn: c.CertificateAuthorityArn ?? '',
    options: [{ certificate_transparency_logging_preference: c.Options?.CertificateTransparencyLoggingPreference ?? 'ENABLED' }],
    tags, tags_all: tags,
  };
}

function fakeCert(world: FakeWorld, arn: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_acm_certificate').find((x) => arnOf(x) === arn);
  if (!a) throw new FakeError('ResourceNotFoundException', `Could not find certificate ${arn}.`);
  return a;
}

const answers = [
  answer<{ CertificateArn: string }>('acm', DescribeCertificate$, (input, world) => {
    const a = fakeCert(world, input.CertificateArn);
    const method = opt(a.validation_method);
    const imported = method === 'NONE' || (!method && !opt(a.certificate_authority_arn));
    const domain = str(a.domain_name);
    return { Certificate: {
      CertificateArn: arnOf(a), DomainName: domain, SubjectAlternativeNames: [domain, ...list(a.subject_alternative_names).filter((s) => s !== domain)],
      Type: imported ? 'IMPORTED' : opt(a.certificate_authority_arn) ? 'PRIVATE' : 'AMAZON_ISSUED', Status: opt(a.status) ?? 'ISSUED',
      DomainValidationOptions: imported ? undefined : [{ DomainName: domain, ValidationMethod: method }],
      KeyAlgorithm: opt(a.key_algorithm), CertificateAuthorityArn: opt(a.certificate_authority_arn),
      Options: { CertificateTransparencyLoggingPreference: opt(block(a.options).certificate_transparency_logging_preference) ?? 'ENABLED' },
    } };
  }),
  answer<{ CertificateArn: string }>('acm', ListTagsForCertificate$, (input, world) => ({ Tags: tagList(stateTags(fakeCert(world, input.CertificateArn))) })),
];

const NOT_FOUND = ['ResourceNotFoundException'];

export const acmCertificateReader: TypeReader = {
  spec: {},
  answers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const acm = ctx.acm(region);
    const arn = arnOf(instance.attributes);
    const [out, tags] = await Promise.all([
      unlessAbsent(ctx.send<DescribeCertificateCommandOutput>(acm, new DescribeCertificateCommand({ CertificateArn: arn }), 'acm:DescribeCertificate'), NOT_FOUND),
      unlessAbsent(ctx.send<ListTagsForCertificateCommandOutput>(acm, new ListTagsForCertificateCommand({ CertificateArn: arn }), 'acm:ListTagsForCertificate'), NOT_FOUND),
    ]);
    if (!out?.Certificate) return null;
    return certificateAttributes(out.Certificate, tagMap(tags?.Tags), instance.attributes);
  }),
};
