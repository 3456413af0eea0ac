// The compute, storage, identity and platform azurerm readers, spread into AZURE_READERS.
import type { RestReader } from '../../rest/reader.ts';
import { kubernetesClusterReader } from './aks.ts';
import { roleAssignmentReader, userAssignedIdentityReader } from './authorization.ts';
import { legacyVmReader } from './compute-legacy.ts';
import { linuxVmReader, managedDiskReader, windowsVmReader } from './compute.ts';
import { applicationInsightsReader, containerRegistryReader, logAnalyticsWorkspaceReader } from './platform.ts';
import { firewallRuleReader, flexibleServerReader } from './postgres.ts';
import { storageAccountReader, storageContainerReader } from './storage.ts';
import { withVmList } from './vm-list.ts';
import { keyVaultReader, linuxWebAppReader, servicePlanReader } from './web.ts';

export const AZURE_RESOURCE_READERS: Record<string, RestReader> = {
  // First of the VM types: the fake's shared list of a group's VMs comes with it.
  azurerm_linux_virtual_machine: withVmList(linuxVmReader),
  azurerm_virtual_machine: legacyVmReader,
  azurerm_windows_virtual_machine: windowsVmReader,
  azurerm_managed_disk: managedDiskReader,
  azurerm_kubernetes_cluster: kubernetesClusterReader,
  azurerm_role_assignment: roleAssignmentReader,
  azurerm_storage_account: storageAccountReader,
  azurerm_container_registry: containerRegistryReader,
  azurerm_log_analytics_workspace: logAnalyticsWorkspaceReader,
  azurerm_postgresql_flexible_server: flexibleServerReader,
  azurerm_postgresql_flexible_server_firewall_rule: firewallRuleReader,
  azurerm_storage_container: storageContainerReader,
  azurerm_key_vault: keyVaultReader,
  azurerm_user_assigned_identity: userAssignedIdentityReader,
  azurerm_service_plan: servicePlanReader,
  azurerm_linux_web_app: linuxWebAppReader,
  azurerm_application_insights: applicationInsightsReader,
};
