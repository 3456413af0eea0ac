// ScanError: the failures a user can act on, each with a message that says what to do. Anything
// else escaping the engine is a bug and surfaces as a plain Error.

export type ScanErrorCode =
  | 'no_credentials' | 'state_not_found' | 'access_denied' | 'timeout'
  | 'source_unavailable' | 'parse_error' | 'unsupported_provider'
  /** A provider plan failed (the instances it was for stay not compared), or its configuration is refused on this host. */
  | 'plan_failed' | 'plan_refused';

export class ScanError extends Error {
  readonly code: ScanErrorCode;
  constructor(code: ScanErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScanError';
    this.code = code;
  }
}

// SDK error names meaning "these credentials may not do this" or "these credentials are not valid".
const DENIED = new Set([
  'AccessDenied', 'AccessDeniedException', 'UnauthorizedOperation', 'InvalidClientTokenId',
  'SignatureDoesNotMatch', 'AuthFailure', 'InvalidAccessKeyId', 'ExpiredToken', 'ExpiredTokenException',
  'UnrecognizedClientException', 'InvalidToken', 'AllAccessDisabled', 'OptInRequired', 'Forbidden',
]);
// Of those, the ones saying "not this action": the credentials are valid and read other types.
const PERMISSION = new Set(['AccessDenied', 'AccessDeniedException', 'UnauthorizedOperation', 'Forbidden', 'AuthorizationError', 'OptInRequired']);
const INVALID_CREDENTIALS = new Set([
  'InvalidClientTokenId', 'SignatureDoesNotMatch', 'AuthFailure', 'InvalidAccessKeyId', 'ExpiredToken', 'ExpiredTokenException', 'UnrecognizedClientException', 'InvalidToken',
]);

/** An access_denied ScanError for one action the credentials lack (not credentials that are invalid altogether). */
export function isPermissionDenied(err: unknown): boolean {
  if (!(err instanceof ScanError) || err.code !== 'access_denied') return false;
  const cause = (err.cause ?? {}) as SdkLikeError;
  const name = cause.name ?? '';
  if (INVALID_CREDENTIALS.has(name) || INVALID_CREDENTIALS.has(cause.code ?? '')) return false;
  return PERMISSION.has(name) || PERMISSION.has(cause.code ?? '') || cause.$metadata?.httpStatusCode === 403;
}

const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

interface SdkLikeError { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown }

/** Whether the error is the caller's own abort (ScanInput.signal). */
export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = err as SdkLikeError | undefined;
  return e?.name === 'AbortError';
}

export function timeoutError(signal?: AbortSignal): ScanError {
  const reason = signal?.reason as { name?: string } | undefined;
  return reason?.name === 'TimeoutError' || reason === undefined
    ? new ScanError('timeout', 'The scan exceeded its time limit and was stopped; retry, or scan fewer iacPaths per repository config')
    : new ScanError('timeout', 'The scan was cancelled before it finished');
}

/**
 * Maps an SDK (or network) error to a ScanError when it is one the user can act on; other
 * errors are returned unchanged. `what` names the call, e.g. "ec2:DescribeInstances".
 */
export function toScanError(err: unknown, what: string, opts: { signal?: AbortSignal; endpoint?: string } = {}): unknown {
  if (err instanceof ScanError) return err;
  if (isAbort(err, opts.signal)) return timeoutError(opts.signal);
  const e = (err ?? {}) as SdkLikeError;
  const name = e.name ?? '';
  if (DENIED.has(name) || DENIED.has(e.code ?? '') || e.$metadata?.httpStatusCode === 403) {
    return new ScanError('access_denied',
      `cloud_a denied ${what} (${name || 'HTTP 403'}): check that the credentials are valid and allow ${what}`,
      { cause: err });
  }
  if (name === 'TimeoutError' || name === 'RequestTimeout' || name === 'RequestTimeoutException') {
    return new ScanError('timeout', `cloud_a did not answer ${what} in time; retry the scan later`, { cause: err });
  }
  const code = e.code ?? (e.cause as SdkLikeError | undefined)?.code ?? '';
  if (NETWORK.has(code)) {
    const where = opts.endpoint ? ` at ${opts.endpoint}` : '';
    return new ScanError('timeout', `cloud_a API${where} could not be reached (${code}) during ${what}; check the endpoint and network`, { cause: err });
  }
  return err;
}

// JSON.parse's messages quote the text ('Unexpected token 'r', "root:x:0:0"... is not valid
// JSON'), and a scan's error is shown to every reader of the scan: a parse failure is described
// by its kind and place only, never by the file's bytes.
const JSON_KINDS: [RegExp, string][] = [
  [/^Unexpected end of JSON input/, 'it ends before the JSON value does'],
  [/^Unexpected token/, 'an unexpected character'],
  [/^Unexpected non-whitespace character after JSON/, 'text after the JSON value'],
  [/^Unterminated string/, 'an unterminated string'],
  [/^Bad control character/, 'a control character inside a string'],
  [/^Bad escaped character/, 'an invalid escape in a string'],
  [/^Expected/, 'a missing property name, colon, comma or bracket'],
];

/** JSON.parse's error `err` on `text`, as "not valid JSON (<kind>, line L, column C)". */
export function jsonProblem(err: unknown, text: string): string {
  const message = err instanceof Error ? err.message : '';
  const kind = JSON_KINDS.find(([re]) => re.test(message))?.[1] ?? 'a syntax error';
  const at = /at position (\d+)/.exec(message);
  if (!at) return `not valid JSON (${kind})`;
  const before = text.slice(0, Number(at[1])).split('\n');
  return `not valid JSON (${kind}, line ${before.length}, column ${before[before.length - 1].length + 1})`;
}
