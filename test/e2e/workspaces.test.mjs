// Workspace shapes in a real VS Code (code-server + headless Chromium): a
// two-folder workspace opened from its .code-workspace file, folders removed
// and added back, and a window with no folder. The checks themselves are in
// workspaces/suite.cjs and workspaces/nofolder.cjs.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isInside, liveProcesses } from './harness.mjs';
import { checkInnerSuite } from './innerSuite.mjs';
import { testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const WHERE = path.join(here, 'workspaces', 'where.js');
/** @type {string} */
let scratch;
/** @type {string} */
let vsix;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-workspaces-'));
  vsix = await testBundleVsix(scratch);
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * An extension folder whose program is the where.js fixture.
 * @param {string} root
 * @param {string} name
 */
function whereExtension(root, name) {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: 'node', args: [WHERE, name] }, null, 2));
}

/**
 * Runs a suite file in a code-server over `folder` (undefined: no folder) and checks its results.
 * @param {import('node:test').TestContext} t
 * @param {{ folder?: string, home: string, suite: string }} options
 */
async function runSuite(t, { folder, home, suite }) {
  const results = path.join(scratch, `${suite}.results.json`);
  await checkInnerSuite(t, { vsixPaths: [vsix], env: { ZOT_HOME: home }, results, folder, testsEntry: path.join(here, 'workspaces', suite), timeoutMs: 300_000 });
  assert.deepEqual(liveProcesses().filter(({ cwd }) => isInside(cwd, scratch)), [], 'no extension process left');
}

test('a two-folder workspace: each folder\'s extension with its own cwd; a folder removed and added back', { timeout: 600_000 }, async (t) => {
  const root = path.join(scratch, 'multi');
  const home = path.join(scratch, 'multi-home');
  for (const name of ['a', 'b']) whereExtension(path.join(root, name, '.zot', 'extensions'), `in-${name}`);
  whereExtension(path.join(home, 'extensions'), 'everywhere');
  const file = path.join(root, 'two.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: 'a' }, { path: 'b' }] }, null, 2));
  await runSuite(t, { folder: file, home, suite: 'suite.cjs' });
});

test('no folder open: global extensions run in the home folder', { timeout: 600_000 }, async (t) => {
  const home = path.join(scratch, 'empty-home');
  whereExtension(path.join(home, 'extensions'), 'everywhere');
  await runSuite(t, { folder: undefined, home, suite: 'nofolder.cjs' });
});
