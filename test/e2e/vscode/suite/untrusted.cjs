// The extension in Restricted Mode: global extensions run, the workspace's
// never start, nobody is asked, and Allow is refused.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { test, waitFor } = require('./runner.cjs');
const { exec, testApi, snapshot, logs, extension, waitState, treeItem, activated, assertInstalledAndOpened, events } = require('./helpers.cjs');

test('activates in Restricted Mode, installed from its VSIX, in the folder opened', async () => {
  assertInstalledAndOpened(await activated());
  assert.equal(vscode.workspace.isTrusted, false);
});

test('global extensions run; workspace ones are held as untrusted', async () => {
  await waitState('actions', 'ready');
  await waitState('crashy', 'ready');
  for (const name of ['local', 'wsext']) {
    const e = await waitState(name, 'held');
    assert.equal(e.error, 'workspace is not trusted');
    assert.equal(e.pid, null);
  }
  const local = await treeItem('local');
  assert.equal(local.icon, 'shield');
  assert.doesNotMatch(local.contextValue, /;allow;|;start;/);
  const snap = await waitFor('the view message', async () => {
    const s = await snapshot();
    return s.viewMessage && s.statusBar === '$(plug) Zot 2 $(shield) 2' && s;
  });
  assert.equal(snap.viewMessage, 'Restricted Mode: zot extensions from this workspace are not started.');
  assert.equal(snap.viewBadge, null);
});

test('nobody is asked, and Allow is refused', async () => {
  assert.deepEqual(await testApi().pendingConsent(), []);
  assert.deepEqual(await events('consent-asked'), []);
  assert.equal(await exec('zot.allowExtension', 'local'), false);
  await exec('zot.startExtension', 'local');
  assert.equal((await extension('local')).state, 'held');
  const refusals = await events('message', (e) => e.level === 'warn' && /not trusted/.test(e.text));
  assert.equal(refusals.length, 2);
});

test('a reload keeps them held; nothing of theirs ever ran', async () => {
  await exec('zot.reload');
  await waitState('actions', 'ready');
  assert.equal((await waitState('local', 'held')).error, 'workspace is not trusted');
  const all = await logs();
  assert.ok(!(all['Zot: local'] ?? []).some((l) => l.startsWith('info: start local')), 'local was never started');
});
