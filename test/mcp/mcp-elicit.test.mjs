// Interactive zot tools in MCP clients that elicit, with the SDK's own
// client: zot-host mcp (stdio) and the headless HTTP server list them for a
// client that declared elicitation, turn the tool's panel into a form on the
// call's own request, and send the answer to the extension as keys (in
// batches; a free-text answer of at most 4,096 characters, a longer one
// refused and asked again). The extension is the shipped ask-user sample, as
// it runs under zot, or a small free-text one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { bundleSources, CLI, lib, ROOT, startHost, tmpdir } from '../helpers.mjs';
import { TYPIST_TOOL, textOf, typistExtension } from './typist.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));

const ASK = path.join(ROOT, 'samples', 'ask-user');

/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult & { content: import('@modelcontextprotocol/sdk/types.js').TextContent[] }} TextResult A tool's result of text blocks, as these tools answer. */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').ElicitRequestFormParams} FormParams */
/** @typedef {import('../../out/types/host/index.js').PanelHandle} PanelHandle */

/** A free-text panel: no cursor line; typed characters and enter answer it. */
function typedExtension() {
  const dir = path.join(tmpdir(), 'typed');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'typed', version: '1.0.0', exec: 'node', args: ['index.js'] }));
  fs.writeFileSync(path.join(dir, 'index.js'), `
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'typed', version: '1.0.0', capabilities: ['tools', 'panels'] });
send({ type: 'register_tool', name: 'name_it', description: 'asks for a name', schema: { type: 'object', properties: {} }, interactive: true });
send({ type: 'ready' });
let typed = '';
let call;
require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
  const f = JSON.parse(l);
  if (f.type === 'tool_call') { call = f.id; send({ type: 'open_panel', panel: { id: 'p', title: 'Name it', lines: ['Type a name, then enter'], footer: '', tool_call_id: f.id } }); }
  if (f.type === 'panel_key' && f.key === 'rune') typed += f.text;
  if (f.type === 'panel_key' && f.key === 'enter') { send({ type: 'panel_close', panel_id: 'p' }); send({ type: 'tool_result', id: call, content: [{ type: 'text', text: 'named ' + typed }] }); }
});
`);
  return dir;
}

/**
 * A client that declares elicitation (unless `elicits` is false) and answers each form with `answer(params)`.
 * @param {import('node:test').TestContext} t
 * @param {string} how 'stdio', or else HTTP
 * @param {((params: import('@modelcontextprotocol/sdk/types.js').ElicitRequest['params']) => import('@modelcontextprotocol/sdk/types.js').ElicitResult) | undefined} answer
 * @param {{ elicits?: boolean, exts?: string[] }} [options]
 */
async function connect(t, how, answer, { elicits = true, exts = [ASK] } = {}) {
  const client = new Client({ name: 'elicit-test', version: '1.0.0' }, { capabilities: elicits ? { elicitation: {} } : {} });
  /** The forms asked for (zot asks with forms only). @type {FormParams[]} */
  const asked = [];
  if (elicits) client.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(/** @type {FormParams} */ (req.params)); assert.ok(answer, 'a client that elicits answers'); return answer(req.params); });
  if (how === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' }));
  } else {
    // As zot-host mcp --http: a host without a UI of its own.
    const host = await startHost(t, exts, { ui: new lib.HeadlessUI() });
    const server = await startMcpHttpServer(host);
    t.after(() => server.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
  }
  t.after(() => client.close());
  return { client, asked };
}

const question = { question: 'Which database?', choices: ['SQLite', 'Postgres', 'MySQL'] };

for (const how of ['stdio', 'http']) {
  test(`${how}: a client that elicits is offered the interactive tool; its choice reaches the extension as keys`, async (t) => {
    const { client, asked } = await connect(t, how, () => ({ action: 'accept', content: { choice: 'MySQL' } }));
    assert.ok((await client.listTools()).tools.some((x) => x.name === 'ask_user'), 'listed for a client that elicits');
    const r = await client.callTool({ name: 'ask_user', arguments: question });
    assert.deepEqual(r, { isError: false, content: [{ type: 'text', text: 'User chose: MySQL' }] });
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /^Which database\?\n\(↑\/↓ choose · enter select · esc cancel\)$/);
    assert.deepEqual(asked[0].requestedSchema, { type: 'object', properties: { choice: { type: 'string', title: 'Which database?', enum: ['SQLite', 'Postgres', 'MySQL'] } }, required: ['choice'] });
  });

  test(`${how}: declining or cancelling the form closes the panel and ends the call as the extension reports a dismissal`, async (t) => {
    for (const action of /** @type {const} */ (['decline', 'cancel'])) {
      const { client } = await connect(t, how, () => ({ action }));
      const r = /** @type {TextResult} */ (await client.callTool({ name: 'ask_user', arguments: question }));
      assert.equal(r.isError, true, action);
      assert.match(r.content[0].text, /canceled/, `${action}: ${r.content[0].text}`);
    }
  });
}

test('free text: a panel without a cursor line is a text field; the answer is typed into it', async (t) => {
  const { client, asked } = await connect(t, 'stdio', () => ({ action: 'accept', content: { text: 'Ada' } }), { exts: [typedExtension()] });
  const r = await client.callTool({ name: 'name_it', arguments: {} });
  assert.deepEqual(r.content, [{ type: 'text', text: 'named Ada' }]);
  assert.deepEqual(asked[0].requestedSchema, { type: 'object', properties: { text: { type: 'string', title: 'Name it', maxLength: 4096 } }, required: ['text'] });
  assert.equal(asked[0].message, 'Name it\n\nType a name, then enter');
});

for (const how of ['stdio', 'http']) {
  test(`${how}: a free-text answer over 4,096 characters is refused, the form asked again naming the limit; one at the limit is typed whole, in order`, async (t) => {
    const long = textOf(300_000);
    const atLimit = textOf(4096);
    assert.ok(atLimit.length > 4096, 'characters outside the BMP count once, as maxLength counts them');
    const answers = [long, textOf(4097), atLimit];
    const { client, asked } = await connect(t, how, () => ({ action: 'accept', content: { text: answers[asked.length - 1] } }), { exts: [typistExtension()] });
    const r = /** @type {TextResult} */ (await client.callTool({ name: TYPIST_TOOL, arguments: {} }, undefined, { timeout: 60_000 }));
    assert.equal(r.isError, false, JSON.stringify(r).slice(0, 300));
    const got = /** @type {{ typed: string, keys: number }} */ (JSON.parse(r.content[0].text));
    // Nothing of the refused answers was typed: the one at the limit is all the extension saw, each character a key, then enter.
    assert.equal(got.typed, atLimit);
    assert.equal(got.keys, 4096 + 1);
    assert.equal(asked.length, 3);
    assert.equal(/** @type {{ maxLength?: number }} */ (asked[0].requestedSchema.properties.text).maxLength, 4096);
    assert.equal(asked[0].message, 'Type it\n\nType a text, then enter');
    assert.equal(asked[1].message, 'The answer was refused: it is 300000 characters long, and at most 4096 are accepted. Answer again, within 4096 characters.\n\nType it\n\nType a text, then enter');
    assert.match(asked[2].message, /^The answer was refused: it is 4097 characters long, and at most 4096 are accepted\./);
    assert.deepEqual(asked[2].requestedSchema, asked[0].requestedSchema);
  });
}

test('an answer\'s keys go out in batches of 256, a turn of the event loop apart, and stop once the panel closes', async () => {
  const { elicit } = await bundleSources(tmpdir(), 'mcp/shared', ['elicit']);
  // Partial: what the answer and the form read of a panel, and the keys it takes.
  /** @type {(onKey: PanelHandle['key']) => PanelHandle} */
  const panel = (onKey) => /** @type {PanelHandle} */ (/** @type {unknown} */ ({ uid: 'e\0p', id: 'p', extension: { name: 'e', dir: '' }, title: 'Type it', lines: ['a line'], footer: '', forToolCall: true, key: onKey, resize() {}, dismiss() {} }));
  const text = textOf(4096);
  /** @type {([string] | [string, string])[]} */
  const keys = [];
  const p = panel((key, ch) => keys.push(ch === undefined ? [key] : [key, ch]));
  const done = elicit.answer(p, elicit.formOf(p), { action: 'accept', content: { text } });
  assert.equal(keys.length, 256, 'the first batch at once, the rest later');
  await new Promise(setImmediate);
  assert.equal(keys.length, 512, 'the next batch a turn of the event loop later');
  assert.equal(await done, undefined);
  assert.equal(keys.length, 4097);
  assert.equal(keys.slice(0, -1).map(([, ch]) => ch).join(''), text, 'every character, in order');
  assert.deepEqual(keys.at(-1), ['enter']);

  // A panel closed halfway gets no more of the answer.
  let sent = 0;
  let open = true;
  const closing = panel(() => { if (++sent === 300) open = false; });
  await elicit.answer(closing, elicit.formOf(closing), { action: 'accept', content: { text } }, () => open);
  assert.equal(sent, 512, 'the batch under way is finished, no later one is sent');
});

test('a client without elicitation is not offered interactive tools, and a call says why', async (t) => {
  const { client } = await connect(t, 'stdio', undefined, { elicits: false });
  assert.ok(!(await client.listTools()).tools.some((x) => x.name === 'ask_user'));
  const r = /** @type {TextResult} */ (await client.callTool({ name: 'ask_user', arguments: question }));
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /interactive extension tools require an interactive host/);
});

test('an answer that is none of the choices closes the panel rather than guess', async (t) => {
  const { client } = await connect(t, 'stdio', () => ({ action: 'accept', content: { choice: 'Oracle' } }));
  const r = /** @type {TextResult} */ (await client.callTool({ name: 'ask_user', arguments: question }));
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /canceled/);
});
