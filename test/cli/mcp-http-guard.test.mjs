// What the Streamable HTTP server refuses, and how it stays bounded: a
// foreign Host or Origin (403), a missing or wrong token (401, the scheme in
// any case), a body over the limit (413, at initialize as later), sessions
// that idle or pile up. Driven over real sockets against real extensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { makeExt, ROOT, sleep, startHost, tmpdir } from '../helpers.mjs';
import { makeHostile } from '../hostile.mjs';

const require = createRequire(import.meta.url);
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

async function setup(t, options = {}, ext = makeExt(tmpdir(), 'guard-ext', { tools: [{ name: 'echo' }] })) {
  const host = await startHost(t, [ext]);
  const mcp = await startMcpHttpServer(host, () => undefined, options);
  t.after(() => mcp.close());
  return { host, mcp, port: Number(new URL(mcp.url).port) };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** One request over node:http, which (unlike fetch) sends any Host header asked for. */
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

async function openSession(mcp) {
  const r = await request(mcp, { body: INIT });
  assert.equal(r.status, 200, r.text);
  return r.headers['mcp-session-id'];
}

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
    assert.match(JSON.parse(r.text).error.message, /Host header/);
  }
  for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`]) {
    const r = await request(mcp, { headers: { Origin: origin }, body: INIT });
    assert.equal(r.status, 403, `Origin ${origin}`);
    assert.match(JSON.parse(r.text).error.message, /origin/);
  }
  // Without the token a foreign request is still 403: it is refused before anything else.
  assert.equal((await request(mcp, { headers: { Host: 'evil.example', Authorization: '' }, body: INIT })).status, 403);
  // Its own names are fine, with or without an Origin; so is a whole session with the SDK's client.
  assert.equal((await request(mcp, { headers: { Host: `localhost:${port}` }, body: INIT })).status, 200);
  assert.equal((await request(mcp, { headers: { Origin: `http://127.0.0.1:${port}` }, body: INIT })).status, 200);
  assert.equal((await request(mcp, { headers: { Origin: `http://localhost:${port}` }, body: INIT })).status, 200);
  const client = await connect(t, mcp);
  assert.equal((await client.callTool({ name: 'echo', arguments: { ok: 1 } })).content[0].text, '{"ok":1}');
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
    assert.match(r.headers['www-authenticate'], /^Bearer/);
  }
});

test('a body over 4 MiB gets 413 at initialize and later, declared or streamed; 4 MiB itself is accepted', async (t) => {
  const { mcp } = await setup(t);
  // Padding in params._meta, which the SDK lets through, so a body within the limit is a valid request.
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
      assert.match(JSON.parse(r.text).error.message, /larger than the 4194304-byte limit/);
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
  assert.match(JSON.parse(r.text).error.message, /nested deeper than 68 levels/);
  assert.equal((await request(mcp, { body: INIT })).status, 200);
});

test('tools/list over HTTP answers although one tool registered a 5,000-deep schema', async (t) => {
  const { mcp } = await setup(t, {}, makeHostile(tmpdir(), 'deep-http', { tools: [{ name: 'deep_obj', schemaDepth: 5000 }, { name: 'plain' }] }));
  const client = await connect(t, mcp);
  const listed = await Promise.race([client.listTools(), sleep(10_000).then(() => ({ tools: 'no answer' }))]);
  assert.deepEqual(listed.tools.map((x) => x.name), ['plain']);
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
  const ids = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await openSession(mcp));
    await sleep(5);
  }
  assert.equal(mcp.sessions, 3);
  const list = (id) => request(mcp, { headers: { 'mcp-session-id': id }, body: { jsonrpc: '2.0', id: 9, method: 'tools/list' } });
  assert.equal((await list(ids[0])).status, 404);
  assert.equal((await list(ids[1])).status, 404);
  assert.equal((await list(ids[4])).status, 200);
});
