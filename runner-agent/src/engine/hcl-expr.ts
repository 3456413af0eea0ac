// Evaluating the few HCL expressions a region is written with, as hcl2json gives them
// ("${var.region}", "${local.region}", "${each.value}", "${toset(var.regions)}"): references to
// variables, locals and each.key/each.value, index and attribute steps, toset/tolist/tomap, and
// quoted or list literals. Anything else (functions, arithmetic, data sources) is not a literal:
// undefined, and the caller tries its next source. No guessing.
import { templateLiteral } from './hcl-string.ts';
import { isObject } from './values.ts';

export interface Scope {
  variables: Map<string, unknown>;
  locals: Map<string, unknown>;
  each?: { key: string; value: unknown };
}

const MAX_DEPTH = 16; // locals referring to locals; a cycle stops here

/** The literal value of `v` in `scope`, or undefined when it does not reduce to one. */
export function evaluate(v: unknown, scope: Scope, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof v === 'string') {
    // `$${x}` is the literal text `${x}`: hcl2json gives strings in template form (hcl-string.ts).
    const literal = templateLiteral(v);
    if (literal !== undefined) return literal;
    const whole = /^\$\{([^]*)\}$/.exec(v);
    // "${a}-${b}" and "x-${a}" templates are not followed: regions are whole references.
    if (!whole || whole[1].includes('${')) return undefined;
    return expression(whole[1].trim(), scope, depth + 1);
  }
  if (Array.isArray(v)) {
    const out = v.map((x) => evaluate(x, scope, depth + 1));
    return out.includes(undefined) ? undefined : out;
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const key = templateLiteral(k);
      if (key === undefined) return undefined; // a computed key
      out[key] = evaluate(x, scope, depth + 1);
      if (out[key] === undefined) return undefined;
    }
    return out;
  }
  return v;
}

function expression(expr: string, scope: Scope, depth: number): unknown {
  const call = /^(toset|tolist|tomap)\(([^]*)\)$/.exec(expr);
  if (call) {
    const inner = expression(call[2].trim(), scope, depth + 1);
    return call[1] === 'toset' && Array.isArray(inner) ? [...new Set(inner)] : inner;
  }
  if (expr.startsWith('"') || expr.startsWith('[')) {
    // A quoted string or a list of quoted strings is valid JSON.
    try { return evaluate(JSON.parse(expr), scope, depth + 1); } catch { return undefined; }
  }
  const ref = /^(var|local|each)\.([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\["[^"\]]*"\]|\[\d+\])*)$/.exec(expr);
  if (!ref) return undefined;
  let value: unknown;
  if (ref[1] === 'var') value = scope.variables.has(ref[2]) ? evaluate(scope.variables.get(ref[2]), scope, depth + 1) : undefined;
  else if (ref[1] === 'local') value = scope.locals.has(ref[2]) ? evaluate(scope.locals.get(ref[2]), scope, depth + 1) : undefined;
  else if (scope.each && (ref[2] === 'key' || ref[2] === 'value')) value = scope.each[ref[2]];
  for (const step of ref[3].match(/\.[A-Za-z_][\w-]*|\["[^"\]]*"\]|\[\d+\]/g) ?? []) {
    const key = step.startsWith('.') ? step.slice(1) : step.startsWith('["') ? step.slice(2, -2) : Number(step.slice(1, -1));
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (isObject(value) && typeof key === 'string') value = value[key];
    else return undefined;
  }
  return value;
}
