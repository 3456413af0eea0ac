// Severity rules of google types (rules.ts explains the conditions); tried before the generic
// tag-only, label-only, deleted and changed rules. Readers add the rules of their types here.
import type { SeverityRule } from '../../rules.ts';
import { PLATFORM_RULES } from './platform/rules.ts';
import { GCP_DATA_RULES } from './data/rules.ts';
import { COMPUTE_RULES } from './compute/rules.ts';
import { MORE_RULES } from './more/rules.ts';
import { LB_RULES } from './lb/rules.ts';
import { OPS_RULES } from './ops/rules.ts';
import { EDGE_RULES } from './edge/index.ts';
import { FLEET_RULES } from './fleet/index.ts';
import { SECURITY_RULES } from './security/rules.ts';

export const GOOGLE_RULES: SeverityRule[] = [
  ...PLATFORM_RULES,
  ...GCP_DATA_RULES,
  ...COMPUTE_RULES,
  ...MORE_RULES,
  ...LB_RULES,
  ...OPS_RULES,
  ...EDGE_RULES,
  ...FLEET_RULES,
  ...SECURITY_RULES,
];
