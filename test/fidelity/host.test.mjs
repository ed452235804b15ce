// Fidelity to zot: what an extension written against zot sees, through the
// host API, zot-host and its MCP server (docs/PROTOCOL.md section 10a, read from
// zot's agent loop and extension manager). One test per point of the list
// in test/fidelity/FINDINGS.md; the turn_end and display-history points live
// in the chat loop and are tested in test/e2e/fidelity.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, makeExt, passed, RecordingUI, runCli, startHost, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

/** The zot release whose extension protocol this host speaks. */
const ZOT_PROTOCOL_RELEASE = '0.3.73';

/** @type {(args: string[], home: string) => ReturnType<typeof runCli>} */
const zotHost = (args, home) => runCli(args, { home });

/**
 * A frame an extension received, as these tests read it.
 * @typedef {{ type: string, event?: string, tool_name?: string, tool_args?: unknown, zot_version?: string, provider?: string, model?: string }} Frame
 */

/**
 * The frames an extension received, in order, from its log (the fixture logs each as `RECV <json>`).
 * @param {string} home
 * @param {string} name
 * @returns {Frame[]}
 */
function received(home, name) {
  const file = path.join(home, 'logs', `ext-${name}.log`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('RECV ')).map((l) => JSON.parse(l.slice(5)));
}

/**
 * @param {import('node:test').TestContext} t
 * @param {string[]} args
 * @param {string} home
 */
async function mcpClient(t, args, home) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { ...process.env, ZOT_HOME: home }, stderr: 'pipe' });
  const client = new Client({ name: 'fidelity-client', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** @param {string[]} args */
const ext = (args) => args.flatMap((dir) => ['--ext', dir]);

test('1. tool_call: the event comes for every call, first, with the model\'s args; a blocked call has had its event', async () => {
  const root = tmpdir();
  const home = tmpdir('zot-home-');
  const rewriter = makeExt(root, 'rewriter', { subscribe: { intercept: ['tool_call'] }, interceptReplies: { tool_call: { modified_args: { patched: true } } } });
  const audit = makeExt(root, 'audit', { subscribe: { events: ['tool_call'], intercept: ['tool_call'] } });
  const tools = makeExt(root, 'tools', { tools: [{ name: 'echo' }] });
  const run = await zotHost(['tool', 'echo', '{"patched":false}', '--no-discover', ...ext([rewriter, audit, tools]), '--json'], home);
  assert.equal(/** @type {{ content: { text: string }[] }} */ (JSON.parse(run.stdout)).content[0].text, '{"patched":true}', 'the tool runs with the rewritten args');
  const seen = received(home, 'audit').filter((f) => f.type === 'event' || f.type === 'event_intercept');
  assert.deepEqual(seen.map((f) => f.type), ['event', 'event_intercept'], 'the event is sent before anyone is asked');
  assert.deepEqual(seen[0].tool_args, { patched: false }, 'the event carries the model\'s args, not the rewrite');

  const home2 = tmpdir('zot-home-');
  const guard = makeExt(root, 'guard', { subscribe: { events: ['tool_call'], intercept: ['tool_call'] }, interceptReplies: { tool_call: { block: true, reason: 'rm -rf is not allowed' } } });
  const blocked = await zotHost(['tool', 'echo', '{"cmd":"rm -rf /"}', '--no-discover', ...ext([guard, tools]), '--json'], home2);
  assert.equal(/** @type {{ outcome: string }} */ (JSON.parse(blocked.stdout)).outcome, 'not_run');
  const events = received(home2, 'guard').filter((f) => f.type === 'event');
  assert.equal(events.length, 1, `the guard's audit sees the call it blocked: ${JSON.stringify(received(home2, 'guard'))}`);
  assert.deepEqual([events[0].event, events[0].tool_name, events[0].tool_args], ['tool_call', 'echo', { cmd: 'rm -rf /' }]);
});

test('3. session_start: once per session in every mode (a zot-host tool or command run, the life of an MCP server), before any call', async (t) => {
  const root = tmpdir();
  const sub = makeExt(root, 'sub', { subscribe: { events: ['session_start', 'tool_call'] }, tools: [{ name: 'echo' }], commands: [{ name: 'hi' }] });
  /** @param {string} home */
  const sessionStarts = (home) => received(home, 'sub').filter((f) => f.type === 'event' && f.event === 'session_start');

  const toolHome = tmpdir('zot-home-');
  await zotHost(['tool', 'echo', '{}', '--no-discover', '--ext', sub], toolHome);
  assert.equal(sessionStarts(toolHome).length, 1, 'zot-host tool starts a session');
  const frames = received(toolHome, 'sub');
  assert.ok(frames.findIndex((f) => f.event === 'session_start') < frames.findIndex((f) => f.type === 'tool_call'), 'session_start comes before the call');

  const commandHome = tmpdir('zot-home-');
  await zotHost(['command', 'hi', '--no-discover', '--ext', sub], commandHome);
  assert.equal(sessionStarts(commandHome).length, 1, 'zot-host command starts a session');

  const mcpHome = tmpdir('zot-home-');
  const client = await mcpClient(t, ['--no-discover', '--ext', sub], mcpHome);
  await client.callTool({ name: 'echo', arguments: { n: 1 } });
  await client.callTool({ name: 'echo', arguments: { n: 2 } });
  await waitFor('both calls logged', () => received(mcpHome, 'sub').filter((f) => f.type === 'tool_call').length === 2);
  assert.equal(sessionStarts(mcpHome).length, 1, 'an MCP server is one session, however many calls');
});

test('4. panel_render replaces lines and footer; a frame that leaves them out (Go\'s omitempty) empties them, an empty title keeps the old one', async (t) => {
  const ui = new RecordingUI();
  const dir = makeExt(tmpdir(), 'lister', {
    commands: [{ name: 'list', reply: { action: 'open_panel', open_panel: { id: 'todo', title: 'Todos', lines: ['› milk', '  eggs'], footer: 'x: clear' } } }],
    // What zot's Go SDK sends for RenderPanel("todo", "", nil, ""): every empty field left out.
    onPanelKey: { rune: { type: 'panel_render' }, enter: { type: 'panel_render', title: '', lines: ['› bread'] } },
  });
  const host = await startHost(t, [dir], { ui });
  await host.runCommand('list', '');
  const key = ui.of('openPanel')[0].args[0];
  ui.panel(key).key('rune', 'x');
  await waitFor('render', () => ui.of('renderPanel').length === 1);
  const emptied = ui.of('renderPanel')[0].args[1];
  assert.deepEqual([emptied.title, emptied.lines, emptied.footer], ['Todos', [], ''], 'the emptied list shows no stale lines');
  ui.panel(key).key('enter');
  await waitFor('second render', () => ui.of('renderPanel').length === 2);
  const next = ui.of('renderPanel')[1].args[1];
  assert.deepEqual([next.title, next.lines, next.footer], ['Todos', ['› bread'], '']);
});

test('5. a panel_render for a panel that is not open is ignored quietly: a log line, not a problem', async (t) => {
  const ui = new RecordingUI();
  // zot's todo example renders its panel after every tool call, open or not.
  const render = { type: 'panel_render', panel_id: 'todo', title: 'Todos', lines: ['› milk'] };
  const dir = makeExt(tmpdir(), 'todo', { commands: [{ name: 'add', reply: { action: 'noop' }, after: [render, render, render, render, { type: 'notify', level: 'info', message: 'rendered' }] }] });
  const host = await startHost(t, [dir], { ui });
  await host.runCommand('add', 'milk');
  await waitFor('the frames after the renders', () => ui.of('notify').length === 1);
  assert.deepEqual(host.diagnostics()[0].diagnostics, [], 'no problem recorded');
  assert.equal(ui.of('renderPanel').length + ui.of('openPanel').length, 0, 'nothing shown');
  assert.ok(host.logs.some((e) => e.kind === 'host' && /panel_render/.test(e.line) && /todo/.test(e.line) && !/^problem/.test(e.line)), 'a debug line says it was ignored');
});

test('6. panel_resize is sent only to an extension whose hello lists the capability panel_resize', async (t) => {
  const root = tmpdir();
  /** @param {string} id */
  const open = (id) => ({ name: 'open', reply: { action: 'open_panel', open_panel: { id, title: id, lines: ['x'] } } });
  const plain = makeExt(root, 'plain', { caps: ['commands', 'panels'], commands: [open('a')] });
  const sized = makeExt(root, 'sized', { caps: ['commands', 'panels', 'panel_resize'], commands: [{ ...open('b'), name: 'open2' }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [plain, sized], { ui });
  await host.runCommand('open', '');
  await host.runCommand('open2', '');
  const [keyA, keyB] = ui.of('openPanel').map((c) => c.args[0]);
  ui.panel(keyA).resize(80, 24);
  ui.panel(keyB).resize(100, 30);
  ui.panel(keyA).key('down');
  await waitFor('the key after the resize', () => host.received('plain', 'panel_key').length === 1);
  await waitFor('the resize for the one that asked', () => host.received('sized', 'panel_resize').length === 1);
  assert.deepEqual(host.received('plain', 'panel_resize'), [], 'zot never sends panel_resize; its examples log it as an unknown frame');
});

test('7. command responses: an unknown action is an error naming it; a prompt of spaces only is ignored', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'acts', { commands: [{ name: 'boom', reply: { action: 'explode' } }, { name: 'blank', reply: { action: 'prompt', prompt: '  \n\t ' } }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  await host.runCommand('blank', '');
  assert.deepEqual(ui.of('submit'), [], 'an empty prompt after trimming is not submitted');
  await host.runCommand('boom', '');
  const [note] = ui.of('notify');
  assert.ok(note, 'the unknown action is shown');
  assert.equal(note.args[1], 'error');
  assert.match(note.args[2], /unknown action explode/);

  const cli = await zotHost(['command', 'boom', '--no-discover', '--ext', dir], tmpdir('zot-home-'));
  assert.equal(cli.code, 1, 'zot-host fails the command');
  assert.match(cli.stderr, /unknown action explode/);
});

test('8. a tool result with an image whose data is not base64 is an error, in zot-host and over MCP', async (t) => {
  const dir = makeExt(tmpdir(), 'pics', { tools: [{ name: 'pic', behaviour: 'badimage' }] });
  const cli = await zotHost(['tool', 'pic', '--no-discover', '--ext', dir, '--json'], tmpdir('zot-home-'));
  const r = /** @type {{ is_error: boolean }} */ (JSON.parse(cli.stdout));
  assert.equal(r.is_error, true, `zot-host: ${cli.stdout}`);
  assert.equal(cli.code, 1);
  const client = await mcpClient(t, ['--no-discover', '--ext', dir], tmpdir('zot-home-'));
  const mcp = await client.callTool({ name: 'pic', arguments: {} });
  assert.equal(mcp.isError, true, `MCP: ${JSON.stringify(mcp)}`);
});

test(`9. hello_ack names zot ${ZOT_PROTOCOL_RELEASE} as zot_version, and the provider and model the caller gives`, async (t) => {
  const dir = makeExt(tmpdir(), 'acker', { tools: [{ name: 'echo' }] });
  const host = await startHost(t, [dir]);
  const [ack] = await waitFor('hello_ack', () => host.received('acker', 'hello_ack').length && host.received('acker', 'hello_ack'));
  assert.equal(ack.zot_version, ZOT_PROTOCOL_RELEASE, 'the host API');

  const home = tmpdir('zot-home-');
  const run = await zotHost(['tool', 'echo', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--no-discover', '--ext', dir], home);
  assert.equal(run.code, 0, run.stderr);
  const [cliAck] = received(home, 'acker').filter((f) => f.type === 'hello_ack');
  assert.deepEqual([cliAck.zot_version, cliAck.provider, cliAck.model], [ZOT_PROTOCOL_RELEASE, 'anthropic', 'claude-sonnet-4-5'], 'zot-host --provider/--model');

  // The extension's log is written from its stderr, which may lag behind its frames.
  /** @param {string[]} args */
  const mcpAck = async (args) => {
    const mcpHome = tmpdir('zot-home-');
    const client = await mcpClient(t, [...args, '--no-discover', '--ext', dir], mcpHome);
    await client.listTools();
    const acks = await waitFor('the hello_ack in the log', () => {
      const found = received(mcpHome, 'acker').filter((f) => f.type === 'hello_ack');
      return found.length && found;
    });
    return [acks[0].zot_version, acks[0].provider, acks[0].model];
  };
  assert.deepEqual(await mcpAck(['--provider', 'openai', '--model', 'gpt-5']), [ZOT_PROTOCOL_RELEASE, 'openai', 'gpt-5'], 'zot-host mcp --provider/--model');
  assert.deepEqual(await mcpAck(['--model', 'gpt-5']), [ZOT_PROTOCOL_RELEASE, 'fidelity-client', 'gpt-5'], 'without --provider, the MCP client\'s name');
});

test('the rest of zot\'s loop the host API shows: an empty replace_text is no replacement; a submit is submitted trimmed', async (t) => {
  const root = tmpdir();
  const blank = makeExt(root, 'blank', { subscribe: { intercept: ['assistant_message'] }, interceptReplies: { assistant_message: { replace_text: '' } } });
  const submitter = makeExt(root, 'submitter', { commands: [{ name: 'go', reply: { action: 'noop' }, after: [{ type: 'submit', text: '  run the tests \n' }] }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [blank, submitter], { ui });
  const verdict = await host.intercept('assistant_message', { text: 'the model said this' });
  assert.equal(passed(verdict).text, 'the model said this');
  await host.runCommand('go', '');
  await waitFor('the submit', () => ui.of('submit').length === 1);
  assert.equal(ui.of('submit')[0].args[1], 'run the tests');
});
