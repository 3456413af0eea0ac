// Nothing outside runner-agent imports past its declared exports (issue 35 point 4): a non-test
// file of the service (core/, plugins/, manifests/, scripts/) that imports a runner-agent module
// imports one of the files runner-agent/package.json `exports` names (./engine, ./discovery,
// ./tools, ./setup-script), so the engine can move its inside without breaking the service.
// Test files (test/) may import internals: they test the engine's modules one by one.
// Every import form counts: `import`, `import type`, `export ... from`, and `import('...')`.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const AGENT = join(ROOT, 'runner-agent');
const PACKAGE = '@drift/runner-agent';
const SCANNED = ['core', 'plugins', 'manifests', 'scripts'];

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== 'node_modules') out.push(...await tsFiles(p)); } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The module specifiers a file imports, in every form. */
function specifiers(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) out.push(n.arguments[0].text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

/** The imports of `file` that reach into runner-agent past its declared exports. */
function pastExports(file: string, text: string, exports: Record<string, string>): string[] {
  const targets = new Set(Object.values(exports).map((p) => resolve(AGENT, p)));
  return specifiers(file, text).filter((spec) => {
    if (spec === PACKAGE || spec.startsWith(`${PACKAGE}/`)) return !(`.${spec.slice(PACKAGE.length)}` in exports);
    if (!spec.startsWith('.')) return false;
    const target = resolve(dirname(file), spec);
    return target.startsWith(`${AGENT}/`) && !targets.has(target);
  });
}

const exports = JSON.parse(await readFile(join(AGENT, 'package.json'), 'utf8')).exports as Record<string, string>;

t.test('the check: flags an internal module, passes a declared export', async (t) => {
  const file = join(ROOT, 'plugins/x/service.ts');
  const text = [
    "import { detectDrift } from '../../runner-agent/src/engine/index.ts';",
    "import type { CloneGuard } from '../../runner-agent/src/engine/types.ts';",
    "export { mapLimit } from '../../runner-agent/src/engine/limit.ts';",
    "const m = await import('../../runner-agent/src/engine/tofu.ts');",
    "import { renderSetupScript } from '@drift/runner-agent/setup-script';",
    "import { x } from '@drift/runner-agent/src/agent.ts';",
    "import { y } from '../other/service.ts';",
  ].join('\n');
  t.same(pastExports(file, text, exports), [
    '../../runner-agent/src/engine/types.ts', '../../runner-agent/src/engine/limit.ts', '../../runner-agent/src/engine/tofu.ts', '@drift/runner-agent/src/agent.ts',
  ]);
});

t.test('no file of core, plugins, manifests or scripts imports past runner-agent\'s declared exports', async (t) => {
  for (const target of Object.values(exports)) t.ok((await readFile(resolve(AGENT, target), 'utf8')).length > 0, `declared export ${target} exists`);
  const files = (await Promise.all(SCANNED.map((d) => tsFiles(join(ROOT, d))))).flat();
  t.ok(files.length > 300, `${files.length} files read`);
  const found: string[] = [];
  let reaching = 0;
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (text.includes('runner-agent')) reaching++;
    for (const spec of pastExports(file, text, exports)) found.push(`${relative(ROOT, file)}: ${spec}`);
  }
  t.ok(reaching > 10, `${reaching} files name runner-agent`);
  t.same(found, [], 'every import into runner-agent is a declared export');
});
