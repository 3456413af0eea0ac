// The catalogue (engine/catalogue.ts) and the AWS service-family folders it gathers: each family
// keeps its types' readers, ignore list and rules side by side, and the order the families are
// spread in decides no classification (issue 33 point 6).
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import t from 'tap';
import { AWS_READERS, IGNORED_ATTRIBUTES, SEVERITY_RULES } from '../../runner-agent/src/engine/catalogue.ts';
import { AWS_SHARED_RULES } from '../../runner-agent/src/engine/cloud/aws/rules.ts';
import { GENERIC_RULES, type SeverityRule } from '../../runner-agent/src/engine/rules.ts';
import { globRegExp } from '../../runner-agent/src/engine/values.ts';

const AWS = resolve(import.meta.dirname, '../../runner-agent/src/engine/cloud/aws');

interface Family { name: string; readers: Record<string, unknown>; ignored: Record<string, string[]>; rules: SeverityRule[] }

/** Every cloud/aws/<family>/index.ts, by its *_READERS, *_IGNORED and *_RULES exports. */
async function families(): Promise<Family[]> {
  const out: Family[] = [];
  for (const e of await readdir(AWS, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === 'replay') continue;
    const mod = await import(join(AWS, e.name, 'index.ts')) as Record<string, unknown>;
    const pick = <T>(suffix: string) => Object.entries(mod).find(([k]) => k.endsWith(suffix))?.[1] as T;
    out.push({ name: e.name, readers: pick('_READERS'), ignored: pick('_IGNORED'), rules: pick('_RULES') });
  }
  return out;
}

const overlaps = (a: string[], b: string[]) => a.some((x) => b.some((y) => globRegExp(x).test(y) || globRegExp(y).test(x)));

t.test('each AWS family folder exports its readers, ignore list and rules, all registered', async (t) => {
  const all = await families();
  t.ok(all.length >= 10, `${all.length} families`);
  for (const f of all) {
    t.ok(f.readers && f.ignored && Array.isArray(f.rules), `${f.name}: *_READERS, *_IGNORED, *_RULES`);
    for (const type of Object.keys(f.readers)) t.equal(AWS_READERS[type], f.readers[type], `${f.name}: ${type} registered in AWS_READERS`);
    for (const [type, attrs] of Object.entries(f.ignored)) {
      t.ok(f.readers[type], `${f.name}: ignore list of ${type}, a type it reads`);
      t.same(IGNORED_ATTRIBUTES[type], attrs, `${f.name}: ${type}'s ignore list in the catalogue`);
    }
    for (const r of f.rules) {
      t.ok(SEVERITY_RULES.includes(r), `${f.name}: rule ${r.id} in the catalogue`);
      t.ok(r.types?.every((g) => Object.keys(f.readers).some((type) => globRegExp(g).test(type))), `${f.name}: rule ${r.id} names only types the family reads`);
    }
  }
});

t.test('families name disjoint types, so the order they are spread in decides nothing', async (t) => {
  const all = await families();
  const typed = all.map((f) => ({ name: f.name, types: f.rules.flatMap((r) => r.types ?? ['*']) }));
  for (const [i, a] of typed.entries()) {
    for (const b of typed.slice(i + 1)) t.notOk(overlaps(a.types, b.types), `${a.name} and ${b.name} rules share no type`);
  }
});

t.test('the catalogue order: provider rules, then the generic fallbacks last', async (t) => {
  const ids = SEVERITY_RULES.map((r) => r.id);
  t.equal(new Set(ids).size, ids.length, 'rule ids are unique');
  t.same(ids.slice(-GENERIC_RULES.length), GENERIC_RULES.map((r) => r.id), 'tags-only, labels-only, deleted, changed close the table');
  t.equal(ids[0], 'sg-ingress-open-to-world', 'the first rule');
  const shared = AWS_SHARED_RULES.map((r) => ids.indexOf(r.id));
  const family = (await families()).flatMap((f) => f.rules.map((r) => ids.indexOf(r.id)));
  t.ok(Math.max(...family) < Math.min(...shared), 'every AWS family rule before the AWS-wide ones');
  t.ok(Math.max(...shared) < ids.findIndex((id) => !SEVERITY_RULES.find((r) => r.id === id)?.types?.every((g) => g.startsWith('aws_'))), 'AWS rules before the other providers');
  t.same(IGNORED_ATTRIBUTES['*'], ['id', 'arn', 'tags_all', 'timeouts', 'region'], 'the every-type list');
});
