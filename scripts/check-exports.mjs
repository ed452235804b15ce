#!/usr/bin/env node
// No unused exports in src: every value (function, class, constant) a module
// exports is imported by another module of src, or is part of what a bundle
// or face hands out (its entry point's exports, followed through `export ...
// from`), or the module is one a test loads itself (its API to the tests). A
// value a module only uses itself is not exported. Types are left alone: an
// exported type names a parameter or result of an exported function. Syntactic and quick (no type checker):
// a namespace import, `import()`, `typeof import()` or `require()` of a module
// counts as using all of it. Run in `npm run build` after the layer check.
//
//   node scripts/check-exports.mjs [project root]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * What the bundles and the tests are given: every export of these counts as
 * used. The bundles' entry points (esbuild.mjs), the host's and the MCP
 * layer's faces, and the modules the tests bundle themselves (test/bundled.d.ts).
 */
export const ROOTS = ['src/extension.ts', 'src/cli.ts', 'src/mcp/entry.ts', 'src/host/index.ts', 'src/vscode/testing/extension.ts'];

function sourceFiles(dir, rootDir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p, rootDir);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path.relative(rootDir, p).split(path.sep).join('/')] : [];
  });
}

/** The modules of src a test names (bundles or types itself): what they export is their API to the tests. */
function testedModules(rootDir) {
  const found = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== 'fixtures' && e.name !== 'node_modules') walk(p); continue; }
      if (!/\.(m?js|cjs|ts)$/.test(e.name)) continue;
      const text = readFileSync(p, 'utf8');
      for (const m of text.matchAll(/src\/((?:[\w.-]+\/)*[\w.-]+?)(?:\.[jt]s)?['"`]/g)) found.add(`src/${m[1]}.ts`);
      // bundleSources(dir, 'vscode/chat', ['participant', ...]) and bundleSources(dir, 'vscode', ['chat/hostTools', ...])
      for (const m of text.matchAll(/bundleSources\([^,]+,\s*'([^']+)',\s*\[([^\]]*)\]/g)) for (const n of m[2].matchAll(/'([^']+)'/g)) found.add(`src/${m[1]}/${n[1]}.ts`);
    }
  };
  if (existsSync(path.join(rootDir, 'test'))) walk(path.join(rootDir, 'test'));
  return found;
}

const hasExport = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;

/** A module's own exports (name -> line) and what it takes from others. */
function scan(rel, text) {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const line = (n) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const own = new Map();
  /** { spec, names: string[] | '*', reexport: boolean } */
  const uses = [];
  const literal = (n) => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier);
      const c = node.importClause;
      if (spec && c) {
        const b = c.namedBindings;
        if (b && ts.isNamespaceImport(b)) uses.push({ spec, names: '*' });
        else uses.push({ spec, names: [...(c.name ? ['default'] : []), ...(b ? b.elements.map((e) => (e.propertyName ?? e.name).text) : [])] });
      }
    } else if (ts.isExportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier);
      if (spec && !node.exportClause) uses.push({ spec, names: '*', reexport: true });
      else if (spec && ts.isNamedExports(node.exportClause)) uses.push({ spec, names: node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text), reexport: true });
      else if (spec) uses.push({ spec, names: '*' });
      else if (node.exportClause && ts.isNamedExports(node.exportClause) && !node.isTypeOnly) for (const e of node.exportClause.elements) if (!e.isTypeOnly) own.set(e.name.text, line(e));
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      const spec = literal(node.arguments[0]);
      if (spec) uses.push({ spec, names: '*' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const spec = literal(node.argument.literal);
      if (spec) uses.push({ spec, names: node.qualifier && ts.isIdentifier(node.qualifier) ? [node.qualifier.text] : '*' });
    } else if (node.parent === sf && hasExport(node) && !ts.isInterfaceDeclaration(node) && !ts.isTypeAliasDeclaration(node)) {
      if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) { if (ts.isIdentifier(d.name)) own.set(d.name.text, line(d)); }
      else if (node.name && ts.isIdentifier(node.name)) own.set(node.name.text, line(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { own, uses };
}

/** Every export no other module uses, as `file:line: name` lines. */
export function unusedExports(rootDir) {
  const files = sourceFiles(path.join(rootDir, 'src'), rootDir);
  const mods = new Map(files.map((rel) => [rel, scan(rel, readFileSync(path.join(rootDir, rel), 'utf8'))]));
  const target = (from, spec) => (spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '.ts') : undefined);
  const used = new Map(files.map((f) => [f, new Set()]));
  const reexports = new Map(files.map((f) => [f, []]));
  for (const [rel, { uses }] of mods) {
    for (const u of uses) {
      const to = target(rel, u.spec);
      if (!to || !used.has(to)) continue;
      if (u.reexport) reexports.get(rel).push({ to, names: u.names });
      else if (u.names === '*') used.get(to).add('*');
      else for (const n of u.names) used.get(to).add(n);
    }
  }
  for (const r of [...ROOTS, ...testedModules(rootDir)]) used.get(r)?.add('*');
  // A name used from a module that re-exports it is used in the module it comes from.
  let changed = true;
  while (changed) {
    changed = false;
    for (const [rel, list] of reexports) {
      const wanted = used.get(rel);
      for (const { to, names } of list) {
        const mark = (n) => { if (!used.get(to).has(n)) { used.get(to).add(n); changed = true; } };
        if (names === '*') { if (wanted.has('*')) mark('*'); else for (const n of wanted) mark(n); }
        else for (const n of names) if (wanted.has('*') || wanted.has(n)) mark(n);
      }
    }
  }
  const problems = [];
  for (const [rel, { own }] of mods) {
    const u = used.get(rel);
    if (u.has('*')) continue;
    for (const [name, line] of own) if (!u.has(name)) problems.push(`${rel}:${line}: ${name} is exported but no other module imports it`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = path.resolve(args[0] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = unusedExports(root);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`check-exports: ${problems.length} unused export${problems.length === 1 ? '' : 's'} (drop the export, or the code)`);
    process.exit(1);
  }
}
