// The layer rule as `npm run build` checks it (scripts/check-layers.mjs): the
// real tree passes; a probe import that crosses a boundary, in a copy of src,
// fails the check with the rule's name and the probe's file:line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(repoRoot, 'scripts', 'check-layers.mjs');
let scratch;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-layers-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const check = (root) => spawnSync(process.execPath, [script, ...(root ? [root] : [])], { encoding: 'utf8' });

/** A copy of src with one more file, checked. */
function withProbe(file, text) {
  const root = mkdtempSync(path.join(scratch, 'copy-'));
  cpSync(path.join(repoRoot, 'src'), path.join(root, 'src'), { recursive: true });
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
  return check(root);
}

test('the real tree keeps the rule', () => {
  const r = check();
  assert.equal(r.status, 0, r.stderr);
});

test('npm run build and npm run package check the layers first', () => {
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
  ];
  for (const [file, text, rule, line] of /** @type {[string, string, string, number][]} */ (probes)) {
    test(`${file}: ${text.trim().split('\n').at(-1)}`, () => {
      const r = withProbe(file, text);
      assert.equal(r.status, 1, `the check passed:\n${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^${file.replace(/[./]/g, '\\$&')}:${line}: \\[${rule}\\] `, 'm'));
    });
  }

  test('imports that keep the rule pass in the same copy', () => {
    const r = withProbe('src/host/probe.ts', "import * as fs from 'node:fs';\nimport { CancellationTokenSource } from 'vscode-jsonrpc/node';\nimport type { Frame } from '../protocol/index.js';\nexport type F = Frame;\nexport const x = [fs, CancellationTokenSource];\n");
    assert.equal(r.status, 0, r.stderr);
  });
});
