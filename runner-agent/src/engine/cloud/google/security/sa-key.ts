// google_service_account_key: IAM v1 `projects/P/serviceAccounts/E/keys/K` (metadata only: the
// private key is returned once, at creation, and is never read or compared). Whether the key is
// still there, its algorithm and public key, and whether it is disabled: the state implies an
// enabled key (the provider writes no `disabled`), so a key disabled out of band shows, and a
// state that records one disabled shows it re-enabled.
import { googleReader } from '../kit.ts';


type A = Record<string, any>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The key's full name: its id / name (`projects/P/serviceAccounts/E/keys/K`). */
const keyName = (a: A) => [text(a.name), text(a.id)].find((v) => v?.startsWith('projects/') && v.includes('/keys/'));

export const serviceAccountKeyReader = googleReader({
  type: 'google_service_account_key',
  service: 'iam',
  route: '/v1/projects/:project/serviceAccounts/:email/keys/:key',
  pathOf: (a) => { const n = keyName(a); return n && `/v1/${n}`; },
  toState: (j) => ({
    name: j.name, key_algorithm: j.keyAlgorithm ?? '', public_key_type: j.publicKeyType ?? undefined,
    valid_after: j.validAfterTime ?? '', valid_before: j.validBeforeTime ?? '', disabled: j.disabled ?? false,
  }),
  fromState: (a) => ({
    name: keyName(a), keyAlgorithm: a.key_algorithm || 'KEY_ALG_RSA_2048', validAfterTime: a.valid_after || undefined,
    validBeforeTime: a.valid_before || undefined, keyOrigin: 'GOOGLE_PROVIDED', keyType: 'USER_MANAGED', disabled: a.disabled || undefined,
    publicKeyType: a.public_key_type || undefined, privateKeyType: a.private_key_type || undefined,
  }),
  spec: { implied: (state) => ({ disabled: state.disabled ?? false }) },
});

