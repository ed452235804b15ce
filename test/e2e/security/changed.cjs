// Runs inside VS Code's extension host (see ../security.test.mjs): a trusted
// workspace with a project extension. Allowed as one version and then changed
// on disk, it is held and asked about again whatever starts it next: a crash
// restart, Restart Extension, Debug Extension, Watch Extension. The changed
// code never runs before the user allows it.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, extension, testApi, waitState } = require('../vscode/suite/helpers.cjs');
const { program } = require('./program.cjs');

const root = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const ran = () => fs.readdirSync(root()).filter((f) => f.startsWith('ran-')).sort();
const change = (version) => fs.writeFileSync(path.join(root(), '.zot', 'extensions', 'proj', 'index.js'), program(version));

/** Held because it changed, asked about again, and the new code has not run. */
async function heldForConsent(version, ranBefore) {
  const e = await waitState('proj', 'held');
  assert.match(e.error, /changed since you allowed it; waiting for your permission again/);
  await waitFor('the consent question again', async () => (await testApi().pendingConsent()).includes('proj'));
  await new Promise((r) => setTimeout(r, 500));
  assert.equal((await extension('proj')).state, 'held', 'still held');
  assert.deepEqual(ran(), ranBefore, `${version} never ran`);
}

async function allow(version) {
  assert.equal(await testApi().answerConsent('proj', 'Allow'), true);
  await waitState('proj', 'ready');
  await waitFor(`${version} to have run`, () => ran().includes(`ran-${version}`));
}

test('the extension activates; the project extension is asked about, allowed, and runs', async () => {
  await activated();
  await waitState('proj', 'held');
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('proj'));
  assert.deepEqual(ran(), []);
  await allow('v1');
});

test('changed, then crashed: the crash restart holds it for consent', async () => {
  change('v2');
  await exec('zot.runTool', 'crash_proj', {});
  await heldForConsent('v2', ['ran-v1']);
  await allow('v2');
});

test('changed, then Restart Extension: held for consent', async () => {
  change('v3');
  await exec('zot.restartExtension', 'proj');
  await heldForConsent('v3', ['ran-v1', 'ran-v2']);
  await allow('v3');
});

test('changed, then Debug Extension: held for consent, no debug session', async () => {
  change('v4');
  const started = await exec('zot.debugExtension', 'proj');
  assert.equal(started, undefined, 'no debugger attached');
  assert.equal(vscode.debug.activeDebugSession, undefined);
  await heldForConsent('v4', ['ran-v1', 'ran-v2', 'ran-v3']);
  await allow('v4');
});

test('watched, then changed: the watch restart holds it for consent', async () => {
  const watching = await exec('zot.watchExtension', 'proj');
  assert.deepEqual(watching, { name: 'proj', watching: true });
  await new Promise((r) => setTimeout(r, 300));
  change('v5');
  await heldForConsent('v5', ['ran-v1', 'ran-v2', 'ran-v3', 'ran-v4']);
  await allow('v5');
  await exec('zot.watchExtension', 'proj');
});

exports.run = runAll;
