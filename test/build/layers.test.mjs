// The layer rule as `npm run build` checks it (scripts/check-layers.mjs): the
// real tree passes; a probe import that crosses a boundary, goes past the
// host's face or runs back between the host's folders, or a front end's
// probe that compares or switches on an extension's flat `.state`, in a copy
// of src, fails the check with the rule's name and the probe's file:line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(repoRoot, 'scripts', 'check-layers.mjs');
/** @type {{ checkLayers: (root: string) => string[] }} loaded by URL: the script is plain JavaScript, outside the tests' type check */
const { checkLayers } = await import(pathToFileURL(script).href);
/** @type {string} */
let scratch;

/** @type {string} one copy of src the probes are written into, one at a time */
let copy;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-layers-'));
  copy = mkdtempSync(path.join(scratch, 'copy-'));
  cpSync(path.join(repoRoot, 'src'), path.join(copy, 'src'), { recursive: true });
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The check as `npm run build` runs it, a process of its own.
 * @param {string} [root]
 */
const checkProcess = (root) => spawnSync(process.execPath, [script, ...(root ? [root] : [])], { encoding: 'utf8' });

/**
 * The same check in this process (a probe's copy differs from the tree in
 * one file, which is all it parses again), with the process's status and
 * stderr: 1 and a line per broken rule, or 0.
 * @param {string} root
 */
function check(root) {
  const problems = checkLayers(root);
  return { status: problems.length ? 1 : 0, stdout: '', stderr: problems.map((p) => `${p}\n`).join('') };
}

/**
 * `check` of the copy of src with one more file, which is taken out again (the
 * tests of this file run one at a time, so a copy each was only time spent).
 * @param {string} file
 * @param {string} text
 * @param {(root: string) => { status: number | null, stdout: string, stderr: string }} [checkWith]
 */
function withProbe(file, text, checkWith = check) {
  const made = mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  writeFileSync(path.join(copy, file), text);
  try {
    return checkWith(copy);
  } finally {
    rmSync(made ?? path.join(copy, file), { recursive: true, force: true });
  }
}

test('the real tree keeps the rule', () => {
  const r = check(repoRoot);
  assert.equal(r.status, 0, r.stderr);
});

test('a broken rule fails the check as a process: exit 1, each problem a line on stderr', () => {
  const r = withProbe('src/host/probe.ts', "import type { Disposable } from 'vscode';\nexport type D = Disposable;\n", checkProcess);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^src\/host\/probe\.ts:1: \[vscode-only-in-vscode-layer\] /m);
  assert.match(r.stderr, /^check-layers: 1 broken rule \(rules: scripts\/check-layers\.mjs\)$/m);
});

describe('no unused exports (scripts/check-exports.mjs, in npm run build after the layers)', () => {
  const exportsScript = path.join(repoRoot, 'scripts', 'check-exports.mjs');
  /** @param {string} root */
  const checkExports = (root) => spawnSync(process.execPath, [exportsScript, root], { encoding: 'utf8' });
  /** @param {Record<string, string>} files */
  const tree = (files) => {
    const root = mkdtempSync(path.join(scratch, 'exports-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  };
  const user = "import { used } from './a.js';\nexport const b = used;\n";

  test('the real tree has none', () => {
    const r = checkExports(repoRoot);
    assert.equal(r.status, 0, r.stderr);
  });

  test('a value exported and imported by no other module fails, named with its file:line; a type, an entry point\'s export and a module a test loads pass', () => {
    const bad = checkExports(tree({
      'src/extension.ts': "export { b } from './vscode/b.js';\nexport function activate(): void {}\n",
      'src/vscode/a.ts': 'export const used = 1;\nexport function currentHostManager(): undefined { return undefined; }\nexport interface Shape { x: number }\n',
      'src/vscode/b.ts': user,
      'src/vscode/t.ts': 'export const onlyForTests = 1;\n',
      'test/t.test.mjs': "// loads src/vscode/t.ts\nimport '../src/vscode/t.js';\n",
    }));
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /^src\/vscode\/a\.ts:2: currentHostManager is exported but no other module imports it$/m);
    assert.equal(bad.stderr.match(/is exported/g)?.length, 1, bad.stderr);
    const good = checkExports(tree({
      'src/extension.ts': "export { b } from './vscode/b.js';\n",
      'src/vscode/a.ts': 'export const used = 1;\nfunction own(): undefined { return undefined; }\nexport const alsoUsed = own;\n',
      'src/vscode/b.ts': "import { alsoUsed, used } from './a.js';\nexport const b = [used, alsoUsed];\n",
    }));
    assert.equal(good.status, 0, good.stderr);
  });
});

test('npm run build and npm run package check the layers first', () => {
  /** @type {{ scripts: Record<string, string> }} */
  const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  assert.match(scripts.build, /^node scripts\/check-layers\.mjs && /);
  assert.match(scripts.package, /^node scripts\/check-layers\.mjs && /);
});

describe('a probe import fails the check, naming the rule and file:line', () => {
  const probes = [
    ['src/host/probe.ts', "import type { Disposable } from 'vscode';\n", 'vscode-only-in-vscode-layer', 1],
    ['src/host/probe.ts', "// 'vscode' in a comment is no import\nexport type Api = typeof import('vscode');\n", 'vscode-only-in-vscode-layer', 2],
    ['src/host/probe.ts', "const x = 1;\nconst vs = require('vscode');\nexport { vs, x };\n", 'vscode-only-in-vscode-layer', 2],
    ['src/host/probe.ts', "export const load = () => import('vscode');\n", 'vscode-only-in-vscode-layer', 1],
    ['src/mcp/probe.ts', '/// <reference types="vscode" />\nexport {};\n', 'vscode-only-in-vscode-layer', 1],
    ['src/cli/probe.ts', "export { activateWith } from '../vscode/activation/activate.js';\n", 'nothing-imports-vscode-layer', 1],
    ['src/protocol/probe.ts', "import { createHash } from 'node:crypto';\nexport const h = createHash;\n", 'protocol-is-pure', 1],
    ['src/protocol/probe.ts', "import * as path from 'path';\nexport const p = path;\n", 'protocol-is-pure', 1],
    ['src/protocol/probe.ts', "import type { Disposable } from 'vscode';\nexport type D = Disposable;\n", 'vscode-only-in-vscode-layer', 1],
    ['src/host/probe.ts', "import type { HostSource } from '../mcp/bridge.js';\nexport type S = HostSource;\n", 'host-imports-no-front-end', 1],
    ['src/host/deeper/probe.ts', "import '../../cli.js';\n", 'host-imports-no-front-end', 1],
    ['src/host/probe.ts', "import { activateWith } from '../vscode/activation/activate.js';\nexport const a = activateWith;\n", 'host-imports-no-front-end', 1],
    ['src/vscode/views/probe.ts', "import { createTestApi } from '../testing/testApi.js';\nexport const c = createTestApi;\n", 'test-instruments-stay-out', 1],
    ['src/vscode/views/probe.ts', "export const busy = (r: { state: string }) => r.state === 'starting';\n", 'front-ends-decide-on-status', 1],
    ['src/mcp/probe.ts', "type R = { state: string } | undefined;\nexport const up = (r: R) => 'ready' !== r?.state;\n", 'front-ends-decide-on-status', 2],
    ['src/vscode/views/probe.ts', "import { stateOf, type StatusView } from '../../host/index.js';\nexport const up = (r: { status: StatusView }) => stateOf(r) === 'ready';\n", 'front-ends-decide-on-status', 2],
    ['src/cli/probe.ts', "export function word(r: { state: string }): string {\n  switch (r.state) {\n    default: return '';\n  }\n}\n", 'front-ends-decide-on-status', 2],
    ['src/vscode/views/probe.ts', "import { blocksText } from '../../host/results/content.js';\nexport const b = blocksText;\n", 'front-ends-use-the-host-face', 1],
    ['src/cli/probe.ts', "// the face first\nimport type { ZotHost } from '../host/index.js';\nimport type { Timing } from '../host/options.js';\nexport type T = [ZotHost, Timing];\n", 'front-ends-use-the-host-face', 3],
    ['src/mcp/probe.ts', "export type P = import('../host/extension/runtime.js').ExtensionRuntime;\n", 'front-ends-use-the-host-face', 1],
    ['src/vscode/hooks/probe.ts', "export { WINDOWS_VAR } from '../../host/hooks/windows.js';\n", 'front-ends-use-the-host-face', 1],
    ['src/vscode/mcp/probe.ts', "import { servesTool } from '../../mcp/shared/toolNames.js';\nexport const s = servesTool;\n", 'front-ends-use-the-mcp-face', 1],
    ['src/cli/probe.ts', "// the face first\nimport type { McpBundle } from '../mcp/index.js';\nexport type S = typeof import('../mcp/transport/http.js');\nexport type B = McpBundle;\n", 'front-ends-use-the-mcp-face', 3],
    // src/host/extension imports src/host/discovery: an arrow back closes a cycle.
    ['src/host/discovery/probe.ts', "import type { ExtensionRuntime } from '../extension/runtime.js';\nexport type R = ExtensionRuntime;\n", 'host-folders-point-one-way', 1],
    // Round about: src/host/ui imports src/host/extension, which imports src/host/connection.
    ['src/host/connection/probe.ts', "export { Panels } from '../ui/panels.js';\n", 'host-folders-point-one-way', 1],
  ];
  for (const [file, text, rule, line] of /** @type {[string, string, string, number][]} */ (probes)) {
    test(`${file}: ${text.trim().split('\n').at(-1)}`, () => {
      const r = withProbe(file, text);
      assert.equal(r.status, 1, `the check passed:\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^${file.replace(/[./]/g, '\\$&')}:${line}: \\[${rule}\\] `, 'm'));
    });
  }

  test('a .state read, passed or written into text, and comparisons in the host, pass', () => {
    const front = withProbe('src/vscode/views/probe.ts', [
      'type R = { state: string; status: { kind: string } };',
      'export const line = (r: R) => `state: ${r.state}`;',
      'export const row = (r: R) => ({ state: r.state });',
      "export const failed = (r: R) => r.status.kind === 'failed';",
      "export const saved = (m: { state: { get(k: string): unknown } }) => m.state.get('k') === undefined;",
      '',
    ].join('\n'));
    assert.equal(front.status, 0, front.stderr);
    const host = withProbe('src/host/probe.ts', "export const busy = (r: { state: string }) => r.state === 'starting';\n");
    assert.equal(host.status, 0, host.stderr);
  });

  test('imports that keep the rule pass in the same copy', () => {
    const r = withProbe('src/host/probe.ts', "import * as fs from 'node:fs';\nimport { CancellationTokenSource } from 'vscode-jsonrpc/node';\nimport type { Frame } from '../protocol/index.js';\nexport type F = Frame;\nexport const x = [fs, CancellationTokenSource];\n");
    assert.equal(r.status, 0, r.stderr);
    // An arrow the same way as those already there, and a front end through the face.
    const down = withProbe('src/host/extension/probe.ts', "import type { SpawnSpec } from '../process/child.js';\nexport type C = SpawnSpec;\n");
    assert.equal(down.status, 0, down.stderr);
    const face = withProbe('src/cli/probe.ts', "import { blocksText, type Timing } from '../host/index.js';\nimport { runHookOn } from '../host/hooks/index.js';\nimport { HOST_VERSION } from '../host/names.js';\nimport { servesTool, type McpBundle } from '../mcp/index.js';\nexport type T = [Timing, McpBundle];\nexport const b = [blocksText, runHookOn, HOST_VERSION, servesTool];\n");
    assert.equal(face.status, 0, face.stderr);
  });
});

// The size rule, so that a folder holds what it is named for and a module
// does one thing: no folder of src with more than 12 modules, no module over
// 400 lines.
test('no folder of src holds more than 12 modules, no module is over 400 lines', () => {
  /** @type {string[]} */
  const crowded = [];
  /** @type {string[]} */
  const long = [];
  /** @param {string} dir */
  const walk = (dir) => {
    const entries = readdirSync(path.join(repoRoot, dir), { withFileTypes: true });
    const modules = entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'));
    if (modules.length > 12) crowded.push(`${dir}: ${modules.length}`);
    for (const m of modules) {
      const lines = readFileSync(path.join(repoRoot, dir, m.name), 'utf8').split('\n').length - 1;
      if (lines > 400) long.push(`${dir}/${m.name}: ${lines}`);
    }
    for (const e of entries) if (e.isDirectory()) walk(`${dir}/${e.name}`);
  };
  walk('src');
  assert.deepEqual(crowded, [], 'folders with more than 12 modules');
  assert.deepEqual(long, [], 'modules over 400 lines');
});
