// Two validators: query strings, params and headers arrive as text and are coerced to their
// declared types (page=2 -> 2); JSON bodies are typed already, so a wrong type there is a
// 400, never silently converted ({"name": 42} is not the string "42").
import { Ajv, type Options } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = formatsPlugin as unknown as (ajv: Ajv) => Ajv;
const common: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false };

export function createValidatorCompiler(): FastifySchemaCompiler<object> {
  const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema);
}
