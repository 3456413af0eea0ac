// Two validators: query strings, params and headers arrive as text and are coerced to their
// declared types (page=2 -> 2); JSON bodies are typed already, so a wrong type there is a
// 400, never silently converted ({"name": 42} is not the string "42").
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = formatsPlugin as unknown as (ajv: Ajv) => Ajv;
const common: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false };

/**
 * `lazy` compiles a route's validator on its first request rather than at boot: the test suite
 * builds hundreds of apps that each call a few of several hundred routes (core/schema-compile.ts).
 */
export function createValidatorCompiler({ lazy = false } = {}): FastifySchemaCompiler<object> {
  const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    if (!lazy) return ajv.compile(schema);
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      compiled ??= ajv.compile(schema);
      const ok = compiled(data) as boolean;
      validate.errors = compiled.errors;
      return ok;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

/** One refused field of a request, as the 400's details list it. */
export interface FieldProblem { path: string; message: string; params?: Record<string, unknown> }

interface AjvError { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string }

const list = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/**
 * The validator's errors as messages that name the field and, for a choice of values, the
 * values allowed: `body/status must be one of: online, busy` rather than Ajv's "must be equal to
 * constant … must match a schema in anyOf" (a TypeBox union of literals compiles to anyOf of
 * const). The one place every route's 400 is worded, whatever its plugin.
 */
export function describeValidation(context: string, errors: readonly AjvError[]): { message: string; details: FieldProblem[] } {
  const details: FieldProblem[] = [];
  const done = new Set<string>();
  for (const e of errors) {
    const where = `${context}${e.instancePath}`;
    if (e.keyword === 'required') {
      details.push({ path: `${where}/${String(e.params.missingProperty)}`, message: 'is required' });
      continue;
    }
    if (done.has(where)) continue;
    // A failed anyOf is reported after its branches' failures at the same place: word them together.
    const union = errors.find((x) => x.keyword === 'anyOf' && x.instancePath === e.instancePath);
    if (union) {
      done.add(where);
      const branches = errors.filter((x) => x !== union && x.instancePath === e.instancePath && x.schemaPath.startsWith(union.schemaPath));
      const values = branches.flatMap((x) => (x.keyword === 'const' ? [x.params.allowedValue] : x.keyword === 'enum' ? x.params.allowedValues as unknown[] : []));
      const types = branches.filter((x) => x.keyword === 'type').map((x) => String(x.params.type));
      const others = branches.filter((x) => !['const', 'enum', 'type'].includes(x.keyword));
      if (values.length && !others.length) {
        const allowed = types.includes('null') ? [...values, null] : values;
        // One value or a list of them (a filter taking either).
        const orList = types.includes('array') ? ', or a list of them' : '';
        details.push({ path: where, message: `must be one of: ${list(allowed)}${orList}`, params: { allowedValues: allowed } });
      } else if (types.length && !others.length && types.length === branches.length) {
        details.push({ path: where, message: `must be ${types.join(' or ')}`, params: { types } });
      } else {
        const first = others[0] ?? branches[0] ?? union;
        details.push({ path: where, message: first.message ?? 'is invalid', params: first.params });
      }
      continue;
    }
    if (e.keyword === 'anyOf') continue;
    done.add(where);
    if (e.keyword === 'enum') {
      const allowed = e.params.allowedValues as unknown[];
      details.push({ path: where, message: `must be one of: ${list(allowed)}`, params: { allowedValues: allowed } });
    } else if (e.keyword === 'const') {
      details.push({ path: where, message: `must be ${list([e.params.allowedValue])}`, params: e.params });
    } else {
      details.push({ path: where, message: e.message ?? 'is invalid', params: e.params });
    }
  }
  if (!details.length) details.push({ path: context, message: 'is invalid' });
  return { message: `${details[0].path} ${details[0].message}`, details };
}
