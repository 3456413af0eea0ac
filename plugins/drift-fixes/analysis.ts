// Drift analysis and fix explanations through the organization's AI provider (settings and key
// from plugins/ai-providers): provider_a speaks OpenAI's chat-completions API (structured output
// through response_format json_schema), provider_b Anthropic's messages API (a tool whose
// input_schema is the analysis, forced with tool_choice). The answer is validated against the
// schema; any failure is a 502 `ai_provider_error` naming the cause. Without a key, the analysis
// is written from the severity rule table (source 'rules').
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { AppError } from '../../core/errors.ts';
import type { AppContext } from '../../core/context.ts';
import type { AiSettingsForOrg } from '../ai-providers/service.ts';
import { RULE_TABLE } from '../../runner-agent/src/engine/index.ts';

const TIMEOUT_MS = 30_000;
export const AnalysisAnswer = Type.Object({
  summary: Type.String({ minLength: 1, maxLength: 4000 }),
  riskLevel: Type.Union([Type.Literal('critical'), Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
  recommendation: Type.String({ minLength: 1, maxLength: 4000 }),
}, { additionalProperties: false });
export type AnalysisAnswer = Static<typeof AnalysisAnswer>;
/** The JSON schema sent to the providers: the same as AnalysisAnswer, in plain JSON Schema. */
export const ANALYSIS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'What changed outside the IaC, in one or two sentences' },
    riskLevel: { type: 'string', enum: ['critical', 'high', 'medium', 'low'] },
    recommendation: { type: 'string', description: 'What to do: revert by re-applying, or accept the change into the code, and why' },
  },
  required: ['summary', 'riskLevel', 'recommendation'],
  additionalProperties: false,
} as const;

export interface DriftFacts {
  resourceType: string;
  resourceAddress: string;
  severity: string;
  changeType: string;
  ruleId: string | null;
  changes: { attribute: string; before: unknown; after: unknown }[];
}

const SECRET_NAME = /(password|passwd|secret|token|private_key|api_key|access_key|credential)/i;
/** Values of attributes named like secrets are masked before anything leaves (the engine already masks sensitive ones). */
export const maskChanges = (changes: DriftFacts['changes']) =>
  changes.map((c) => (SECRET_NAME.test(c.attribute) ? { attribute: c.attribute, before: '(masked)', after: '(masked)' } : c));

/** The drift's changes from its stored diff: `{changes: [...]}` as scans record it; older shapes as one entry. */
export function changesOf(diff: Record<string, unknown>): DriftFacts['changes'] {
  const list = diff.changes;
  if (Array.isArray(list)) {
    return list.filter((c): c is { attribute: string; before: unknown; after: unknown } => Boolean(c) && typeof (c as { attribute?: unknown }).attribute === 'string')
      .map((c) => ({ attribute: c.attribute, before: c.before ?? null, after: c.after ?? null }));
  }
  return Object.keys(diff).length ? [{ attribute: '*', before: diff.expected ?? null, after: diff.actual ?? diff }] : [];
}

const ruleOf = (ruleId: string | null) => RULE_TABLE.find((r) => r.id === ruleId) ?? null;
const short = (v: unknown) => { const s = JSON.stringify(v); return s === undefined ? 'null' : s.length > 120 ? `${s.slice(0, 117)}...` : s; };

export function prompt(f: DriftFacts): string {
  const rule = ruleOf(f.ruleId);
  return [
    `Resource: ${f.resourceAddress} (type ${f.resourceType})`,
    `Change type: ${f.changeType === 'removed' ? 'deleted outside the IaC' : 'changed outside the IaC'}`,
    `Severity: ${f.severity}`,
    rule ? `Severity rule that matched: ${rule.id}: ${rule.condition}. Rationale: ${rule.rationale}` : 'Severity rule that matched: none (default severity)',
    'Attribute changes (before = declared in the IaC state, after = live in the cloud):',
    ...maskChanges(f.changes).map((c) => `- ${c.attribute}: ${short(c.before)} -> ${short(c.after)}`),
  ].join('\n');
}

const SYSTEM = 'You review infrastructure drift: a cloud resource that no longer matches its Terraform/OpenTofu code. Answer for an operator: what changed, the risk, and what to do. Be concrete and brief.';

/** The deterministic analysis from the severity rule table: what changed, why it matters, what to do. */
export function ruleAnalysis(f: DriftFacts) {
  const rule = ruleOf(f.ruleId);
  const attrs = f.changes.map((c) => c.attribute).filter((a) => a !== '*');
  const what = f.changeType === 'removed'
    ? `${f.resourceAddress} (${f.resourceType}) was deleted outside the IaC.`
    : `${f.resourceAddress} (${f.resourceType}) was changed outside the IaC${attrs.length ? `: ${attrs.slice(0, 8).join(', ')}${attrs.length > 8 ? ` and ${attrs.length - 8} more` : ''}` : ''}.`;
  const why = rule ? ` ${rule.description}: ${rule.rationale}` : ` No severity rule matched; ${f.severity} is the default for an unclassified change.`;
  const urgent = f.severity === 'critical' || f.severity === 'high';
  const recommendation = f.changeType === 'removed'
    ? 'Re-apply the configuration to create the resource again, or remove its block from the code if the deletion was intended.'
    : urgent
      ? 'Revert: re-apply the declared configuration (terraform/tofu apply) now, then find who changed it and why.'
      : 'If the change was intended, accept it into the code (generate-fix with strategy accept writes the live values); otherwise re-apply the declared configuration.';
  return { summary: `${what}${why}`, riskLevel: f.severity, recommendation, source: 'rules' as const };
}

const fail = (message: string) => new AppError('ai_provider_error', { message });

export function createAiClient(ctx: AppContext) {
  const ca = ctx.config.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(ctx.config.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;
  const agent = new Agent({ connect: ca ? { ca } : {} });

  async function call(s: AiSettingsForOrg & { apiKey: string }, body: object): Promise<any> {
    const [url, headers] = s.provider === 'provider_a'
      ? [`${s.baseUrl}/v1/chat/completions`, { authorization: `Bearer ${s.apiKey}` }]
      : [`${s.baseUrl}/v1/messages`, { 'x-api-key': s.apiKey, 'anthropic-version': '2023-06-01' }];
    let res;
    try {
      res = await request(url, { method: 'POST', dispatcher: agent, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      throw fail(`The AI provider is unreachable (${(err as Error).name === 'TimeoutError' ? 'timed out' : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name)})`);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw fail(`The AI provider is unreachable (the connection closed mid-answer: ${(err as { code?: string }).code ?? (err as Error).name})`);
    }
    let json: any = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    const reason = json?.error?.message ? `: ${String(json.error.message).slice(0, 300)}` : '';
    if (res.statusCode === 401 || res.statusCode === 403) throw fail(`The AI provider refused the key (${res.statusCode}${reason})`);
    if (res.statusCode < 200 || res.statusCode >= 300) throw fail(`The AI provider answered ${res.statusCode}${reason}`);
    if (!json) throw fail('The AI provider answered something other than JSON');
    return json;
  }

  function validated(candidate: unknown): AnalysisAnswer {
    const problem = [...Value.Errors(AnalysisAnswer, candidate)][0];
    if (problem) throw fail(`The AI provider's answer does not match the analysis schema (${problem.instancePath || '/'} ${problem.message})`);
    return candidate as AnalysisAnswer;
  }

  return {
    async analyse(s: AiSettingsForOrg & { apiKey: string }, f: DriftFacts) {
      const user = prompt(f);
      if (s.provider === 'provider_a') {
        const json = await call(s, {
          model: s.model, temperature: 0,
          messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }],
          response_format: { type: 'json_schema', json_schema: { name: 'drift_analysis', strict: true, schema: ANALYSIS_JSON_SCHEMA } },
        });
        const message = json?.choices?.[0]?.message;
        if (message?.refusal) throw fail(`The AI provider refused to answer: ${String(message.refusal).slice(0, 300)}`);
        let parsed: unknown;
        try { parsed = JSON.parse(String(message?.content ?? '')); } catch { throw fail("The AI provider's answer is not the JSON the schema asks for"); }
        return { ...validated(parsed), source: 'provider_a' as const };
      }
      const json = await call(s, {
        model: s.model, max_tokens: 1024, system: SYSTEM,
        messages: [{ role: 'user', content: user }],
        tools: [{ name: 'record_drift_analysis', description: 'Records the analysis of one drift', input_schema: ANALYSIS_JSON_SCHEMA }],
        tool_choice: { type: 'tool', name: 'record_drift_analysis' },
      });
      const use = Array.isArray(json?.content) ? json.content.find((c: { type?: string; name?: string }) => c?.type === 'tool_use' && c.name === 'record_drift_analysis') : undefined;
      if (!use) throw fail('The AI provider answered without the analysis tool call');
      return { ...validated(use.input), source: 'provider_b' as const };
    },

    /** A plain-text explanation of a computed fix (the provider writes words, never the patch). */
    async explain(s: AiSettingsForOrg & { apiKey: string }, f: DriftFacts, fix: { strategy: string; fixCode: string; notes: string }): Promise<string> {
      const user = `${prompt(f)}\n\nA fix was computed (strategy ${fix.strategy}). ${fix.notes}\n${fix.fixCode ? `Patch:\n${fix.fixCode.slice(0, 6000)}` : 'No file changes.'}\n\nExplain this fix to the operator in a short paragraph. Do not write code or a patch.`;
      const json = s.provider === 'provider_a'
        ? await call(s, { model: s.model, temperature: 0, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }] })
        : await call(s, { model: s.model, max_tokens: 800, system: SYSTEM, messages: [{ role: 'user', content: user }] });
      const text = s.provider === 'provider_a'
        ? json?.choices?.[0]?.message?.content
        : (Array.isArray(json?.content) ? json.content.filter((c: { type?: string }) => c?.type === 'text').map((c: { text?: string }) => c.text ?? '').join('') : undefined);
      if (typeof text !== 'string' || !text.trim()) throw fail('The AI provider answered without text');
      return text.trim().slice(0, 8000);
    },
    close: () => agent.close(),
  };
}
