// Severity rules of google types (rules.ts explains the conditions); tried before the generic
// tag-only, label-only, deleted and changed rules. Readers add the rules of their types here.
import type { SeverityRule } from '../../rules.ts';
import { COMPUTE_RULES } from './compute/rules.ts';

export const GOOGLE_RULES: SeverityRule[] = [
  ...COMPUTE_RULES,
];
