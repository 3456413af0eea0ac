// The protocol's errors (RFC 7644 §3.12): every refusal here is a 400 with a scimType. The library
// throws ScimError and knows nothing of HTTP frameworks; the service that uses it turns one into
// its own error answer (plugins/sso-scim/scim-protocol.ts).
export type ScimType = 'invalidFilter' | 'invalidPath' | 'invalidValue' | 'noTarget' | 'mutability';

export class ScimError extends Error {
  readonly scimType: ScimType;
  /** Every protocol error here is a bad request. */
  readonly status = 400;
  constructor(scimType: ScimType, message: string) {
    super(message);
    this.name = 'ScimError';
    this.scimType = scimType;
  }
}

export const invalidFilter = (detail: string) => new ScimError('invalidFilter', detail);
export const invalidPath = (detail: string) => new ScimError('invalidPath', detail);
export const invalidValue = (detail: string) => new ScimError('invalidValue', detail);
export const noTarget = (detail: string) => new ScimError('noTarget', detail);
export const mutability = (detail: string) => new ScimError('mutability', detail);
