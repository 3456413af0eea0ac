// The long tail of azurerm types issue 33 measured uncompared (NAT gateways, route tables,
// bastions and VPN gateways, private endpoints, availability sets, VM extensions and disk
// attachments, DevTest shutdown schedules, MySQL/PostgreSQL/Cosmos DB databases, container apps,
// legacy app services, Log Analytics solutions, file shares, key vault secrets, blobs and share
// files), spread into
// AZURE_READERS. Types embedded in a network parent (lb NAT rules and pool addresses, NIC pool and
// subnet associations) are read by network/ beside their parent.
import type { RestReader } from '../../rest/reader.ts';
import { withNullDefaults } from '../resources/util.ts';
import { appServicePlanReader, appServiceReader, containerAppEnvironmentReader, containerAppReader, logAnalyticsSolutionReader, storageShareReader } from './apps.ts';
import { availabilitySetReader, dataDiskAttachmentReader, vmExtensionReader, vmShutdownScheduleReader } from './compute.ts';
import { cosmosAccountReader, cosmosSqlContainerReader, cosmosSqlDatabaseReader, mysqlDatabaseReader, mysqlServerReader, postgresDatabaseReader } from './data.ts';
import { keyVaultSecretReader } from './key-vault-secret.ts';
import { storageBlobReader, storageShareFileReader } from './storage-data.ts';
import { bastionHostReader, natGatewayReader, natPublicIpAssociationReader, privateEndpointReader, routeTableReader, virtualNetworkGatewayReader } from './network.ts';

// Older provider versions left null what later ones write as false, 0 or '': the same value.
export const AZURE_TAIL_READERS: Record<string, RestReader> = Object.fromEntries(Object.entries({
  azurerm_key_vault_secret: keyVaultSecretReader,
  azurerm_nat_gateway: natGatewayReader,
  azurerm_nat_gateway_public_ip_association: natPublicIpAssociationReader,
  azurerm_route_table: routeTableReader,
  azurerm_bastion_host: bastionHostReader,
  azurerm_virtual_network_gateway: virtualNetworkGatewayReader,
  azurerm_private_endpoint: privateEndpointReader,
  azurerm_availability_set: availabilitySetReader,
  azurerm_virtual_machine_data_disk_attachment: dataDiskAttachmentReader,
  azurerm_virtual_machine_extension: vmExtensionReader,
  azurerm_dev_test_global_vm_shutdown_schedule: vmShutdownScheduleReader,
  azurerm_postgresql_flexible_server_database: postgresDatabaseReader,
  azurerm_mysql_flexible_server: mysqlServerReader,
  azurerm_mysql_flexible_server_database: mysqlDatabaseReader,
  azurerm_cosmosdb_account: cosmosAccountReader,
  azurerm_cosmosdb_sql_database: cosmosSqlDatabaseReader,
  azurerm_cosmosdb_sql_container: cosmosSqlContainerReader,
  azurerm_container_app_environment: containerAppEnvironmentReader,
  azurerm_container_app: containerAppReader,
  azurerm_app_service_plan: appServicePlanReader,
  azurerm_app_service: appServiceReader,
  azurerm_log_analytics_solution: logAnalyticsSolutionReader,
  azurerm_storage_share: storageShareReader,
  azurerm_storage_blob: storageBlobReader,
  azurerm_storage_share_file: storageShareFileReader,
} satisfies Record<string, RestReader>).map(([type, reader]) => [type, withNullDefaults(reader)]));
