// zot's newer wire through `zot-host mcp`, with the MCP SDK's own client:
// a deferred tool is callable but not listed until a result of this session
// activates it (then list_changed); output_schema is outputSchema and
// structured_content is structuredContent beside the text; a tool_prompt
// command is a prompt whose messages carry the tool's result, then the prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { CLI, makeZotExt, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { ToolListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');

const notes = () => makeZotExt(tmpdir(), 'notes', {
  tools: [
    { name: 'notes_find', description: 'Search project notes.', schema: { type: 'object' }, exposure: 'deferred' },
    { name: 'notes_enable', description: 'Turns the notes tools on.', schema: { type: 'object' } },
    { name: 'rate_lookup', description: 'Exchange rate.', schema: { type: 'object' }, output_schema: { type: 'object', properties: { pair: { type: 'string' }, rate: { type: 'number' } }, required: ['pair', 'rate'] } },
    { name: 'odd_schema', description: 'an output schema MCP cannot carry', schema: { type: 'object' }, output_schema: { type: 'array' } },
  ],
  handlers: {
    notes_enable: { kind: 'reply', result: { content: [{ type: 'text', text: 'Notes tools enabled.' }], activate_tools: ['notes_find', 'no_such_tool'] } },
    rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], structured_content: { pair: 'CHF/EUR', rate: 1.0412 } } },
  },
  commands: { commit: { kind: 'tool_prompt', prompt: 'and open a pull request', tool_name: 'rate_lookup', tool_args: { pair: 'CHF/EUR' } } },
});

/**
 * @param {import('node:test').TestContext} t
 * @param {string[]} exts
 */
async function connect(t, exts) {
  const client = new Client({ name: 'zot-wire-client', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' }));
  t.after(() => client.close());
  return client;
}

test('a deferred tool: callable by name, listed once a result of this session activates it, with list_changed; another session still does not list it', async (t) => {
  const ext = notes();
  const client = await connect(t, [ext]);
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  const names = async (/** @type {typeof client} */ c) => (await c.listTools()).tools.map((x) => x.name).sort();
  assert.deepEqual(await names(client), ['notes_enable', 'odd_schema', 'rate_lookup']);
  const early = await client.callTool({ name: 'notes_find', arguments: { q: 'x' } });
  assert.equal(early.isError, false, 'callable by name before it is listed');
  await client.callTool({ name: 'notes_enable', arguments: {} });
  await waitFor('tools/list_changed', () => changed === 1);
  assert.deepEqual(await names(client), ['notes_enable', 'notes_find', 'odd_schema', 'rate_lookup']);
  // Activation belongs to this conversation: a second client of another server starts without it.
  const other = await connect(t, [ext]);
  assert.deepEqual(await names(other), ['notes_enable', 'odd_schema', 'rate_lookup']);
  // Activating it again tells nobody anything new.
  await client.callTool({ name: 'notes_enable', arguments: {} });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(changed, 1);
});

test('output_schema is outputSchema (an object schema only); structured_content is structuredContent, the text kept for models', async (t) => {
  const client = await connect(t, [notes()]);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.find((x) => x.name === 'rate_lookup')?.outputSchema, { type: 'object', properties: { pair: { type: 'string' }, rate: { type: 'number' } }, required: ['pair', 'rate'] });
  assert.equal(tools.find((x) => x.name === 'odd_schema')?.outputSchema, undefined, 'MCP wants an object schema');
  // The SDK's client checks structuredContent against outputSchema: this passes only if both are right.
  const r = await client.callTool({ name: 'rate_lookup', arguments: { pair: 'CHF/EUR' } });
  assert.deepEqual(r.structuredContent, { pair: 'CHF/EUR', rate: 1.0412 });
  assert.deepEqual(r.content, [{ type: 'text', text: 'CHF/EUR 1.0412' }]);
});

test('a tool_prompt command as an MCP prompt: the tool runs through the door, its result then the prompt as user messages', async (t) => {
  const client = await connect(t, [notes()]);
  const p = await client.getPrompt({ name: 'commit', arguments: { args: '' } });
  assert.deepEqual(p.messages, [
    { role: 'user', content: { type: 'text', text: 'Result of the tool rate_lookup (run for this prompt):\nCHF/EUR 1.0412' } },
    { role: 'user', content: { type: 'text', text: 'and open a pull request' } },
  ]);
});
