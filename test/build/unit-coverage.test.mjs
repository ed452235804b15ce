// Every src module with code is loaded by a unit test (protocol, host,
// fidelity, vscode-unit, CLI, MCP: the tests a mutation pass runs), or it is
// listed in CONTRIBUTING.md with the end-to-end suite that
// holds it; the list names no module a unit test loads now, none that is
// gone, and only suites that exist (scripts/coverage-map.mjs).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundlesOf, coverageMap, readmeUnloaded } from '../../scripts/coverage-map.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('each src module is loaded by a unit test or listed in CONTRIBUTING.md with the end-to-end suite that holds it, and the list is exact', async () => {
  const { modules } = await coverageMap();
  const listed = readmeUnloaded(readFileSync(path.join(repoRoot, 'CONTRIBUTING.md'), 'utf8'));
  const unloaded = [...modules].filter(([, by]) => by.length === 0).map(([m]) => m);
  assert.deepEqual(unloaded.filter((m) => !listed.has(m)), [], 'loaded by no unit test and not in CONTRIBUTING.md\'s list: write a unit test, or list it with its end-to-end suite');
  assert.deepEqual([...listed.keys()].filter((m) => !modules.has(m)), [], 'listed, but no such module (with code)');
  assert.deepEqual([...listed.keys()].filter((m) => (modules.get(m) ?? []).length > 0).map((m) => `${m}: ${modules.get(m)?.join(', ')}`), [], 'listed, but a unit test loads it now: take it off the list');
  for (const [m, suites] of listed) {
    assert.ok(suites.length > 0, `${m}: no end-to-end suite named`);
    for (const s of suites) assert.ok(existsSync(path.join(repoRoot, s)), `${m}: ${s} does not exist`);
  }
  // What the map stands on: the modules the editor's unit tests were written to load.
  for (const [m, test] of [['src/vscode/trust/workspaceGate.ts', 'test/vscode-unit/workspace-gate.test.mjs'], ['src/vscode/panels/panels.ts', 'test/vscode-unit/panel-widgets.test.mjs'], ['src/vscode/l10n.ts', 'test/vscode-unit/workspace-gate.test.mjs']]) {
    assert.ok(modules.get(m)?.includes(test), `${m} loaded by ${test}: ${modules.get(m)}`);
  }
  assert.ok(modules.get('src/host/connection/redact.ts')?.includes('dist/host.js'));
});

test('how a test file\'s bundles are read: bundleSources calls over several lines, the product bundles it names', () => {
  assert.deepEqual(bundlesOf(`import { bundleSources, lib } from '../helpers.mjs';\nawait bundleSources(path.join(scratch, 'out'), 'vscode',\n  ['trust/consent', 'l10n'], { external: ['vscode'] });\nrunCli(['x']);`), {
    product: ['dist/host.js', 'dist/cli.js'], entries: ['src/vscode/trust/consent.ts', 'src/vscode/l10n.ts'],
  });
  assert.deepEqual(bundlesOf("const { x } = require(path.join(ROOT, 'dist', 'mcp.js'));"), { product: ['dist/mcp.js'], entries: [] });
  assert.deepEqual(bundlesOf("spawn(process.execPath, [CLI, 'mcp', '--no-discover'])"), { product: ['dist/cli.js', 'dist/mcp.js'], entries: [] }, 'zot-host mcp loads dist/mcp.js');
});
