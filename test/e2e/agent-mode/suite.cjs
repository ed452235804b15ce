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
const { activated, exec, testApi, treeItem, waitState } = require('../vscode/suite/helpers.cjs');
const { frames, requests, resultsIn: lastResults } = require('../vscode/suite/fakeChat.cjs');

const { sleep } = require('../../kit.cjs');

/** Sends a prompt to the agent with the fake model, in a new chat; does not wait for the answer. */
async function agent(query) {
  await exec('workbench.action.chat.newChat');
  await sleep(300);
  void exec('workbench.action.chat.open', { mode: 'agent', modelSelector: { vendor: 'zot-fake' }, query });
}

/** Waits for a model request (after the first `since`) whose last message carries a tool result matching `re`. */
function resultReaching(re, timeoutMs = 30_000, since = 0) {
  return waitFor(`a tool result matching ${re} to reach the model`, async () =>
    (await requests()).slice(since).find((r) => lastResults(r).some((p) => p.content.some((c) => re.test(c.text ?? '')))), timeoutMs);
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
  // Each zot extension is a server of its own to the agent: its tools carry its server's name.
  const serverOf = (n) => asked.tools.find((t) => t.startsWith('mcp_') && t.endsWith(`_${n}`)).slice(0, -(n.length + 1));
  // VS Code cuts a server's part of a tool name short: "zot: agent-tools" gives mcp_zot_agent-too_echo.
  assert.match(serverOf('echo'), /agent.too/);
  assert.match(serverOf('ask'), /agent.ask/);
  assert.equal(serverOf('hang'), serverOf('echo'), 'hang and echo come from one extension, one server');
}, { timeoutMs: 90_000 });

test('an extension whose tools change is listed again by the agent alone: its server\'s tools are fetched again, the other servers are left as they were', async () => {
  const traffic = () => exec('zotFake.mcpTraffic');
  const listed = (list, name) => list.filter((r) => (r.method === 'initialize' || r.method === 'tools/list') && r.path === `/mcp/ext/${name}`).length;
  const before = await traffic();
  assert.ok(listed(before, 'agent-tools') >= 1 && listed(before, 'agent-ask') >= 1, `the agent listed the servers: ${JSON.stringify(before.map((r) => `${r.path} ${r.method}`))}`);
  const version = async () => (await testApi().mcpDefinitions()).find((d) => d.label === 'zot: agent-tools')?.version;
  const was = await version();
  const start = before.length;
  // Started again with one tool more: its tools, and so its definition's version, change.
  fs.writeFileSync(path.join(process.env.ZOT_HOME, 'agent-tools-more'), '');
  await exec('zot.restartExtension', 'agent-tools');
  await waitState('agent-tools', ['ready', 'auto_ready']);
  await waitFor('a new version of agent-tools\' definition', async () => { const v = await version(); return v !== undefined && v !== was; }, 20_000);
  const calls = frames('tools', 'tool_call').length;
  await agent('AGENTCALL echo_more {"text":"after the change"}');
  await waitFor('echo_more delivered', () => frames('tools', 'tool_call').slice(calls).find((f) => f.name === 'echo_more'), 60_000).catch(async (e) => {
    throw new Error(`${e.message}; MCP traffic since the change: ${JSON.stringify((await traffic()).slice(start).map((r) => `${r.http} ${r.path} ${r.method}`))}; `
      + `tools offered last: ${JSON.stringify((await requests()).at(-1)?.tools.filter((x) => x.startsWith('mcp_')))}; `
      + `host log: ${JSON.stringify(Object.values(await testApi().logs()).flat().filter((l) => /MCP|agent-tools/.test(l)).slice(-30))}`);
  });
  await resultReaching(/echo: after the change/);
  const after = (await traffic()).slice(start);
  assert.ok(listed(after, 'agent-tools') >= 1, `agent-tools' tools were fetched again: ${JSON.stringify(after.map((r) => `${r.path} ${r.method}`))}`);
  for (const other of ['agent-ask', 'agent-panels']) assert.equal(listed(after, other), 0, `${other}'s server was left as it was: ${JSON.stringify(after.map((r) => `${r.path} ${r.method}`))}`);
}, { timeoutMs: 120_000 });

test('Stop, Start and Restart of a zot server in VS Code\'s MCP UI act on its extension; a stopped server\'s tool called by the agent starts it again; the others run on', async () => {
  // The commands behind the actions of MCP: List Servers and the MCP servers view, with the definition's id.
  const id = 'zot-host.zot-extensions/zot: agent-tools';
  const defOf = async () => (await testApi().mcpDefinitions()).find((d) => d.label === 'zot: agent-tools');
  const hellos = () => frames('tools', 'hello_ack').length;
  const stop = async () => {
    const version = (await defOf()).version;
    const since = (await exec('zotFake.mcpTraffic')).length;
    await exec('workbench.mcp.stopServer', id);
    await waitState('agent-tools', 'stopped', 20_000).catch(async (e) => {
      throw new Error(`${e.message}; MCP traffic: ${JSON.stringify((await exec('zotFake.mcpTraffic')).slice(Math.max(0, since - 25)).map((r) => `${r.http} ${r.path} ${r.method} s=${r.session} l=${r.launch}`))}; `
        + `host log: ${JSON.stringify(Object.values(await testApi().logs()).flat().filter((l) => /MCP/.test(l)).slice(-12))}`);
    });
    assert.equal((await defOf())?.version, version, 'still listed, at the same version, so it can be started there');
    for (const other of ['agent-ask', 'agent-panels']) await waitState(other, ['ready', 'auto_ready']);
  };
  const echo = async (text) => {
    const calls = frames('tools', 'tool_call').length;
    await agent(`AGENTCALL echo ${JSON.stringify({ text })}`);
    await waitFor('echo delivered', () => frames('tools', 'tool_call').slice(calls).find((f) => f.name === 'echo'), 60_000);
    await resultReaching(new RegExp(`echo: ${text}`));
  };

  await stop();
  const started = hellos();
  await echo('from a stopped server');
  assert.equal(hellos(), started + 1, 'the agent\'s call started the extension once');

  await stop();
  await exec('workbench.mcp.startServer', id);
  await waitState('agent-tools', ['ready', 'auto_ready'], 20_000);
  // The fixture says ready before it has read the host's hello_ack, which it records: wait for the record.
  await waitFor('Start to have started it: one hello_ack more', () => hellos() === started + 2, 10_000);

  await exec('workbench.mcp.restartServer', id);
  await waitFor('a new process of agent-tools', () => hellos() === started + 3, 20_000);
  await waitState('agent-tools', ['ready', 'auto_ready'], 20_000);
  // Not stopped afterwards by the end of the launch before the restart.
  await new Promise((r) => setTimeout(r, 2_500));
  await waitState('agent-tools', ['ready', 'auto_ready']);
  await echo('after the restart');
}, { timeoutMs: 240_000 });

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
  assert.equal(fs.statSync(installed.file).mode & 0o777, 0o600, 'the hook file is the user\'s only');
  assert.ok(!fs.readFileSync(installed.file, 'utf8').includes('ZOT_HOOK_TOKEN'), 'it holds no token');
  await waitFor('the Zot view to mark the guard', async () => /guards agent tools/.test((await treeItem('agent-guard'))?.description ?? ''), 10_000);
  const workspace = vscode.workspace.workspaceFolders[0].uri.fsPath;
  fs.mkdirSync(path.join(workspace, 'build'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'build', 'keep.txt'), 'still here');
  const before = frames('guard', 'event_intercept').length;
  const started = frames('guard', 'hello_ack').length;
  const terminal = (command) => `AGENTCALL run_in_terminal ${JSON.stringify({ command, explanation: 'as asked', goal: 'as asked', mode: 'sync', isBackground: false })}`;
  await agent(terminal('rm -rf build'));
  await resultReaching(/refusing to run rm -rf \(rm -rf build\)/, 60_000);
  const asked = frames('guard', 'event_intercept').slice(before).filter((f) => f.tool_name === 'run_in_terminal');
  assert.equal(asked.length, 1, 'the guard was asked once, for the terminal call');
  assert.equal(asked[0].tool_args.command, 'rm -rf build');
  assert.ok(fs.existsSync(path.join(workspace, 'build', 'keep.txt')), 'the command never ran');
  // The window answered, proving the hook token: no guard of the hook's own was started.
  assert.equal(frames('guard', 'hello_ack').length, started, 'the hook started no guard of its own');
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

test('zot as an agent plugin: Zot: Create Agent Plugin writes it where VS Code finds plugins with no setting; VS Code starts its MCP server, whose tools the agent calls, and runs its PreToolUse hook, whose guard stops rm -rf', async () => {
  // Without the hook file, the plugin's hook alone guards the calls below, answered by this window.
  await exec('zot.removeAgentHooks');
  const written = await exec('zot.createAgentPlugin', undefined, 'claude');
  assert.equal(written.dir, path.join(os.homedir(), '.copilot', 'installed-plugins', 'zot', 'zot-extensions'));
  const server = JSON.parse(fs.readFileSync(written.mcp, 'utf8')).mcpServers.zot;
  assert.deepEqual(server, { command: process.execPath, args: [written.cli, 'mcp', '--no-project', '--home', process.env.ZOT_HOME], env: { ELECTRON_RUN_AS_NODE: '1' } });
  const pre = JSON.parse(fs.readFileSync(written.hooks, 'utf8')).hooks.PreToolUse[0].hooks[0];
  assert.equal(pre.env.ELECTRON_RUN_AS_NODE, '1');
  assert.ok(pre.command.includes(`'${written.hook}' hook PreToolUse --no-project --home '${process.env.ZOT_HOME}'`), pre.command);
  // VS Code watches ~/.copilot/installed-plugins; the server's tools are named after its title, "zot extensions".
  const tool = await waitFor('the plugin\'s MCP server and its tools', () => {
    // Started here rather than by the next request, so the agent has its tools then; not awaited: a server that never goes live would hold it.
    void Promise.resolve(exec('workbench.mcp.startServer', '*', { waitForLiveTools: true })).catch(() => undefined);
    return vscode.lm.tools.find((t) => t.name === 'mcp_zot_extension_echo');
  }, 90_000, 3000).catch((e) => {
    throw new Error(`${e.message}; tools: ${JSON.stringify(vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('mcp_')))}`);
  });
  assert.ok(tool);
  const calls = frames('tools', 'tool_call').length;
  await agent('AGENTCALL mcp_zot_extension_echo {"text":"through the plugin"}');
  await resultReaching(/echo: through the plugin/, 60_000);
  assert.ok(frames('tools', 'tool_call').slice(calls).some((f) => f.name === 'echo' && f.args.text === 'through the plugin'));
  const started = frames('guard', 'hello_ack').length;
  const asked = frames('guard', 'event_intercept').length;
  const since = (await requests()).length;
  const workspace = vscode.workspace.workspaceFolders[0].uri.fsPath;
  fs.mkdirSync(path.join(workspace, 'build'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'build', 'keep.txt'), 'still here');
  await agent(`AGENTCALL run_in_terminal ${JSON.stringify({ command: 'rm -rf build', explanation: 'as asked', goal: 'as asked', mode: 'sync', isBackground: false })}`);
  await resultReaching(/refusing to run rm -rf \(rm -rf build\)/, 60_000, since);
  assert.ok(fs.existsSync(path.join(workspace, 'build', 'keep.txt')), 'the command never ran');
  // Copilot Chat's hooks log names the command it ran: the plugin's, and it alone.
  const logFile = path.join(await exec('zotFake.logsFolder'), 'GitHub.copilot-chat', 'GitHub Copilot Chat Hooks.log');
  const lines = () => fs.readFileSync(logFile, 'utf8').split('\n');
  const last = (re) => lines().filter((l) => re.test(l)).at(-1) ?? '';
  await waitFor('the hooks log to name the plugin\'s hook', () => last(/\[PreToolUse\] Running: /).includes(`'${written.hook}' hook PreToolUse`), 10_000)
    .catch((e) => { throw new Error(`${e.message}: ${last(/\[PreToolUse\] Running: /)}`); });
  assert.match(last(/\[PreToolUse\] Executing /), /Executing 1 hook\(s\)/);
  assert.equal(frames('guard', 'event_intercept').slice(asked).filter((f) => f.tool_name === 'run_in_terminal').length, 1, 'the guard was asked once, for the terminal call');
  // The window answered the plugin's hook, proving the hook token: no guard of the hook's own was started.
  assert.equal(frames('guard', 'hello_ack').length, started, 'the window answered the plugin\'s hook');
}, { timeoutMs: 180_000 });

exports.run = runAll;
