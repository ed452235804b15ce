// What the Streamable HTTP server refuses, and how it stays bounded: a
// foreign Host or Origin (403), a missing or wrong token (401, the scheme in
// any case), a body over the limit (413, at initialize as later), sessions
// that idle or pile up; every refusal on the MCP and hook paths closes the
// connection rather than read a body nobody wants, and nothing of a path is
// decoded before its request is authorized. Driven over real sockets
// against real extensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { lib, makeExt, ROOT, sleep, startHost, tmpdir } from '../helpers.mjs';
import { makeHostile, namesOnceRegistered } from '../hostile.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

/** @typedef {{ error: { message: string } }} ErrorBody The body of a refusal. */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult & { content: import('@modelcontextprotocol/sdk/types.js').TextContent[] }} TextResult A tool's result of text blocks, as these tools answer. */

/**
 * @param {import('node:test').TestContext} t
 * @param {import('../../out/types/mcp/transport/http.js').McpHttpOptions} [options]
 * @param {string} [ext]
 */
async function setup(t, options = {}, ext = makeExt(tmpdir(), 'guard-ext', { tools: [{ name: 'echo' }] })) {
  const host = await startHost(t, [ext]);
  const mcp = await startMcpHttpServer(host, () => undefined, options);
  t.after(() => mcp.close());
  return { host, mcp, port: Number(new URL(mcp.url).port) };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/**
 * One request over node:http, which (unlike fetch) sends any Host header asked for.
 * @param {{ url: string, token: string }} mcp
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown, chunked?: boolean }} [options]
 * @returns {Promise<{ status: number | undefined, headers: import('node:http').IncomingHttpHeaders, text: string }>}
 */
function request(mcp, { method = 'POST', headers = {}, body, chunked = false } = {}) {
  const url = new URL(mcp.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, path: url.pathname, method, headers: {
      'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${mcp.token}`, ...headers,
    } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body === undefined) return req.end();
    const data = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    if (!chunked) return req.end(data);
    // No Content-Length: the limit must hold while the body streams in.
    const buf = Buffer.from(data);
    let at = 0;
    const pump = () => {
      while (at < buf.length) {
        const ok = req.write(buf.subarray(at, at + 65536));
        at += 65536;
        if (!ok) return req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * @param {{ url: string, token: string }} mcp
 * @returns {Promise<string>} the session id
 */
async function openSession(mcp) {
  const r = await request(mcp, { body: INIT });
  assert.equal(r.status, 200, r.text);
  return String(r.headers['mcp-session-id']);
}

/**
 * @param {import('node:test').TestContext} t
 * @param {{ url: string, token: string }} mcp
 * @param {Record<string, string>} [headers]
 */
async function connect(t, mcp, headers = {}) {
  const client = new Client({ name: 'guard-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${mcp.token}`, ...headers } } }));
  t.after(() => client.close());
  return client;
}

test('a Host or Origin that does not name this server gets 403, even with the token', async (t) => {
  const { mcp, port } = await setup(t);
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `attacker.rebind.network:${port}`]) {
    const r = await request(mcp, { headers: { Host: host }, body: INIT });
    assert.equal(r.status, 403, `Host ${host}`);
    assert.match(/** @type {ErrorBody} */ (JSON.parse(r.text)).error.message, /Host header/);
  }
  for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`]) {
    const r = await request(mcp, { headers: { Origin: origin }, body: INIT });
    assert.equal(r.status, 403, `Origin ${origin}`);
    assert.match(/** @type {ErrorBody} */ (JSON.parse(r.text)).error.message, /origin/);
  }
  // Without the token a foreign request is still 403: it is refused before anything else.
  assert.equal((await request(mcp, { headers: { Host: 'evil.example', Authorization: '' }, body: INIT })).status, 403);
  // Its own names are fine, with or without an Origin; so is a whole session with the SDK's client.
  assert.equal((await request(mcp, { headers: { Host: `localhost:${port}` }, body: INIT })).status, 200);
  assert.equal((await request(mcp, { headers: { Origin: `http://127.0.0.1:${port}` }, body: INIT })).status, 200);
  assert.equal((await request(mcp, { headers: { Origin: `http://localhost:${port}` }, body: INIT })).status, 200);
  const client = await connect(t, mcp);
  assert.equal(/** @type {TextResult} */ (await client.callTool({ name: 'echo', arguments: { ok: 1 } })).content[0].text, '{"ok":1}');
  // A session's later requests are held to the same rule.
  const session = await openSession(mcp);
  const later = await request(mcp, { headers: { 'mcp-session-id': session, Origin: 'http://evil.example' }, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  assert.equal(later.status, 403);
});

test('the bearer scheme is case-insensitive; a wrong or missing token is still 401', async (t) => {
  const { mcp } = await setup(t);
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    assert.equal((await request(mcp, { headers: { Authorization: `${scheme} ${mcp.token}` }, body: INIT })).status, 200, scheme);
  }
  for (const auth of ['', 'bearer', `Basic ${mcp.token}`, `bearer ${mcp.token}x`, `bearer x${mcp.token}`, `Bearer  ${mcp.token.slice(1)}`]) {
    const r = await request(mcp, { headers: { Authorization: auth }, body: INIT });
    assert.equal(r.status, 401, JSON.stringify(auth));
    assert.match(r.headers['www-authenticate'] ?? '', /^Bearer/);
  }
});

test('a body over 4 MiB gets 413 at initialize and later, declared or streamed; 4 MiB itself is accepted', async (t) => {
  const { mcp } = await setup(t);
  // Padding in params._meta, which the SDK lets through, so a body within the limit is a valid request.
  /** @type {(bytes: number, msg?: { method: string, params?: object }) => string} */
  const padded = (bytes, msg = INIT) => {
    const base = JSON.stringify({ ...msg, params: { ...msg.params, _meta: { pad: '' } } });
    return base.replace('"pad":""', `"pad":"${'x'.repeat(bytes - base.length)}"`);
  };
  const limit = 4 * 1024 * 1024;
  assert.equal((await request(mcp, { body: padded(limit) })).status, 200, 'exactly at the limit');
  for (const size of [limit + 1, 17 * 1024 * 1024]) {
    for (const chunked of [false, true]) {
      const r = await request(mcp, { body: padded(size), chunked });
      assert.equal(r.status, 413, `initialize of ${size} bytes${chunked ? ', streamed' : ''}`);
      assert.match(/** @type {ErrorBody} */ (JSON.parse(r.text)).error.message, /larger than the 4194304-byte limit/);
    }
  }
  const session = await openSession(mcp);
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
  const r = await request(mcp, { headers: { 'mcp-session-id': session }, body: padded(limit + 1, list), chunked: true });
  assert.equal(r.status, 413, 'the same limit within a session');
  assert.equal((await request(mcp, { body: '{"jsonrpc":' })).status, 400, 'a short body that is not JSON is still 400');
});

test('a body nested deeper than the bound is refused, and the server goes on', async (t) => {
  const { mcp } = await setup(t);
  const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
  const r = await request(mcp, { body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${deep}}` });
  assert.equal(r.status, 400);
  assert.match(/** @type {ErrorBody} */ (JSON.parse(r.text)).error.message, /nested deeper than 68 levels/);
  assert.equal((await request(mcp, { body: INIT })).status, 200);
});

test('tools/list over HTTP answers although one tool registered a 5,000-deep schema', async (t) => {
  const { mcp } = await setup(t, {}, makeHostile(tmpdir(), 'deep-http', { tools: [{ name: 'deep_obj', schemaDepth: 5000 }, { name: 'plain' }] }));
  const client = await connect(t, mcp);
  // Its last tool after the deep one.
  assert.deepEqual(await namesOnceRegistered(() => client.listTools(), 'plain'), ['plain']);
});

test('idle sessions are closed; a session with an open stream is in use and stays', async (t) => {
  const { mcp } = await setup(t, { sessionIdleMs: 300 });
  const client = await connect(t, mcp); // the SDK's client keeps an event stream open
  const idle = await openSession(mcp);
  assert.equal(mcp.sessions, 2);
  await sleep(900);
  const r = await request(mcp, { headers: { 'mcp-session-id': idle }, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  assert.equal(r.status, 404, 'the idle session is gone');
  assert.equal(mcp.sessions, 1);
  assert.equal((await client.callTool({ name: 'echo', arguments: {} })).isError, false, 'the one in use was kept');
});

test('at the session cap a new session replaces the least recently used idle one', async (t) => {
  const { mcp } = await setup(t, { maxSessions: 3 });
  /** @type {string[]} */
  const ids = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await openSession(mcp));
    await sleep(5);
  }
  assert.equal(mcp.sessions, 3);
  /** @param {string} id */
  const list = (id) => request(mcp, { headers: { 'mcp-session-id': id }, body: { jsonrpc: '2.0', id: 9, method: 'tools/list' } });
  assert.equal((await list(ids[0])).status, 404);
  assert.equal((await list(ids[1])).status, 404);
  assert.equal((await list(ids[4])).status, 200);
});

/**
 * Sends an endless body on a raw socket (without the token, or with a foreign Host): the answer, and how much the server took.
 * @param {{ url: string }} mcp
 * @param {{ host?: string, extra?: string, method?: string, target?: string }} headers the Host, more header lines, the request line's method and target (POST /mcp)
 * @param {'declared' | 'chunked'} framing
 * @returns {Promise<{ how: 'closed' | 'still open', sent: number, answer: string, ms: number }>}
 */
function endlessBody(mcp, headers, framing) {
  const url = new URL(mcp.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), '127.0.0.1');
    let sent = 0;
    let answer = '';
    let done = false;
    const began = Date.now();
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    /** @param {'closed' | 'still open'} how */
    const finish = (how) => {
      if (done) return;
      done = true;
      clearTimeout(bound);
      socket.destroy();
      resolve({ how, sent, answer, ms: Date.now() - began });
    };
    // 4 s is far past when the answer comes; a server that goes on reading takes gigabytes by then.
    const bound = setTimeout(() => finish('still open'), 4000);
    socket.on('connect', () => {
      // Declared as 100 GB, or chunked without end.
      const length = framing === 'chunked' ? 'Transfer-Encoding: chunked' : 'Content-Length: 100000000000';
      socket.write(`${headers.method ?? 'POST'} ${headers.target ?? '/mcp'} HTTP/1.1\r\nHost: ${headers.host ?? `127.0.0.1:${url.port}`}\r\nContent-Type: application/json\r\n${length}\r\n${headers.extra ?? ''}\r\n`);
      const write = framing === 'chunked'
        // All three parts, whatever the first ones return: a chunk cut short is no longer chunked framing.
        ? () => [socket.write(`${chunk.length.toString(16)}\r\n`), socket.write(chunk), socket.write('\r\n')][2]
        : () => socket.write(chunk);
      const pump = () => {
        while (!done && socket.writable) {
          sent += chunk.length;
          if (!write()) return socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => finish('closed'));
    socket.on('error', () => finish('closed'));
  });
}

test('a request refused before its body is read (401, 403) closes the connection: an endless body is not read', async (t) => {
  const { mcp, port } = await setup(t);
  /** @type {[string, Record<string, string>, RegExp][]} */
  const cases = [
    ['no token', {}, /^HTTP\/1\.1 401 /],
    ['a foreign Host', { host: `evil.example:${port}`, extra: `Authorization: Bearer ${mcp.token}\r\n` }, /^HTTP\/1\.1 403 /],
  ];
  for (const [what, headers, status] of cases.flatMap(([w, h, st]) => /** @type {typeof cases} */ ([[`${w}, Content-Length`, h, st], [`${w}, chunked`, h, st]]))) {
    const r = await endlessBody(mcp, headers, what.endsWith('chunked') ? 'chunked' : 'declared');
    assert.equal(r.how, 'closed', `${what}: the server closed the connection (sent ${r.sent} bytes in ${r.ms} ms)`);
    assert.match(r.answer, status, what);
    assert.match(r.answer, /\r\nConnection: close\r\n/i, what);
    assert.ok(r.sent < 64 * 1024 * 1024, `${what}: the server stopped reading (${(r.sent / 1048576).toFixed(1)} MiB sent)`);
  }
  // And it goes on serving.
  assert.equal((await request(mcp, { body: INIT })).status, 200);
});

test('every refusal on the hook and MCP paths closes the connection: the path is decoded only once the request is authorized, and an endless body is not read', async (t) => {
  const { mcp } = await setup(t);
  const hookToken = 'h'.repeat(43);
  mcp.setHookToken(hookToken);
  const { signRequest, AUTH_HEADER } = lib;
  /** @param {string} token */
  const bearer = (token) => `Authorization: Bearer ${token}\r\n`;
  /** @param {string} event */
  const proof = (event) => `${AUTH_HEADER}: ${signRequest(hookToken, event, '').header}\r\n`;
  /** @type {[string, { extra?: string, method?: string, target?: string }, number, RegExp][]} */
  const cases = [
    ['a hook without a proof', { target: '/hooks/PreToolUse' }, 401, /unauthorized: a hook request proves the hook token/],
    ['a hook with a malformed proof', { target: '/hooks/PreToolUse', extra: `${AUTH_HEADER}: ${hookToken}\r\n` }, 401, /unauthorized: the hook request's proof is not well formed/],
    ['a hook with the MCP token', { target: '/hooks/PreToolUse', extra: bearer(mcp.token) }, 401, /unauthorized: a hook request proves the hook token/],
    ['a hook named in bad percent-encoding, without a proof', { target: '/hooks/%E0' }, 401, /unauthorized: a hook request proves the hook token/],
    ['a hook by PUT', { target: '/hooks/PreToolUse', method: 'PUT', extra: proof('PreToolUse') }, 405, /a hook is a POST of its input/],
    ['MCP with a wrong token', { extra: bearer(`${mcp.token.slice(1)}x`) }, 401, /a valid bearer token is required/],
    ['MCP with a hook proof', { extra: proof('PreToolUse') }, 401, /a valid bearer token is required/],
    ['an extension named in bad percent-encoding', { target: '/mcp/ext/%E0', extra: bearer(mcp.token) }, 404, /not valid percent-encoding/],
    ['no MCP endpoint', { target: '/nope', extra: bearer(mcp.token) }, 404, /no MCP endpoint at \/nope/],
    ['a target that is not a path', { target: 'http://[', extra: bearer(mcp.token) }, 400, /the request target is not a URL path/],
    ['MCP by PUT', { method: 'PUT', extra: bearer(mcp.token) }, 400, /an MCP session starts with an initialize request/],
    ['MCP, over the body limit', { extra: bearer(mcp.token) }, 413, /larger than the 4194304-byte limit/],
    // A proof covers the body: one that is well formed is checked once the body is read, which an endless one never is.
    ['a hook with a proof, over the body limit', { target: '/hooks/PreToolUse', extra: proof('PreToolUse') }, 413, /larger than the 4194304-byte limit/],
  ];
  for (const [what, headers, status, message] of cases) {
    // A chunked body over the limit is refused only once 4 MiB of it are read, while this client is still sending at full speed:
    // the reset of the closed connection can reach it before it reads the answer (the 413 of a streamed body is read above).
    for (const framing of status === 413 ? /** @type {const} */ (['declared']) : /** @type {const} */ (['declared', 'chunked'])) {
      const label = `${what}, ${framing}`;
      const r = await endlessBody(mcp, headers, framing);
      assert.equal(r.how, 'closed', `${label}: the server closed the connection (sent ${r.sent} bytes in ${r.ms} ms; answer ${JSON.stringify(r.answer.slice(0, 200))})`);
      assert.match(r.answer, new RegExp(`^HTTP/1\\.1 ${status} `), label);
      assert.match(r.answer, /\r\nConnection: close\r\n/i, label);
      assert.match(r.answer, message, label);
      if (status === 405) assert.match(r.answer, /\r\nAllow: POST\r\n/i, label);
      assert.ok(r.sent < 64 * 1024 * 1024, `${label}: the server stopped reading (${(r.sent / 1048576).toFixed(1)} MiB sent)`);
    }
  }
  const streamed = await endlessBody(mcp, { extra: bearer(mcp.token) }, 'chunked');
  assert.equal(streamed.how, 'closed', `a chunked body over the limit: the server closed the connection (sent ${streamed.sent} bytes in ${streamed.ms} ms)`);
  assert.ok(streamed.sent < 64 * 1024 * 1024, `a chunked body over the limit: the server stopped reading (${(streamed.sent / 1048576).toFixed(1)} MiB sent)`);

  // A hook named in bad percent-encoding, its request proven: a 404 that says why, not a failure of the server.
  const base = new URL(mcp.url).origin;
  const body = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
  /** @param {string} name */
  const post = (name) => fetch(`${base}/hooks/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', [AUTH_HEADER]: signRequest(hookToken, name, body).header }, body });
  const bad = await post('%E0');
  assert.equal(bad.status, 404);
  assert.match(/** @type {ErrorBody} */ (await bad.json()).error.message, /no hook named "%E0": the name in the path is not valid percent-encoding/);
  // And it goes on serving, MCP and hooks alike.
  assert.equal((await request(mcp, { body: INIT })).status, 200);
  const hook = await post('PreToolUse');
  assert.equal(hook.status, 200, await hook.text());
});

test('at the cap, open event streams do not lock new clients out: the session longest without a message is replaced, one with a call in flight never', async (t) => {
  const ext = makeExt(tmpdir(), 'guard-ext', { tools: [{ name: 'echo' }, { name: 'hang', behaviour: 'hang' }] });
  const { mcp } = await setup(t, { maxSessions: 3 }, ext);
  // A client that holds an event stream on every session it opens.
  /** @type {import('node:http').ClientRequest[]} */
  const streams = [];
  const holdStream = async () => {
    const id = await openSession(mcp);
    const url = new URL(mcp.url);
    const req = http.request({ host: '127.0.0.1', port: url.port, path: url.pathname, method: 'GET', headers: { Accept: 'text/event-stream', Authorization: `Bearer ${mcp.token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
    await /** @type {Promise<void>} */ (new Promise((resolve) => { req.on('response', (res) => { res.resume(); resolve(); }); req.end(); }));
    streams.push(req);
    t.after(() => req.destroy());
    return id;
  };
  const held = [await holdStream(), await holdStream(), await holdStream()];
  assert.equal(mcp.sessions, 3);
  // Another client arrives: it gets a session (the stream holder's oldest goes), and keeps it while the holder floods.
  const other = await connect(t, mcp);
  assert.equal((await other.callTool({ name: 'echo', arguments: { n: 1 } })).isError, false);
  /** @param {string} id */
  const list = (id) => request(mcp, { headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, body: { jsonrpc: '2.0', id: 9, method: 'tools/list' } });
  assert.equal((await list(held[0])).status, 404, 'the oldest stream holder was replaced');
  await sleep(5);
  await holdStream();
  await sleep(5);
  await holdStream();
  assert.equal((await other.callTool({ name: 'echo', arguments: { n: 2 } })).isError, false, 'the other client\'s session was kept: it had the latest message');
  assert.equal(mcp.sessions, 3);
  // Every session with a call in flight: then, and only then, a new one is refused.
  const sdkClients = [other, await connect(t, mcp), await connect(t, mcp)];
  assert.equal(mcp.sessions, 3);
  const pending = sdkClients.map((c) => c.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 60_000 }).catch(() => undefined));
  await sleep(300);
  const refused = await request(mcp, { body: INIT });
  assert.equal(refused.status, 503);
  assert.match(/** @type {ErrorBody} */ (JSON.parse(refused.text)).error.message, /too many open MCP sessions \(3, each with a call in flight\)/);
  void pending;
});
