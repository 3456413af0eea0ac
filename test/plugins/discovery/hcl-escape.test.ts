// Generated code is data, never code (issue 32 point 8): every string discovery writes into HCL
// parses back, through the engine's HCL reading, to exactly the cloud's value. A property test
// over seeded random strings made of the pieces that matter (template sequences `${` `%{` and
// their escapes, quotes, backslashes, newlines, control characters, non-ASCII), plus the
// comment line, which must carry no control character (a newline there would start raw HCL).
import t from 'tap';
import { parse } from '@cdktf/hcl2json';
import { codify } from '../../../plugins/discovery/iac.ts';
import { evaluate } from '../../../runner-agent/src/engine/hcl-expr.ts';

/** mulberry32: a small seeded generator, so a failure replays. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '${', '%{', '$${', '%%{', '$$${', '$', '%', '{', '}', '"', '\\', '\\n', '\\"', '\n', '\r', '\t', '\r\n', '#', '//', '/*', '*/', '<<EOT', 'EOT',
  '${path.cwd}', '${file("/etc/passwd")}', '%{ if true }x%{ endif }', 'é', 'ß', '日本', '😀', '\u00a0', '\u2028', '\u2029', '\u0085', '\u007f', '\ufeff',
  'a', 'Z', '0', ' ', '=', ',', '[', ']', '(', ')', "'", '`',
];
const SEED = 32;
const next = rng(SEED);
function randomString(): string {
  let s = '';
  const n = Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.15) s += String.fromCharCode(Math.floor(next() * 32)); // C0 control characters, NUL included
    else if (r < 0.2) s += String.fromCodePoint(0x80 + Math.floor(next() * 0x20)); // C1
    else if (r < 0.25) s += String.fromCodePoint(0x100 + Math.floor(next() * 0xd700)); // BMP below the surrogates
    else s += PIECES[Math.floor(next() * PIECES.length)];
  }
  return s;
}

/** HCL normalises string literals to NFC (its specification); every other difference is a bug. */
const expected = (s: string) => s.normalize('NFC');
const SCOPE = { variables: new Map(), locals: new Map() };
/** Messages in ASCII: a raw U+0085 or U+2028 would break TAP's lines. */
const shown = (v: unknown) => String(JSON.stringify(v)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

t.test(`tag keys and values round-trip through generated HCL (seed ${SEED})`, async (t) => {
  let failures = 0;
  for (let i = 0; i < 300 && failures < 5; i++) {
    const key = `k${i}${randomString()}`;
    const value = randomString();
    const { iac } = codify('aws_s3_bucket', `bucket-${i}`, 'us-east-1', { bucket: `bucket-${i}`, tags: { [key]: value, Name: value } }, new Map());
    let doc: Record<string, any>;
    try {
      doc = await parse('main.tf', iac) as Record<string, any>;
    } catch (e) {
      failures++;
      t.fail(`${shown(value)}: the generated HCL does not parse (${shown((e as Error).message.slice(0, 200))})`);
      continue;
    }
    const tags = doc.resource.aws_s3_bucket[`bucket_${i}`][0].tags;
    const read = evaluate(tags, SCOPE) as Record<string, unknown> | undefined;
    const ok = read !== undefined && read.Name === expected(value) && read[expected(key)] === expected(value) && Object.keys(read).length === 2;
    if (!ok) {
      failures++;
      t.fail(`${shown(value)} (key ${shown(key)}) read back as ${shown(read ?? tags)}`);
    }
  }
  t.equal(failures, 0, '300 random tag keys and values read back exactly (NFC)');
});

t.test('the comment line carries no control character; a resource id cannot write HCL', async (t) => {
  const id = 'i-1\nresource "aws_iam_user" "evil" {}\r\n# \u0000\u001b[2J\u2028x';
  const { iac } = codify('aws_instance', id, 'us-east-1\nprovider "aws" {}', { instance_type: 't3.micro' }, new Map());
  const comment = iac.split('\n')[0];
  t.notMatch(comment, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, 'no control character in the comment');
  const doc = await parse('main.tf', iac) as Record<string, any>;
  t.same(Object.keys(doc.resource), ['aws_instance'], 'one resource, the one discovered');
  t.notOk(doc.provider, 'no provider block written by the region either');
  t.equal(evaluate(doc.import[0].id, SCOPE), id, 'the import id reads back exactly');
});

t.test('template sequences are written escaped, whatever JavaScript replacement strings do with $$', async (t) => {
  const { iac } = codify('aws_s3_bucket', 'b', 'us-east-1', { bucket: 'b', tags: { Name: '${path.cwd}', Other: '%{ if true }x%{ endif }' } }, new Map());
  t.match(iac, /"Name" = "\$\$\{path\.cwd\}"/, '${ is written $${');
  t.match(iac, /"Other" = "%%\{ if true \}x%%\{ endif \}"/, '%{ is written %%{');
});
