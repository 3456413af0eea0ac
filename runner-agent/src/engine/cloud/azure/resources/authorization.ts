// azurerm_role_assignment: Microsoft.Authorization/roleAssignments (api 2022-04-01), at any scope
// (`{scope}/providers/Microsoft.Authorization/roleAssignments/{guid}`: management group,
// subscription, group or resource). Three or more in one subscription are read with one paged
// list of the subscription's assignments (it answers those at and under the subscription);
// the others, and those above a subscription, one by one.
// azurerm_user_assigned_identity: Microsoft.ManagedIdentity/userAssignedIdentities (api 2023-01-31),
// the group's list when several share a group.
import type { StateInstance } from '../../../types.ts';
import { armReader, location, type ArmJson } from '../kit.ts';
import { clean, idAsState, opt, tags, withParentList, type Attrs } from './util.ts';

export const ROLE_API = '2022-04-01';

/** Built-in role definition ids (the same in every tenant) and the names the provider writes for them. */
export const BUILT_IN_ROLES: Record<string, string> = {
  '8e3af657-a8ff-443c-a75c-2fe8c4bcb635': 'Owner',
  'b24988ac-6180-42a0-ab88-20f7382dd24c': 'Contributor',
  'acdd72a7-3c0f-4bb6-b7e5-8b5f7f8e4f19': 'Reader',
  '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9': 'User Access Administrator',
  'f58310d9-a9f6-439a-9e8d-f62e7b41a168': 'Role Based Access Control Administrator',
  'ba92f5b4-2d11-453d-a403-e96b0029c9fe': 'Storage Blob Data Contributor',
  '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1': 'Storage Blob Data Reader',
  'b7e6dc6d-f1e8-4753-8033-0f276bb0955b': 'Storage Blob Data Owner',
  '974c5e8b-45b9-4653-ba55-5f855dd0fb88': 'Storage Queue Data Contributor',
  '17d1049b-9a84-46fb-8f53-869881c3d3ab': 'Storage Account Contributor',
  '7f951dda-4ed3-4680-a7ca-43fe172d538d': 'AcrPull',
  '8311e382-0749-4cb8-b61a-304f252e45ec': 'AcrPush',
  '4d97b98b-1d4f-4787-a291-c67834d212e7': 'Network Contributor',
  'f1a07417-d97a-45cb-824c-7a7467783830': 'Managed Identity Operator',
  '9980e02c-c2be-4d73-94e8-173b1dc7cf3c': 'Virtual Machine Contributor',
  '3913510d-42f4-4e42-8a64-420c390055eb': 'Monitoring Metrics Publisher',
  '43d0d8ad-25c7-4714-9337-8ba259a9fe05': 'Monitoring Reader',
  '749f88d5-cbae-40b8-bcfc-e573ddc772fa': 'Monitoring Contributor',
  '4633458b-17de-408a-b874-0445c86b69e6': 'Key Vault Secrets User',
  '00482a5a-887f-4fb3-b363-3b7fe8e74483': 'Key Vault Administrator',
  'b86a8fe4-44ce-4948-aee5-eccb2c155cd7': 'Key Vault Secrets Officer',
  '21090545-7ca7-4776-b22c-e363652d74d2': 'Key Vault Reader',
  '12338af0-0e69-4776-bea7-57ae8d297424': 'Key Vault Crypto User',
  'e147488a-f6f5-4113-8e2d-b22465e65bf6': 'Key Vault Crypto Service Encryption User',
  '4abbcc35-e782-43d8-92c5-2d3f1bd2253f': 'Azure Kubernetes Service Cluster User Role',
  'b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b': 'Azure Kubernetes Service RBAC Cluster Admin',
  'b12aa53e-6015-4669-85d0-8515ebb3ae7f': 'Private DNS Zone Contributor',
  '92aaf0da-9dab-42b6-94a3-d43ce8d16293': 'Log Analytics Contributor',
  'de139f84-1756-47ae-9be6-808fbbe84772': 'Website Contributor',
};
/** The roles whose grant to a new principal is a high-severity drift. */
export const PRIVILEGED_ROLES = ['8e3af657-a8ff-443c-a75c-2fe8c4bcb635', 'b24988ac-6180-42a0-ab88-20f7382dd24c'];

/** `.../roleDefinitions/<guid>` -> the guid, lowercase. */
export const roleGuid = (id: unknown) => (typeof id === 'string' ? id.split('/').pop()!.toLowerCase() : '');

const PATH = '/*scope/providers/Microsoft.Authorization/roleAssignments/:name';
const subscriptionOf = (id: string) => /^(\/subscriptions\/[^/]+)\//i.exec(id)?.[1];

const roleToState = (json: ArmJson, instance: StateInstance): Attrs => {
  const p = json.properties ?? {};
  const name = BUILT_IN_ROLES[roleGuid(p.roleDefinitionId)];
  return {
    name: json.name, scope: typeof p.scope === 'string' && /^\/subscriptions\/[^/]+\/resourcegroups\/[^/]+$/i.test(p.scope) ? idAsState(p.scope, instance.attributes.scope) : opt(p.scope), role_definition_id: idAsState(p.roleDefinitionId, instance.attributes.role_definition_id),
    // A custom role's name needs a read of its definition: compared by id only.
    ...(name ? { role_definition_name: name } : {}),
    principal_id: opt(p.principalId), principal_type: opt(p.principalType), description: p.description ?? '',
    condition: p.condition ?? '', condition_version: p.conditionVersion ?? '',
    delegated_managed_identity_resource_id: p.delegatedManagedIdentityResourceId ?? '',
  };
};
const roleFromState = (a: Attrs): ArmJson => {
  // A state from an old provider may hold only the role's name: its built-in id stands in.
  const byName = Object.entries(BUILT_IN_ROLES).find(([, n]) => n === a.role_definition_name)?.[0];
  const sub = subscriptionOf(String(a.scope ?? a.id ?? '') + '/');
  const roleDefinitionId = a.role_definition_id || (byName ? `${sub ?? ''}/providers/Microsoft.Authorization/roleDefinitions/${byName}` : undefined);
  return {
    type: 'Microsoft.Authorization/roleAssignments',
    properties: clean({
      scope: a.scope, roleDefinitionId, principalId: a.principal_id, principalType: a.principal_type || undefined,
      description: a.description || undefined, condition: a.condition || undefined, conditionVersion: a.condition_version || undefined,
      delegatedManagedIdentityResourceId: a.delegated_managed_identity_resource_id || undefined,
    }),
  };
};

const roleBase = armReader({ type: 'azurerm_role_assignment', apiVersion: ROLE_API, path: PATH, toState: roleToState, fromState: roleFromState });
const idOf = (a: Attrs) => (typeof a.id === 'string' && a.id ? a.id : undefined);

export const roleAssignmentReader = withParentList({
  type: 'azurerm_role_assignment', apiVersion: ROLE_API, base: roleBase, idOf,
  parentOf: subscriptionOf,
  suffix: '/providers/Microsoft.Authorization/roleAssignments',
  route: '/subscriptions/:sub/providers/Microsoft.Authorization/roleAssignments',
  parentOfRequest: (req) => `/subscriptions/${req.params.sub}`, subscriptionParent: true,
  toState: roleToState, fromState: roleFromState,
});

const UAI = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities';
export const userAssignedIdentityReader = armReader({
  type: 'azurerm_user_assigned_identity', apiVersion: '2023-01-31', path: `${UAI}/:name`, list: UAI,
  toState: (json) => {
    const p = json.properties ?? {};
    return { name: json.name, location: location(json.location), tags: tags(json), principal_id: opt(p.principalId), client_id: opt(p.clientId), tenant_id: opt(p.tenantId) };
  },
  fromState: (a) => ({ location: a.location, tags: a.tags ?? {}, properties: clean({ principalId: a.principal_id, clientId: a.client_id, tenantId: a.tenant_id }) }),
});
