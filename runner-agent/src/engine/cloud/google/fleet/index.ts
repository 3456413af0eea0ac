// Images, SSL certificates and managed instance groups: readers, ignore lists and severity rules.
// Spread into GOOGLE_READERS, GOOGLE_IGNORED and GOOGLE_RULES with one line each.
import type { SeverityRule } from '../../../rules.ts';
import type { RestReader } from '../../rest/reader.ts';
import { imageReader, instanceGroupManagerReader, sslCertificateReader } from './readers.ts';

export const FLEET_READERS: Record<string, RestReader> = {
  google_compute_image: imageReader,
  google_compute_ssl_certificate: sslCertificateReader,
  google_compute_instance_group_manager: instanceGroupManagerReader,
};

/** Computed by the API; the certificate's private key is write-only. */
export const FLEET_IGNORED: Record<string, string[]> = {
  google_compute_image: ['archive_size_bytes', 'label_fingerprint', 'creation_timestamp', 'self_link', 'project', 'raw_disk', 'guest_os_features', 'licenses'],
  google_compute_ssl_certificate: ['certificate_id', 'creation_timestamp', 'expire_time', 'private_key', 'name_prefix', 'self_link', 'project'],
  google_compute_instance_group_manager: ['fingerprint', 'instance_group', 'operation', 'status', 'self_link', 'project', 'wait_for_instances', 'wait_for_instances_status', 'zone'],
};

export const FLEET_RULES: SeverityRule[] = [
  { id: 'gcp-igm-template-changed', severity: 'high', description: 'Managed instance group now creates instances from another template',
    rationale: 'New instances run another image, startup script or service account than the code declares.',
    types: ['google_compute_instance_group_manager'], attributes: ['version*'] },
  { id: 'gcp-ssl-certificate-replaced', severity: 'high', description: 'SSL certificate content changed',
    rationale: 'Clients are now served another certificate than the code declares.',
    types: ['google_compute_ssl_certificate'], attributes: ['certificate'] },
];
