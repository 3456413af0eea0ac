// google_service_account_key: IAM v1 `projects/P/serviceAccounts/E/keys/K` (metadata only: the
// private key is returned once, at creation, and is never read or compared). Whether the key is
// still there, its algorithm and public key, and whether it is disabled: the state implies an
// enabled key (the provider writes no `disabled`), so a key disabled out of band shows, and a
// state that records one disabled shows it re-enabled.
import type { FakeWorld as World, RestReader as Reader } from '../../rest/reader.ts';
import { mapLimit } from '../../../limit.ts';
import { CONCURRENCY, googleReader, ownProject, type GJson } from '../kit.ts';


type A = Record<string, any>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The key's full name: its id / name (`projects/P/serviceAccounts/E/keys/K`). */
const keyName = (a: A) => [text(a.name), text(a.id)].find((v) => v?.startsWith('projects/') && v.includes('/keys/'));

const serviceAccountKeyFake = (a: A): GJson => ({
  name: keyName(a), keyAlgorithm: a.key_algorithm || 'KEY_ALG_RSA_2048', validAfterTime: a.valid_after || undefined,
  validBeforeTime: a.valid_before || undefined, keyOrigin: 'GOOGLE_PROVIDED', keyType: 'USER_MANAGED', disabled: a.disabled || undefined,
  publicKeyType: a.public_key_type || undefined, privateKeyType: a.private_key_type || undefined,
});

export const serviceAccountKeyReader = googleReader({
  type: 'google_service_account_key',
  service: 'iam',
  route: '/v1/projects/:project/serviceAccounts/:email/keys/:key',
  pathOf: (a) => { const n = keyName(a); return n && `/v1/${n}`; },
  toState: (j) => ({
    name: j.name, key_algorithm: j.keyAlgorithm ?? '', public_key_type: j.publicKeyType ?? undefined,
    valid_after: j.validAfterTime ?? '', valid_before: j.validBeforeTime ?? '', disabled: j.disabled ?? false,
  }),
  fromState: serviceAccountKeyFake,
  spec: { implied: (state) => ({ disabled: state.disabled ?? false }) },
});


const KEY = 'google_service_account_key';

/** The keys of an account the scan's key instances manage (their full names), and those the fake answers for it. */
const keysOf = (world: World | undefined, account: string) => (world?.of(KEY) ?? []).filter((i) => keyName(i.attributes)?.startsWith(`${account}/keys/`));
const accountName = (a: A, project: string) => {
  const email = text(a.email) ?? (text(a.name)?.includes('@') ? a.name.split('/').pop() : undefined);
  return email && (ownProject(a) ?? project) ? `projects/${ownProject(a) ?? project}/serviceAccounts/${email}` : undefined;
};

/**
 * The service account reader, with the account's enabled user-managed keys that no key instance of
 * the scan manages, as `unmanaged_keys` (the state implies none): a key created out of band (in the
 * console, with gcloud) shows on the account it signs in as. One `keys` list per account.
 */
export function withUnmanagedKeys(reader: Reader): Reader {
  return {
    ...reader,
    spec: { ...reader.spec, implied: (state) => ({ ...(reader.spec.implied?.(state) ?? {}), unmanaged_keys: [] }) },
    fake: [...reader.fake, {
      method: 'GET', service: 'iam', path: '/v1/projects/:project/serviceAccounts/:email/keys',
      answer: (req, world) => ({
        keys: keysOf(world, `projects/${req.params.project}/serviceAccounts/${req.params.email}`).map((i) => serviceAccountKeyFake(i.attributes)),
      }),
    }],
    read: async (items, api, world) => {
      const live = await reader.read(items, api, world);
      return mapLimit(live, CONCURRENCY, async (l, k) => {
        const account = l && accountName(items[k].instance.attributes, items[k].scope.account);
        if (!l || !account) return l;
        const page = await api.get<GJson>('iam', `/v1/${account}/keys?keyTypes=USER_MANAGED`, `list keys of ${account}`);
        const managed = new Set(keysOf(world, account).map((i) => keyName(i.attributes)));
        const unmanaged = ((page?.keys ?? []) as GJson[]).filter((x) => !x.disabled && x.keyType !== 'SYSTEM_MANAGED' && !managed.has(x.name)).map((x) => String(x.name));
        return { ...l, unmanaged_keys: unmanaged };
      });
    },
  };
}
