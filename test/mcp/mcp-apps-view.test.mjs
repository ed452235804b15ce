// The inline view's bridge (media/panel/app.js, the real file the view's page
// inlines) run against a parent window that speaks the MCP Apps protocol as
// VS Code does: once its call has ended ("tool finished"), a late answer to
// one of the view's own held requests moves nothing, so the view stays dimmed
// with how the call ended instead of going back to "Waiting for the panel…".
// A real VS Code shows the race only now and then; here it is made to happen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createRequire } from 'node:module';
import { CLI, ROOT, lib, tmpdir, waitFor } from '../helpers.mjs';

const APP = readFileSync(path.join(ROOT, 'media', 'panel', 'app.js'), 'utf8');

/** @typedef {{ jsonrpc: string, id?: number, method?: string, params?: Record<string, any>, result?: unknown, error?: { message: string } }} Rpc */

/** The bridge in a window of its own; what it sent its parent and what it gave its page. */
function bridge() {
  /** @type {Rpc[]} */
  const sent = [];
  /** @type {any[]} */
  const page = [];
  /** @type {Set<string>} */
  const classes = new Set();
  /** @type {((e: { source: unknown, data: unknown }) => void)[]} */
  const listeners = [];
  const parent = { postMessage: (/** @type {Rpc} */ m) => sent.push(m) };
  const window = {
    parent,
    addEventListener: (/** @type {string} */ type, /** @type {(e: { source: unknown, data: unknown }) => void} */ fn) => type === 'message' && listeners.push(fn),
    dispatchEvent: (/** @type {{ data: unknown }} */ e) => page.push(e.data),
  };
  const element = { lang: '', style: { setProperty: () => undefined }, getBoundingClientRect: () => ({ width: 300, height: 80 }) };
  const document = {
    // The page's `zot-view` meta, as the server writes it for a tool `confirm`.
    querySelector: (/** @type {string} */ s) => ({ getAttribute: () => (s === 'meta[name="zot-view"]' ? JSON.stringify(lib.viewPageConfig('confirm')) : null) }),
    body: { classList: { add: (/** @type {string} */ c) => classes.add(c) } },
    documentElement: element,
  };
  class MessageEvent { constructor(/** @type {string} */ _type, /** @type {{ data: unknown }} */ init) { this.data = init.data; } }
  class ResizeObserver { observe() {} }
  vm.runInNewContext(APP, { window, document, MessageEvent, ResizeObserver, setTimeout, clearTimeout }, { filename: 'app.js' });
  /** @param {Rpc} m */
  const fromParent = (m) => listeners.forEach((fn) => fn({ source: parent, data: m }));
  /** The view's requests of a method, in order. */
  const requests = (/** @type {string} */ method, /** @type {string} */ tool = '') => sent.filter((m) => m.method === method && (!tool || m.params?.name === tool));
  return { sent, page, classes, fromParent, requests };
}

const render = (/** @type {string[]} */ lines, footer = '') => ({ type: 'render', title: 'Confirm', lines, cursor: 0, seq: 0, footer });

test('an inline view whose call ended stays dimmed with how it ended: a late answer to its held view request is not applied', async () => {
  const b = bridge();
  const init = b.requests('ui/initialize')[0];
  assert.ok(init, 'the view introduces itself');
  b.fromParent({ jsonrpc: '2.0', id: init.id, result: {} });
  b.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { question: 'delete staging?' } } });
  const first = await waitFor('the first view request', () => b.requests('tools/call', 'zot_panel_view')[0]);
  b.fromParent({ jsonrpc: '2.0', id: first.id, result: { structuredContent: { phase: 'open', version: 2, call: 'h1', render: render(['delete staging?']) } } });
  const held = await waitFor('the next, held view request', () => b.requests('tools/call', 'zot_panel_view')[1]);
  assert.equal(held.params?.arguments.after, 2);
  // VS Code: "tool finished" comes first; then the held request is answered, as the server ended the call.
  b.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: 'yes' }] } });
  assert.equal(b.page.at(-1).footer, 'Done.');
  assert.ok(b.classes.has('ended'));
  const shownAtEnd = b.page.length;
  b.fromParent({ jsonrpc: '2.0', id: held.id, result: { structuredContent: { phase: 'waiting', version: 3, call: 'h1' } } });
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(b.page.slice(shownAtEnd), [], `nothing after the end: ${JSON.stringify(b.page.slice(shownAtEnd))}`);
  assert.equal(b.page.at(-1).footer, 'Done.', 'still how it ended, never "Waiting for the panel…"');
  assert.deepEqual(b.page.at(-1).lines, ['delete staging?'], 'the last render stays, dimmed');
  assert.equal(b.requests('tools/call', 'zot_panel_view').length, 2, 'and it asks for nothing more');
});

test('a late render after the end is not applied either, nor a key sent for it', async () => {
  const b = bridge();
  b.fromParent({ jsonrpc: '2.0', id: b.requests('ui/initialize')[0].id, result: {} });
  b.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { question: 'q' } } });
  const first = await waitFor('the first view request', () => b.requests('tools/call', 'zot_panel_view')[0]);
  b.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-cancelled', params: {} });
  b.fromParent({ jsonrpc: '2.0', id: first.id, result: { structuredContent: { phase: 'open', version: 2, call: 'h1', render: render(['a late question']) } } });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(b.page.at(-1).footer, 'Closed (canceled).');
  assert.ok(!b.page.some((p) => p.lines?.includes('a late question')), JSON.stringify(b.page));
  assert.equal(b.requests('tools/call', 'zot_panel_input').length, 0);
});

// The same bridge over a real server of each MCP revision: the SDK's own client (v1 on 2025-11-25, v2 on the
// stateless 2026-07-28, which declares the Apps extension in each request's `_meta` capabilities) gets the
// interactive tool's view, reads its page, and the page's own app.js, run as the page runs it, answers the call
// through the client. Both revisions get the same page and the same renders: whole first, then changed lines.

const require = createRequire(import.meta.url);
const { Client: Client2025 } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport: Stdio2025 } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { Client: Client2026 } = require('@modelcontextprotocol/client');
const { StdioClientTransport: Stdio2026 } = require('@modelcontextprotocol/client/stdio');
const ASK = path.join(ROOT, 'samples', 'ask-user');
const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const question = { question: 'Which database?', choices: ['SQLite', 'Postgres', 'MySQL'] };

/**
 * The SDK's client of `era` on zot-host mcp (stdio) with the ask-user sample, declaring the Apps extension.
 * @param {import('node:test').TestContext} t
 * @param {'2025-11-25' | '2026-07-28'} era
 * @returns {Promise<{ listTools(): Promise<{ tools: { name: string, _meta?: unknown }[] }>, readResource(p: { uri: string }): Promise<{ contents: { text?: string }[] }>, callTool(p: { name: string, arguments?: Record<string, unknown> }): Promise<unknown> }>}
 */
async function eraClient(t, era) {
  const args = [CLI, 'mcp', '--no-discover', '--ext', ASK];
  const env = { ...process.env, ZOT_HOME: tmpdir('zot-home-') };
  /** @type {any} */
  let client;
  if (era === '2025-11-25') {
    client = new Client2025({ name: 'apps-view', version: '1.0.0' }, { capabilities: { extensions: APPS } });
    await client.connect(new Stdio2025({ command: process.execPath, args, env, stderr: 'ignore' }));
  } else {
    // It can elicit too: the view, not a question, is what it is to get.
    client = new Client2026({ name: 'apps-view', version: '1.0.0' }, { capabilities: { extensions: APPS, elicitation: { form: {} } }, versionNegotiation: { mode: { pin: era } } });
    client.setRequestHandler('elicitation/create', async () => assert.fail('asked a question though it shows the view'));
    await client.connect(new Stdio2026({ command: process.execPath, args, env, stderr: 'ignore' }));
  }
  t.after(() => client.close());
  return client;
}

/**
 * The page's bridge (its first script) in a window whose parent is the chat: its tools/call go to the server
 * through `client`; `post` is what the page's panel.js would send, `page` what the bridge gave the page.
 * @param {{ callTool(p: { name: string, arguments?: Record<string, unknown> }): Promise<unknown> }} client
 * @param {string} html
 */
function liveBridge(client, html) {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const meta = /<meta name="zot-view" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#(\d+);/g, (_m, c) => String.fromCharCode(Number(c))) ?? null;
  /** @type {any[]} */
  const page = [];
  /** @type {((e: { source: unknown, data: unknown }) => void)[]} */
  const listeners = [];
  /** @param {Rpc} m */
  const fromParent = (m) => listeners.forEach((fn) => fn({ source: parent, data: m }));
  const parent = {
    postMessage: (/** @type {Rpc} */ m) => {
      if (m.method === 'ui/initialize') fromParent({ jsonrpc: '2.0', id: m.id, result: {} });
      else if (m.method === 'tools/call') {
        client.callTool(/** @type {{ name: string, arguments?: Record<string, unknown> }} */ (m.params)).then(
          (result) => fromParent({ jsonrpc: '2.0', id: m.id, result }),
          (/** @type {Error} */ e) => fromParent({ jsonrpc: '2.0', id: m.id, error: { message: e.message } }),
        );
      }
    },
  };
  /** @type {any} */
  const window = { parent, addEventListener: (/** @type {string} */ type, /** @type {any} */ fn) => type === 'message' && listeners.push(fn), dispatchEvent: (/** @type {{ data: unknown }} */ e) => page.push(e.data) };
  const element = { lang: '', style: { setProperty: () => undefined }, getBoundingClientRect: () => ({ width: 300, height: 80 }) };
  const document = { querySelector: (/** @type {string} */ s) => ({ getAttribute: () => (s === 'meta[name="zot-view"]' ? meta : null) }), body: { classList: { add: () => undefined } }, documentElement: element };
  class MessageEvent { constructor(/** @type {string} */ _type, /** @type {{ data: unknown }} */ init) { this.data = init.data; } }
  class ResizeObserver { observe() {} }
  vm.runInNewContext(script, { window, document, MessageEvent, ResizeObserver, setTimeout, clearTimeout }, { filename: 'app.js' });
  const vscode = window.acquireVsCodeApi();
  return { script, page, fromParent, post: (/** @type {unknown} */ m) => vscode.postMessage(m) };
}

for (const era of /** @type {const} */ (['2025-11-25', '2026-07-28'])) {
  test(`${era}: the SDK's client gets the interactive tool's view; the page's own app.js follows the call, whole render then changed lines, and its keys answer it`, async (t) => {
    const client = await eraClient(t, era);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.find((x) => x.name === 'ask_user')?._meta, { ui: { resourceUri: 'ui://zot/panel/ask_user' } });
    const html = (await client.readResource({ uri: 'ui://zot/panel/ask_user' })).contents[0]?.text ?? '';
    const view = liveBridge(client, html);
    assert.equal(view.script, APP, 'the page runs the shipped bridge');

    const running = client.callTool({ name: 'ask_user', arguments: question });
    view.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: question } });
    const first = await waitFor('the panel\'s first render', () => view.page.find((p) => Array.isArray(p.lines) && p.lines.some((/** @type {string} */ l) => /SQLite/.test(l))), 20_000);
    assert.equal(first.title, 'Which database?');
    assert.equal(first.cursor, 0);
    // What panel.js sends first, then a key: the render that answers it carries only what changed.
    view.post({ type: 'ready' });
    view.post({ type: 'key', key: 'down', seq: 1 });
    const moved = await waitFor('the render of the key', () => view.page.find((p) => p.seq === 1), 20_000);
    assert.ok(!('lines' in moved), `changed lines: ${JSON.stringify(moved)}`);
    assert.equal(moved.cursor, 1);
    assert.deepEqual(moved.changed.map((/** @type {[number, string]} */ [i]) => i), [0, 1]);
    assert.match(moved.changed[1][1], /^›\s*Postgres/);
    view.post({ type: 'key', key: 'enter', seq: 2 });
    const r = /** @type {{ content: { text: string }[] }} */ (await running);
    assert.equal(r.content[0].text, 'User chose: Postgres');
    view.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: r.content } });
    assert.equal(view.page.at(-1).footer, 'Done.');
    assert.deepEqual(view.page.at(-1).lines.map((/** @type {string} */ l) => l.trim()).slice(0, 3).map((/** @type {string} */ l) => l.replace(/^›\s*/, '')), ['SQLite', 'Postgres', 'MySQL'], 'the lines it showed stay, the changed ones merged in');
  });
}
