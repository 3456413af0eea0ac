// The OpenAPI document's frame and the manifest facts each operation carries as
// extensions (x-scopes, x-permission, x-gates, x-resumes-permission, x-plan, x-limit), so integrators and contract tests read them.
import type { Config } from './config.ts';
import type { OpenApiFacts } from './loader.ts';
import { DOMAIN_EVENTS, WEBHOOK_EVENTS } from './event-catalog.ts';

export const DOCS_PATH = '/docs';

export function openapiInfo(config: Config) {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Drift management API',
      version: '0.1.0',
      description: 'Finds where cloud resources differ from the infrastructure-as-code that declares them. '
        + 'Errors share one shape: {success:false, error:{code, message, details?}}.',
    },
    servers: [{ url: config.publicUrl }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        cliToken: { type: 'http', scheme: 'bearer', description: 'CLI token (prefix ci_)' },
        downloadToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Short-lived download token' },
        runnerToken: { type: 'apiKey', in: 'header', name: 'X-Runner-Token' },
        userRedirectToken: { type: 'apiKey', in: 'query', name: 'token', description: "The user's access JWT, only on the GET that starts a browser redirect flow (the browser navigates there and cannot send a header)" },
        runnerLink: { type: 'apiKey', in: 'query', name: 'token', description: "The runner's own token (install script and agent package links)" },
        scimToken: { type: 'http', scheme: 'bearer', description: 'SCIM token' },
        cloudEventsToken: { type: 'http', scheme: 'bearer', description: 'Cloud events token (ce_), POST /api/cloud-events only' },
        serviceKey: { type: 'apiKey', in: 'header', name: 'x-service-key' },
      },
      schemas: webhookSchemas(),
    },
  };
}

/** The organization a request acts in, where the path does not name it (README "Organization context"). */
const ORG_HEADER = {
  in: 'header', name: 'x-org-id', required: false,
  description: "The organization to act in (the caller must be a member); without it, the caller's default organization",
  schema: { type: 'string', pattern: '^[a-f0-9]{24}$' },
};

type Doc = { paths?: Record<string, Record<string, { operationId?: string } & Record<string, unknown>>> };

export function addOpenApiFacts<T>(input: T, facts: Map<string, OpenApiFacts>): T {
  const doc = (input as { openapiObject?: Doc }).openapiObject ?? (input as Doc);
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(methods)) {
      const f = op.operationId ? facts.get(op.operationId) : undefined;
      if (!f) continue;
      op['x-auth'] = f.auth;
      op['x-scopes'] = f.scopes;
      op['x-cli-token'] = f.cli;
      op['x-permission'] = f.permission ?? null;
      op['x-plan'] = f.plan ?? 'free';
      if (f.rateLimit) op['x-rate-limit'] = f.rateLimit;
      if (f.limit) op['x-limit'] = f.limit;
      if (f.audit) op['x-audit-action'] = f.audit;
      if (f.audit === false) op['x-audit'] = false;
      if (f.repositories) op['x-repositories'] = f.repositories;
      if (f.gates) op['x-gates'] = f.gates;
      if (f.resumes) op['x-resumes-permission'] = f.resumes;
      if (f.orgHeader) {
        const parameters = (op.parameters ?? []) as unknown[];
        op.parameters = [...parameters, ORG_HEADER];
      }
    }
  }
  return doc as T;
}

/**
 * What outbound webhooks POST (docs/integrations.md): the envelope, and the `data` of each event
 * of the spec's list as `WebhookData.<event>`, from the one catalogue (core/event-catalog.ts).
 */
function webhookSchemas(): Record<string, unknown> {
  const plain = (s: unknown) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
  const data = Object.fromEntries(WEBHOOK_EVENTS.map((e) => [`WebhookData.${e}`, { ...plain(DOMAIN_EVENTS[e]), description: `data of the ${e} event` }]));
  return {
    WebhookEnvelope: {
      type: 'object',
      description: 'The JSON body of every webhook delivery. Headers: X-Service-Signature (sha256=<hex HMAC-SHA256 of the raw body with the secret>, when the webhook has one), '
        + 'X-Service-Event, X-Service-Delivery (the delivery id, the same on retries) and X-Service-Attempt (0 for the first send, 1 to 4 for retries).',
      required: ['id', 'event', 'timestamp', 'organization', 'data'],
      properties: {
        id: { type: 'string', pattern: '^evt_', description: 'The event id: the same on every retry and for every webhook receiving this event' },
        event: { type: 'string', enum: [...WEBHOOK_EVENTS, 'webhook.test'] },
        timestamp: { type: 'string', format: 'date-time' },
        organization: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
        data: { oneOf: WEBHOOK_EVENTS.map((e) => ({ $ref: `#/components/schemas/WebhookData.${e}` })), description: 'Per event: WebhookData.<event>' },
      },
    },
    ...data,
  };
}
