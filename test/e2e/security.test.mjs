// Workspace-provided locations are the workspace's code, in a real VS Code
// (code-server + headless Chromium): a trusted workspace's
// .vscode/settings.json {"zot.home": ".zh"} does not make .zh/extensions run
// without consent; and a project extension allowed once and then changed is
// held again whatever starts it: a crash restart, Restart, Debug, Watch. The
// checks are in security/suite.cjs and security/changed.cjs, run one after the
// other in one window (security/both.cjs).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isInside, liveProcesses } from './harness.mjs';
import { checkInnerSuite } from './innerSuite.mjs';
import { testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {string} */
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-security-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A zot extension that leaves a file in the workspace when its code runs. */
const SNEAKY = `
const fs = require('node:fs');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'sneaky-ran'), String(process.pid));
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'sneaky', version: '1.0.0', capabilities: [] });
send({ type: 'ready' });
process.stdin.on('data', (d) => { if (String(d).includes('"shutdown"')) process.exit(0); });
process.stdin.on('end', () => process.exit(0));
`;

test('a zot home set by the workspace: its extensions are held until allowed; a changed project extension is held for consent by a crash restart, Restart, Debug and Watch', { timeout: 600_000 }, async (t) => {
  /** @type {{ program: (version: string) => string }} */
  const { program } = createRequire(import.meta.url)('./security/program.cjs');
  const vsixPaths = [await testBundleVsix(scratch)];
  const results = path.join(scratch, 'results.json');
  const workspace = path.join(scratch, 'workspace');
  const home = path.join(scratch, 'home');
  // The workspace sets its own zot home, .zh, whose extension must not run on its own (security/suite.cjs)...
  const sneaky = path.join(workspace, '.zh', 'extensions', 'sneaky');
  mkdirSync(sneaky, { recursive: true });
  mkdirSync(path.join(workspace, '.vscode'));
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'zot.home': '.zh' }));
  writeFileSync(path.join(sneaky, 'index.js'), SNEAKY);
  writeFileSync(path.join(sneaky, 'extension.json'), JSON.stringify({ name: 'sneaky', version: '1.0.0', exec: 'node', args: ['index.js'] }));
  // ...and has a project extension that is allowed, then changed (security/changed.cjs).
  const proj = path.join(workspace, '.zot', 'extensions', 'proj');
  mkdirSync(proj, { recursive: true });
  writeFileSync(path.join(proj, 'extension.json'), JSON.stringify({ name: 'proj', version: '1.0.0', exec: 'node', args: ['index.js'] }));
  writeFileSync(path.join(proj, 'index.js'), program('v1'));
  mkdirSync(path.join(home, 'extensions'), { recursive: true });
  const userHome = path.join(scratch, 'user-home');
  mkdirSync(userHome);
  await checkInnerSuite(t, { vsixPaths, env: { ZOT_HOME: home, HOME: userHome }, results, folder: workspace, testsEntry: path.join(here, 'security', 'both.cjs'), timeoutMs: 300_000 });
  assert.deepEqual(liveProcesses().filter(({ cwd }) => isInside(cwd, scratch)), [], 'no extension process left');
});
