// A panel belongs to the call it is bound to, and its view is that call's
// view: two Apps clients of one `zot-host mcp --http` (two MCP sessions), an
// extension that reuses one panel id for all its calls. Reopened for B's
// call, the panel leaves A's view and shows in B's; A's Enter reaches no
// panel. Without `tool_call_id`, a panel binds only within one session: while
// calls of two sessions wait for one, it binds to neither and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, serveMcpHttp, sleep, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'node', 'reuse-panel.js');

/** @typedef {import('../../out/types/protocol/pageContract.js').ViewState} ViewState */
/** @typedef {{ isError?: boolean, content: { type: string, text: string }[], structuredContent?: Record<string, unknown> }} Result */

/** @param {boolean} named @param {number} [openDelayMs] */
function extension(named, openDelayMs = 0) {
  const dir = path.join(tmpdir(), 'reuse-panel');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'reuse-panel', version: '1.0.0', exec: 'node', args: [FIXTURE, JSON.stringify({ named, openDelayMs })] }));
  return dir;
}

/**
 * An Apps client of the server, acting as its view does.
 * @param {import('node:test').TestContext} t
 * @param {{ url: string, token: string }} info
 */
async function client(t, info) {
  const c = new Client({ name: 'apps-session', version: '1.0.0' }, { capabilities: { extensions: APPS } });
  await c.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
  t.after(() => c.close().catch(() => undefined));
  /** @type {(name: string, args: Record<string, unknown>, ms?: number) => Promise<Result>} */
  const call = async (name, args, ms = 60_000) => /** @type {Result} */ (await c.callTool({ name, arguments: args }, undefined, { timeout: ms }));
  /**
   * The view of the call of `confirm` with `question`, once newer than `after`.
   * @param {string} question
   * @param {number} after
   * @param {string} [handle]
   */
  const view = async (question, after, handle) => /** @type {ViewState} */ ((await call('zot_panel_view', { tool: 'confirm', arguments: { question }, after, ...(handle && { call: handle }) })).structuredContent);
  /**
   * The view once its call's panel is open, failing after 10 s.
   * @param {string} question
   */
  const opened = async (question) => {
    const until = Date.now() + 10_000;
    let v = await view(question, 0);
    while (v.phase === 'waiting') {
      assert.ok(Date.now() < until, `the view of "${question}" still waits for its panel after 10 s`);
      v = /** @type {ViewState} */ ((await call('zot_panel_view', { tool: 'confirm', arguments: { question }, after: v.version, call: v.call }, 11_000)).structuredContent);
    }
    return v;
  };
  return { call, view, opened };
}

/** @param {ViewState} s */
const shown = (s) => (s.phase === 'open' && s.render && 'lines' in s.render ? s.render.lines.join('\n') : `(${s.phase})`);

test('a panel reopened for another client\'s call leaves the first view and shows in that call\'s own; the first view\'s Enter answers nothing', { timeout: 60_000 }, async (t) => {
  const s = await serveMcpHttp(t, ['--no-discover', '--ext', extension(true)]);
  const a = await client(t, s.info);
  const b = await client(t, s.info);
  const callA = a.call('confirm', { question: 'delete staging?' });
  const va = await a.opened('delete staging?');
  assert.equal(shown(va), 'delete staging?');
  const callB = b.call('confirm', { question: 'wipe production?' });
  const vb = await b.opened('wipe production?');
  assert.equal(shown(vb), 'wipe production?', 'B\'s view shows B\'s question');
  // A's view moves on from its render: the panel is no longer its.
  const after = await a.view('delete staging?', va.version, va.call);
  assert.notEqual(shown(after), 'wipe production?', 'never B\'s question in A\'s view');
  assert.equal(after.phase, 'waiting', JSON.stringify(after));
  const taken = await a.call('zot_panel_input', { call: va.call, messages: [{ type: 'key', key: 'enter', seq: 1 }] });
  assert.equal(taken.structuredContent?.taken, 0, 'A\'s Enter reaches no panel');
  await sleep(200);
  let bDone = false;
  void callB.then(() => (bDone = true));
  await sleep(100);
  assert.equal(bDone, false, 'B\'s call is not answered by A');
  const tb = await b.call('zot_panel_input', { call: vb.call, messages: [{ type: 'key', key: 'enter', seq: 1 }] });
  assert.equal(tb.structuredContent?.taken, 1);
  assert.equal((await callB).content[0].text, 'yes: wipe production?');
  // A is left waiting for its panel; its client gives up.
  void callA.catch(() => undefined);
});

test('without tool_call_id, a panel binds within one session only: while calls of two sessions wait, it binds to neither and says why', { timeout: 60_000 }, async (t) => {
  // Each call's panel opens 800 ms after the call: time for a second client's call to be waiting too.
  const s = await serveMcpHttp(t, ['--no-discover', '--ext', extension(false, 800)]);
  const a = await client(t, s.info);
  const b = await client(t, s.info);
  // One session: the newest call without a panel is its call, as before.
  const one = a.call('confirm', { question: 'alone?' });
  const v = await a.opened('alone?');
  assert.equal(shown(v), 'alone?');
  await a.call('zot_panel_input', { call: v.call, messages: [{ type: 'key', key: 'enter', seq: 1 }] });
  assert.equal((await one).content[0].text, 'yes: alone?');
  // Two sessions, both waiting when the panels open: no guess.
  const callA = a.call('confirm', { question: 'delete staging?' }, 30_000).catch((e) => e);
  const callB = b.call('confirm', { question: 'wipe production?' }, 30_000).catch((e) => e);
  await waitFor('both panels refused', () => (s.stderr().match(/open_panel "confirm" without tool_call_id while calls of more than one session wait for a panel/g) ?? []).length >= 2 || undefined, 10_000).catch(() => undefined);
  const va = await a.view('delete staging?', 0);
  const vb = await b.view('wipe production?', 0);
  assert.equal(va.phase, 'waiting', `A's view shows no panel: ${shown(va)}`);
  assert.equal(vb.phase, 'waiting', `B's view shows no panel: ${shown(vb)}`);
  assert.match(s.stderr(), /open_panel "confirm" without tool_call_id while calls of more than one session wait for a panel/);
  void callA;
  void callB;
});
