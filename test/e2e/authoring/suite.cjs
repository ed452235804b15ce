// Runs inside VS Code's extension host (see ../authoring.test.mjs): writing
// a zot extension in VS Code, from the scaffold to a running extension, the
// manifest's schema and problems in the editor (the walkthrough is driven
// through the real UI in ../authoring.test.mjs).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, snapshot, testApi, waitState } = require('../vscode/suite/helpers.cjs');

async function offered(name) {
  const snap = await snapshot();
  return {
    commands: snap.commands.filter((c) => c.extension === name).map((c) => c.name),
    tools: snap.tools.filter((t) => t.extension === name).map((t) => t.name),
  };
}

const workspaceDir = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const diagnostics = (uri) => vscode.languages.getDiagnostics(uri);

test('the extension activates', async () => {
  await activated();
});

test('New Extension… writes a project-local Node extension that starts once allowed, and opens its source', async () => {
  const result = await exec('zot.newExtension', { language: 'node', name: 'fresh-node', where: 'project' });
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node');
  assert.equal(result.dir, dir);
  assert.deepEqual(result.files, ['README.md', 'extension.json', 'index.mjs']);
  await waitFor('its source in the editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === path.join(dir, 'index.mjs'));
  // Project code: held until the user allows it.
  await waitState('fresh-node', 'held');
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('fresh-node'));
  assert.equal(await testApi().answerConsent('fresh-node', 'Allow'), true);
  await waitState('fresh-node', 'ready');
  assert.deepEqual(await offered('fresh-node'), { commands: ['fresh-node'], tools: ['fresh_node_reverse'] });
  const run = await exec('zot.runTool', 'fresh_node_reverse', { text: 'abc' });
  assert.equal(run.outcome, 'completed');
  assert.equal(run.text, 'cba');
});

test('a Python extension from New Extension… runs too', async () => {
  await exec('zot.newExtension', { language: 'python', name: 'fresh-py', where: 'project' });
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('fresh-py'));
  assert.equal(await testApi().answerConsent('fresh-py', 'Allow'), true);
  await waitState('fresh-py', 'ready');
  assert.deepEqual(await offered('fresh-py'), { commands: ['fresh-py'], tools: ['fresh_py_reverse'] });
});

test('New Extension… refuses a bad name and an existing folder, saying why', async () => {
  assert.equal(await exec('zot.newExtension', { language: 'node', name: 'Bad Name', where: 'project' }), undefined);
  assert.equal(await exec('zot.newExtension', { language: 'node', name: 'fresh-node', where: 'project' }), undefined);
  // The existing extension is untouched.
  assert.match(fs.readFileSync(path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node', 'index.mjs'), 'utf8'), /fresh-node/);
});

test('extension.json: the schema completes its fields and flags a wrong type', async () => {
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'schema-check');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'extension.json');
  fs.writeFileSync(file, '{\n  "name": "schema-check",\n  "enabled": "yes",\n  \n}\n');
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  const wrongType = await waitFor('a schema problem for "enabled"', () => diagnostics(doc.uri).find((d) => /boolean/i.test(d.message)), 30_000);
  assert.equal(doc.getText(wrongType.range), '"yes"');
  const completions = await waitFor('completions from the schema', async () => {
    const list = await exec('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(3, 2));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/"/g, ''));
    return ['exec', 'args', 'version', 'description', 'skills'].every((f) => labels.includes(f)) && labels;
  }, 30_000);
  assert.ok(completions.includes('language'));
});

test('extension.json: an exec that cannot run is a problem on its value', async () => {
  const file = path.join(workspaceDir(), '.zot', 'extensions', 'schema-check', 'extension.json');
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  // Typed in the editor (not written behind its back), as an author would.
  const whole = new vscode.WorkspaceEdit();
  whole.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), '{\n  "name": "schema-check",\n  "exec": "./missing-binary"\n}\n');
  assert.ok(await vscode.workspace.applyEdit(whole));
  const problem = await waitFor('a zot problem for exec', () => diagnostics(doc.uri).find((d) => d.source === 'zot'), 30_000);
  assert.match(problem.message, /missing-binary/);
  assert.equal(doc.getText(problem.range), '"./missing-binary"');
  // Fixed in the editor: the problem goes.
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, problem.range, '"node"');
  await vscode.workspace.applyEdit(edit);
  await waitFor('the problem to go', () => !diagnostics(doc.uri).some((d) => d.source === 'zot'), 10_000);
  await exec('workbench.action.revertAndCloseActiveEditor');
});

exports.run = runAll;
