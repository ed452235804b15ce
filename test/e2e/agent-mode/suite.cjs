// Runs inside VS Code's extension host: VS Code's own agent (the built-in
// Copilot Chat, serving Agent mode for the fake model without sign-in) with
// the zot tools and commands from the extension's MCP server definition.
// Fixture extensions record every frame they receive in $ZOT_HOME.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, treeItem, waitState } = require('../vscode/suite/helpers.cjs');
const { frames, requests, resultsIn: lastResults } = require('../vscode/suite/fakeChat.cjs');

const { sleep } = require('../../kit.cjs');

/** Sends a prompt to the agent with the fake model, in a new chat; does not wait for the answer. */
async function agent(query) {
  await exec('workbench.action.chat.newChat');
  await sleep(300);
  void exec('workbench.action.chat.open', { mode: 'agent', modelSelector: { vendor: 'zot-fake' }, query });
}

/** Waits for a model request whose last message carries a tool result matching `re`. */
function resultReaching(re, timeoutMs = 30_000) {
  return waitFor(`a tool result matching ${re} to reach the model`, async () =>
    (await requests()).find((r) => lastResults(r).some((p) => p.content.some((c) => re.test(c.text ?? '')))), timeoutMs);
}

test('the agent is up: zot fixtures run, Copilot Chat serves Agent mode for the fake model', async () => {
  await activated();
  for (const r of ['tools', 'ask', 'panels']) await waitState(`agent-${r}`, ['ready', 'auto_ready']);
  const log = path.join(await exec('zotFake.logsFolder'), 'GitHub.copilot-chat', 'GitHub Copilot Chat.log');
  await waitFor('Copilot Chat to activate its contributions', () => fs.existsSync(log) && /ConversationFeature: Activating contributions/.test(fs.readFileSync(log, 'utf8')), 120_000);
  // The workbench's own switch for approving tool calls without the confirmation card.
  await exec('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
}, { timeoutMs: 150_000 });

test('the agent lists the zot tools, calls one through the MCP server, and gets its result', async () => {
  const before = frames('tools', 'tool_call').length;
  await agent('AGENTCALL echo {"text":"from the agent"}');
  const call = await waitFor('echo delivered to the extension', () => frames('tools', 'tool_call').slice(before).find((f) => f.name === 'echo'), 60_000);
  assert.deepEqual(call.args, { text: 'from the agent' });
  const answered = await resultReaching(/echo: from the agent/);
  const asked = (await requests()).find((r) => r.tools.some((t) => /^mcp_.*_echo$/.test(t)));
  assert.ok(asked, 'the agent offered the zot tools');
  for (const n of ['echo', 'hang', 'ask']) assert.ok(asked.tools.some((t) => t.endsWith(`_${n}`)), `${n} offered: ${asked.tools.filter((t) => t.startsWith('mcp_'))}`);
  assert.ok(answered);
}, { timeoutMs: 90_000 });

test('an interactive zot tool called by the agent opens its panel, and the answer reaches the model', async () => {
  const before = frames('ask', 'tool_call').length;
  await agent('AGENTCALL ask {"choices":["red","green"]}');
  const call = await waitFor('ask delivered', () => frames('ask', 'tool_call').slice(before)[0], 60_000);
  // Its panel is a Quick Pick bound to the call: accepting the item sends enter to the extension.
  await waitFor('the panel took enter', async () => {
    await exec('workbench.action.acceptSelectedQuickOpenItem');
    return frames('ask', 'panel_key').some((f) => f.panel_id === `ask-${call.id}` && f.key === 'enter');
  }, 20_000, 500);
  await resultReaching(/chose red/);
}, { timeoutMs: 90_000 });

test('Stop in agent mode reaches the extension as tool_cancel', async () => {
  const before = frames('tools', 'tool_call').length;
  await agent('AGENTCALL hang');
  const call = await waitFor('hang delivered', () => frames('tools', 'tool_call').slice(before).find((f) => f.name === 'hang'), 60_000);
  await exec('workbench.action.chat.cancel');
  await waitFor('tool_cancel for the agent\'s call', () => frames('tools', 'tool_cancel').some((f) => f.id === call.id), 15_000);
}, { timeoutMs: 90_000 });

test('agent hooks: a zot guard stops the agent\'s own terminal tool from running rm -rf, with its reason; an allowed command runs', async () => {
  const installed = await exec('zot.installAgentHooks', 'user');
  assert.equal(installed.file, path.join(os.homedir(), '.copilot', 'hooks', 'zot-extensions.json'));
  assert.equal(fs.statSync(installed.file).mode & 0o777, 0o600, 'the hook file holds a token: the user\'s only');
  await waitFor('the Zot view to mark the guard', async () => /guards agent tools/.test((await treeItem('agent-guard'))?.description ?? ''), 10_000);
  const workspace = vscode.workspace.workspaceFolders[0].uri.fsPath;
  fs.mkdirSync(path.join(workspace, 'build'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'build', 'keep.txt'), 'still here');
  const before = frames('guard', 'event_intercept').length;
  const terminal = (command) => `AGENTCALL run_in_terminal ${JSON.stringify({ command, explanation: 'as asked', goal: 'as asked', mode: 'sync', isBackground: false })}`;
  await agent(terminal('rm -rf build'));
  await resultReaching(/refusing to run rm -rf \(rm -rf build\)/, 60_000);
  const asked = frames('guard', 'event_intercept').slice(before).filter((f) => f.tool_name === 'run_in_terminal');
  assert.equal(asked.length, 1, 'the guard was asked once, for the terminal call');
  assert.equal(asked[0].tool_args.command, 'rm -rf build');
  assert.ok(fs.existsSync(path.join(workspace, 'build', 'keep.txt')), 'the command never ran');
  // Plain words only: the agent quotes the user's text inside markup, where shell characters would not survive.
  await agent(terminal('mkdir made-by-the-agent'));
  // The terminal tool may still ask for its own confirmation: accept it as a user would.
  await waitFor('the allowed command to run', () => {
    if (fs.existsSync(path.join(workspace, 'made-by-the-agent'))) return true;
    void Promise.resolve(exec('workbench.action.chat.acceptTool')).catch(() => undefined);
    return false;
  }, 60_000, 1000)
    .catch(async (e) => {
      const hooksLog = path.join(await exec('zotFake.logsFolder'), 'GitHub.copilot-chat', 'GitHub Copilot Chat Hooks.log');
      const last = (await requests()).slice(-1).map((r) => r.messages.at(-1).parts);
      throw new Error(`${e.message}; the guard was asked about: ${JSON.stringify(frames('guard', 'event_intercept').map((f) => f.tool_args?.command ?? f.tool_name))}; `
        + `the model's last request ended with ${JSON.stringify(last).slice(0, 1500)}; hooks log: ${fs.existsSync(hooksLog) ? fs.readFileSync(hooksLog, 'utf8').slice(-3000) : '(none)'}`);
    });
  const allowed = frames('guard', 'event_intercept').filter((f) => f.tool_name === 'run_in_terminal').at(-1);
  assert.equal(allowed.tool_args.command, 'mkdir made-by-the-agent', 'the guard was asked, and allowed it');
}, { timeoutMs: 150_000 });

exports.run = runAll;
