// The SCIM protocol library (lib/scim) as this plugin calls it: the same functions, with the
// library's ScimError turned into the app's 400 (details.scimType, which the SCIM error format
// answers with: core/error-handler.ts). Attribute tables: scim-attributes.ts.
import { AppError } from '../../core/errors.ts';
import * as scim from '../../lib/scim/index.ts';

export { ENTERPRISE_URN, coerceBoolean, type Attrs, type Json, type PatchOp } from '../../lib/scim/index.ts';

/** A library refusal as the app's error; anything else unchanged. */
export function asAppError(err: unknown): unknown {
  return err instanceof scim.ScimError ? new AppError('bad_request', { message: err.message, details: { scimType: err.scimType } }) : err;
}

function answering<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      throw asAppError(err);
    }
  };
}

export const parseFilter = answering(scim.parseFilter);
export const compileFilter = answering(scim.compileFilter);
export const matches = answering(scim.matches);
export const applyPatch = answering(scim.applyPatch);
