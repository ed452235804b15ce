// An extension's notes through MCP, with the SDK's own client, on stdio
// (zot-host mcp) and over Streamable HTTP (the editor's server): a note sent
// while a call runs is that call's progress when the client asked for it;
// any other note is a log message at the level the client set; every tool
// carries a title naming its extension, and an interactive one says it is
// not read-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, lib, makeExt, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { LoggingMessageNotificationSchema, ProgressNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));

const NOTES = [{ level: 'info', message: 'reading files' }, { level: 'warn', message: 'one file was skipped' }, { level: 'success', message: 'indexed' }];
const config = {
  tools: [{ name: 'index', behaviour: 'progress', notes: NOTES }, { name: 'pick', interactive: true }],
  commands: [{ name: 'say', reply: { action: 'noop' }, after: [{ type: 'notify', level: 'error', message: 'a command note' }] }],
};

/** @typedef {import('@modelcontextprotocol/sdk/types.js').LoggingMessageNotification['params']} LogParams */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').ProgressNotification['params']} Progress */

/**
 * A client that records log messages, connected over `how`.
 * @param {import('node:test').TestContext} t
 * @param {string} how 'stdio', or else HTTP
 */
async function connected(t, how) {
  const ext = makeExt(tmpdir(), 'notes', config);
  const client = new Client({ name: 'notes-test', version: '1.0.0' });
  /** @type {LogParams[]} */
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  if (how === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', ext], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' }));
  } else {
    const host = await startHost(t, [ext], { ui: new (class extends lib.HeadlessUI { interactive = true; })() });
    const server = await startMcpHttpServer(host);
    t.after(() => server.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
  }
  t.after(() => client.close());
  return { client, logs };
}

for (const how of ['stdio', 'http']) {
  test(`${how}: notes during a call are its progress when the client asked; otherwise log messages, at the level set`, async (t) => {
    const { client, logs } = await connected(t, how);
    // The progress notifications as they come, read off the wire: the SDK's own onprogress runs a notification a
    // microtask late and drops one that came in the same read as the call's answer (its handler is gone by then).
    /** @type {Progress[]} */
    const progress = [];
    client.setNotificationHandler(ProgressNotificationSchema, (n) => void progress.push(n.params));
    const r = await client.callTool({ name: 'index', arguments: {}, _meta: { progressToken: 'index-1' } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'done' }]);
    await waitFor('three progress notifications', () => progress.length >= 3, 5000);
    assert.deepEqual(progress.map((p) => [p.progressToken, p.progress, p.message]), [['index-1', 1, 'reading files'], ['index-1', 2, 'one file was skipped'], ['index-1', 3, 'indexed']]);
    assert.deepEqual(logs, [], 'a note that was progress is not logged too');

    // No progress asked: each note is a log message, its logger the extension, its level MCP's.
    await client.callTool({ name: 'index', arguments: {} });
    await waitFor('three log messages', () => logs.length === 3, 5000);
    assert.deepEqual(logs, [
      { level: 'info', logger: 'notes', data: 'reading files' },
      { level: 'warning', logger: 'notes', data: 'one file was skipped' },
      { level: 'notice', logger: 'notes', data: 'indexed' },
    ]);

    // logging/setLevel is honoured: at warning, info and notice are held back.
    logs.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'index', arguments: {} });
    // A note outside any tool call (a command run as a prompt) is a log message as well.
    await client.getPrompt({ name: 'say' });
    await waitFor('the warning and the command\'s error', () => logs.length === 2, 5000);
    assert.deepEqual(logs, [
      { level: 'warning', logger: 'notes', data: 'one file was skipped' },
      { level: 'error', logger: 'notes', data: 'a command note' },
    ]);
  });
}

test('every tool has a title naming its extension; an interactive one is marked not read-only, and nothing more is claimed', async (t) => {
  const { client } = await connected(t, 'http');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => [x.name, x.title, x.annotations]), [
    ['index', 'index (zot: notes)', { title: 'index (zot: notes)' }],
    ['pick', 'pick (zot: notes)', { title: 'pick (zot: notes)', readOnlyHint: false }],
  ]);
});

test('a host reports every note as it arrives, with its level (unknown levels as info)', async (t) => {
  const ext = makeExt(tmpdir(), 'noter', { commands: [{ name: 'n', reply: { action: 'noop' }, after: [{ type: 'notify', level: 'warn', message: 'w' }, { type: 'notify', level: 'shout', message: 's' }] }] });
  const host = await startHost(t, [ext]);
  /** @type {import('../../out/types/host/index.js').NoteEvent[]} */
  const notes = [];
  host.onNote((n) => notes.push(n));
  await host.runCommand('n', '');
  await waitFor('two notes', () => notes.length === 2);
  assert.deepEqual(notes, [{ extension: 'noter', level: 'warn', message: 'w' }, { extension: 'noter', level: 'info', message: 's' }]);
});

test('a server of one extension (/mcp/ext/<name>, the editor\'s definition per extension) serves its tools, prompts and notes only', async (t) => {
  const a = makeExt(tmpdir(), 'alpha', { tools: [{ name: 'a_tool' }, { name: 'index', behaviour: 'progress', notes: NOTES }], commands: [{ name: 'a-cmd', reply: { action: 'noop' } }] });
  const b = makeExt(tmpdir(), 'beta', { tools: [{ name: 'b_tool' }], commands: [{ name: 'b-cmd', reply: { action: 'noop' }, after: [{ type: 'notify', level: 'error', message: 'from beta' }] }] });
  const host = await startHost(t, [a, b], { ui: new (class extends lib.HeadlessUI { interactive = true; })() });
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  /** @param {string} p */
  const open = async (p) => {
    const client = new Client({ name: 'scoped', version: '1.0.0' });
    /** @type {LogParams[]} */
    const logs = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await client.connect(new StreamableHTTPClientTransport(new URL(p, server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
    t.after(() => client.close());
    return { client, logs };
  };
  const alpha = await open('/mcp/ext/alpha');
  assert.deepEqual(alpha.client.getServerVersion()?.title, 'zot: alpha');
  assert.deepEqual((await alpha.client.listTools()).tools.map((x) => x.name), ['a_tool', 'index']);
  assert.deepEqual((await alpha.client.listPrompts()).prompts.map((x) => x.name), ['a-cmd']);
  // Another extension's tool or command is out of its reach, listed or not.
  const other = await alpha.client.callTool({ name: 'b_tool', arguments: {} });
  assert.deepEqual(other, { isError: true, content: [{ type: 'text', text: 'no tool named "b_tool"' }] });
  await assert.rejects(alpha.client.getPrompt({ name: 'b-cmd' }), /no active zot command "b-cmd"/);
  // Notes: alpha's server hears alpha only; the server of every extension hears both.
  const all = await open('/mcp');
  assert.deepEqual((await all.client.listTools()).tools.map((x) => x.name).sort(), ['a_tool', 'b_tool', 'index']);
  await all.client.getPrompt({ name: 'b-cmd' });
  await alpha.client.callTool({ name: 'index', arguments: {} });
  await waitFor('alpha\'s notes on both servers', () => alpha.logs.length === 3 && all.logs.length === 4, 5000);
  assert.ok(alpha.logs.every((l) => l.logger === 'alpha'), JSON.stringify(alpha.logs));
  assert.ok(all.logs.some((l) => l.logger === 'beta' && l.data === 'from beta'));
  // A name that is no extension's serves nothing; a path that is no endpoint is 404.
  assert.deepEqual((await (await open('/mcp/ext/nobody')).client.listTools()).tools, []);
  const bad = await fetch(new URL('/mcp/other', server.url), { method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(bad.status, 404);
  assert.match(/** @type {{ error: { message: string } }} */ (await bad.json()).error.message, /no MCP endpoint at \/mcp\/other; use \/mcp or \/mcp\/ext\/<extension>/);
});
