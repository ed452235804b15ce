// Runs inside VS Code's extension host in a window with no folder open (see
// ../workspaces.test.mjs): global extensions run in the home folder and the
// view says project extensions need a folder.
const assert = require('node:assert/strict');
const os = require('node:os');
const vscode = require('vscode');
const { test, runAll } = require('../vscode/suite/runner.cjs');
const { activated, exec, snapshot, waitState } = require('../vscode/suite/helpers.cjs');

test('with no folder open the global extension runs with the home folder as cwd', async () => {
  await activated();
  assert.equal(vscode.workspace.workspaceFolders, undefined);
  await waitState('everywhere', 'ready');
  const run = await exec('zot.runTool', 'everywhere_where', {});
  assert.equal(run.outcome, 'completed', JSON.stringify(run));
  assert.equal(JSON.parse(run.text).cwd, os.homedir());
  const snap = await snapshot();
  assert.deepEqual(snap.projectDirs, []);
  assert.deepEqual(snap.extensions.map((e) => e.name), ['everywhere']);
});

test('the view says project extensions need an open folder', async () => {
  const snap = await snapshot();
  assert.match(snap.viewMessage ?? '', /project extensions .* need an open folder/);
});

module.exports = { run: runAll };
