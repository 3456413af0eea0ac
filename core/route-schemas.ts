// The Fastify schema parts of a manifest entry (core/loader.ts registers the route): its
// success and error answers as the OpenAPI document shows them, and its security schemes.
import { Type, type TSchema } from 'typebox';
import type { ErrorFormat, RouteSpec } from './manifest.ts';
import { ErrorBody, Envelope, ScimErrorBody } from './schemas.ts';

// Fastify warns about schema keys that are present but undefined.
export const definedOnly = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The error body with the reason as its description, without its $id (one copy per status). */
function described(schema: TSchema, why: string): TSchema {
  const copy: Record<string, unknown> = { ...schema, description: why };
  delete copy.$id;
  return copy as TSchema;
}

/** The success schemas, and one error entry per status the route's manifest says it answers (core/openapi-errors.ts). */
export function responseSchemas(route: RouteSpec, style: string, errors: Record<string, string>, errorFormat?: ErrorFormat) {
  if (errorFormat === 'scim') {
    // SCIM routes answer application/scim+json (RFC 7644 §3.1), errors in the SCIM error schema.
    const scim = (schema: TSchema) => ({ content: { 'application/scim+json': { schema } } }) as unknown as TSchema;
    const out: Record<string, TSchema> = Object.fromEntries(Object.entries(errors).map(([status, why]) => [status, { ...scim(described(ScimErrorBody, why)), description: why } as TSchema]));
    for (const [status, schema] of Object.entries(route.response)) {
      out[status] = status === '204' ? Type.Null() : scim(schema && style === 'envelope' ? Envelope(schema) : schema ?? Type.Unknown());
    }
    return out;
  }
  const out: Record<string, TSchema> = Object.fromEntries(Object.entries(errors).map(([status, why]) => [status, described(ErrorBody, why)]));
  for (const [status, schema] of Object.entries(route.response)) {
    if (route.produces && Number(status) < 400) {
      // Not JSON: the OpenAPI answer names its media types (Fastify does not serialize a raw reply).
      const body = schema ?? Type.String({ format: 'binary' });
      out[status] = { description: 'Success', content: Object.fromEntries(route.produces.map((type) => [type, { schema: body }])) } as unknown as TSchema;
    } else if (status === '204') out[status] = Type.Null();
    // A redirect has no body: documented by its status and description (the target is the Location header).
    else if (!schema && /^3\d\d$/.test(status)) out[status] = Type.Null({ description: 'Redirect; the target is in the Location header' });
    else if (schema && style === 'envelope') out[status] = Envelope(schema);
    else if (schema) out[status] = schema;
  }
  return out;
}

export function securityFor(auth: string) {
  switch (auth) {
    case 'user': return [{ bearerAuth: [] }];
    case 'user-redirect': return [{ bearerAuth: [] }, { userRedirectToken: [] }];
    case 'bearer': return [{ bearerAuth: [] }, { cliToken: [] }];
    case 'download': return [{ downloadToken: [] }, { bearerAuth: [] }, { cliToken: [] }];
    case 'runner': return [{ runnerToken: [] }];
    case 'runner-link': return [{ runnerLink: [] }];
    case 'scim': return [{ scimToken: [] }];
    case 'cloud-events': return [{ cloudEventsToken: [] }];
    case 'service-key': return [{ serviceKey: [] }];
    default: return [];
  }
}

