// Seeds each manifest route's `raises` (core/manifest.ts) from the code its handler reaches,
// so the declarations are derived rather than guessed. From the functions of the plugin named
// like the route's handler, names are followed: an identifier to the functions of that name in
// its file and the files it imports; a method call `x.name(...)` to those in the files its file
// imports (transitively), in the plugins the plugin needs or uses, and, through the engine's
// services (`ctx.tenancy.setRole(...)`), in core/ and lib/ (the guards excepted: the manifest
// documents them). Every error code reached (an AppError literal, a shorthand such as
// notFound(), an orgs.* rule of core/tenancy) that the route's guards do not document already
// is declared. Name matching over-approximates (harmless: a status documented that is rarely
// answered); what it misses, the status check after the tests names (scripts/check-statuses.ts).
// usage: node scripts/structure/raises.ts            (prints the routes whose raises would change)
//        node scripts/structure/raises.ts --write    (writes them into manifests/*.ts)
//        node scripts/structure/raises.ts --trace=<handler>,<code>  (the chain of names that reaches it)
import ts from 'typescript';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { discoverPlugins, ROOT, routePlan } from '../../core/loader.ts';
import { needsOrgContext } from '../../core/guards/chain.ts';
import { documentedCodes, errorStatuses } from '../../core/openapi-errors.ts';
import { ERRORS, type ErrorCode } from '../../core/errors.ts';

const CODES = new Set(Object.keys(ERRORS));
/** Always documented, whatever the route (400 and 503 on every operation), or never on purpose (500). */
const ALWAYS = new Set(['validation_failed', 'bad_request', 'store_unavailable', 'shutting_down', 'internal']);
/** Core files no handler calls into: the guards (documented by the manifest fields) and the engine. */
const NOT_CALLED = /^core\/(guards\/|loader\.ts|app\.ts|error-handler\.ts|api-document\.ts|openapi)/;

/**
 * Codes raised through a function handed over at build time, which following names cannot see:
 * each with the route that answers it and why.
 */
const HANDED_OVER: Record<string, { codes: string[]; why: string }> = {
  'auth/login': { codes: ['auth.sso_required'], why: "sso-scim's password policy (auth.attachPasswordPolicy) refuses a member of an organization enforcing SSO" },
  'sso-scim/verifySsoDomain': { codes: ['sso.dns_unavailable'], why: 'the TXT lookup (dnsTxtLookup) is handed to createDomains as a function' },
};

/** A name a function mentions: an identifier (its own file's or an import's), or a method called on something (`ctx.x.y(`: core's). */
interface Ref { name: string; prop: boolean; ctx: boolean }
interface Unit { name: string; file: string; codes: Set<string>; refs: Map<string, Ref> }

const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
});

const calleeName = (e: ts.Expression): string | undefined =>
  ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : undefined;
/** The engine's services (core/context.ts) whose methods raise codes: a call through one of them reaches core. */
const CORE_SERVICES = new Set(['ctx', 'tenancy', 'audit', 'limits', 'once', 'sealer', 'bus', 'scheduler', 'mail', 'caches']);
const throughCore = (e: ts.Expression): boolean =>
  ts.isIdentifier(e) ? CORE_SERVICES.has(e.text)
  : ts.isPropertyAccessExpression(e) ? CORE_SERVICES.has(e.name.text) || throughCore(e.expression)
  : ts.isCallExpression(e) || ts.isElementAccessExpression(e) ? throughCore(e.expression) : false;
function addRef(unit: Unit, name: string, prop: boolean, ctx: boolean) {
  const key = `${name}/${prop}/${ctx}`;
  if (!unit.refs.has(key)) unit.refs.set(key, { name, prop, ctx });
}

/** The codes and names one function (or constant) mentions: the literals an error constructor takes, and the calls and identifiers. */
function scan(body: ts.Node, unit: Unit): void {
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const callee = calleeName(n.expression);
      if (callee && ts.isPropertyAccessExpression(n.expression)) {
        addRef(unit, callee, true, throughCore(n.expression.expression));
      }
      if (callee && /error|unauthorized/i.test(callee)) {
        for (const a of n.arguments ?? []) literalCodes(a, callee === 'orgError' ? 'orgs.' : '', unit.codes);
      }
    }
    if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) addRef(unit, n.text, false, false);
    // Namespaced codes are unambiguous wherever they stand (a table of them, a comparison).
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && n.text.includes('.') && CODES.has(n.text)) unit.codes.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(body);
}

function literalCodes(n: ts.Node, prefix: string, out: Set<string>): void {
  if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && CODES.has(prefix + n.text)) out.add(prefix + n.text);
  ts.forEachChild(n, (c) => literalCodes(c, prefix, out));
}

function unitsOf(file: string): Unit[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const units: Unit[] = [];
  const add = (name: string, body: ts.Node) => {
    const u: Unit = { name, file, codes: new Set(), refs: new Map() };
    scan(body, u);
    units.push(u);
  };
  const visit = (n: ts.Node): void => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name && n.body) add(n.name.getText(), n.body);
    else if ((ts.isPropertyAssignment(n) || ts.isVariableDeclaration(n)) && n.initializer && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))) {
      // Functions, and module constants (a table of error codes) referred to by name.
      const fn = ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer);
      if (fn || (ts.isVariableDeclaration(n) && ts.isSourceFile(n.parent.parent.parent))) add(n.name.text, n.initializer);
      // An alias (`setActiveAccount: accounts.setActive`): the function it names.
      else if (ts.isPropertyAssignment(n) && ts.isPropertyAccessExpression(n.initializer)) {
        const u: Unit = { name: n.name.text, file, codes: new Set(), refs: new Map() };
        addRef(u, n.initializer.name.text, true, throughCore(n.initializer.expression));
        units.push(u);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return units;
}

const rel = (f: string) => relative(ROOT, f);
const parsed = new Map<string, Unit[]>();
const unitsIn = (file: string) => parsed.get(file) ?? parsed.set(file, unitsOf(file)).get(file)!;
const importCache = new Map<string, string[]>();
/** The files a file imports (relative imports that exist). */
const importsOf = (file: string): string[] => importCache.get(file) ?? importCache.set(file, [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+\.ts)'/g)]
  .map((m) => resolve(dirname(file), m[1])).filter((f) => existsSync(f) && !NOT_CALLED.test(rel(f)))).get(file)!;
const closures = new Map<string, Set<string>>();
/** A plugin file and the plugin files it imports, transitively (type imports too: an object passed in is typed by its module). */
function closureOf(file: string): Set<string> {
  const known = closures.get(file);
  if (known) return known;
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length) for (const f of importsOf(queue.pop()!)) if (f.startsWith(join(ROOT, 'plugins')) && !seen.has(f)) { seen.add(f); queue.push(f); }
  closures.set(file, seen);
  return seen;
}
const coreUnits = [...walk(join(ROOT, 'core')), ...walk(join(ROOT, 'lib'))].filter((f) => !NOT_CALLED.test(rel(f))).flatMap(unitsIn);
const byNameOf = (units: Unit[]) => {
  const out = new Map<string, Unit[]>();
  for (const u of units) out.set(u.name, [...(out.get(u.name) ?? []), u]);
  return out;
};
const coreByName = byNameOf(coreUnits);
const plugins = await discoverPlugins({ plugins: {} });
const write = process.argv.includes('--write');
/** --trace=handler,code: the chain of names by which a handler reaches a code. */
const TRACE = process.argv.find((a) => a.startsWith('--trace='))?.slice(8).split(',');
let routes = 0, pairs = 0, changed = 0;
const unsure: string[] = [];

for (const p of plugins) {
  const m = p.manifest;
  const name = m.plugin;
  const deps = [...(p.definition.needs ?? []), ...(p.definition.uses ?? [])];
  const own = walk(join(ROOT, 'plugins', name));
  // A method called on a plugin-side object: this plugin's functions, and those of the plugins it needs or uses.
  const pluginSide = byNameOf([...own, ...deps.flatMap((d) => walk(join(ROOT, 'plugins', d)))].flatMap(unitsIn));
  const units = own.flatMap(unitsIn);
  const ownDir = join(ROOT, 'plugins', name) + '/';
  const inScope = (file: string) => new Set([file, ...importsOf(file)]);
  /** What a name in a function of `file` may mean: its own file's or an import's; a method: the plugin side, or core's on ctx. */
  const targets = (u: Unit, r: Ref): Unit[] => {
    const local = [...inScope(u.file)].flatMap(unitsIn).filter((x) => x.name === r.name);
    if (!r.prop) return local;
    const side = r.ctx ? coreByName.get(r.name) ?? []
      : u.file.startsWith(join(ROOT, 'plugins')) ? (pluginSide.get(r.name) ?? []).filter((x) => !x.file.startsWith(ownDir) || closureOf(u.file).has(x.file)) : [];
    return [...local, ...side];
  };

  const reached = (start: Unit[]): Set<string> => {
    const codes = new Set<string>();
    const seen = new Set<Unit>(start);
    const via = new Map<Unit, Unit>();
    const queue = [...start];
    while (queue.length) {
      const u = queue.shift()!;
      for (const c of u.codes) {
        codes.add(c);
        if (TRACE && c === TRACE[1] && start[0]?.name === TRACE[0]) {
          const path: string[] = [];
          for (let x: Unit | undefined = u; x; x = via.get(x)) path.unshift(`${x.name} (${rel(x.file)})`);
          console.log(`trace: ${path.join(' -> ')}`);
        }
      }
      for (const r of u.refs.values()) for (const next of targets(u, r)) if (!seen.has(next)) { seen.add(next); via.set(next, u); queue.push(next); }
    }
    return codes;
  };

  const manifestFile = join(ROOT, 'manifests', `${name}.ts`);
  let text = readFileSync(manifestFile, 'utf8');
  for (const route of m.routes) {
    routes++;
    let start = units.filter((u) => u.name === route.handler && u.file.startsWith(ownDir));
    if (!start.length) {
      unsure.push(`${name}/${route.id}: no function named ${route.handler}; every code of the plugin`);
      start = units.filter((u) => u.file.startsWith(ownDir));
    }
    const plan = routePlan(p, route);
    const derived = documentedCodes(errorStatuses(m, { ...route, raises: undefined }, plan, needsOrgContext(route, plan)));
    const codes = new Set([...reached(start), ...(HANDED_OVER[`${name}/${route.id}`]?.codes ?? [])]);
    const raises = [...codes].filter((c) => !ALWAYS.has(c) && !derived.has(c as ErrorCode)).sort();
    pairs += raises.length;
    const before = [...(route.raises ?? [])].sort();
    if (before.join() === raises.join()) continue;
    changed++;
    console.log(`${name}/${route.id}: ${before.join(', ') || '-'} -> ${raises.join(', ') || '-'}`);
    if (!write) continue;
    // The entry's text: from its id to its handler (the last field of every entry).
    const at = text.indexOf(`id: '${route.id}'`);
    const handlerAt = text.indexOf(`handler: '${route.handler}'`, at);
    const nextId = text.indexOf(`{ id: '`, at + 1);
    if (at < 0 || handlerAt < 0 || (nextId >= 0 && nextId < handlerAt)) { unsure.push(`${name}/${route.id}: entry not found in the manifest text; not written`); continue; }
    let entry = text.slice(at, handlerAt).replace(/raises: \[[^\]]*\], /, '');
    if (raises.length) entry += `raises: [${raises.map((c) => `'${c}'`).join(', ')}], `;
    text = text.slice(0, at) + entry + text.slice(handlerAt);
  }
  if (write) writeFileSync(manifestFile, text);
}
for (const u of unsure) console.log(`unsure: ${u}`);
console.log(`${routes} routes, ${pairs} declared (route, code) pairs, ${changed} changed${write ? ' (written)' : ''}`);
