// Lists functions longer than a limit (default 120 lines) under a folder: the structure check of
// issue 35 ("service functions short enough to read at once").
// usage: node scripts/structure/long-functions.ts plugins [120]
import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [root = 'plugins', limitArg = '120'] = process.argv.slice(2);
const limit = Number(limitArg);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function nameOf(n: ts.Node): string {
  const named = (n as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = n.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '<anonymous>';
}

let found = 0;
for (const file of walk(root)) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n)) {
      const start = src.getLineAndCharacterOfPosition(n.getStart()).line;
      const end = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (end - start + 1 > limit) { found++; console.log(`${end - start + 1}\t${file}:${start + 1}\t${nameOf(n)}`); }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
process.exitCode = found ? 1 : 0;
