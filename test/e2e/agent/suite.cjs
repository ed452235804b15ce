// Runs inside VS Code's extension host: @zot with a scripted fake language
// model, zot tools through the MCP server definition, panels bound to tool
// calls. Fixture extensions record every frame they receive in $ZOT_HOME.
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, logs, testApi, waitState } = require('../vscode/suite/helpers.cjs');
const { chat, frames, resultsIn } = require('../vscode/suite/fakeChat.cjs');

const REPO = process.env.ZOT_E2E_REPO;

test('the extension activates and the fixtures run', async () => {
  await activated();
  for (const r of ['tools', 'guard', 'ask', 'panels']) await waitState(`agent-${r}`, ['ready', 'auto_ready']);
  const models = await vscode.lm.selectChatModels({ vendor: 'zot-fake' });
  assert.equal(models.length, 1, 'the fake model is available');
});

test('@zot calls a zot tool, and the model gets its result', async () => {
  const [first, second] = await chat('CALL echo {"text":"hello tools"}', 2);
  assert.ok(first.tools.includes('echo') && first.tools.includes('hang'), `zot tools offered to the model: ${first.tools}`);
  const [result] = resultsIn(second);
  assert.deepEqual(result.content, [{ kind: 'text', text: 'echo: hello tools' }]);
  const [call] = frames('tools', 'tool_call').filter((f) => f.name === 'echo');
  assert.deepEqual(call.args, { text: 'hello tools' });
  // The guard saw the lifecycle; each model step ends with its own turn_end, zot's stop names.
  await waitFor('the last turn_end', () => frames('guard', 'event').some((f) => f.event === 'turn_end' && f.stop === 'end'));
  const events = frames('guard', 'event').map((f) => f.event);
  for (const e of ['session_start', 'turn_start', 'tool_call', 'turn_end', 'assistant_message']) assert.ok(events.includes(e), `event ${e} in ${events}`);
  const ends = frames('guard', 'event').filter((f) => f.event === 'turn_end');
  assert.deepEqual(ends.map((f) => f.stop), ['tool_use', 'end']);
});

test('an interceptor blocks a call: the tool never runs and the model receives the reason', async () => {
  const [, second] = await chat('CALL forbidden {}', 2);
  const [result] = resultsIn(second);
  const text = result.content.map((c) => c.text).join('\n');
  assert.match(text, /forbidden by policy/);
  assert.match(text, /not run: blocked by extension "agent-guard"/);
  assert.equal(frames('tools', 'tool_call').filter((f) => f.name === 'forbidden').length, 0);
});

test('an image result reaches the model as data', async () => {
  const [, second] = await chat('CALL image {}', 2);
  const [result] = resultsIn(second);
  assert.deepEqual(result.content.map((c) => c.kind), ['text', 'data']);
  assert.equal(result.content[1].mimeType, 'image/png');
  assert.ok(result.content[1].bytes > 60);
  // The next turn replays that result with the image as its description, not its data.
  await new Promise((r) => setTimeout(r, 1500)); // the turn's result reaches the chat view
  const [next] = await chat('what was in that picture?', 1);
  const replayed = next.messages.slice(0, -1).flatMap((m) => m.parts).filter((p) => p.kind === 'result').at(-1);
  assert.ok(replayed, `the image result is replayed: ${JSON.stringify(next.messages).slice(0, 1500)}`);
  assert.deepEqual(replayed.content.map((c) => c.kind), ['text', 'text']);
  assert.match(replayed.content[1].text, /^\[an image \(image\/png, \d+ B\) the model saw in an earlier turn; images are not kept in the chat history\]$/);
});

test('Stop while a tool hangs ends the turn, and the extension receives tool_cancel with that call id', async () => {
  const before = frames('tools', 'tool_call').length;
  await chat('CALL hang {}', 1);
  const call = await waitFor('the hang call delivered', () => frames('tools', 'tool_call').slice(before).find((f) => f.name === 'hang'));
  await exec('workbench.action.chat.cancel');
  await waitFor('tool_cancel for that call', () => frames('tools', 'tool_cancel').some((f) => f.id === call.id), 15_000);
  await waitFor('the request to end canceled', async () => Object.values(await logs()).flat().some((l) => l.includes('@zot: the request ended (canceled)')), 15_000);
  // As zot: the step's turn_end (tool_use) came before the call ran; a Stop while tools run sends no other.
  const ends = frames('guard', 'event').filter((f) => f.event === 'turn_end');
  assert.equal(ends.at(-1).stop, 'tool_use');
});

test('Stop while an interactive tool waits on its panel closes the panel and cancels the call', async () => {
  await chat('CALL ask {"choices":["red","green"]}', 1);
  const call = await waitFor('the ask call delivered', () => frames('ask', 'tool_call').at(-1));
  const panels = await waitFor('its panel', async () => (await testApi().panels()).find((p) => p.id === `ask-${call.id}`));
  assert.deepEqual(panels.lines, ['› red', '  green']);
  await exec('workbench.action.chat.cancel');
  await waitFor('tool_cancel', () => frames('ask', 'tool_cancel').some((f) => f.id === call.id), 15_000);
  await waitFor('the panel is gone', async () => !(await testApi().panels()).some((p) => p.id === `ask-${call.id}`), 15_000);
});

test('an assistant_message interceptor replaces the text the user sees; the model keeps its own in the history', async () => {
  await chat('the secret word', 1);
  const shown = await waitFor('assistant_message event', () => frames('guard', 'event').filter((f) => f.event === 'assistant_message' && /redacted/.test(f.text)).at(-1));
  assert.equal(shown.text, '[redacted by guard]');
  const [next] = await chat('and now?', 1);
  const said = next.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts).map((p) => p.text);
  assert.ok(said.includes('ECHO: the secret word'), `history: ${JSON.stringify(said)}`);
});

test('an MCP server definition per extension with tools or commands, each refusing a request without its token; MCP clients of both revisions (2025-11-25 and 2026-07-28) reach a zot tool with cancellation; one server for all when the user asks', async () => {
  const defs = await testApi().mcpDefinitions();
  // agent-guard registers neither a tool nor a command: it has no server.
  assert.deepEqual(defs.map((d) => d.label).sort(), ['zot: agent-ask', 'zot: agent-panels', 'zot: agent-tools']);
  const def = defs.find((d) => d.label === 'zot: agent-tools');
  assert.match(def.uri, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/ext\/agent-tools$/);
  assert.equal(new Set(defs.map((d) => new URL(d.uri).origin)).size, 1, 'one listener serves them all');
  assert.match(def.headers.Authorization, /^Bearer \S{40,}$/);
  const bare = await fetch(def.uri, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' });
  assert.equal(bare.status, 401);

  const { Client } = require(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/index.js'));
  const { StreamableHTTPClientTransport } = require(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/streamableHttp.js'));
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(def.uri), { requestInit: { headers: def.headers } }));
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['echo', 'hang']) assert.ok(names.includes(n), `${n} listed: ${names}`);
    assert.ok(!names.includes('ask'), 'agent-ask\'s tool is on its own server');
    const r = await client.callTool({ name: 'echo', arguments: { text: 'via mcp' } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'echo: via mcp' }]);
    const before = frames('tools', 'tool_call').length;
    const controller = new AbortController();
    const pending = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: controller.signal });
    const call = await waitFor('hang delivered over MCP', () => frames('tools', 'tool_call').slice(before).find((f) => f.name === 'hang'));
    controller.abort();
    await assert.rejects(pending);
    await waitFor('tool_cancel over MCP', () => frames('tools', 'tool_cancel').some((f) => f.id === call.id), 15_000);
  } finally {
    await client.close();
  }
  // A client of MCP's stateless 2026-07-28 revision (SDK v2) at the same endpoint: no session; the same tools; cancellation.
  const v2 = require(path.join(REPO, 'node_modules/@modelcontextprotocol/client/dist/index.cjs'));
  const modern = new v2.Client({ name: 'e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new v2.StreamableHTTPClientTransport(new URL(def.uri), { requestInit: { headers: def.headers } }));
  try {
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    const names = (await modern.listTools()).tools.map((t) => t.name);
    for (const n of ['echo', 'hang']) assert.ok(names.includes(n), `${n} listed for a 2026 client: ${names}`);
    assert.deepEqual((await modern.callTool({ name: 'echo', arguments: { text: 'via 2026' } })).content, [{ type: 'text', text: 'echo: via 2026' }]);
    const before = frames('tools', 'tool_call').length;
    const controller = new AbortController();
    const pending = modern.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal });
    const call = await waitFor('hang delivered over MCP 2026', () => frames('tools', 'tool_call').slice(before).find((f) => f.name === 'hang'));
    controller.abort();
    await assert.rejects(pending);
    await waitFor('tool_cancel over MCP 2026', () => frames('tools', 'tool_cancel').some((f) => f.id === call.id), 15_000);
  } finally {
    await modern.close();
  }
  // A stopped extension has no server (VS Code starts every server at each request: it must not start it again);
  // started again, its server is back, and VS Code's resolving it waits for the extensions to load.
  await exec('zot.stopExtension', 'agent-tools');
  await waitState('agent-tools', 'stopped');
  assert.ok(!(await testApi().mcpDefinitions()).some((d) => d.label === 'zot: agent-tools'), 'no server while it is stopped');
  await exec('zot.startExtension', 'agent-tools');
  await waitState('agent-tools', ['ready', 'auto_ready']);
  const back = await waitFor('its server back', async () => (await testApi().mcpDefinitions()).find((d) => d.label === 'zot: agent-tools'));
  assert.equal(back.version, def.version, 'the same tools, the same version');
  assert.equal((await testApi().resolveMcpDefinition('zot: agent-tools')).uri, def.uri);

  // One server for every zot tool, when the user says so (one approval then covers them all); a workspace cannot say it.
  const config = vscode.workspace.getConfiguration('zot');
  assert.equal(config.inspect('mcp.servers').workspaceValue, undefined);
  await config.update('mcp.servers', 'one', vscode.ConfigurationTarget.Global);
  try {
    const [all] = await waitFor('one definition', async () => {
      const now = await testApi().mcpDefinitions();
      return now.length === 1 && now;
    });
    assert.equal(all.label, 'Zot extensions');
    assert.equal(all.uri, `${new URL(def.uri).origin}/mcp`);
    const one = new Client({ name: 'e2e-one', version: '1.0.0' });
    await one.connect(new StreamableHTTPClientTransport(new URL(all.uri), { requestInit: { headers: all.headers } }));
    try {
      const names = (await one.listTools()).tools.map((t) => t.name);
      for (const n of ['echo', 'hang', 'ask']) assert.ok(names.includes(n), `${n} on the one server: ${names}`);
    } finally {
      await one.close();
    }
  } finally {
    await config.update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor('a server per extension again', async () => (await testApi().mcpDefinitions()).length === 3);
});

/** The zot panel webviews open in the editor area. */
const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('zot.panel'));

test('zot.panels.style webview: even a panel bound to a tool call is a webview; closing its tab cancels the call', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  await config.update('panels.style', 'webview', vscode.ConfigurationTarget.Global);
  try {
    const before = frames('ask', 'tool_call').length;
    const result = exec('zot.runTool', 'ask', { choices: ['left', 'right'] });
    const [tab] = await waitFor('a webview tab', () => webviewTabs().length === 1 && webviewTabs());
    assert.equal(tab.label, 'Choose');
    const call = frames('ask', 'tool_call')[before];
    await vscode.window.tabGroups.close(tab);
    assert.equal((await result).outcome, 'canceled');
    await waitFor('tool_cancel for that call', () => frames('ask', 'tool_cancel').some((f) => f.id === call.id));
  } finally {
    await config.update('panels.style', undefined, vscode.ConfigurationTarget.Global);
  }
});

exports.run = runAll;
