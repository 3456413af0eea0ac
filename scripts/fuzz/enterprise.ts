// The fuzz run's Enterprise pass (scripts/fuzz.ts). The main run's user is on the Team plan, so
// every Enterprise-only operation (webhooks, SSO, SCIM management and the SCIM protocol) answers
// it 403 plan_required and nothing past the gate is fuzzed. This pass fuzzes those operations
// again as the owner of an Enterprise organization, the SCIM protocol routes with a SCIM token
// of that organization, and the public SSO routes with that organization's id.

/** An operation of the served document, as scripts/fuzz.ts reads it. */
export interface DocOp { key: string; operationId?: string; 'x-auth'?: string; 'x-plan'?: string; parameters?: { in: string; name: string }[] }
export interface EnterpriseCaller { token: string; orgId: string; scimToken: string }

/** The operations only an Enterprise organization reaches. */
export const enterpriseOps = (ops: DocOp[]) => ops.filter((op) => op['x-plan'] === 'enterprise' && op.operationId);

const json = { 'content-type': 'application/json' };

/**
 * A SCIM token for the Enterprise organization (through the API, as an admin makes one), then
 * one request per kind of credential to prove the plan gate is passed before any fuzzing: a
 * pass that only ever met 403 would look clean and test nothing.
 */
export async function enterpriseCaller(base: string, acct: { token: string; orgId: string }): Promise<EnterpriseCaller> {
  const auth = { authorization: `Bearer ${acct.token}` };
  const made = await fetch(`${base}/api/scim/tokens`, { method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify({ label: 'fuzz' }) });
  if (made.status !== 201) throw new Error(`enterprise: SCIM token: ${made.status} ${await made.text()}`);
  const { token: scimToken } = await made.json() as { token: string };
  const probes: [string, Record<string, string>][] = [
    ['/api/webhooks', auth], ['/api/scim/tokens', auth], ['/api/scim/groups', auth],
    ['/api/scim/v2/Users', { authorization: `Bearer ${scimToken}` }],
  ];
  for (const [path, headers] of probes) {
    const res = await fetch(`${base}${path}`, { headers });
    if (res.status !== 200) throw new Error(`enterprise: GET ${path} answered ${res.status} to the Enterprise owner: ${await res.text()}`);
  }
  return { ...acct, scimToken };
}

/** The schemathesis filter and the per-operation settings (config file lines) of the pass, for the operations `takes` picks (the run's bucket). */
export function enterpriseRun(ops: DocOp[], caller: EnterpriseCaller, takes: (operationId: string) => boolean = () => true): { filter: string[]; toml: string[] } {
  const selected = enterpriseOps(ops).filter((op) => takes(op.operationId!));
  const toml = selected.flatMap((op) => {
    const id = op.operationId!;
    if (op['x-auth'] === 'scim') return ['[[operations]]', `include-operation-id = "${id}"`, `headers = { Authorization = "Bearer ${caller.scimToken}" }`];
    // samlLogin names the organization in its query, the others take x-org-id: made-up ids only
    // ever meet the organization guard's 404 (the main run fuzzes that guard).
    const org = op.parameters?.find((p) => (p.in === 'query' && p.name === 'orgId') || (p.in === 'header' && p.name === 'x-org-id'));
    if (org) return ['[[operations]]', `include-operation-id = "${id}"`, `parameters = { "${org.in}.${org.name}" = "${caller.orgId}" }`];
    return [];
  });
  return { filter: selected.flatMap((op) => ['--include-operation-id', op.operationId!]), toml };
}

/**
 * The main run's settings for the same operations: its Team user meets the gate before the
 * body is read (403 plan_required, or 401 for a SCIM route), whatever the case, so a few cases
 * check it and the time goes to the Enterprise pass instead.
 */
export const gateOnlyToml = (ops: DocOp[], examples = 3) => enterpriseOps(ops).filter((op) => op['x-auth'] !== 'none')
  .flatMap((op) => ['[[operations]]', `include-operation-id = "${op.operationId}"`, `generation.max-examples = ${examples}`]);

/**
 * An operation of the pass that answered only 401/403 never got past its gate (schemathesis'
 * missing_auth warning): an error, except for the public SSO routes, whose made-up codes and
 * assertions are refused by design.
 */
export function gateErrors(ops: DocOp[], missingAuth: string[]): string[] {
  const credentialed = new Set(enterpriseOps(ops).filter((op) => op['x-auth'] !== 'none').map((op) => op.key));
  return missingAuth.filter((key) => credentialed.has(key)).map((key) => `${key} answered only 401/403 to the Enterprise owner`);
}
