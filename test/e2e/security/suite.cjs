// Runs inside VS Code's extension host (see ../security.test.mjs): a trusted
// workspace whose .vscode/settings.json sets "zot.home": ".zh". What
// .zh/extensions holds is the workspace's code: held until allowed, never
// started on its own, and the user's own zot home is not used at all.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
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

test('agent hooks for every workspace name the user\'s own zot home, never the one this workspace set', async () => {
  const installed = await vscode.commands.executeCommand('zot.installAgentHooks', 'user');
  const file = JSON.parse(fs.readFileSync(installed.file, 'utf8'));
  const command = file.hooks.PreToolUse[0].command;
  assert.match(command, new RegExp(` --home '${process.env.ZOT_HOME.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'$`), command);
  assert.ok(!command.includes('.zh'), 'the workspace\'s zot home is not in the user\'s hook file');
  assert.equal(JSON.stringify(file).includes('ZOT_HOOK_TOKEN'), false, 'no token in the hook file');
  await vscode.commands.executeCommand('zot.removeAgentHooks');
});

test('the agent plugin, like the hook file for every workspace, names the user\'s own zot home, never the one this workspace set', async () => {
  const written = await vscode.commands.executeCommand('zot.createAgentPlugin', undefined, 'claude');
  assert.equal(written.dir, path.join(os.homedir(), '.copilot', 'installed-plugins', 'zot', 'zot-extensions'));
  const server = JSON.parse(fs.readFileSync(written.mcp, 'utf8')).mcpServers.zot;
  assert.deepEqual(server.args.slice(1), ['mcp', '--no-project', '--home', process.env.ZOT_HOME]);
  const hooks = fs.readFileSync(written.hooks, 'utf8');
  assert.match(hooks, / hook PreToolUse --no-project --home /);
  assert.ok(!`${JSON.stringify(server)}${hooks}`.includes('.zh'), 'the workspace\'s zot home is not in the plugin');
  fs.rmSync(written.dir, { recursive: true });
  // Copilot CLI's own format, named: into the user's zot home, for copilot plugin install; the same zot home in it.
  const copilot = await vscode.commands.executeCommand('zot.createAgentPlugin', undefined, 'copilot');
  assert.equal(copilot.dir, path.join(process.env.ZOT_HOME, 'copilot-plugin', 'zot-extensions'));
  assert.equal(copilot.format, 'copilot');
  assert.deepEqual(JSON.parse(fs.readFileSync(copilot.manifest, 'utf8')).hooks, 'hooks.json');
  assert.deepEqual(JSON.parse(fs.readFileSync(copilot.mcp, 'utf8')).mcpServers.zot.args.slice(1), ['mcp', '--no-project', '--home', process.env.ZOT_HOME]);
  assert.match(fs.readFileSync(copilot.hooks, 'utf8'), /"preToolUse"/);
  fs.rmSync(copilot.dir, { recursive: true });
});

test('agent hooks for this workspace replace a link the repository put in their place, and write nothing through it', async () => {
  const target = path.join(workspaceDir(), 'bashrc-target');
  fs.writeFileSync(target, '# the user\'s shell setup\n');
  const hooks = path.join(workspaceDir(), '.github', 'hooks');
  fs.mkdirSync(hooks, { recursive: true });
  const file = path.join(hooks, 'zot-extensions.json');
  fs.symlinkSync(path.join('..', '..', 'bashrc-target'), file);
  const installed = await vscode.commands.executeCommand('zot.installAgentHooks', 'workspace');
  assert.equal(installed.file, file);
  assert.equal(fs.readFileSync(target, 'utf8'), '# the user\'s shell setup\n', 'the link\'s target is untouched');
  assert.ok(fs.lstatSync(file).isFile(), 'the link was replaced by the hook file');
  assert.match(fs.readFileSync(file, 'utf8'), / hook PreToolUse /);
  // A linked folder on the way is refused: nothing is written through it.
  fs.rmSync(path.join(workspaceDir(), '.github'), { recursive: true });
  const elsewhere = path.join(workspaceDir(), 'elsewhere');
  fs.mkdirSync(elsewhere);
  fs.symlinkSync(elsewhere, path.join(workspaceDir(), '.github'));
  assert.equal(await vscode.commands.executeCommand('zot.installAgentHooks', 'workspace'), undefined, 'not installed');
  assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing written through the linked folder');
  fs.rmSync(path.join(workspaceDir(), '.github'));
  await vscode.commands.executeCommand('zot.removeAgentHooks');
});

test('once allowed it runs', async () => {
  assert.equal(await testApi().answerConsent('sneaky', 'Allow'), true);
  await waitState('sneaky', 'ready');
  await waitFor('its code to have run', () => fs.existsSync(ranMarker()));
});

exports.run = runAll;
