// Workspace shapes in a real VS Code (code-server + headless Chromium): a
// two-folder workspace opened from its .code-workspace file, folders removed
// and added back, and a window with no folder. The checks themselves are in
// workspaces/suite.cjs and workspaces/nofolder.cjs, each in a window of its
// own on one code-server.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sleep } from '../helpers.mjs';
import { isInside, liveProcesses, startCodeServer } from './harness.mjs';
import { checkInnerSuiteOn } from './innerSuite.mjs';
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

describe('workspace shapes', { concurrency: false }, () => {
  // One server for both windows: the same VSIX and the same zot home, whose only extension is `everywhere`.
  const home = () => path.join(scratch, 'home');
  const results = () => path.join(scratch, 'results.json');
  /** @type {import('./harness.mjs').CodeServer | undefined} */
  let server;
  before(async () => {
    whereExtension(path.join(home(), 'extensions'), 'everywhere');
    server = await startCodeServer({ vsixPaths: [vsix], env: { ZOT_HOME: home(), ZOT_E2E_RESULTS: results() } });
  });
  after(async () => {
    await server?.stop();
  });

  /**
   * Runs a suite file in a window over `folder` (undefined: no folder) and checks its results; once the window
   * closed, no extension process is left (the server runs on).
   * @param {import('node:test').TestContext} t
   * @param {{ folder?: string, suite: string }} options
   */
  async function runSuite(t, { folder, suite }) {
    assert.ok(server, 'code-server started');
    await checkInnerSuiteOn(t, server, { results: results(), folder, testsEntry: path.join(here, 'workspaces', suite), timeoutMs: 300_000 });
    const leftIn = () => liveProcesses().filter(({ cwd }) => isInside(cwd, scratch));
    // The extension host ends them as the window closes: give it the moment that takes.
    const deadline = Date.now() + 10_000;
    while (leftIn().length && Date.now() < deadline) await sleep(200);
    assert.deepEqual(leftIn(), [], 'no extension process left');
  }

  test('a two-folder workspace: each folder\'s extension with its own cwd; a folder removed and added back', { timeout: 600_000 }, async (t) => {
    const root = path.join(scratch, 'multi');
    for (const name of ['a', 'b']) whereExtension(path.join(root, name, '.zot', 'extensions'), `in-${name}`);
    const file = path.join(root, 'two.code-workspace');
    writeFileSync(file, JSON.stringify({ folders: [{ path: 'a' }, { path: 'b' }] }, null, 2));
    await runSuite(t, { folder: file, suite: 'suite.cjs' });
  });

  test('no folder open: global extensions run in the home folder', { timeout: 600_000 }, async (t) => {
    await runSuite(t, { folder: undefined, suite: 'nofolder.cjs' });
  });
});
