// @zot's history in a real VS Code (code-server + headless Chromium), with
// the extension installed from its VSIX and the scripted fake language model
// (test/e2e/fake-lm) beside it. The tests run in the extension host
// (test/e2e/chat/suite.cjs): tool rounds replayed on the next turn, the true
// ending of calls cut short by Stop, a 5 MiB result cut for the model, and
// the choice among 206 tools.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkInnerSuite } from './innerSuite.mjs';
import { fakeLmVsix, testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {string} */
let scratch;
/** @type {string[]} */
let vsixPaths;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-chat-'));
  vsixPaths = [await testBundleVsix(scratch), await fakeLmVsix(scratch)];
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('@zot remembers its tool rounds, tells the truth after Stop, cuts large results and chooses among many tools', { timeout: 300_000 }, async (t) => {
  const root = await mkdtemp(path.join(scratch, 'chat-'));
  await cp(path.join(here, 'chat', 'fixtures'), path.join(root, 'fixtures'), { recursive: true });
  const workspace = path.join(root, 'workspace');
  await mkdir(workspace);
  const home = path.join(root, 'fixtures', 'home');
  const results = path.join(root, 'results.json');
  await checkInnerSuite(t, { vsixPaths, env: { ZOT_HOME: home }, results, folder: workspace, testsEntry: path.join(here, 'chat', 'suite.cjs'), timeoutMs: 240_000 });
});
