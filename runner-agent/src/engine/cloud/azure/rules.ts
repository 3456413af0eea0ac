// Severity rules of azurerm types (rules.ts explains the conditions); tried before the generic
// tag-only, deleted and changed rules. Readers add the rules of their types here.
import type { SeverityRule } from '../../rules.ts';
import { AZURE_MORE_RULES } from './more/rules.ts';
import { AZURE_NETWORK_RULES } from './network/rules.ts';
import { AZURE_RESOURCE_RULES } from './resources/rules.ts';
import { AZURE_TAIL_RULES } from './tail/rules.ts';

export const AZURE_RULES: SeverityRule[] = [
  ...AZURE_NETWORK_RULES,
  ...AZURE_RESOURCE_RULES,
  ...AZURE_MORE_RULES,
  ...AZURE_TAIL_RULES,
];
