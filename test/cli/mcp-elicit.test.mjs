// Interactive zot tools in MCP clients that elicit, with the SDK's own
// client: zot-host mcp (stdio) and the headless HTTP server list them for a
// client that declared elicitation, turn the tool's panel into a form on the
// call's own request, and send the answer to the extension as keys. The
// extension is the shipped ask-user sample, as it runs under zot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, lib, ROOT, startHost, tmpdir } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
/** @type {typeof import('../../out/types/mcp/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));

const ASK = path.join(ROOT, 'samples', 'ask-user');

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

/** A client that declares elicitation (unless `elicits` is false) and answers each form with `answer(params)`. */
async function connect(t, how, answer, { elicits = true, exts = [ASK] } = {}) {
  const client = new Client({ name: 'elicit-test', version: '1.0.0' }, { capabilities: elicits ? { elicitation: {} } : {} });
  const asked = [];
  if (elicits) client.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params); return answer(req.params); });
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
    for (const action of ['decline', 'cancel']) {
      const { client } = await connect(t, how, () => ({ action }));
      const r = await client.callTool({ name: 'ask_user', arguments: question });
      assert.equal(r.isError, true, action);
      assert.match(r.content[0].text, /canceled/, `${action}: ${r.content[0].text}`);
    }
  });
}

test('free text: a panel without a cursor line is a text field; the answer is typed into it', async (t) => {
  const { client, asked } = await connect(t, 'stdio', () => ({ action: 'accept', content: { text: 'Ada' } }), { exts: [typedExtension()] });
  const r = await client.callTool({ name: 'name_it', arguments: {} });
  assert.deepEqual(r.content, [{ type: 'text', text: 'named Ada' }]);
  assert.deepEqual(asked[0].requestedSchema, { type: 'object', properties: { text: { type: 'string', title: 'Name it' } }, required: ['text'] });
  assert.equal(asked[0].message, 'Name it\n\nType a name, then enter');
});

test('a client without elicitation is not offered interactive tools, and a call says why', async (t) => {
  const { client } = await connect(t, 'stdio', undefined, { elicits: false });
  assert.ok(!(await client.listTools()).tools.some((x) => x.name === 'ask_user'));
  const r = await client.callTool({ name: 'ask_user', arguments: question });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /interactive extension tools require an interactive host/);
});

test('an answer that is none of the choices closes the panel rather than guess', async (t) => {
  const { client } = await connect(t, 'stdio', () => ({ action: 'accept', content: { choice: 'Oracle' } }));
  const r = await client.callTool({ name: 'ask_user', arguments: question });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /canceled/);
});
