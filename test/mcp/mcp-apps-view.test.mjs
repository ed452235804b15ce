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
import { ROOT, lib, waitFor } from '../helpers.mjs';

const APP = readFileSync(path.join(ROOT, 'media', 'panel', 'app.js'), 'utf8');

/** @typedef {{ jsonrpc: string, id?: number, method?: string, params?: Record<string, any>, result?: unknown }} Rpc */

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
