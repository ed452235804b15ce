// The official MCP conformance suite (@modelcontextprotocol/conformance) run
// against zot-host mcp --http and against the editor's server (the same
// listener VS Code's agent reaches, with one definition per extension): the
// scenarios that apply to a generic server, for each MCP revision it serves
// (2025-11-25 and the stateless 2026-07-28). The runner sends no token, so a
// small proxy in front adds the bearer token and maps its own Host and Origin
// to the server's; any other Host or Origin goes through unchanged, so the
// DNS-rebinding scenario meets the server's own guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { COMPAT, ROOT, serveMcpHttp, startHost } from '../helpers.mjs';
import { ensureEnv } from '../../scripts/vscode-test-env.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('../../out/types/mcp/entry.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const RUNNER = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** The scenarios that apply to a generic server, by the revision they are run for. */
const SCENARIOS = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'dns-rebinding-protection', 'prompts-list', 'server-sse-multiple-streams', 'logging-set-level'],
  '2026-07-28': ['server-stateless', 'tools-list', 'tools-call-error', 'dns-rebinding-protection', 'prompts-list', 'server-sse-multiple-streams', 'http-header-validation'],
};
/**
 * Checks that call a diagnostic tool only the suite's reference server has
 * (`test_missing_capability`, `test_trigger_tool_change`): a zot server has
 * no such tool, so they cannot pass here. Every other check must.
 * @type {Record<string, string[]>}
 */
const REFERENCE_ONLY = {
  'server-stateless': ['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400', 'sep-2575-server-sends-tools-list-changed-on-subscription', 'sep-2575-server-sends-prompts-list-changed-on-subscription'],
};
const TOOLS = path.join(COMPAT, 'node-nosdk');

/** A Node the runner runs on (it needs 22 or later): this one, or the Node 24 the VS Code tests install. */
async function runnerNode() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return (await ensureEnv({ browser: false })).node24Bin;
}

/**
 * Serves `target` (an MCP endpoint URL) with `token` added; returns the proxy's endpoint under localhost.
 * @param {import('node:test').TestContext} t
 * @param {string} target
 * @param {string} token
 */
async function tokenProxy(t, target, token) {
  const to = new URL(target);
  let port = 0;
  const proxy = http.createServer((req, res) => {
    const mine = [`localhost:${port}`, `127.0.0.1:${port}`];
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (mine.includes(String(headers.host))) headers.host = to.host;
    if (headers.origin && mine.some((h) => headers.origin === `http://${h}`)) headers.origin = `http://${to.host}`;
    const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: to.pathname + (req.url?.replace(/^\/mcp/, '') ?? ''), headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
  port = /** @type {import('node:net').AddressInfo} */ (proxy.address()).port;
  t.after(() => new Promise((resolve) => proxy.close(() => resolve(undefined))));
  return `http://localhost:${port}/mcp`;
}

/**
 * Runs one scenario; its exit code and the runner's output.
 * @param {string} node
 * @param {string} url
 * @param {string} name
 * @param {string} revision
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function scenario(node, url, name, revision) {
  return new Promise((resolve) => {
    const child = spawn(node, [RUNNER, 'server', '--url', url, '--scenario', name, '--spec-version', revision], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

/**
 * @param {string} node
 * @param {string} url
 */
async function runAll(node, url) {
  for (const [revision, names] of Object.entries(SCENARIOS)) {
    for (const name of names) {
      const r = await scenario(node, url, name, revision);
      const where = `${name} (${revision})`;
      const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(r.output);
      assert.ok(m, `${where}: no result line\n${r.output}`);
      const allowed = REFERENCE_ONLY[name] ?? [];
      const short = [...r.output.matchAll(/\[([\w-]+)\s*\] (FAILURE|WARNING)/g)].map((x) => x[1]);
      assert.deepEqual(short.filter((id) => !allowed.includes(id)), [], `${where}: checks failed or warned\n${r.output}`);
      assert.equal(Number(m[3]) + Number(m[4]), short.length, `${where}: every failure and warning is named above\n${r.output}`);
      if (!allowed.length) assert.equal(r.code, 0, `${where} exited ${r.code}\n${r.output}`);
    }
  }
}

test('the conformance scenarios of a generic server, for 2025-11-25 and for 2026-07-28, pass against zot-host mcp --http', { timeout: 240_000 }, async (t) => {
  const node = await runnerNode();
  const { info } = await serveMcpHttp(t, ['--no-discover', '--ext', TOOLS]);
  await runAll(node, await tokenProxy(t, info.url, info.token));
});

test('the same scenarios pass against the editor\'s server, on one extension\'s endpoint', { timeout: 240_000 }, async (t) => {
  const node = await runnerNode();
  const host = await startHost(t, [TOOLS]);
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  const one = `${new URL(server.url).origin}/mcp/ext/${host.extensions[0].name}`;
  await runAll(node, await tokenProxy(t, one, server.token));
});
