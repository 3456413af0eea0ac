// The HCL string writer and reader (runner-agent/src/engine/hcl-string.ts), through the engine's
// own module reader: values written by hclString into a module's locals come back from
// parseRootModule + evaluate exactly (NFC), template sequences included; the reader tells
// escaped template sequences (literals) from live ones (expressions).
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commentText, hclString, templateLiteral } from '../../runner-agent/src/engine/hcl-string.ts';
import { parseRootModule } from '../../runner-agent/src/engine/hcl.ts';
import { evaluate } from '../../runner-agent/src/engine/hcl-expr.ts';

const VALUES = [
  '', '${path.cwd}', '$${x}', '$$${x}', 'a$', '$', '%', '%{ if true }x%{ endif }', '%%{', '"quoted"', 'back\\slash\\', '\\n literal', 'line\nbreak\r\n',
  'tab\there', '\u0000nul', '\b\f\v\u001b[2J', '\u007f\u0085\u009f', '\u2028\u2029', '\ufeffbom', 'é 日本 😀', 'e\u0301', '#{x}', '${', '}', '<<EOT\nx\nEOT',
];

t.test('values written by hclString read back through parseRootModule and evaluate', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hcl-string-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'main.tf'), `locals {\n${VALUES.map((v, i) => `  v${i} = ${hclString(v)}`).join('\n')}\n}\n`);
  const mod = await parseRootModule(dir, '');
  const scope = { variables: mod.variables, locals: mod.locals };
  // Messages in ASCII: a raw U+0085 or U+2028 would break TAP's lines.
  const shown = (v: string) => JSON.stringify(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  VALUES.forEach((v, i) => t.equal(evaluate(mod.locals.get(`v${i}`), scope), v.normalize('NFC'), shown(v)));
});

t.test('hclString writes HCL escapes only; templateLiteral reads the template form', async (t) => {
  t.equal(hclString('a${b}%{c}'), '"a$${b}%%{c}"');
  t.equal(hclString('\b\f'), '"\\u0008\\u000c"', 'no JSON-only escapes');
  t.equal(hclString('\ud800'), '"\\ufffd"', 'a lone surrogate (no UTF-8 text holds one) becomes U+FFFD');
  t.equal(templateLiteral('$${x}'), '${x}');
  t.equal(templateLiteral('$$${x}'), '$${x}');
  t.equal(templateLiteral('${x}'), undefined, 'a live interpolation is not a literal');
  t.equal(templateLiteral('a%{ if x }'), undefined, 'nor a directive');
  t.equal(templateLiteral('$ { } %'), '$ { } %');
  t.equal(commentText('# a\nb\u2028c\u0000'), '# a\\u000ab\\u2028c\\u0000');
});
