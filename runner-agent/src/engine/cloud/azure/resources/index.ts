// The compute, storage, identity and platform azurerm readers, spread into AZURE_READERS.
// Each type: one pinned ARM API version, read by id (GET) or, when three or more share a parent,
// with one paged list of that parent:
//   virtual machines (linux, windows, legacy)  Microsoft.Compute 2024-07-01   group list (one for the three types)
//   managed disks                              Microsoft.Compute 2024-03-02   group list
//   kubernetes clusters                        ContainerService 2024-09-01    group list
//   role assignments                           Authorization 2022-04-01       subscription list (any scope under it)
//   storage accounts / containers              Storage 2023-05-01             group list / account's container list
//   container registries                       ContainerRegistry 2023-07-01   group list
//   log analytics workspaces                   OperationalInsights 2022-10-01 group list
//   postgresql flexible servers / fw rules     DBforPostgreSQL 2024-08-01     group list / server's rule list
//   key vaults                                 KeyVault 2023-07-01            group list
//   user-assigned identities                   ManagedIdentity 2023-01-31     group list
//   service plans, linux web apps              Web 2023-12-01                 group list
//   application insights                       Insights 2020-02-02            group list
// Storage containers: the state id is the ARM id (4.x) or the data-plane URL with the ARM id in
// resource_manager_id (2.x/3.x); a URL alone (1.x) names no subscription and is left unread.
import type { RestReader } from '../../rest/reader.ts';
import { kubernetesClusterReader } from './aks.ts';
import { roleAssignmentReader, userAssignedIdentityReader } from './authorization.ts';
import { legacyVmReader } from './compute-legacy.ts';
import { linuxVmReader, managedDiskReader, windowsVmReader } from './compute.ts';
import { applicationInsightsReader, containerRegistryReader, logAnalyticsWorkspaceReader } from './platform.ts';
import { firewallRuleReader, flexibleServerReader } from './postgres.ts';
import { storageAccountReader, storageContainerReader } from './storage.ts';
import { withNullDefaults } from './util.ts';
import { withVmLists } from './vm-list.ts';
import { keyVaultReader, linuxWebAppReader, servicePlanReader } from './web.ts';

const READERS: Record<string, RestReader> = {
  // First of the VM types: the fake's shared lists of VMs come with it.
  azurerm_linux_virtual_machine: withVmLists(linuxVmReader, 'linux', true),
  azurerm_virtual_machine: withVmLists(legacyVmReader, null),
  azurerm_windows_virtual_machine: withVmLists(windowsVmReader, 'windows'),
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

export const AZURE_RESOURCE_READERS: Record<string, RestReader> = Object.fromEntries(Object.entries(READERS).map(([type, r]) => [type, withNullDefaults(r)]));
