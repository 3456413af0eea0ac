// azurerm_storage_blob and azurerm_storage_share_file: Azure Storage's data plane (no ARM
// resource): one HEAD each (`https://<account>.blob.core.windows.net/<container>/<name>`,
// `https://<account>.file.core.windows.net/<share>/<path>`), a token for Azure Storage's audience
// (`https://storage.azure.com`); their properties are the answer's headers. The MD5 ARM answers
// in base64 the provider writes in hex; a blob's type without `Blob`. A principal without a data
// role (Storage Blob Data Reader, Storage File Data Privileged Reader) is refused: the instance
// is then left uncompared (its state is answered back) rather than failing the whole scan.
import { ScanError } from '../../../errors.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import { fakeHeaders, type FakeRoute, type FakeWorld, type RestItem, type RestReader } from '../../rest/reader.ts';
import { CONCURRENCY, lower } from '../kit.ts';
import { asState, str, type Attrs } from './kit.ts';

const BLOB_VERSION = { 'x-ms-version': '2021-08-06' };
// OAuth on Azure Files needs 2022-11-02 or later and says it reads as a backup would.
const FILE_VERSION = { 'x-ms-version': '2022-11-02', 'x-ms-file-request-intent': 'backup' };

/** `https://acct.blob.core.windows.net/c/a/b` -> host, path (`/c/a/b`), segments encoded. */
function urlOf(a: Attrs): { host: string; path: string } | undefined {
  const m = /^https:\/\/([^/]+)(\/.+)$/i.exec(str(a.id) || str(a.url));
  return m ? { host: m[1].toLowerCase(), path: m[2].split('/').map((s) => encodeURIComponent(decodeURIComponent(s))).join('/') } : undefined;
}
const md5Hex = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64').toString('hex') : '');
const md5B64 = (hex: unknown) => (typeof hex === 'string' && hex ? Buffer.from(hex, 'hex').toString('base64') : undefined);
const metaOf = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k.startsWith('x-ms-meta-')).map(([k, v]) => [k.slice(10), v]));
const metaHeaders = (m: unknown) => Object.fromEntries(Object.entries((m ?? {}) as Record<string, string>).map(([k, v]) => [`x-ms-meta-${k}`, String(v)]));

interface DataType {
  type: string;
  version: Record<string, string>;
  toState(h: Record<string, string>, a: Attrs): LiveAttributes;
  fromState(a: Attrs): Record<string, string | undefined>;
  host: string;
}

function dataReader(t: DataType): RestReader {
  return {
    spec: {},
    async read(items: RestItem[], api) {
      return mapLimit(items, CONCURRENCY, async (it) => {
        const a = it.instance.attributes;
        const u = urlOf(a);
        if (!u) return null;
        try {
          const h = await api.head(u.host, u.path, `HEAD ${t.type} ${u.host}${u.path}`, t.version);
          return h && t.toState(h, a);
        } catch (e) {
          // No data-plane role: not compared (never a deletion, never the whole scan failed).
          if (e instanceof ScanError && e.code === 'access_denied') return {};
          throw e;
        }
      });
    },
    fake: [{
      method: 'HEAD', service: t.host, path: '/*path',
      answer: (req, world: FakeWorld) => {
        const i = world.of(t.type).find((x: StateInstance) => { const u = urlOf(x.attributes); return u && u.host === lower(req.service) && lower(decodeURIComponent(u.path)) === lower(req.params.path); });
        if (!i) return undefined;
        const h = Object.fromEntries(Object.entries(t.fromState(i.attributes)).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
        return fakeHeaders({ ...h, ...metaHeaders(i.attributes.metadata), 'x-ms-version': t.version['x-ms-version'] });
      },
    }] as FakeRoute[],
  };
}

/** The MD5 when the state holds one (an older state without it compares nothing there). */
const md5 = (h: Record<string, string>, a: Attrs) => (str(a.content_md5) ? { content_md5: asState(md5Hex(h['content-md5']), a.content_md5) } : {});

export const storageBlobReader = dataReader({
  type: 'azurerm_storage_blob', version: BLOB_VERSION, host: '*.core.windows.net',
  toState: (h, a) => ({
    type: str(h['x-ms-blob-type']).replace(/Blob$/, ''), access_tier: str(h['x-ms-access-tier']), content_type: str(h['content-type']),
    cache_control: str(h['cache-control']), encryption_scope: str(h['x-ms-encryption-scope']), metadata: metaOf(h), ...md5(h, a),
  }),
  fromState: (a) => ({
    'x-ms-blob-type': `${str(a.type) || 'Block'}Blob`, 'x-ms-access-tier': str(a.access_tier) || undefined, 'content-type': str(a.content_type) || undefined,
    'cache-control': str(a.cache_control), 'x-ms-encryption-scope': str(a.encryption_scope), 'content-md5': md5B64(a.content_md5),
  }),
});

export const storageShareFileReader = dataReader({
  type: 'azurerm_storage_share_file', version: FILE_VERSION, host: '*.core.windows.net',
  toState: (h, a) => ({
    content_type: str(h['content-type']), content_encoding: str(h['content-encoding']), content_disposition: str(h['content-disposition']),
    metadata: metaOf(h), ...md5(h, a),
  }),
  fromState: (a) => ({
    'content-type': str(a.content_type) || undefined, 'content-encoding': str(a.content_encoding), 'content-disposition': str(a.content_disposition),
    'content-md5': md5B64(a.content_md5),
  }),
});
