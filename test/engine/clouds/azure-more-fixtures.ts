// State instances of the more/ azurerm types (Private DNS record sets, vnet peerings, SSH keys,
// images, container groups), shaped as the provider writes them in the corpus states, for
// azure-more.test.ts.
import { instance } from './harness.ts';

export const SUB = '00000000-0000-0000-0000-0000000000bb';
export const RG = `/subscriptions/${SUB}/resourceGroups/more-rg`;
const ZONE = `${RG}/providers/Microsoft.Network/privateDnsZones/corp.internal`;
const PUBLIC_ZONE = `${RG}/providers/Microsoft.Network/dnsZones/example.com`;
const VNETS = `${RG}/providers/Microsoft.Network/virtualNetworks`;
const COMPUTE = `${RG}/providers/Microsoft.Compute`;
export const ids = {
  record: (kind: string, name: string) => `${ZONE}/${kind}/${name}`,
  zone: PUBLIC_ZONE,
  publicRecord: (kind: string, name: string) => `${PUBLIC_ZONE}/${kind}/${name}`,
  vnet: (n: string) => `${VNETS}/${n}`,
  peering: (v: string, n: string) => `${VNETS}/${v}/virtualNetworkPeerings/${n}`,
  key: (n: string) => `${COMPUTE}/sshPublicKeys/${n}`,
  image: (n: string) => `${COMPUTE}/images/${n}`,
  group: (n: string) => `${RG}/providers/Microsoft.ContainerInstance/containerGroups/${n}`,
};

const record = (kind: string, name: string, values: Record<string, unknown>, attrs: Record<string, unknown> = {}) =>
  instance(`azurerm_private_dns_${kind.toLowerCase()}_record`, name, {
    id: ids.record(kind, name), name, zone_name: 'corp.internal', resource_group_name: 'more-rg', fqdn: `${name}.corp.internal.`,
    ttl: 300, tags: null, timeouts: null, ...values, ...attrs,
  });

export const a = (name: string, attrs: Record<string, unknown> = {}) => record('A', name, { records: ['10.0.180.17', '10.0.180.20'] }, attrs);
/** The provider keeps the address as written: ARM answers it compressed. */
export const aaaa = (name: string, attrs: Record<string, unknown> = {}) => record('AAAA', name, { records: ['fd5d:70bc:930e:d008:0000:0000:0000:7334', 'fd5d:70bc:930e:d008::7335'] }, attrs);
export const cname = (name: string, attrs: Record<string, unknown> = {}) => record('CNAME', name, { record: 'app.example.com' }, attrs);
export const mx = (name: string, attrs: Record<string, unknown> = {}) => record('MX', name, { record: [{ exchange: 'mx2.corp.internal', preference: 20 }, { exchange: 'mx1.corp.internal', preference: 10 }] }, { tags: {}, ...attrs });
export const ptr = (name: string, attrs: Record<string, unknown> = {}) => record('PTR', name, { records: ['ptr1.corp.internal', 'ptr2.corp.internal'] }, attrs);
export const srv = (name: string, attrs: Record<string, unknown> = {}) => record('SRV', name, { record: [{ port: 8080, priority: 10, target: 'srv2.corp.internal', weight: 10 }, { port: 8080, priority: 1, target: 'srv1.corp.internal', weight: 5 }] }, attrs);
export const txt = (name: string, attrs: Record<string, unknown> = {}) => record('TXT', name, { record: [{ value: 'v=spf1 -all' }, { value: 'x'.repeat(300) }] }, attrs);

export const zone = (attrs: Record<string, unknown> = {}) => instance('azurerm_dns_zone', 'public', {
  id: PUBLIC_ZONE, name: 'example.com', resource_group_name: 'more-rg', max_number_of_record_sets: 10000, number_of_record_sets: 5,
  name_servers: ['ns1-01.azure-dns.com.', 'ns2-01.azure-dns.net.'], soa_record: [], tags: { env: 'prod' }, timeouts: null, ...attrs,
});
const publicRecord = (kind: string, name: string, values: Record<string, unknown>, attrs: Record<string, unknown> = {}) =>
  instance(`azurerm_dns_${kind.toLowerCase()}_record`, `public_${name}`, {
    id: ids.publicRecord(kind, name), name, zone_name: 'example.com', resource_group_name: 'more-rg', fqdn: `${name}.example.com.`,
    ttl: 3600, tags: {}, timeouts: null, ...values, ...attrs,
  });
export const dnsA = (name: string, attrs: Record<string, unknown> = {}) => publicRecord('A', name, { records: ['20.1.2.3'], target_resource_id: '' }, attrs);
/** An alias record: no values, the Azure resource it follows. */
export const dnsCname = (name: string, attrs: Record<string, unknown> = {}) => publicRecord('CNAME', name, { record: '', target_resource_id: `${RG}/providers/Microsoft.Network/trafficManagerProfiles/tm` }, attrs);
export const dnsTxt = (name: string, attrs: Record<string, unknown> = {}) => publicRecord('TXT', name, { record: [{ value: 'google-site-verification=abc' }] }, attrs);

export const vnet = (name: string) => instance('azurerm_virtual_network', name, {
  id: ids.vnet(name), name, location: 'westeurope', resource_group_name: 'more-rg', address_space: ['10.1.0.0/16'], dns_servers: [], subnet: [], tags: {}, timeouts: null,
});
/** A v3 peering (every setting written). */
export const peering = (v: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_virtual_network_peering', `${v}_${name}`, {
  id: ids.peering(v, name), name, virtual_network_name: v, resource_group_name: 'more-rg', remote_virtual_network_id: ids.vnet('hub'),
  allow_virtual_network_access: true, allow_forwarded_traffic: false, allow_gateway_transit: false, use_remote_gateways: false, triggers: null, timeouts: null, ...attrs,
});

export const key = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_ssh_public_key', name, {
  id: ids.key(name), name, location: 'westeurope', resource_group_name: 'more-rg', public_key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 ops@example', tags: null, timeouts: null, ...attrs,
});

export const image = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_image', name, {
  id: ids.image(name), name, location: 'westeurope', resource_group_name: 'more-rg', hyper_v_generation: 'V1', source_virtual_machine_id: null, zone_resilient: false, tags: {}, timeouts: null,
  os_disk: [{ blob_uri: '', caching: 'None', managed_disk_id: `${COMPUTE}/disks/osdisk`, os_state: 'Generalized', os_type: 'Linux', size_gb: 30 }],
  data_disk: [{ lun: 1, blob_uri: '', caching: 'ReadOnly', managed_disk_id: `${COMPUTE}/disks/data1`, size_gb: 64 }, { lun: 0, blob_uri: '', caching: 'None', managed_disk_id: `${COMPUTE}/disks/data0`, size_gb: 32 }],
  ...attrs,
});

/** A v3 container group with a public address (as christos' and martinsaman's corpus states). */
export const group = (name: string, attrs: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => instance('azurerm_container_group', name, {
  id: ids.group(name), name, location: 'eastus', resource_group_name: 'more-rg', os_type: 'Linux', restart_policy: 'Always', sku: 'Standard', priority: '',
  ip_address_type: 'Public', ip_address: '52.191.222.142', dns_name_label: `${name}-dns`, fqdn: `${name}-dns.eastus.azurecontainer.io`, dns_name_label_reuse_policy: 'Unsecure',
  exposed_port: [{ port: 27015, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }], dns_config: [], diagnostics: [], identity: [], image_registry_credential: [], init_container: [],
  subnet_ids: null, zones: null, key_vault_key_id: null, network_profile_id: null, tags: { environment: 'gaming' }, timeouts: null,
  container: [{
    name: 'server', image: 'cs16ds/server:latest', cpu: 2, memory: 1.5, cpu_limit: 0, memory_limit: 0, gpu: [], gpu_limit: [], commands: [],
    ports: [{ port: 27015, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }], environment_variables: { MODE: 'public' }, secure_environment_variables: null,
    liveness_probe: [], readiness_probe: [], security: [], volume: [], ...container,
  }],
  ...attrs,
});

const site = (type: string, name: string, kind: string, attrs: Record<string, unknown>) => instance(type, name, {
  id: `${RG}/providers/Microsoft.Web/sites/${name}`, name, location: 'westus', resource_group_name: 'more-rg', kind,
  service_plan_id: `${RG}/providers/Microsoft.Web/serverFarms/plan`, enabled: true, https_only: false, client_certificate_enabled: false,
  client_certificate_mode: 'Optional', client_certificate_exclusion_paths: '', public_network_access_enabled: true, daily_memory_time_quota: 0,
  key_vault_reference_identity_id: 'SystemAssigned', virtual_network_subnet_id: '', hosting_environment_id: '', default_hostname: `${name}.azurewebsites.net`,
  app_settings: { FUNCTIONS_WORKER_RUNTIME: 'node' }, storage_account_access_key: 'c2VjcmV0LWtleQ==', site_config: [{ always_on: false }], tags: {}, timeouts: null, ...attrs,
});
/** As chrismatteson's corpus state (v3): the key and the package URL are sensitive, never read. */
export const linuxFunction = (name: string, attrs: Record<string, unknown> = {}) => site('azurerm_linux_function_app', name, 'functionapp,linux', attrs);
export const windowsFunction = (name: string, attrs: Record<string, unknown> = {}) => site('azurerm_windows_function_app', name, 'functionapp', attrs);

export const estate = () => [
  a('web'), aaaa('web'), cname('app'), mx('mail'), ptr('rev'), srv('sip'), txt('spf'),
  zone(), dnsA('www'), dnsCname('app'), dnsTxt('verify'),
  vnet('spoke'), peering('spoke', 'to-hub'), key('ops'), image('golden'), group('game'), linuxFunction('fn-l'), windowsFunction('fn-w'),
];
