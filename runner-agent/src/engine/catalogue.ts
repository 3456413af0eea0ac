// The engine's catalogue: every provider's readers, ignore lists and severity rules, gathered from
// the provider indexes (cloud/aws, cloud/azure, cloud/google) in one defined order. The shared
// mechanisms (rules.ts classify, ignore.ts buildIgnoreRules) import no provider; comparison,
// coverage, the rule table and replay take their tables from here.
import { AWS_IGNORED, AWS_READERS, AWS_RULES } from './cloud/aws/index.ts';
import { AZURE_IGNORED, AZURE_READERS, AZURE_RULES } from './cloud/azure/index.ts';
import { GOOGLE_IGNORED, GOOGLE_READERS, GOOGLE_RULES } from './cloud/google/index.ts';
import { IGNORED_EVERYWHERE } from './ignore.ts';
import { GENERIC_RULES, type SeverityRule } from './rules.ts';

export { AWS_READERS, AZURE_READERS, GOOGLE_READERS };

/**
 * Severity rules in the order classify() tries them (first match wins): each provider's own
 * (AWS, Azure, Google: their types are disjoint), then the generic fallbacks (tags-only,
 * labels-only, deleted, changed), which match every drift.
 */
export const SEVERITY_RULES: SeverityRule[] = [
  ...AWS_RULES,
  ...AZURE_RULES,
  ...GOOGLE_RULES,
  ...GENERIC_RULES,
];

/** Attribute patterns never reported, per resource type; `*` applies to every type. */
export const IGNORED_ATTRIBUTES: Record<string, string[]> = {
  ...IGNORED_EVERYWHERE,
  ...AWS_IGNORED,
  ...AZURE_IGNORED,
  ...GOOGLE_IGNORED,
};
