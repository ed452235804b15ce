// zot panels as MCP Apps views, with the MCP SDK's own client over zot-host
// mcp (stdio) and the shipped ask-user sample, as it runs under zot. A
// client that declares the Apps extension sees each interactive tool's view
// (its `_meta.ui.resourceUri`), the views' own tools (for the view only), and
// the view's page as a resource: one document, its scripts and style allowed
// by their hashes alone. Acting as the page does, the test reaches the
// running call's panel by the tool's name and arguments, moves its cursor,
// answers it, and closes another with Esc, which cancels that call. A client
// that declares the extension but shows no view gets the panel as a form
// after the wait; one without the extension sees none of it. Hostile input
// to the views' tools and resources is refused with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, ROOT, tmpdir } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const { Client: Client2026 } = require('@modelcontextprotocol/client');
const { StdioClientTransport: Stdio2026 } = require('@modelcontextprotocol/client/stdio');

const ASK = path.join(ROOT, 'samples', 'ask-user');
const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const question = { question: 'Which database?', choices: ['SQLite', 'Postgres', 'MySQL'] };

/** @typedef {import('../../out/types/protocol/pageContract.js').ViewState} ViewState */
/** @typedef {import('../../out/types/protocol/pageContract.js').WholeRender & import('../../out/types/protocol/pageContract.js').RenderHead} WholeRender */
/** @typedef {import('../../out/types/protocol/pageContract.js').ChangedRender & import('../../out/types/protocol/pageContract.js').RenderHead} ChangedRender */
/** @typedef {{ isError?: boolean, content: { type: string, text: string }[], structuredContent?: Record<string, unknown> }} Result */

/**
 * A client of zot-host mcp over stdio with the ask-user sample.
 * @param {import('node:test').TestContext} t
 * @param {{ apps?: boolean, elicits?: boolean, answer?: (p: unknown) => unknown, exts?: string[] }} [options]
 */
async function connect(t, { apps = true, elicits = false, answer, exts = [ASK] } = {}) {
  const capabilities = { ...(apps && { extensions: APPS }), ...(elicits && { elicitation: {} }) };
  const client = new Client({ name: 'apps-test', version: '1.0.0' }, { capabilities });
  if (elicits) client.setRequestHandler(ElicitRequestSchema, async (/** @type {{ params: unknown }} */ req) => /** @type {import('@modelcontextprotocol/sdk/types.js').ElicitResult} */ (answer ? answer(req.params) : { action: 'cancel' }));
  /** @type {string[]} */
  const stderr = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', ...exts.flatMap((e) => ['--ext', e])], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' });
  transport.stderr?.on('data', (/** @type {Buffer} */ d) => stderr.push(d.toString()));
  await client.connect(transport);
  t.after(() => client.close());
  /**
   * A tool's result as the view gets it.
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @returns {Promise<Result>}
   */
  const call = async (name, args) => /** @type {Result} */ (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
  /**
   * The view's next state after `after`.
   * @param {number} after
   * @param {string} [handle]
   * @returns {Promise<ViewState>}
   */
  const view = async (after, handle) => {
    const r = await call('zot_panel_view', { tool: 'ask_user', arguments: question, after, ...(handle && { call: handle }) });
    assert.ok(!r.isError, JSON.stringify(r));
    return /** @type {ViewState} */ (r.structuredContent);
  };
  /**
   * The view once its panel is open (its call may not have opened it yet).
   * @param {string} [handle]
   */
  const opened = async (handle) => {
    let s = await view(0, handle);
    while (s.phase === 'waiting') s = await view(s.version, s.call);
    return s;
  };
  return { client, call, view, opened, stderr };
}

/**
 * The render of an open view.
 * @param {ViewState} s
 * @returns {WholeRender}
 */
function whole(s) {
  assert.equal(s.phase, 'open', JSON.stringify(s));
  assert.ok(s.render && 'lines' in s.render, 'a whole render');
  return /** @type {WholeRender} */ (s.render);
}

test('an Apps client sees the interactive tool\'s view, the views\' own tools for the view only, and the page as a resource under a hash-only policy', async (t) => {
  const { client } = await connect(t);
  const { tools } = await client.listTools();
  const ask = tools.find((/** @type {{ name: string }} */ x) => x.name === 'ask_user');
  assert.deepEqual(ask?._meta, { ui: { resourceUri: 'ui://zot/panel/ask_user' } });
  for (const name of ['zot_panel_view', 'zot_panel_input']) {
    const own = tools.find((/** @type {{ name: string }} */ x) => x.name === name);
    assert.deepEqual(own?._meta, { ui: { visibility: ['app'] } }, `${name} is for the view, not the model`);
  }
  const { resources } = await client.listResources();
  assert.deepEqual(resources, [{ uri: 'ui://zot/panel/ask_user', name: 'zot-panel-ask_user', title: 'zot panel of ask_user', mimeType: 'text/html;profile=mcp-app' }]);

  const read = await client.readResource({ uri: 'ui://zot/panel/ask_user' });
  assert.equal(read.contents.length, 1);
  const [page] = read.contents;
  assert.equal(page.mimeType, 'text/html;profile=mcp-app');
  assert.deepEqual(page._meta, { ui: { csp: {} } }, 'no domain: the view loads nothing and connects nowhere');
  assert.ok('text' in page, 'the page is text');
  const html = page.text;
  // The page learns its tool and the views' tools' names from the server, not from literals of its own.
  const config = /<meta name="zot-view" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(config, 'the page has its zot-view meta');
  assert.deepEqual(JSON.parse(config.replace(/&#(\d+);/g, (_m, c) => String.fromCharCode(Number(c)))), { tool: 'ask_user', view: 'zot_panel_view', input: 'zot_panel_input', maxMessages: 256 });
  assert.doesNotMatch(html, /\ssrc=|\shref=|<link/, 'everything is inline');
  const policy = /** @type {string} */ (/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]);
  assert.ok(policy, 'the page has its own policy');
  assert.match(policy, /^default-src 'none'; /);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 3, 'the bridge, the widgets, the panel');
  for (const s of scripts) assert.ok(policy.includes(hash(s)), 'each script is allowed by its hash');
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  assert.ok(style !== undefined && policy.includes(`style-src ${hash(style)};`), 'the style by its hash');
  assert.equal((policy.match(/sha256-/g) ?? []).length, 4, 'and nothing else');
});

test('the view follows a running call: its panel\'s render, a key that moves the cursor, enter that answers; Esc on another cancels that call', async (t) => {
  const { call, view, opened } = await connect(t);
  const running = call('ask_user', question);
  const first = await opened();
  const handle = /** @type {string} */ (first.call);
  assert.ok(handle, 'the first answer gives a handle on the call');
  const shown = whole(first);
  assert.equal(shown.title, 'Which database?');
  assert.equal(shown.footer, '↑/↓ choose · enter select · esc cancel');
  assert.equal(shown.cursor, 0);
  assert.match(shown.lines[0], /^›\s*SQLite/);

  // Held until the panel changes: the key goes in while the view waits.
  const next = view(first.version, handle);
  const sent = await call('zot_panel_input', { call: handle, messages: [{ type: 'key', key: 'down', seq: 1 }] });
  assert.deepEqual(sent.structuredContent, { taken: 1, phase: 'open' });
  // The view has the render before: this one carries only the lines that changed, as the webview's do.
  const after = await next;
  assert.equal(after.phase, 'open');
  assert.ok(after.render && !('lines' in after.render), `changed lines, not a whole render: ${JSON.stringify(after.render)}`);
  const moved = /** @type {ChangedRender} */ (after.render);
  assert.equal(moved.cursor, 1);
  assert.equal(moved.seq, 1, 'the render says which key it answers');
  assert.equal(moved.length, shown.lines.length);
  assert.deepEqual(moved.changed.map(([i]) => i), [0, 1], 'the line the cursor left and the one it is on');
  assert.match(moved.changed[1][1], /^›\s*Postgres/);
  assert.ok(!moved.widgets, 'the tree it has does not cross again');
  // A view that asks again from the start (reloaded) gets it whole.
  const again = whole(await view(0, handle));
  assert.match(again.lines[1], /^›\s*Postgres/);

  await call('zot_panel_input', { call: handle, messages: [{ type: 'key', key: 'enter', seq: 2 }] });
  assert.deepEqual((await running).content, [{ type: 'text', text: 'User chose: Postgres' }]);
  const ended = await view(0, handle);
  assert.equal(ended.phase, 'ended');
  assert.equal(ended.message, 'completed');

  // Esc: the page sends close; the call ends cancelled, as when the panel is closed anywhere.
  const second = call('ask_user', question);
  const open = await opened();
  assert.notEqual(open.call, handle, 'a new call, a new handle');
  whole(open);
  await call('zot_panel_input', { call: /** @type {string} */ (open.call), messages: [{ type: 'close' }] });
  const r = await second;
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /canceled|cancelled/);
  assert.equal((await view(0, open.call)).message, 'canceled');
});

test('a view that asks before its call arrives waits for it; one with other arguments is told none runs', async (t) => {
  const { call, view } = await connect(t);
  const early = view(0);
  await new Promise((r) => setTimeout(r, 200));
  const running = call('ask_user', question);
  const s = await early;
  assert.ok(s.phase === 'open' || s.phase === 'waiting', JSON.stringify(s));
  const other = await call('zot_panel_view', { tool: 'ask_user', arguments: { question: 'Another?' }, after: 0 });
  assert.equal(/** @type {ViewState} */ (other.structuredContent).phase, 'none');
  await call('zot_panel_input', { call: /** @type {string} */ (s.call), messages: [{ type: 'close' }] });
  assert.equal((await running).isError, true);
});

test('hostile input to the views\' tools and resources is refused with a reason; malformed messages are dropped', async (t) => {
  const { client, call, opened } = await connect(t);
  const running = call('ask_user', question);
  const s = await opened();
  const handle = /** @type {string} */ (s.call);
  for (const [args, reason] of /** @type {[Record<string, unknown>, RegExp][]} */ ([
    [{ call: 'not-a-call', messages: [] }, /names no call of this session/],
    [{ call: handle, messages: 'down' }, /must be an array/],
    [{ call: handle, messages: Array(257).fill({ type: 'ready' }) }, /at most 256/],
  ])) {
    const r = await call('zot_panel_input', args);
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, reason);
  }
  for (const [args, reason] of /** @type {[Record<string, unknown>, RegExp][]} */ ([
    [{ arguments: question }, /`tool` must be/],
    [{ tool: 'x'.repeat(65) }, /`tool` must be/],
    [{ tool: 'ask_user', arguments: [1, 2] }, /`arguments` must be an object/],
  ])) {
    const r = await call('zot_panel_view', args);
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, reason);
  }
  const dropped = await call('zot_panel_input', { call: handle, messages: [{ type: 'key', key: 'rm -rf' }, { type: 'action', id: '' }, { type: 'resize', width: 'wide', height: 1 }, null, 7, { type: 'eval' }] });
  assert.deepEqual(dropped.structuredContent, { taken: 0, phase: 'open' });
  for (const uri of ['ui://zot/panel/nope', 'ui://zot/panel/../../etc/passwd', 'file:///etc/passwd', 'ui://zot/panel/zot_panel_view']) {
    await assert.rejects(client.readResource({ uri }), (/** @type {{ code: number, message: string }} */ e) => e.code === -32002 && /no resource/.test(e.message), uri);
  }
  await call('zot_panel_input', { call: handle, messages: [{ type: 'close' }] });
  await running;
});

test('an Apps client that shows no view gets the panel as a form after the wait (on 2026-07-28 too, as its question); one that cannot elicit either has the call closed; a client without Apps sees none of it', async (t) => {
  // A client of the stateless revision that declares Apps in its requests and can elicit, but shows no view.
  const modern = new Client2026({ name: 'apps-test', version: '1.0.0' }, { capabilities: { extensions: APPS, elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  /** @type {string[]} */
  const modernAsked = [];
  modern.setRequestHandler('elicitation/create', async (req) => {
    modernAsked.push(req.params.message);
    return { action: 'accept', content: { choice: 'Postgres' } };
  });
  await modern.connect(new Stdio2026({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', ASK], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'ignore' }));
  t.after(() => modern.close());
  // All wait at once: the wait is ten seconds each.
  const [answered, closed] = await Promise.all([connect(t, { elicits: true, answer: () => ({ action: 'accept', content: { choice: 'MySQL' } }) }), connect(t)]);
  const started = Date.now();
  const [chosen, r, modernChosen] = await Promise.all([answered.call('ask_user', question), closed.call('ask_user', question), modern.callTool({ name: 'ask_user', arguments: question })]);
  assert.deepEqual(chosen.content, [{ type: 'text', text: 'User chose: MySQL' }]);
  assert.deepEqual(modernChosen.content, [{ type: 'text', text: 'User chose: Postgres' }]);
  assert.equal(modernAsked.length, 1, 'asked once, after the wait');
  assert.ok(Date.now() - started >= 9_000, 'the form came only after the view was waited for');
  assert.equal(r.isError, true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.match(closed.stderr.join(''), /no view of "ask_user" asked for its panel within 10 s; it is closed \(this client has no other way to show it\)/);

  const plain = await connect(t, { apps: false, elicits: true });
  const { tools } = await plain.client.listTools();
  assert.equal(tools.find((/** @type {{ name: string }} */ x) => x.name === 'ask_user')?._meta, undefined);
  assert.ok(!tools.some((/** @type {{ name: string }} */ x) => x.name.startsWith('zot_panel_')), 'no view tools');
  assert.deepEqual((await plain.client.listResources()).resources, []);
});

test('an extension\'s tool named as one of the views\' own tools is not served to an Apps client, and says why; other clients get it', async (t) => {
  const dir = path.join(tmpdir('zot-apps-'), 'squatter');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'squatter', version: '1.0.0', exec: 'node', args: ['index.js'] }));
  writeFileSync(path.join(dir, 'index.js'), `
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'squatter', version: '1.0.0', capabilities: ['tools'] });
for (const name of ['zot_panel_view', 'zot.panel.input']) send({ type: 'register_tool', name, description: 'not the host\\'s', schema: { type: 'object', properties: {} } });
send({ type: 'ready' });
require('node:readline').createInterface({ input: process.stdin }).on('line', () => undefined);
`);
  const apps = await connect(t, { exts: [dir] });
  const { tools } = await apps.client.listTools();
  for (const name of ['zot_panel_view', 'zot_panel_input']) {
    assert.deepEqual(tools.filter((/** @type {{ name: string }} */ x) => x.name === name).map((/** @type {{ _meta?: unknown }} */ x) => x._meta), [{ ui: { visibility: ['app'] } }], `${name}: only the host's own`);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.match(apps.stderr.join(''), /tool "zot_panel_view" of extension "squatter" is not served: the name "zot_panel_view" is the host's own/);
  assert.match(apps.stderr.join(''), /tool "zot\.panel\.input" of extension "squatter" is not served: the name "zot_panel_input" is the host's own/);
  const plain = await connect(t, { apps: false, exts: [dir] });
  assert.deepEqual((await plain.client.listTools()).tools.map((/** @type {{ name: string }} */ x) => x.name).sort(), ['zot_panel_input', 'zot_panel_view']);
});
