// What every request input obeys, whatever its plugin declared (issue #10: close the class,
// not the instance). The loader passes each route's params, querystring and body schema
// through closeSchema before Fastify compiles it, and the JSON parser checks every body with
// checkJsonBody, so a new plugin cannot reopen these holes by forgetting a flag:
// - unknown fields are stripped (every object without an explicit additionalProperties is
//   closed; the validator runs with removeAdditional), so a body cannot smuggle orgId, _id,
//   role or `$set` into a record;
// - no string may hold NUL (PostgreSQL under FerretDB refuses it, MongoDB truncates C strings);
// - numbers in the query string and path are finite and at most 2^53 - 1 (page=Infinity);
// - a JSON body is nested at most MAX_BODY_DEPTH levels (a 10,000-level object overflowed the stack).
import { AppError } from './errors.ts';

/** Deepest JSON body accepted: far above any real payload (a drift diff of an ECS task definition is about 12). */
export const MAX_BODY_DEPTH = 64;
/** A string pattern that refuses the NUL character, added to every string without a pattern of its own. */
export const NO_NUL = '^[^\\u0000]*$';

type Schema = Record<string, unknown>;

/**
 * A copy of the schema with every object closed to unknown properties (unless it says
 * additionalProperties itself), every string refusing NUL, and, where `coerced` (query
 * strings and params arrive as text), every number bounded to safe integers.
 * Throws when a string's own pattern could admit NUL, naming where.
 */
export function closeSchema<T>(schema: T, where: string, coerced: boolean): T {
  const copy = JSON.parse(JSON.stringify(schema)) as Schema;
  visit(copy, where, coerced);
  return copy as T;
}

function visit(s: unknown, where: string, coerced: boolean): void {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) { s.forEach((x, i) => visit(x, `${where}[${i}]`, coerced)); return; }
  const node = s as Schema;
  if (node.type === 'object' && node.additionalProperties === undefined) node.additionalProperties = false;
  // A field with a default may be left out (the validator fills it in): not required in the document either.
  if (Array.isArray(node.required) && node.properties) {
    const props = node.properties as Record<string, Schema>;
    node.required = node.required.filter((name: string) => props[name]?.default === undefined);
    if (!(node.required as string[]).length) delete node.required;
  }
  if (node.type === 'string' && node.enum === undefined && node.const === undefined) {
    if (node.pattern === undefined) node.pattern = NO_NUL;
    else if (mayMatchNul(String(node.pattern))) {
      throw new Error(`${where}: the pattern ${String(node.pattern)} may admit NUL; list the allowed characters instead of ".", "\\s" or a negated class`);
    }
  }
  if (coerced && (node.type === 'integer' || node.type === 'number') && node.maximum === undefined) node.maximum = Number.MAX_SAFE_INTEGER;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'patternProperties') {
      for (const [name, sub] of Object.entries(value as Schema)) visit(sub, `${where}.${name}`, coerced);
    } else if (value && typeof value === 'object') {
      visit(value, `${where}/${key}`, coerced);
    }
  }
}

// What matches NUL: "." outside a character class, "\S", "\D", "\W", or a negated class "[^…]".
const mayMatchNul = (pattern: string) =>
  /\\[SDW]|\[\^/.test(pattern) || /(^|[^\\])\./.test(pattern.replace(/\[[^\]]*\]/g, '[]'));

/**
 * Refuses a parsed JSON body nested deeper than MAX_BODY_DEPTH, or with NUL in a key or a
 * string, with a 400 naming the problem. Iterative, so depth itself cannot overflow the stack.
 */
export function checkJsonBody(body: unknown): void {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw nulError();
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw new AppError('bad_request', { message: `The JSON body is nested more than ${MAX_BODY_DEPTH} levels deep` });
    }
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) throw nulError();
        stack.push([item, depth + 1]);
      }
    }
  }
}

const nulError = () => new AppError('bad_request', { message: 'The body contains a NUL character (\\u0000), which no field accepts' });
