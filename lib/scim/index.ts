// SCIM 2.0 protocol pieces (RFC 7643, RFC 7644) with no service behind them: the filter and
// PATCH-path grammar, attribute tables, a filter's MongoDB form and its in-memory decision, and
// the PATCH engine. Errors are ScimError (a 400 with a scimType); nothing here imports the app.
export { ScimError, invalidFilter, invalidPath, invalidValue, noTarget, mutability, type ScimType } from './errors.ts';
export { ENTERPRISE_URN, attrPath, parseFilter, parsePatchPath, type AttrPath, type CompareOp, type Filter, type PatchPath, type Value } from './filter.ts';
export { multiValued, resolve, str, type AttrDef, type Attrs } from './attributes.ts';
export { compileFilter, type Compiled } from './compile.ts';
export { matches, valuesAt } from './match.ts';
export { applyPatch, coerceBoolean, type Json, type PatchOp } from './patch.ts';
