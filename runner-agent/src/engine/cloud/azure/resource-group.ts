// azurerm_resource_group: Microsoft.Resources/resourceGroups (api 2021-04-01).
import { armReader, location } from './kit.ts';

export const resourceGroupReader = armReader({
  type: 'azurerm_resource_group',
  apiVersion: '2021-04-01',
  path: '/subscriptions/:sub/resourceGroups/:rg',
  subscriptionList: '/subscriptions/:sub/resourcegroups',
  toState: (json) => ({ name: json.name, location: location(json.location), tags: json.tags ?? {}, managed_by: json.managedBy ?? '' }),
  fromState: (a) => ({
    location: a.location, tags: a.tags ?? {}, ...(a.managed_by ? { managedBy: a.managed_by } : {}),
    properties: { provisioningState: 'Succeeded' },
  }),
});
