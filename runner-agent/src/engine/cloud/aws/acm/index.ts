// ACM: certificates, their computed attributes and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { acmCertificateReader } from './certificate.ts';

export const ACM_READERS: Record<string, TypeReader> = { aws_acm_certificate: acmCertificateReader };

export const ACM_IGNORED: Record<string, string[]> = {
  // Computed by ACM (validation records, dates, renewal), or write-only (an imported certificate's
  // key and body are sent once; the private key is never returned).
  aws_acm_certificate: [
    'status', 'not_after', 'not_before', 'domain_validation_options', 'validation_emails', 'validation_option', 'renewal_eligibility',
    'renewal_summary', 'pending_renewal', 'type', 'private_key', 'certificate_body', 'certificate_chain', 'early_renewal_duration',
  ],
};

export const ACM_RULES: SeverityRule[] = [
  { id: 'acm-certificate-deleted', severity: 'high', description: 'ACM certificate deleted',
    rationale: 'Load balancers and distributions that serve it lose TLS on their next change, and its domain must be validated again.',
    types: ['aws_acm_certificate'], changeTypes: ['deleted'] },
];
