// `zot-host mcp --http`: the Streamable HTTP server as a process of its own,
// for any MCP client, driven with the MCP SDK's client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { createRequire } from 'node:module';
import { alive, CLI, makeExt, serveMcpHttp, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const serve = serveMcpHttp;

/**
 * @param {import('node:test').TestContext} t
 * @param {{ url: string, token: string }} info
 */
async function connect(t, info) {
  const client = new Client({ name: 'cli-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${info.token}` } } }));
  t.after(() => client.close().catch(() => undefined));
  return client;
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** @type {(info: { url: string }, headers: Record<string, string>) => Promise<Response>} */
const post = (info, headers) => fetch(info.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });

test('mcp --http prints one line with url and token, serves an MCP client, and stops its extensions on SIGTERM', async (t) => {
  const ext = makeExt(tmpdir(), 'http-cli', { tools: [{ name: 'echo' }, { name: 'ask', interactive: true }] });
  const s = await serve(t, ['--no-discover', '--ext', ext]);
  assert.deepEqual(Object.keys(s.info), ['url', 'token']);
  assert.match(s.info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.match(s.info.token, /^[A-Za-z0-9_-]{40,}$/);
  const client = await connect(t, s.info);
  assert.deepEqual((await client.listTools()).tools.map((x) => x.name), ['echo'], 'no UI: interactive tools are not offered');
  assert.deepEqual((await client.callTool({ name: 'echo', arguments: { via: 'cli' } })).content, [{ type: 'text', text: '{"via":"cli"}' }]);

  assert.equal((await post(s.info, {})).status, 401);
  assert.equal((await post(s.info, { Authorization: 'Bearer wrong' })).status, 401);
  assert.equal((await post(s.info, { Authorization: `Bearer ${s.info.token}`, Origin: 'http://evil.example' })).status, 403);

  const pid = Number(await waitFor('the extension started', () => /started process (\d+)/.exec(s.stderr())?.[1]));
  assert.ok(alive(pid));
  // The defaults it runs with, as it states them on stderr: 4 MiB bodies, 32 sessions, 30 minutes idle.
  assert.match(s.stderr(), /bodies up to 4194304 bytes, 32 sessions, idle ones closed after 1800 s/);
  s.child.kill('SIGTERM');
  const { code } = await s.exited;
  assert.equal(code, 0, s.stderr());
  assert.equal(alive(pid), false, 'the extension was stopped before the server exited');
  assert.equal(s.stdout().trim().split('\n').length, 1, 'stdout carries only the one line');
});

test('mcp --http --port N listens on that port of 127.0.0.1 and stops on SIGINT', async (t) => {
  const port = await freePort();
  const ext = makeExt(tmpdir(), 'http-port', { tools: [{ name: 'echo' }] });
  const s = await serve(t, ['--port', String(port), '--no-discover', '--ext', ext]);
  assert.equal(s.info.url, `http://127.0.0.1:${port}/mcp`);
  const client = await connect(t, s.info);
  assert.equal((await client.callTool({ name: 'echo', arguments: {} })).isError, false);
  const pid = Number(/started process (\d+)/.exec(s.stderr())?.[1]);
  s.child.kill('SIGINT');
  assert.equal((await s.exited).code, 0);
  assert.equal(alive(pid), false);
});

test('mcp --http: a port in use and bad flags are reported, not a stack trace', async () => {
  /** @type {(args: string[]) => Promise<{ code: number | null, stderr: string }>} */
  const run = (args) => new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
  const busy = net.createServer();
  await new Promise((r) => busy.listen(0, '127.0.0.1', () => r(undefined)));
  const r = await run(['mcp', '--http', '--port', String(/** @type {import('node:net').AddressInfo} */ (busy.address()).port), '--no-discover']);
  busy.close();
  assert.equal(r.code, 1);
  assert.match(r.stderr, /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.equal((await run(['mcp', '--port', '80'])).code, 2);
  assert.match((await run(['mcp', '--http', '--port', 'x'])).stderr, /--port takes a port number/);
  // The last port there is, and one past it.
  for (const port of ['65536', '70000', '-1']) {
    const r = await run(['mcp', '--http', '--port', port]);
    assert.equal(r.code, 2, port);
    assert.match(r.stderr, /--port takes a port number/, port);
  }
  assert.match((await run(['doctor', '--http'])).stderr, /--http is an option of mcp/);
});
