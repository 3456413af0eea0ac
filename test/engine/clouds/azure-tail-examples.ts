// ARM's answers for some tail/ types as the Azure REST API specs' examples show them (ids,
// casing and defaults as ARM writes them, not as the readers map back), keyed by ARM id, with
// the state instances the provider writes from them, for azure-tail.test.ts.
import * as f from './azure-tail-fixtures.ts';

const nat = f.nat().attributes.id as string;
const plan = f.plan({ kind: 'Windows', reserved: false }).attributes.id as string;
export const EXAMPLE_STATE = [
  f.nat(), f.routeTable(), f.bastion(), f.availabilitySet(), f.extension(), f.plan({ kind: 'Windows', reserved: false }), f.cosmos(), f.containerApp(), f.solution(), f.mysql(),
];
const ext = f.extension().attributes.id as string;
export const EXAMPLES: Record<string, unknown> = {
  [nat]: {
    name: 'egress', id: nat, type: 'Microsoft.Network/natGateways', location: 'westeurope', tags: { env: 'prod' }, etag: 'W/"0"', sku: { name: 'Standard' }, zones: ['1'],
    properties: { idleTimeoutInMinutes: 10, resourceGuid: '7b1c2d3e-0000-4000-8000-000000000001', provisioningState: 'Succeeded', publicIpAddresses: [{ id: f.ids.pip('nat-ip') }], subnets: [{ id: f.ids.subnet('app') }] },
  },
  [f.ids.routeTable('spoke')]: {
    name: 'spoke', id: f.ids.routeTable('spoke'), type: 'Microsoft.Network/routeTables', location: 'westeurope', tags: { env: 'prod' },
    properties: {
      provisioningState: 'Succeeded', disableBgpRoutePropagation: false, resourceGuid: 'x',
      routes: [
        { name: 'to-hub', id: `${f.ids.routeTable('spoke')}/routes/to-hub`, properties: { provisioningState: 'Succeeded', addressPrefix: '10.0.0.0/16', nextHopType: 'VirtualNetworkGateway' }, type: 'Microsoft.Network/routeTables/routes' },
        { name: 'onprem', id: `${f.ids.routeTable('spoke')}/routes/onprem`, properties: { provisioningState: 'Succeeded', addressPrefix: '192.168.0.0/16', nextHopType: 'VirtualAppliance', nextHopIpAddress: '10.0.9.4', hasBgpOverride: false }, type: 'Microsoft.Network/routeTables/routes' },
      ],
      subnets: [{ id: f.ids.subnet('app') }],
    },
  },
  [f.bastion().attributes.id as string]: {
    name: 'jump', id: f.bastion().attributes.id, type: 'Microsoft.Network/bastionHosts', location: 'westeurope', tags: { env: 'prod' }, sku: { name: 'Standard' },
    properties: {
      provisioningState: 'Succeeded', dnsName: 'bst-0000.bastion.azure.com', scaleUnits: 2, disableCopyPaste: false, enableFileCopy: false, enableIpConnect: false,
      enableShareableLink: false, enableTunneling: false, enableKerberos: false,
      ipConfigurations: [{ name: 'configuration', id: `${f.bastion().attributes.id}/bastionHostIpConfigurations/configuration`, properties: { provisioningState: 'Succeeded', privateIPAllocationMethod: 'Dynamic', publicIPAddress: { id: f.ids.pip('bastion-ip') }, subnet: { id: f.ids.subnet('AzureBastionSubnet') } } }],
    },
  },
  [f.availabilitySet().attributes.id as string]: {
    name: 'web', id: f.availabilitySet().attributes.id, type: 'Microsoft.Compute/availabilitySets', location: 'westeurope', tags: { env: 'prod' }, sku: { name: 'Aligned' },
    properties: { platformUpdateDomainCount: 5, platformFaultDomainCount: 2, virtualMachines: [] },
  },
  [ext]: {
    name: 'AzureMonitorLinuxAgent', id: ext, type: 'Microsoft.Compute/virtualMachines/extensions', location: 'westeurope',
    properties: {
      autoUpgradeMinorVersion: true, enableAutomaticUpgrade: true, provisioningState: 'Succeeded', publisher: 'Microsoft.Azure.Monitor', type: 'AzureMonitorLinuxAgent',
      typeHandlerVersion: '1.0', settings: { stopOnMultipleConnections: false, workspaceId: '11111111-2222-3333-4444-555555555555' },
    },
  },
  // ARM answers `app` for a Windows plan, and both name and size in its sku.
  [plan]: {
    id: plan, name: 'legacy-plan', type: 'Microsoft.Web/serverfarms', kind: 'app', location: 'West Europe', tags: { env: 'prod' },
    sku: { name: 'B1', tier: 'Basic', size: 'B1', family: 'B', capacity: 1 },
    properties: { status: 'Ready', maximumNumberOfWorkers: 3, numberOfSites: 1, perSiteScaling: false, elasticScaleEnabled: false, maximumElasticWorkerCount: 1, isSpot: false, reserved: false, isXenon: false, hyperV: false, zoneRedundant: false, provisioningState: 'Succeeded' },
  },
  // `West Europe` as the location's display name, the default consistency bounds.
  [f.ids.cosmos]: {
    id: f.ids.cosmos, name: 'cosmos-tail', location: 'West Europe', type: 'Microsoft.DocumentDB/databaseAccounts', kind: 'GlobalDocumentDB', tags: { env: 'prod' },
    properties: {
      provisioningState: 'Succeeded', documentEndpoint: 'https://cosmos-tail.documents.azure.com:443/', databaseAccountOfferType: 'Standard',
      ipRules: [{ ipAddressOrRange: '203.0.113.0/24' }], isVirtualNetworkFilterEnabled: false, enableAutomaticFailover: false,
      consistencyPolicy: { defaultConsistencyLevel: 'Session', maxIntervalInSeconds: 5, maxStalenessPrefix: 100 },
      capabilities: [{ name: 'EnableServerless' }], writeLocations: [], readLocations: [],
      locations: [{ id: 'cosmos-tail-westeurope', locationName: 'West Europe', documentEndpoint: 'https://cosmos-tail-westeurope.documents.azure.com:443/', provisioningState: 'Succeeded', failoverPriority: 0, isZoneRedundant: false }],
      failoverPolicies: [], virtualNetworkRules: [], enableMultipleWriteLocations: false, enableFreeTier: false, publicNetworkAccess: 'Disabled',
      enableAnalyticalStorage: false, disableKeyBasedMetadataWriteAccess: false, disableLocalAuth: false, minimalTlsVersion: 'Tls12',
    },
  },
  // Transport `Auto` (the provider writes it lowercase), the environment under both names.
  [f.containerApp().attributes.id as string]: {
    id: f.containerApp().attributes.id, name: 'api', type: 'Microsoft.App/containerApps', location: 'West Europe', tags: { env: 'prod' },
    properties: {
      provisioningState: 'Succeeded', managedEnvironmentId: f.ids.env, environmentId: f.ids.env, workloadProfileName: null, latestRevisionName: 'api--0000',
      configuration: { activeRevisionsMode: 'Single', ingress: { fqdn: 'api.bluesky-0000.westeurope.azurecontainerapps.io', external: true, targetPort: 8080, transport: 'Auto', allowInsecure: false, traffic: [{ weight: 100, latestRevision: true }] } },
      template: { containers: [{ image: 'ghcr.io/example/api:1.4.2', name: 'api', resources: { cpu: 0.5, memory: '1Gi', ephemeralStorage: '2Gi' } }], scale: { minReplicas: 1, maxReplicas: 3 } },
    },
  },
  [f.solution().attributes.id as string]: {
    id: f.solution().attributes.id, name: 'ContainerInsights(logs)', type: 'Microsoft.OperationsManagement/solutions', location: 'West Europe',
    plan: { name: 'ContainerInsights(logs)', publisher: 'Microsoft', promotionCode: '', product: 'OMSGallery/ContainerInsights' },
    properties: { workspaceResourceId: f.ids.workspace, provisioningState: 'Succeeded', containedResources: [] },
  },
  [f.ids.mysql]: {
    id: f.ids.mysql, name: 'my-tail', type: 'Microsoft.DBforMySQL/flexibleServers', location: 'West Europe', tags: { env: 'prod' }, sku: { name: 'Standard_B1ms', tier: 'Burstable' },
    properties: {
      administratorLogin: 'mysqladmin', version: '8.0.21', state: 'Ready', fullyQualifiedDomainName: 'my-tail.mysql.database.azure.com', availabilityZone: '1',
      storage: { storageSizeGB: 20, iops: 360, autoGrow: 'Enabled', autoIoScaling: 'Disabled', storageSku: 'Premium_LRS', logOnDisk: 'Disabled' },
      backup: { backupRetentionDays: 7, geoRedundantBackup: 'Disabled', earliestRestoreDate: '2024-01-01T00:00:00+00:00' },
      highAvailability: { mode: 'Disabled', state: 'NotEnabled', standbyAvailabilityZone: '' }, network: { publicNetworkAccess: 'Enabled' },
      replicationRole: 'None', replicaCapacity: 10, maintenanceWindow: { customWindow: 'Disabled', dayOfWeek: 0, startHour: 0, startMinute: 0 },
    },
  },
};
