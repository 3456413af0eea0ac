// No runtime import cycle under runner-agent/src/engine (issue 33 point 6): the shared tables
// (rules.ts, ignore.ts) import no provider, and the providers' folders do not import back into
// whoever gathers them. And no import cycle at all under runner-agent/src, type-only imports
// included (issue 35 point 4): a type shared by a provider and the code that gathers it lives in
// a leaf module (cloud/rest/reader.ts's RestCloud), so the files read in an order. The graph is read with the TypeScript compiler API (already installed)
// the way Node loads the files: `import type` / `export type` declarations are erased, while an
// `import { type A } from './x.ts'` still loads ./x.ts (Node strips the specifier, not the
// declaration), so it counts. Dynamic import() runs later, not at load, and is not an edge.
// dpdm and madge were tried first: their "skip type imports" modes transpile without
// verbatimModuleSyntax and so also drop `import { type A }` declarations that Node does load.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';
import ts from 'typescript';

const ENGINE = resolve(import.meta.dirname, '../../runner-agent/src/engine');

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...await tsFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Relative modules each file imports (inside `root` only). `runtime`: those Node loads when it
 * imports the file; `all`: every static import and re-export, `import type` included.
 */
async function importGraph(root: string, mode: 'runtime' | 'all'): Promise<Map<string, string[]>> {
  const files = await tsFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const src = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const deps: string[] = [];
    for (const s of src.statements) {
      let spec: ts.Expression | undefined;
      const typeOnly = ts.isImportDeclaration(s) ? !!s.importClause?.isTypeOnly : ts.isExportDeclaration(s) && s.isTypeOnly;
      if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && (mode === 'all' || !typeOnly)) spec = s.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.text);
      if (known.has(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}
const runtimeGraph = (root: string) => importGraph(root, 'runtime');

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One loop through a component, for the message: a -> b -> ... -> a. */
function loopOf(scc: string[], graph: Map<string, string[]>, root: string): string {
  const inside = new Set(scc);
  const path = [scc[0]];
  const seen = new Set(path);
  for (;;) {
    const here = path[path.length - 1];
    const step = (graph.get(here) ?? []).filter((w) => inside.has(w));
    const back = step.find((w) => seen.has(w));
    const fwd = step.find((w) => !seen.has(w));
    if (back && (!fwd || back === path[0])) { path.push(back); break; }
    if (!fwd) break;
    path.push(fwd); seen.add(fwd);
  }
  return path.map((p) => relative(root, p)).join(' -> ');
}

t.test('the walker: finds a runtime cycle, ignores one closed only by `import type`', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cycles-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = b;\n");
  await writeFile(join(dir, 'b.ts'), "import { type A } from './c.ts';\nexport const b: A = 1;\n");
  await writeFile(join(dir, 'c.ts'), "import { a } from './a.ts';\nexport type A = number;\nexport const c = a;\n");
  await writeFile(join(dir, 'd.ts'), "import type { A } from './e.ts';\nexport type D = A;\nexport const d = 1;\n");
  await writeFile(join(dir, 'e.ts'), "import { d } from './d.ts';\nexport type A = number;\nexport const e = d;\n");
  const graph = await runtimeGraph(dir);
  const found = cycles(graph);
  t.same(found.map((c) => c.map((f) => relative(dir, f))), [['a.ts', 'b.ts', 'c.ts']], 'a -> b -> c -> a found (b loads c through `import { type A }`); d <-> e is closed by `import type` only');
  t.equal(loopOf(found[0], graph, dir), 'a.ts -> b.ts -> c.ts -> a.ts');
  const all = cycles(await importGraph(dir, 'all'));
  t.same(all.map((c) => c.map((f) => relative(dir, f))), [['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts']], 'with type imports, d <-> e is a cycle too');
});

t.test('runner-agent/src/engine has no runtime import cycle', async (t) => {
  const graph = await runtimeGraph(ENGINE);
  t.ok(graph.size > 100, `${graph.size} files read`);
  t.ok(graph.get(join(ENGINE, 'catalogue.ts'))?.includes(join(ENGINE, 'cloud/aws/index.ts')), 'the graph holds the catalogue -> provider edge');
  const found = cycles(graph);
  t.same(found.map((c) => loopOf(c, graph, ENGINE)), [], 'no cycle');
});

t.test('the shared tables import no provider', async (t) => {
  const graph = await runtimeGraph(ENGINE);
  for (const file of ['rules.ts', 'ignore.ts', 'diff.ts', 'values.ts']) {
    const reach = new Set<string>();
    const walk = (f: string) => { for (const d of graph.get(f) ?? []) if (!reach.has(d)) { reach.add(d); walk(d); } };
    walk(join(ENGINE, file));
    t.same([...reach].map((f) => relative(ENGINE, f)).filter((f) => f.startsWith('cloud/') || f === 'catalogue.ts'), [], `${file} reaches no provider module`);
  }
});

t.test('runner-agent/src has no import cycle, type-only imports included', async (t) => {
  const root = resolve(ENGINE, '..');
  const graph = await importGraph(root, 'all');
  t.ok(graph.size > 150, `${graph.size} files read`);
  t.ok(graph.get(join(root, 'engine/cloud/azure/index.ts'))?.includes(join(root, 'engine/cloud/rest/reader.ts')), 'the graph holds type-only edges (azure -> rest/reader: RestCloud)');
  const found = cycles(graph);
  t.same(found.map((c) => loopOf(c, graph, root)), [], 'no cycle');
});
