// Runs inside VS Code's extension host with a two-folder workspace open (see
// ../workspaces.test.mjs): each folder's project extension, its cwd, and
// folders removed and added back while the others keep running.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, snapshot, states, testApi, waitState } = require('../vscode/suite/helpers.cjs');

const folders = () => vscode.workspace.workspaceFolders.map((f) => f.uri.fsPath);
const [A, B] = [0, 1].map((i) => vscode.workspace.workspaceFolders[i].uri.fsPath);
const bUri = vscode.workspace.workspaceFolders[1].uri;

/** What an extension's `_where` tool says: its hello_ack cwd and its pid. */
async function where(tool) {
  const run = await exec('zot.runTool', tool, {});
  assert.equal(run.outcome, 'completed', JSON.stringify(run));
  return JSON.parse(run.text);
}

/** Alive and not a zombie. */
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const pidOf = async (name) => (await snapshot()).extensions.find((e) => e.name === name)?.pid ?? null;
const starts = async (name) => (await states(name)).filter((s) => s.state === 'starting').length;

test('the extension activates in a two-folder workspace', async () => {
  await activated();
  assert.equal(vscode.workspace.workspaceFolders.length, 2);
  assert.equal(vscode.workspace.isTrusted, true);
  const snap = await snapshot();
  assert.deepEqual(snap.projectDirs, [A, B]);
  assert.equal(snap.cwd, A);
});

test('each folder\'s project extension is found, held, and starts once allowed', async () => {
  await waitState('in-a', 'held');
  await waitState('in-b', 'held');
  await waitFor('both questions', async () => {
    const q = await testApi().pendingConsent();
    return q.includes('in-a') && q.includes('in-b');
  });
  const asked = (await testApi().trace()).filter((e) => e.kind === 'consent-asked').map((e) => e.message).join('\n');
  // With several folders the question names the folder.
  assert.match(asked, /"in-b": .* in b\/\.zot\/extensions\/in-b/);
  assert.equal(await testApi().answerConsent('in-a', 'Allow'), true);
  assert.equal(await testApi().answerConsent('in-b', 'Allow'), true);
  await waitState('in-a', 'ready');
  await waitState('in-b', 'ready');
  await waitState('everywhere', 'ready');
});

test('each project extension gets its own folder as cwd; the global one gets the first folder', async () => {
  assert.equal((await where('in_a_where')).cwd, A);
  assert.equal((await where('in_b_where')).cwd, B);
  assert.equal((await where('everywhere_where')).cwd, A);
});

test('the view groups extensions by the folder they come from', async () => {
  const tree = (await snapshot()).tree;
  assert.deepEqual(tree.map((g) => g.label), ['a', 'b', 'Global']);
  assert.deepEqual(tree.map((g) => g.children.map((c) => c.label)), [['in-a'], ['in-b'], ['everywhere']]);
  // Under each extension, what it registered.
  assert.ok(tree[1].children[0].children.some((c) => c.label === 'in_b_where'));
});

test('removing a folder stops its extension and leaves the others running', async () => {
  const pids = { a: await pidOf('in-a'), b: await pidOf('in-b'), g: await pidOf('everywhere') };
  assert.ok(pids.a && pids.b && pids.g, JSON.stringify(pids));
  const startsBefore = { a: await starts('in-a'), g: await starts('everywhere') };
  assert.equal(vscode.workspace.updateWorkspaceFolders(1, 1), true);
  await waitFor('folder b to leave the workspace', () => folders().length === 1);
  await waitFor('in-b to be gone', async () => !(await snapshot()).extensions.some((e) => e.name === 'in-b'));
  await waitFor(`in-b's process ${pids.b} to end`, () => !alive(pids.b));
  const snap = await snapshot();
  assert.deepEqual(snap.projectDirs, [A]);
  assert.deepEqual(snap.extensions.map((e) => [e.name, e.state, e.pid]), [['in-a', 'ready', pids.a], ['everywhere', 'ready', pids.g]]);
  assert.equal(await starts('in-a'), startsBefore.a, 'in-a was not restarted');
  assert.equal(await starts('everywhere'), startsBefore.g, 'everywhere was not restarted');
  assert.equal(snap.tools.some((t) => t.name === 'in_b_where'), false);
  // One folder again: a flat list.
  assert.deepEqual(snap.tree.map((i) => i.label), ['in-a', 'everywhere']);
  assert.equal((await where('in_a_where')).pid, pids.a);
});

test('adding the folder back starts its extension again (already allowed), with its cwd; the others keep their process', async () => {
  const pids = { a: await pidOf('in-a'), g: await pidOf('everywhere') };
  assert.equal(vscode.workspace.updateWorkspaceFolders(1, 0, { uri: bUri }), true);
  await waitFor('folder b to be back', () => folders().length === 2);
  const b = await waitState('in-b', 'ready');
  assert.ok(b.pid);
  assert.deepEqual(await where('in_b_where'), { cwd: B, pid: b.pid });
  assert.equal(await pidOf('in-a'), pids.a);
  assert.equal(await pidOf('everywhere'), pids.g);
  assert.deepEqual((await snapshot()).tree.map((g) => g.label), ['a', 'b', 'Global']);
});

test('New Extension… and Open Extensions Folder take the workspace folder to use', async () => {
  const made = await exec('zot.newExtension', { language: 'node', name: 'fresh-b', where: 'project', folder: 'b' });
  assert.equal(made.dir, path.join(B, '.zot', 'extensions', 'fresh-b'));
  await waitState('fresh-b', 'held');
  assert.equal(await exec('zot.newExtension', { language: 'node', name: 'nowhere', where: 'project', folder: 'not-a-folder' }), undefined);
  assert.equal(fs.existsSync(path.join(A, '.zot', 'extensions', 'nowhere')), false);
  const opened = await exec('zot.openExtensionsFolder', B);
  assert.equal(opened.dir, path.join(B, '.zot', 'extensions'));
});

module.exports = { run: runAll };
