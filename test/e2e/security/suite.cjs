// Runs inside VS Code's extension host (see ../security.test.mjs): a trusted
// workspace whose .vscode/settings.json sets "zot.home": ".zh". What
// .zh/extensions holds is the workspace's code: held until allowed, never
// started on its own, and the user's own zot home is not used at all.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, snapshot, testApi, waitState } = require('../vscode/suite/helpers.cjs');

const workspaceDir = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const ranMarker = () => path.join(workspaceDir(), 'sneaky-ran');

test('the extension activates', async () => {
  await activated();
});

test('an extension under a zot home the workspace set is held and asks for consent; it has not run', async () => {
  const e = await waitState('sneaky', 'held');
  assert.equal(e.dir, path.join(workspaceDir(), '.zh', 'extensions', 'sneaky'));
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('sneaky'));
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await snapshot()).extensions.find((x) => x.name === 'sneaky').state, 'held', 'still held: nothing started it');
  assert.equal(fs.existsSync(ranMarker()), false, 'its code never ran');
});

test('once allowed it runs', async () => {
  assert.equal(await testApi().answerConsent('sneaky', 'Allow'), true);
  await waitState('sneaky', 'ready');
  await waitFor('its code to have run', () => fs.existsSync(ranMarker()));
});

exports.run = runAll;
