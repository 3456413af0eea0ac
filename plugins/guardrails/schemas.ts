// TypeBox schemas of the guardrail routes (SPEC "Guardrail", "Guardrails"; docs/guardrails.md).
import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, pageFields } from '../../core/schemas.ts';
import { OPERATORS } from './policy-rules.ts';
import { ENFORCEMENTS } from './plan.ts';

export const Enforcement = Type.Enum(ENFORCEMENTS);
export const GuardrailStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive')]);
const Operator = Type.Enum(OPERATORS, {
  description: 'equals, not_equals, exists, not_exists, in, not_in, contains, not_contains, matches, gt, gte, lt, lte. '
    + 'A rule asserts what every value its attribute reaches must satisfy: it is violated when any value fails. '
    + 'Absent (null or unset) values pass not_equals, not_exists, not_in, not_contains and fail the others. '
    + 'Values unknown until apply pass exists, fail not_exists and are listed as unknown (not violations) for the others. '
    + 'On a list value: contains/not_contains test membership, in/not_in every/no element, matches every element, equals the whole list. '
    + 'A [*] over an absent or empty list reaches no value (nothing to check). See docs/guardrails.md.',
});
const Value = Type.Unknown({ description: 'Required except for exists/not_exists (which take none): an array for in/not_in, a number for gt/gte/lt/lte, a regular expression (checked safe, at most 200 characters) for matches' });
const Attribute = Type.String({ minLength: 1, maxLength: 300, description: 'Dot path into the planned values (change.after): tags.Owner, ingress[*].cidr_blocks, root_block_device[0].encrypted, tags["kubernetes.io/role"]' });

export const Condition = Type.Object({ attribute: Attribute, operator: Operator, value: Type.Optional(Value) });
export const Rule = Type.Object({
  resourceType: Type.String({ minLength: 1, maxLength: 200, pattern: '^(\\*|[A-Za-z0-9_-]+)$', description: 'A Terraform resource type (aws_s3_bucket) or * for every type' }),
  attribute: Attribute,
  operator: Operator,
  value: Type.Optional(Value),
  when: Type.Optional(Type.Array(Condition, { maxItems: 10, description: 'Extension: the rule applies only where every condition holds; conditions sharing the attribute\'s [*] prefix are checked on the same list element' })),
});
export type RuleInput = Static<typeof Rule>;

const Rules = Type.Array(Rule, { minItems: 1, maxItems: 50 });
export const CreateGuardrail = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  enforcement: Enforcement,
  status: Type.Optional(GuardrailStatus),
  rules: Rules,
});
export type CreateGuardrail = Static<typeof CreateGuardrail>;
export const UpdateGuardrail = Type.Partial(CreateGuardrail);
export type UpdateGuardrail = Static<typeof UpdateGuardrail>;

export const ListQuery = Type.Object({ status: Type.Optional(GuardrailStatus), enforcement: Type.Optional(Enforcement), ...pageFields() });
export const RepositoryIds = Type.Object({ repositoryIds: Type.Array(Id, { minItems: 1, maxItems: 100, description: 'Repository config ids of the organization' }) });

const Decision = Type.Union([Type.Literal('blocked'), Type.Literal('allowed'), Type.Literal('pending')]);
export const EvaluationStatus = Type.Enum(['allowed', 'blocked', 'pending', 'approved', 'rejected', 'bypassed'] as const);

export const GuardrailView = Type.Object({
  _id: Type.String(), name: Type.String(), description: Type.String(), enforcement: Enforcement, status: GuardrailStatus,
  rules: Type.Array(Rule), deployedTo: Type.Array(Type.String()),
  evaluationCount: Type.Integer({ description: 'Stored evaluations this guardrail took part in' }),
  violationCount: Type.Integer({ description: 'Violations it found across them' }),
  createdAt: Timestamp, updatedAt: Timestamp,
});
export const HistoryEntry = Type.Object({
  evaluationId: Type.String(), repositoryId: Type.String(), decision: Decision, status: EvaluationStatus,
  violationCount: Type.Integer(), createdAt: Timestamp,
});
export const GuardrailDetail = Type.Object({ ...GuardrailView.properties, evaluations: Type.Array(HistoryEntry, { description: 'Newest first, at most 20' }) });
export const GuardrailList = Type.Object({ guardrails: Type.Array(GuardrailView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
export const DeployView = Type.Object({ message: Type.String(), deployedTo: Type.Array(Type.String()) });
export const TemplateList = Type.Object({
  templates: Type.Array(Type.Object({ _id: Type.String(), name: Type.String(), description: Type.String(), category: Type.String(), enforcement: Enforcement, rules: Type.Array(Rule) })),
});

// ---- Evaluation ----

const ResourceChange = Type.Object({
  address: Type.String({ maxLength: 2000 }),
  type: Type.String({ maxLength: 200 }),
  mode: Type.Optional(Type.String({ maxLength: 20 })),
  change: Type.Object({
    actions: Type.Array(Type.String({ maxLength: 20 }), { maxItems: 4 }),
    after: Type.Optional(Type.Unknown()), after_unknown: Type.Optional(Type.Unknown()), after_sensitive: Type.Optional(Type.Unknown()),
  }, { additionalProperties: true }),
}, { additionalProperties: true });
export const MAX_RESOURCE_CHANGES = 20_000;
export const PlanJson = Type.Object({
  format_version: Type.String({ pattern: '^1\\.[0-9]+$', description: 'Major version 1 (a plan of another major version is refused, as the format asks)' }),
  resource_changes: Type.Optional(Type.Array(ResourceChange, { maxItems: MAX_RESOURCE_CHANGES })),
}, { additionalProperties: true, description: 'The JSON of terraform show -json / tofu show -json of a saved plan; other fields are ignored' });
export const EvaluateBody = Type.Object({ repositoryId: Id, plan: PlanJson });
export type EvaluateBody = Static<typeof EvaluateBody>;

const Violation = Type.Object({
  address: Type.String(), resourceType: Type.String(), action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('replace')]),
  ruleIndex: Type.Integer(), attribute: Type.String(), operator: Type.String(), expected: Type.Optional(Type.Unknown()),
  path: Type.String({ description: 'The concrete path checked, e.g. ingress[0].cidr_blocks' }),
  actual: Type.Unknown({ description: 'The planned value; null when absent; "(sensitive)" where the plan marks it sensitive' }),
});
const UnknownValue = Type.Object({ address: Type.String(), ruleIndex: Type.Integer(), attribute: Type.String(), path: Type.String() });
const Result = Type.Object({
  guardrailId: Type.String(), name: Type.String(), enforcement: Enforcement, decision: Decision,
  violationCount: Type.Integer(), violations: Type.Array(Violation, { description: 'At most 200; violationCount gives the whole' }),
  unknownCount: Type.Integer(), unknowns: Type.Array(UnknownValue, { description: 'Values unknown until apply that a comparison could not decide; at most 200' }),
});
const Actor = Type.Object({ userId: Nullable(Type.String()), kind: Type.String() });
export const EvaluationView = Type.Object({
  _id: Type.String(), repositoryId: Type.String(),
  decision: Decision, status: EvaluationStatus,
  approvalId: Nullable(Type.String({ description: 'Set when the decision is pending: approve or reject with /evaluations/{approvalId}/approve|reject' })),
  resourceChanges: Type.Integer(), evaluated: Type.Integer({ description: 'Resource changes that create, update or replace' }),
  results: Type.Array(Result), requestedBy: Actor,
  reviewedBy: Nullable(Actor), reviewedAt: Nullable(Timestamp), comment: Nullable(Type.String()),
  createdAt: Timestamp,
});
export const ReviewBody = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 1000 })) });
export const BypassBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000 }) });
