// ARM response bodies from the documented examples (github.com/Azure/azure-rest-api-specs, MIT
// licence): privatedns 2024-06-01 RecordSetALLList and RecordSetTXTGet (merged into one zone's
// ALL list), dns 2018-05-01 CreateOrUpdateARecordsetAlias, network 2024-07-01
// VirtualNetworkPeeringGet (embedded in its vnet's answer, as ARM embeds it),
// containerinstance 2023-05-01 ContainerGroupsList, compute 2024-07-01 Image_Get; ids given a real
// subscription, instance views dropped. Beside them, the state the azurerm provider writes for
// each: the readers must map one onto the other.
import { instance } from './harness.ts';

const SUB = '/subscriptions/00000000-0000-0000-0000-0000000000cc';
const DNS = `${SUB}/resourceGroups/resourceGroup1/providers/Microsoft.Network/privateDnsZones/privatezone1.com`;
const record = (kind: string, name: string, extra: Record<string, unknown>) => ({
  id: `${DNS}/${kind}/${name}`, etag: '00000000-0000-0000-0000-000000000000', name, type: `Microsoft.Network/privateDnsZones/${kind}`,
  properties: { metadata: { key1: 'value1' }, ttl: 3600, fqdn: `${name}.privatezone1.com.`, isAutoRegistered: false, ...extra },
});
const PUBLIC_A = `${SUB}/resourceGroups/rg1/providers/Microsoft.Network/dnsZones/zone1/A/record1`;
const TM = '/subscriptions/726f8cd6-6459-4db4-8e6d-2cd2716904e2/resourceGroups/test/providers/Microsoft.Network/trafficManagerProfiles/testpp2';
const VNET = `${SUB}/resourceGroups/peerTest/providers/Microsoft.Network/virtualNetworks/vnet1`;
const GROUP = `${SUB}/resourceGroups/demo/providers/Microsoft.ContainerInstance/containerGroups/demo1`;
const IMAGE = `${SUB}/resourceGroups/myResourceGroup/providers/Microsoft.Compute/images/myImage`;
const DISKS = `${SUB}/resourceGroups/myResourceGroup/providers/Microsoft.Compute/disks`;

/** GET answers by id; `${DNS}/ALL` is the zone's list. */
export const EXAMPLES: Record<string, unknown> = {
  [`${DNS}/ALL`]: {
    value: [
      record('A', 'recorda', { aRecords: [{ ipv4Address: '1.2.3.4' }] }),
      record('CNAME', 'recordcname', { cnameRecord: { cname: 'contoso.com' } }),
      record('MX', 'recordmx', { mxRecords: [{ preference: 0, exchange: 'mail.contoso1.com' }] }),
      record('TXT', 'recordtxt', { txtRecords: [{ value: ['string1', 'string2'] }] }),
    ],
  },
  [PUBLIC_A]: {
    id: PUBLIC_A, etag: '00000000-0000-0000-0000-000000000000', name: 'record1', type: 'Microsoft.Network/dnsZones/A',
    properties: { metadata: { key1: 'value1' }, TTL: 3600, fqdn: 'record1.zone1', targetResource: { id: TM }, ProvisioningState: 'Succeeded' },
  },
  [VNET]: {
    id: VNET, name: 'vnet1', type: 'Microsoft.Network/virtualNetworks', location: 'westus',
    properties: {
      addressSpace: { addressPrefixes: ['10.0.0.0/16'] }, subnets: [], provisioningState: 'Succeeded',
      virtualNetworkPeerings: [{
        id: `${VNET}/virtualNetworkPeerings/peer`, name: 'peer',
        properties: {
          allowVirtualNetworkAccess: true, allowForwardedTraffic: true, allowGatewayTransit: false, useRemoteGateways: false,
          remoteVirtualNetwork: { id: `${SUB}/resourceGroups/peerTest/providers/Microsoft.Network/virtualNetworks/vnet2` },
          remoteAddressSpace: { addressPrefixes: ['12.0.0.0/8'] }, remoteVirtualNetworkAddressSpace: { addressPrefixes: ['12.0.0.0/8'] },
          remoteBgpCommunities: { virtualNetworkCommunity: '12076:20002', regionalCommunity: '12076:50004' },
          peeringState: 'Initiated', peeringSyncLevel: 'FullyInSync', provisioningState: 'Succeeded',
        },
      }],
    },
  },
  [GROUP]: {
    id: GROUP, location: 'WestUs', zones: ['1'], name: 'demo1', type: 'Microsoft.ContainerInstance/containerGroups',
    properties: {
      containers: [{
        name: 'demo1',
        properties: {
          command: [], environmentVariables: [], image: 'nginx', ports: [{ port: 80 }], resources: { requests: { cpu: 1, memoryInGB: 1.5 } },
          volumeMounts: [{ mountPath: '/mnt/volume1', name: 'volume1', readOnly: false }],
        },
      }],
      imageRegistryCredentials: [{ server: 'azcloudconsoleregistry.azurecr.io', username: 'azcloudconsoleregistry' }],
      ipAddress: { ip: '10.0.0.1', ports: [{ port: 80, protocol: 'TCP' }], type: 'Public' }, osType: 'Linux', provisioningState: 'Succeeded',
      volumes: [{ azureFile: { readOnly: false, shareName: 'share1', storageAccountName: 'storage1' }, name: 'volume1' }],
    },
  },
  [IMAGE]: {
    id: IMAGE, name: 'myImage', type: 'Microsoft.Compute/images', location: 'West US',
    properties: {
      storageProfile: {
        osDisk: { osType: 'Windows', blobUri: 'https://mystorageaccount.blob.core.windows.net/osimages/osimage.vhd', managedDisk: { id: `${DISKS}/myManagedDisk1` }, osState: 'Generalized', storageAccountType: 'Standard_LRS', diskSizeGB: 20 },
        dataDisks: [{ lun: 1, blobUri: 'https://mystorageaccount.blob.core.windows.net/dataimages/dataimage.vhd', managedDisk: { id: `${DISKS}/myManagedDisk2` }, storageAccountType: 'Standard_LRS' }],
        zoneResilient: true,
      },
      provisioningState: 'created',
    },
  },
};

const rec = (kind: string, name: string, values: Record<string, unknown>) => instance(`azurerm_private_dns_${kind.toLowerCase()}_record`, name, {
  id: `${DNS}/${kind}/${name}`, name, zone_name: 'privatezone1.com', resource_group_name: 'resourceGroup1', fqdn: `${name}.privatezone1.com.`,
  ttl: 3600, tags: { key1: 'value1' }, timeouts: null, ...values,
});

export const EXAMPLE_STATE = [
  rec('A', 'recorda', { records: ['1.2.3.4'] }),
  rec('CNAME', 'recordcname', { record: 'contoso.com' }),
  rec('MX', 'recordmx', { record: [{ exchange: 'mail.contoso1.com', preference: 0 }] }),
  rec('TXT', 'recordtxt', { record: [{ value: 'string1string2' }] }),
  instance('azurerm_dns_a_record', 'alias', {
    id: PUBLIC_A, name: 'record1', zone_name: 'zone1', resource_group_name: 'rg1', fqdn: 'record1.zone1', ttl: 3600, records: null, target_resource_id: TM, tags: { key1: 'value1' },
  }),
  // Provider 4: the flags it reads back as false when ARM leaves them out.
  instance('azurerm_virtual_network_peering', 'peer', {
    id: `${VNET}/virtualNetworkPeerings/peer`, name: 'peer', virtual_network_name: 'vnet1', resource_group_name: 'peerTest',
    remote_virtual_network_id: `${SUB}/resourceGroups/peerTest/providers/Microsoft.Network/virtualNetworks/vnet2`,
    allow_virtual_network_access: true, allow_forwarded_traffic: true, allow_gateway_transit: false, use_remote_gateways: false,
    peer_complete_virtual_networks_enabled: false, only_ipv6_peering_enabled: false, local_subnet_names: [], remote_subnet_names: [], triggers: null,
  }),
  instance('azurerm_container_group', 'demo1', {
    id: GROUP, name: 'demo1', location: 'westus', resource_group_name: 'demo', os_type: 'Linux', restart_policy: '', sku: '', priority: '', zones: ['1'],
    ip_address_type: 'Public', ip_address: '10.0.0.1', dns_name_label: '', dns_name_label_reuse_policy: 'Unsecure', exposed_port: [{ port: 80, protocol: 'TCP' }],
    dns_config: [], subnet_ids: [], tags: {},
    container: [{
      name: 'demo1', image: 'nginx', cpu: 1, memory: 1.5, cpu_limit: 0, memory_limit: 0, gpu: [], gpu_limit: [], commands: [], environment_variables: {},
      secure_environment_variables: null, ports: [{ port: 80, protocol: 'TCP' }], volume: [{ name: 'volume1', mount_path: '/mnt/volume1', read_only: false, share_name: 'share1', storage_account_name: 'storage1', storage_account_key: 'k' }],
    }],
  }),
  instance('azurerm_image', 'myImage', {
    id: IMAGE, name: 'myImage', location: 'westus', resource_group_name: 'myResourceGroup', hyper_v_generation: 'V1', source_virtual_machine_id: '', zone_resilient: true, tags: {},
    os_disk: [{ blob_uri: 'https://mystorageaccount.blob.core.windows.net/osimages/osimage.vhd', caching: 'None', managed_disk_id: `${DISKS}/myManagedDisk1`, os_state: 'Generalized', os_type: 'Windows', size_gb: 20, storage_type: 'Standard_LRS', disk_encryption_set_id: '' }],
    data_disk: [{ lun: 1, blob_uri: 'https://mystorageaccount.blob.core.windows.net/dataimages/dataimage.vhd', caching: 'None', managed_disk_id: `${DISKS}/myManagedDisk2`, size_gb: 0, storage_type: 'Standard_LRS', disk_encryption_set_id: '' }],
  }),
];
