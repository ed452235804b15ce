import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, makeExt, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { ToolListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');

/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult & { content: import('@modelcontextprotocol/sdk/types.js').TextContent[] }} TextResult A tool's result of text blocks, as these tools answer. */

/**
 * @param {import('node:test').TestContext} t
 * @param {string[]} exts
 */
async function connect(t, exts, home = tmpdir('zot-home-')) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])],
    env: { ...process.env, ZOT_HOME: home },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, home };
}

const tools = [
  { name: 'echo', description: 'echoes' },
  { name: 'rev', behaviour: 'reverse', count: 32 },
  { name: 'work', behaviour: 'cancellable' },
  { name: 'huge', behaviour: 'big', size: 9 * 1024 * 1024 },
  { name: 'fail', behaviour: 'error' },
  { name: 'ask', interactive: true },
];

test('zot-host mcp: lists every tool after the ready wait, calls them, and refuses interactive ones', async (t) => {
  const ext = makeExt(tmpdir(), 'mcp-ext', { caps: ['tools', 'tool_cancel'], tools, registerLate: 'late_tool', registerLateMs: 150, readyDelayMs: 600 });
  const { client } = await connect(t, [ext]);
  const { tools: listed } = await client.listTools();
  const names = listed.map((x) => x.name).sort();
  assert.deepEqual(names, ['echo', 'fail', 'huge', 'late_tool', 'rev', 'work'], 'interactive tools are not offered without a UI');
  assert.deepEqual(listed.find((x) => x.name === 'echo')?.inputSchema, { type: 'object', properties: {} });
  const r = await client.callTool({ name: 'echo', arguments: { hello: 'mcp' } });
  assert.deepEqual(r, { content: [{ type: 'text', text: '{"hello":"mcp"}' }], isError: false });
  const fail = await client.callTool({ name: 'fail', arguments: {} });
  assert.equal(fail.isError, true);
  const ask = /** @type {TextResult} */ (await client.callTool({ name: 'ask', arguments: {} }));
  assert.equal(ask.isError, true);
  assert.match(ask.content[0].text, /not run: interactive extension tools require an interactive host/);
});

test('zot-host mcp: 32 concurrent calls, answered in reverse, each get their own result', async (t) => {
  const ext = makeExt(tmpdir(), 'mcp-conc', { tools });
  const { client } = await connect(t, [ext]);
  const results = await Promise.all(Array.from({ length: 32 }, (_, i) => client.callTool({ name: 'rev', arguments: { i } })));
  results.forEach((r, i) => assert.equal(/** @type {TextResult} */ (r).content[0].text, `answer ${i}`));
});

test('zot-host mcp: MCP cancellation reaches the extension as tool_cancel', async (t) => {
  const home = tmpdir('zot-home-');
  const ext = makeExt(tmpdir(), 'mcp-cancel', { caps: ['tools', 'tool_cancel'], tools });
  const { client } = await connect(t, [ext], home);
  const controller = new AbortController();
  const call = client.callTool({ name: 'work', arguments: {} }, undefined, { signal: controller.signal });
  const log = path.join(home, 'logs', 'ext-mcp-cancel.log');
  await waitFor('delivered', () => fs.existsSync(log) && /RECV \{"type":"tool_call"/.test(fs.readFileSync(log, 'utf8')));
  controller.abort();
  await assert.rejects(call);
  await waitFor('tool_cancel reached the extension', () => /RECV \{"type":"tool_cancel","id":"\d+"\}/.test(fs.readFileSync(log, 'utf8')));
  await waitFor('work stopped', () => /CANCELLED \d+/.test(fs.readFileSync(log, 'utf8')));
  // The session goes on.
  assert.equal((await client.callTool({ name: 'echo', arguments: { after: 'cancel' } })).isError, false);
});

test('zot-host mcp: an oversized result fails that call only; the next call works', async (t) => {
  const ext = makeExt(tmpdir(), 'mcp-big', { tools });
  const { client } = await connect(t, [ext]);
  const big = /** @type {TextResult} */ (await client.callTool({ name: 'huge', arguments: {} }));
  assert.equal(big.isError, true);
  assert.match(big.content[0].text, /longer than the 8388608-byte limit/);
  const next = await client.callTool({ name: 'echo', arguments: { n: 2 } });
  assert.deepEqual(next.content, [{ type: 'text', text: '{"n":2}' }]);
});

test('zot-host mcp: a tool registered later is announced with tools/list_changed', async (t) => {
  const ext = makeExt(tmpdir(), 'mcp-late', { tools: [{ name: 'echo' }], registerLate: 'newcomer', registerLateMs: 1200 });
  const { client } = await connect(t, [ext]);
  // Re-list on every notification, as a client does; the newcomer must show up through one.
  /** @type {string[][]} */
  const relisted = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => { relisted.push((await client.listTools()).tools.map((x) => x.name).sort()); });
  const first = await client.listTools();
  assert.deepEqual(first.tools.map((x) => x.name), ['echo']);
  await waitFor('list_changed announcing the newcomer', () => relisted.some((names) => names.includes('newcomer')), 5000);
});
