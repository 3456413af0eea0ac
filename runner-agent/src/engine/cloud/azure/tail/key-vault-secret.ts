// azurerm_key_vault_secret: the secret's current version on Key Vault's data plane
// (GET https://<vault>.vault.azure.net/secrets/<name>?api-version=7.4, with a token for Key
// Vault's audience): the latest version, not the state's, since a value set out of band is a new
// version. Its value is compared by hash only (spec.sensitive: hashed on both sides and redacted
// from the drift, whatever the state's sensitive_attributes say), and never leaves this reader
// otherwise. A principal the vault refuses (no data-plane role, or the vault's firewall) is read
// on the management plane instead (GET <key_vault_id>/secrets/<name>, the Reader role): the same
// metadata, no value. The provider has no `enabled` attribute: the state implies an enabled secret.
import { ScanError } from '../../../errors.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { ARM, CONCURRENCY, lower, nameOf, type ArmJson } from '../kit.ts';
import type { FakeWorld, RestReader } from '../../rest/reader.ts';
import { str, type Attrs } from './kit.ts';

export const SECRET_TYPE = 'azurerm_key_vault_secret';
const DATA_API = '7.4';
const ARM_API = '2023-07-01';

/** `https://kv.vault.azure.net/secrets/name/version` -> host, name, version. */
function parts(a: Attrs): { host: string; name: string; version: string } | undefined {
  const m = /^https:\/\/([^/]+)\/secrets\/([^/]+)(?:\/([^/?]*))?/i.exec(str(a.id));
  if (m) return { host: m[1].toLowerCase(), name: m[2], version: m[3] ?? '' };
  const vault = nameOf(str(a.key_vault_id));
  return vault && str(a.name) ? { host: `${vault.toLowerCase()}.vault.azure.net`, name: str(a.name), version: '' } : undefined;
}
/** Key Vault dates are epoch seconds; the provider writes RFC 3339 in UTC, without fractions. */
const date = (s: unknown) => (typeof s === 'number' ? new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : '');
const epoch = (v: unknown) => (typeof v === 'string' && v ? Math.floor(Date.parse(v) / 1000) : undefined);

/** The provider formats the instant in the local zone of the machine that ran it: the same instant is the state's text. */
const sameInstant = (live: string, state: unknown) => (typeof state === 'string' && live && Date.parse(state) === Date.parse(live) ? state : live);

function toState(bundle: { attributes?: ArmJson; contentType?: string; tags?: Record<string, string>; id?: string; value?: string }, a: Attrs): LiveAttributes {
  const at = bundle.attributes ?? {};
  return {
    ...(typeof bundle.value === 'string' ? { value: bundle.value } : {}),
    content_type: str(bundle.contentType), tags: bundle.tags ?? {}, enabled: at.enabled ?? true,
    not_before_date: sameInstant(date(at.nbf), a.not_before_date), expiration_date: sameInstant(date(at.exp), a.expiration_date), version: nameOf(str(bundle.id)),
  };
}

export const keyVaultSecretReader: RestReader = {
  spec: { sensitive: ['value'], implied: () => ({ enabled: true }) },
  async read(items, api) {
    return mapLimit(items, CONCURRENCY, async (it) => {
      const a = it.instance.attributes;
      const p = parts(a);
      if (!p) return null;
      const what = `GET key vault secret ${p.host}/${p.name}`;
      try {
        const bundle = await api.get<ArmJson>(p.host, `/secrets/${encodeURIComponent(p.name)}?api-version=${DATA_API}`, what);
        if (!bundle) return null;
        const live = toState(bundle, a);
        // A state without the value (4.x value_wo, write-only) has nothing to compare it with.
        if (!str(a.value)) delete live.value;
        return live;
      } catch (e) {
        if (!(e instanceof ScanError && e.code === 'access_denied') || !str(a.key_vault_id)) throw e;
        // Refused on the data plane: the management plane's metadata (never the value).
        const arm = await api.get<ArmJson>(ARM, `${a.key_vault_id}/secrets/${encodeURIComponent(p.name)}?api-version=${ARM_API}`, `${what} (management plane)`);
        const q = arm?.properties ?? {};
        return arm ? toState({ attributes: q.attributes, contentType: q.contentType, tags: arm.tags, id: q.secretUriWithVersion }, a) : null;
      }
    });
  },
  fake: [
    { method: 'GET', service: '*.vault.azure.net', path: '/secrets/:name', answer: (req, world) => {
      const i = secretAt(world, req.service, req.params.name);
      return i && bundleOf(i.attributes);
    } },
    { method: 'GET', service: ARM, path: '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.KeyVault/vaults/:vault/secrets/:name', answer: (req, world) => {
      const i = secretAt(world, `${lower(req.params.vault)}.vault.azure.net`, req.params.name);
      if (!i) return undefined;
      const { value: _v, id, contentType, tags, attributes } = bundleOf(i.attributes);
      return { id: req.path, name: req.params.name, type: 'Microsoft.KeyVault/vaults/secrets', tags, properties: { attributes, contentType, secretUri: id.replace(/\/[^/]*$/, ''), secretUriWithVersion: id } };
    } },
  ],
};

function secretAt(world: FakeWorld, host: string, name: string) {
  return world.of(SECRET_TYPE).find((i) => {
    const p = parts(i.attributes);
    return p && p.host === lower(host) && lower(p.name) === lower(name);
  });
}

/** The data plane's SecretBundle for a state instance. */
function bundleOf(a: Attrs) {
  const p = parts(a)!;
  return {
    value: str(a.value), id: /^https:/i.test(str(a.id)) ? str(a.id) : `https://${p.host}/secrets/${p.name}/${str(a.version)}`,
    contentType: str(a.content_type) || undefined, tags: a.tags ?? {},
    attributes: { enabled: a.enabled !== false, nbf: epoch(a.not_before_date), exp: epoch(a.expiration_date), recoveryLevel: 'Recoverable+Purgeable' },
  };
}
