// The Streamable HTTP bridge that VS Code's agent mode uses, driven by the MCP
// SDK's own HTTP client against a host with real extension processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { lib, makeExt, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('../../out/types/mcp/entry.js')} */
const { nameTableBuilds, startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

/**
 * @param {import('node:test').TestContext} t
 * @param {Record<string, unknown>} cfg
 */
async function setup(t, cfg) {
  const ext = makeExt(tmpdir(), 'http-ext', cfg);
  const host = await startHost(t, [ext], { ui: new (class extends lib.HeadlessUI { interactive = true; })() });
  const mcp = await startMcpHttpServer(host);
  t.after(() => mcp.close());
  return { host, mcp };
}

/**
 * @param {import('node:test').TestContext} t
 * @param {{ url: string, token: string }} mcp
 */
async function connect(t, mcp, token = mcp.token) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

test('the endpoint listens on loopback and refuses requests without the bearer token', async (t) => {
  const { mcp } = await setup(t, { tools: [{ name: 'echo' }] });
  assert.match(mcp.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  /** @param {Record<string, string>} headers */
  const post = (headers) => fetch(mcp.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });
  const none = await post({});
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.equal((await post({ Authorization: 'Bearer wrong' })).status, 401);
  assert.equal((await post({ Authorization: `Bearer ${mcp.token}x` })).status, 401);
  assert.equal((await post({ Authorization: `Bearer ${mcp.token}` })).status, 200);
  await assert.rejects(connect(t, mcp, 'not-the-token'));
});

test('an MCP client lists and calls zot tools through it; interactive tools are offered where a UI exists', async (t) => {
  const { mcp } = await setup(t, { tools: [{ name: 'echo' }, { name: 'ask', interactive: true, description: 'asks' }] });
  const client = await connect(t, mcp);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ['ask', 'echo']);
  const r = await client.callTool({ name: 'echo', arguments: { via: 'http' } });
  assert.deepEqual(r.content, [{ type: 'text', text: '{"via":"http"}' }]);
  assert.equal(mcp.sessions, 1);
});

test('MCP cancellation over HTTP reaches the extension as tool_cancel', async (t) => {
  const { host, mcp } = await setup(t, { caps: ['tools', 'tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable' }, { name: 'echo' }] });
  const client = await connect(t, mcp);
  const controller = new AbortController();
  const call = client.callTool({ name: 'work', arguments: {} }, undefined, { signal: controller.signal });
  const [frame] = await waitFor('delivered', () => host.received('http-ext', 'tool_call').length && host.received('http-ext', 'tool_call'));
  controller.abort();
  await assert.rejects(call);
  await waitFor('tool_cancel', () => host.received('http-ext', 'tool_cancel').some((f) => f.id === frame.id));
  await waitFor('work stopped', () => host.stderrOf('http-ext').includes(`CANCELLED ${frame.id}`));
  assert.equal((await client.callTool({ name: 'echo', arguments: {} })).isError, false);
});

test('a client that ends its session (DELETE, as VS Code does when it stops a server) is reported with its endpoint and launch header; one that just goes away is not', async (t) => {
  const ext = makeExt(tmpdir(), 'http-ext', { tools: [{ name: 'echo' }] });
  const host = await startHost(t, [ext]);
  /** @type {[string | undefined, string | undefined][]} */
  const ended = [];
  const mcp = await startMcpHttpServer(host, () => undefined, { onClientEnded: (scope, launch) => ended.push([scope, launch]) });
  t.after(() => mcp.close());
  /**
   * @param {string} url
   * @param {Record<string, string>} headers
   */
  const open = async (url, headers) => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${mcp.token}`, ...headers } } });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools();
    return { client, transport };
  };
  const one = await open(`${mcp.url}/ext/http-ext`, { 'X-Zot-Launch': 'launch-1' });
  await one.transport.terminateSession();
  await one.client.close();
  assert.deepEqual(ended, [['http-ext', 'launch-1']]);
  // The endpoint for every extension, without a launch header.
  const all = await open(mcp.url, {});
  await all.transport.terminateSession();
  await all.client.close();
  assert.deepEqual(ended, [['http-ext', 'launch-1'], [undefined, undefined]]);
  // Closed without ending the session, and ended by the server itself: nothing.
  const gone = await open(`${mcp.url}/ext/http-ext`, { 'X-Zot-Launch': 'launch-2' });
  await gone.client.close();
  await waitFor('the second session open', () => mcp.sessions >= 1);
  await mcp.close();
  assert.equal(ended.length, 2);
});

test('a server per extension is told only of its own extension\'s changes: a tool registered later reaches its client as tools/list_changed, and not the other extension\'s', async (t) => {
  const { ToolListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');
  const root = tmpdir();
  const a = makeExt(root, 'late-a', { tools: [{ name: 'a_one' }], registerLate: 'a_two', registerLateMs: 1500 });
  const b = makeExt(root, 'late-b', { tools: [{ name: 'b_one' }] });
  const host = await startHost(t, [a, b]);
  const mcp = await startMcpHttpServer(host);
  t.after(() => mcp.close());
  /** @type {Record<string, number>} */
  const changes = { 'late-a': 0, 'late-b': 0, all: 0 };
  /** @type {Record<string, InstanceType<typeof Client>>} */
  const clients = {};
  for (const [key, url] of [['late-a', `${mcp.url}/ext/late-a`], ['late-b', `${mcp.url}/ext/late-b`], ['all', mcp.url]]) {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes[key]++);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${mcp.token}` } } }));
    t.after(() => client.close());
    clients[key] = client;
  }
  await waitFor('late-a\'s client told', () => changes['late-a'] > 0, 10_000);
  await waitFor('the client of every extension told', () => changes.all > 0, 10_000);
  assert.deepEqual((await clients['late-a'].listTools()).tools.map((x) => x.name).sort(), ['a_one', 'a_two']);
  assert.equal(changes['late-b'], 0, 'late-b\'s server said nothing');
  assert.deepEqual((await clients['late-b'].listTools()).tools.map((x) => x.name), ['b_one']);
});

test('the tool-name table is built once per registry change: agent-mode calls (a miss too) and hook requests reuse it', async (t) => {
  const root = tmpdir();
  const host = await startHost(t, [makeExt(root, 'names-a', { tools: [{ name: 'echo' }, { name: 'odd.name' }] }), makeExt(root, 'names-b', { tools: [{ name: 'other' }] })]);
  const mcp = await startMcpHttpServer(host);
  t.after(() => mcp.close());
  const token = 'h'.repeat(43);
  mcp.setHookToken(token);
  const client = await connect(t, mcp);
  /** @param {number} n */
  const calls = async (n) => {
    for (let i = 0; i < n; i++) {
      const r = await client.callTool({ name: i % 2 ? 'echo' : 'odd_name', arguments: { i } });
      assert.deepEqual(r.content, [{ type: 'text', text: JSON.stringify({ i }) }]);
    }
    assert.equal((await client.callTool({ name: 'no_such_tool', arguments: {} })).isError, true);
  };
  /** PreToolUse of one of zot's own MCP tools: the hook asks whether the server serves it. @param {number} n */
  const hooks = async (n) => {
    for (let i = 0; i < n; i++) {
      const body = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'mcp__zot__echo', tool_input: { i }, tool_use_id: `h${i}`, cwd: root });
      const res = await fetch(`${new URL(mcp.url).origin}/hooks/PreToolUse`, { method: 'POST', headers: { [lib.AUTH_HEADER]: lib.signRequest(token, 'PreToolUse', body).header }, body });
      assert.equal(res.status, 200, await res.text());
    }
  };
  await client.listTools();
  await calls(1);
  await hooks(1);
  const first = nameTableBuilds();
  await calls(12);
  await hooks(5);
  await client.listTools();
  assert.equal(nameTableBuilds(), first, 'no table was built for the same registry');

  await host.stopExtension('names-b');
  await waitFor('names-b gone from the registry', () => !host.tools().some((x) => x.name === 'other'));
  const r = await client.callTool({ name: 'other', arguments: {} });
  assert.equal(r.isError, true, 'the new table is the one used');
  await calls(12);
  await hooks(5);
  const second = nameTableBuilds();
  assert.ok(second > first && second - first <= 4, `after one registry change, ${second - first} tables were built (at most one per kind of server: listed, called, a miss, a hook)`);
  await calls(10);
  assert.equal(nameTableBuilds(), second);
});
