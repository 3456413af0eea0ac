// aws_acm_certificate's subject_alternative_names: the provider leaves the domain name out of
// the list the API answers, but public states of imported certificates hold it there (a real
// state showed it; replay then reported it removed). Both forms compare clean; a SAN added is found.
import t from 'tap';
import type { CertificateDetail } from '@aws-sdk/client-acm';
import { certificateAttributes } from '../../../runner-agent/src/engine/cloud/aws/acm/certificate.ts';
import { replayState } from '../../../runner-agent/src/engine/replay.ts';

const cert = (name: string, attributes: Record<string, unknown>) => ({
  mode: 'managed', type: 'aws_acm_certificate', name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
  instances: [{ schema_version: 0, sensitive_attributes: [], attributes: {
    arn: `arn:aws:acm:eu-central-1:123456789012:certificate/${name}`, id: `arn:aws:acm:eu-central-1:123456789012:certificate/${name}`,
    key_algorithm: 'RSA_2048', options: [{ certificate_transparency_logging_preference: 'ENABLED' }], tags: {}, tags_all: {}, ...attributes,
  } }],
});

t.test('an imported certificate whose state lists its domain among the SANs replays clean, as does an issued one', async (t) => {
  const doc = { version: 4, terraform_version: '1.5.7', serial: 3, lineage: 'acm', outputs: {}, resources: [
    cert('imported', { domain_name: '*.example.org', subject_alternative_names: ['*.example.org'], validation_method: 'NONE', certificate_body: 'x', private_key: 'y' }),
    cert('issued', { domain_name: 'example.org', subject_alternative_names: ['www.example.org'], validation_method: 'DNS' }),
  ] };
  const out = await replayState(JSON.stringify(doc), 'acm');
  t.equal(out.compared, 2);
  t.same(out.drifts, []);
});

t.test('the live SANs keep the domain only where the state does', async (t) => {
  const live: CertificateDetail = { DomainName: 'example.org', SubjectAlternativeNames: ['example.org', 'www.example.org', 'api.example.org'], Type: 'AMAZON_ISSUED' };
  t.same(certificateAttributes(live, {}, { subject_alternative_names: ['www.example.org'] }).subject_alternative_names, ['www.example.org', 'api.example.org'], 'the provider\'s form: a SAN added shows');
  t.same(certificateAttributes(live, {}, { subject_alternative_names: ['example.org', 'www.example.org'] }).subject_alternative_names, ['example.org', 'www.example.org', 'api.example.org'], 'the domain kept where the state holds it');
});
