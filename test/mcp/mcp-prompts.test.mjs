// zot commands as MCP prompts over `zot-host mcp`, through the MCP SDK's own
// client: listed with their one optional argument, run by prompts/get with
// each action mapped, failures as MCP errors, and list_changed on changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { CLI, makeExt, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { McpError, PromptListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');

/**
 * The text of a prompt's first message (failing when it is not text).
 * @param {import('@modelcontextprotocol/sdk/types.js').GetPromptResult} prompt
 */
function promptText(prompt) {
  const content = prompt.messages[0]?.content;
  assert.equal(content?.type, 'text', JSON.stringify(prompt.messages));
  return content.text;
}

/**
 * @param {import('node:test').TestContext} t
 * @param {string[]} exts
 */
async function connect(t, exts) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])],
    env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

const commands = [
  { name: 'ask', description: 'asks the model', reply: { action: 'prompt', prompt: 'Summarise the open file' } },
  { name: 'show', reply: { action: 'display', display: 'shown text' } },
  { name: 'put', reply: { action: 'insert', insert: 'inserted text' } },
  { name: 'blank', reply: { action: 'prompt', prompt: '   ' } },
  { name: 'broken', reply: { action: 'noop', error: 'the disk is full' } },
  { name: 'weird', reply: { action: 'explode' } },
  { name: 'panel', reply: { action: 'open_panel', open_panel: { id: 'p', title: 'P', lines: [] } } },
  { name: 'echo' },
];

test('zot-host mcp: every zot command is a prompt with one optional args string', async (t) => {
  const ext = makeExt(tmpdir(), 'prompt-ext', { caps: ['commands'], commands, readyDelayMs: 300 });
  const client = await connect(t, [ext]);
  assert.deepEqual(client.getServerCapabilities()?.prompts, { listChanged: true });
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), commands.map((c) => c.name).sort());
  const ask = prompts.find((p) => p.name === 'ask');
  assert.ok(ask, 'ask is listed');
  assert.equal(ask.description, 'asks the model');
  assert.deepEqual(ask.arguments, [{ name: 'args', description: 'What to type after /ask', required: false }]);
  assert.equal(prompts.find((p) => p.name === 'show')?.description, '/show (from the zot extension prompt-ext)');
});

test('zot-host mcp: prompts/get runs the command and maps its action', async (t) => {
  const ext = makeExt(tmpdir(), 'prompt-run', { caps: ['commands'], commands });
  const client = await connect(t, [ext]);
  assert.deepEqual((await client.getPrompt({ name: 'ask' })).messages, [{ role: 'user', content: { type: 'text', text: 'Summarise the open file' } }]);
  assert.deepEqual((await client.getPrompt({ name: 'show' })).messages, [{ role: 'assistant', content: { type: 'text', text: 'shown text' } }]);
  assert.deepEqual((await client.getPrompt({ name: 'put' })).messages, [{ role: 'assistant', content: { type: 'text', text: 'inserted text' } }]);
  // The argument reaches the extension as the command's args.
  assert.equal(promptText(await client.getPrompt({ name: 'echo', arguments: { args: '  two words ' } })), 'ran echo with "two words"');
  assert.equal(promptText(await client.getPrompt({ name: 'echo' })), 'ran echo with ""');
  const blank = await client.getPrompt({ name: 'blank' });
  assert.deepEqual(blank.messages, []);
  assert.equal(blank.description, '/blank returned an empty prompt');
});

test('zot-host mcp: a failing, unknown or unshowable command is an MCP error that says why', async (t) => {
  const ext = makeExt(tmpdir(), 'prompt-fail', { caps: ['commands'], commands: [...commands, { name: 'stuck', hang: true }] });
  const client = await connect(t, [ext]);
  /** @type {(name: string, re: RegExp) => Promise<void>} */
  const rejects = (name, re) => assert.rejects(client.getPrompt({ name }), (e) => e instanceof McpError && re.test(e.message));
  await rejects('broken', /\/broken failed: the disk is full/);
  await rejects('weird', /\/weird failed: unknown action explode/);
  await rejects('panel', /\/panel opens a panel, which this host cannot show/);
  await rejects('nope', /no active zot command "nope"/);
  // MCP cancellation ends the command's wait; the session goes on.
  const controller = new AbortController();
  const stuck = client.getPrompt({ name: 'stuck' }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 200);
  await assert.rejects(stuck);
  assert.equal(promptText(await client.getPrompt({ name: 'show' })), 'shown text');
});

test('zot-host mcp: a command registered later sends prompts/list_changed and is listed', async (t) => {
  const ext = makeExt(tmpdir(), 'prompt-late', { caps: ['commands'], commands: [{ name: 'early' }], registerLateCommand: 'later', registerLateMs: 1500 });
  const client = await connect(t, [ext]);
  let changed = 0;
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed++);
  assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ['early']);
  await waitFor('prompts/list_changed', () => changed > 0, 10_000);
  await waitFor('the late command listed', async () => (await client.listPrompts()).prompts.some((p) => p.name === 'later'), 10_000);
});
