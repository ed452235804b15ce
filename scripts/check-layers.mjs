#!/usr/bin/env node
// The layer rule, checked on every import in src (value and type imports,
// re-exports, `import x = require()`, `require()`, `import()`, `typeof
// import()` and `/// <reference types>`), run first in `npm run build`:
//
//   vscode-only-in-vscode-layer   'vscode' is imported only by src/vscode and
//                                 src/extension.ts
//   protocol-is-pure              src/protocol imports neither node: or Node
//                                 built-ins nor 'vscode', nor any other layer
//   host-imports-no-front-end     src/host imports no front end: src/vscode,
//                                 src/extension.ts, the CLI (src/cli.ts,
//                                 src/cli/) and the MCP server (src/mcp); each
//                                 of those is a way in for someone using the
//                                 host, and the host serves them all the same
//   nothing-imports-vscode-layer  nothing outside the VS Code layer imports it
//   test-instruments-stay-out     only src/vscode/testing imports
//                                 src/vscode/testing (the test bundle's code)
//   front-ends-use-the-host-face  a front end imports src/host only through
//                                 its faces: src/host/index.ts (the host),
//                                 src/host/hooks/index.ts (agent hooks and
//                                 the editor windows' contract, no process
//                                 code), src/host/names.ts (what parsing
//                                 arguments needs, loading no process, HTTP
//                                 or hash code) and src/host/secrets.ts (the
//                                 secrets file, no process code). What the
//                                 host offers is what they export, and a
//                                 module behind them can move without a
//                                 front end noticing
//   front-ends-use-the-mcp-face   the editor and the CLI import src/mcp only
//                                 through src/mcp/index.ts, which holds no
//                                 MCP SDK code (the server itself is the
//                                 dist/mcp.js bundle, loaded when wanted)
//
// And one rule inside the host:
//
//   host-folders-point-one-way    the imports between src/host's folders
//                                 (each file at its top counted on its own)
//                                 run one way: a folder that another imports
//                                 never imports it back, directly or round
//                                 about. Each arrow of such a cycle is named
//
// And one rule on what a front end decides on:
//
//   front-ends-decide-on-status   no front end compares a `.state` (===, !==,
//                                 ==, !=) or switches on one, nor on what
//                                 `stateOf()` or `stateName()` return: an
//                                 extension's flat state name (`stateOf(rt)`,
//                                 a report's `.state`) is for reports and log
//                                 lines; conditions read `rt.status`
//                                 through the predicates of
//                                 src/host/extension/state.ts or its `kind`.
//                                 A `.state` that is read, passed or written
//                                 into text (a Memento's `this.state.get()`,
//                                 `${rt.state}`) is no comparison
//
// A specifier computed at run time (`require(name)`) cannot be checked here.
//
//   node scripts/check-layers.mjs [project root]
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const NODE_BUILTINS = new Set(builtinModules);

/** The layer of a path relative to the project root (forward slashes), or undefined outside src. */
export function layerOf(rel) {
  if (rel === 'src/extension.ts' || rel.startsWith('src/vscode/')) return rel.startsWith('src/vscode/testing/') ? 'vscode-testing' : 'vscode';
  if (rel.startsWith('src/protocol/')) return 'protocol';
  if (rel.startsWith('src/host/')) return 'host';
  if (rel === 'src/cli.ts' || rel.startsWith('src/cli/')) return 'cli';
  if (rel.startsWith('src/mcp/')) return 'mcp';
  return rel.startsWith('src/') ? 'other' : undefined;
}

const FRONT_ENDS = new Set(['vscode', 'vscode-testing', 'cli', 'mcp']);
const isVscodeLayer = (layer) => layer === 'vscode' || layer === 'vscode-testing';
const isNodeBuiltin = (spec) => spec.startsWith('node:') || NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0]);
const isVscodeModule = (spec) => spec === 'vscode' || spec.startsWith('vscode/');

/** @type {Map<string, ts.SourceFile>} */
const sources = new Map();

/**
 * A file's syntax tree, parsed once per name and text: both checks read it,
 * and a caller checking copies of one tree (the layer test's probes) parses
 * only what differs.
 */
function parsed(fileName, text) {
  const key = `${fileName}\0${text}`;
  let sf = sources.get(key);
  if (!sf) sources.set(key, (sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)));
  return sf;
}

/** Every module specifier a source file names, with its 1-based line. */
export function importsOf(fileName, text) {
  const sf = parsed(fileName, text);
  const found = [];
  const add = (node, spec) => found.push({ spec, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  const literal = (n) => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const visit = (node) => {
    let spec;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) spec = literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) spec = literal(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = literal(node.argument.literal);
    if (spec !== undefined) add(node, spec);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  for (const ref of sf.typeReferenceDirectives) found.push({ spec: ref.fileName, line: sf.getLineAndCharacterOfPosition(ref.pos).line + 1 });
  return found.sort((a, b) => a.line - b.line);
}

const COMPARISONS = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

/** Whether an expression is a `.state` read (`rt.state`, `x?.state`, `(rt.state as string)`, `rt.state!`) or a flat name made (`stateOf(rt)`, `stateName(s)`). */
function isStateRead(node) {
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) return node.expression.text === 'stateOf' || node.expression.text === 'stateName';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'state';
}

/** The 1-based lines where a source file compares a `.state` or switches on one. */
export function stateChecksOf(fileName, text) {
  const sf = parsed(fileName, text);
  const lines = [];
  const add = (node) => lines.push(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1);
  const visit = (node) => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind) && (isStateRead(node.left) || isStateRead(node.right))) add(node);
    else if (ts.isSwitchStatement(node) && isStateRead(node.expression)) add(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return lines;
}

/** Where a relative specifier points, relative to the root; undefined for a package. */
function targetOf(fromRel, spec) {
  if (!spec.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec)).replace(/\.js$/, '.ts');
}

/** The rule an import breaks, with why; undefined when it keeps them all. */
export function breaks(fromRel, spec) {
  const from = layerOf(fromRel);
  const target = targetOf(fromRel, spec);
  const to = target === undefined ? undefined : layerOf(target);
  if (isVscodeModule(spec) && !isVscodeLayer(from)) return { rule: 'vscode-only-in-vscode-layer', why: `'${spec}' is imported only by src/vscode and src/extension.ts` };
  if (from === 'protocol') {
    if (isNodeBuiltin(spec)) return { rule: 'protocol-is-pure', why: `src/protocol imports no Node built-in ('${spec}')` };
    if (target !== undefined && to !== 'protocol') return { rule: 'protocol-is-pure', why: `src/protocol imports no other layer (${target})` };
  }
  if (from === 'host' && FRONT_ENDS.has(to)) return { rule: 'host-imports-no-front-end', why: `src/host imports no front end (${target} is ${to === 'vscode-testing' ? 'vscode' : to})` };
  if (to !== undefined && isVscodeLayer(to) && !isVscodeLayer(from)) return { rule: 'nothing-imports-vscode-layer', why: `only the VS Code layer imports ${target}` };
  if (to === 'vscode-testing' && from !== 'vscode-testing') return { rule: 'test-instruments-stay-out', why: `${target} is test-bundle code; the product never imports it` };
  if (FRONT_ENDS.has(from) && to === 'host' && !HOST_FACES.includes(target)) return { rule: 'front-ends-use-the-host-face', why: `a front end imports the host through its faces (${HOST_FACES.join(', ')}), not ${target}` };
  if (from !== 'mcp' && to === 'mcp' && target !== MCP_FACE) return { rule: 'front-ends-use-the-mcp-face', why: `src/mcp is imported through its face (${MCP_FACE}), not ${target}` };
  return undefined;
}

const MCP_FACE = 'src/mcp/index.ts';

const HOST_FACES = ['src/host/index.ts', 'src/host/hooks/index.ts', 'src/host/names.ts', 'src/host/secrets.ts'];

/** The part of src/host a file belongs to for the one-way rule: its first folder, or the file itself at the top. */
function hostPart(rel) {
  const inner = rel.slice('src/host/'.length);
  const slash = inner.indexOf('/');
  return slash < 0 ? inner : `${inner.slice(0, slash)}/`;
}

/**
 * The arrows between src/host's parts that lie on a cycle, as
 * `{ from, to, file, line }` (one import that makes each arrow): empty when
 * every arrow runs one way.
 */
export function hostCycles(imports) {
  const arrows = new Map();
  for (const { file, line, target } of imports) {
    const a = hostPart(file);
    const b = hostPart(target);
    if (a === b) continue;
    const key = `${a}\0${b}`;
    if (!arrows.has(key)) arrows.set(key, { from: a, to: b, file, line });
  }
  const next = new Map();
  for (const { from, to } of arrows.values()) next.set(from, [...(next.get(from) ?? []), to]);
  const reaches = (start, goal) => {
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) {
      for (const n of next.get(todo.pop()) ?? []) {
        if (n === goal) return true;
        if (!seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    return false;
  };
  return [...arrows.values()].filter(({ from, to }) => reaches(to, from));
}

function sourceFiles(dir, rootDir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p, rootDir);
    return /\.(c|m)?tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path.relative(rootDir, p).split(path.sep).join('/')] : [];
  });
}

/** Every broken rule in a project, as `file:line: [rule] why` lines. */
export function checkLayers(rootDir) {
  const problems = [];
  const insideHost = [];
  for (const rel of sourceFiles(path.join(rootDir, 'src'), rootDir)) {
    const text = readFileSync(path.join(rootDir, rel), 'utf8');
    for (const { spec, line } of importsOf(rel, text)) {
      const broken = breaks(rel, spec);
      if (broken) problems.push(`${rel}:${line}: [${broken.rule}] ${broken.why}`);
      const target = targetOf(rel, spec);
      if (layerOf(rel) === 'host' && target !== undefined && layerOf(target) === 'host') insideHost.push({ file: rel, line, target });
    }
    if (!FRONT_ENDS.has(layerOf(rel))) continue;
    for (const line of stateChecksOf(rel, text)) {
      problems.push(`${rel}:${line}: [front-ends-decide-on-status] a front end decides on the status (rt.status, the predicates of src/host/extension/state.ts), not on the flat .state, which is for reports and logs`);
    }
  }
  for (const { from, to, file, line } of hostCycles(insideHost)) {
    problems.push(`${file}:${line}: [host-folders-point-one-way] src/host/${from} imports src/host/${to}, which imports it back (directly or round about)`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`check-layers: ${problems.length} broken rule${problems.length === 1 ? '' : 's'} (rules: scripts/check-layers.mjs)`);
    process.exit(1);
  }
}
