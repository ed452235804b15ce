// The official MCP conformance suite (@modelcontextprotocol/conformance) run
// against zot-host mcp --http and against the editor's server (the same
// listener VS Code's agent reaches, with one definition per extension): the
// scenarios that apply to a generic server, for each MCP revision it serves
// (2025-11-25 and the stateless 2026-07-28). The runner sends no token, so a
// small proxy in front adds the bearer token and maps its own Host and Origin
// to the server's; any other Host or Origin goes through unchanged, so the
// DNS-rebinding scenario meets the server's own guard. The runner runs all
// its scenarios for a revision in one process; the generic ones are read from
// the checks it writes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import os from 'node:os';
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
 * Runs every scenario of the runner for one revision in one process (a process per scenario
 * spent most of its time loading the runner), each scenario's checks written to a folder of
 * `out`; resolves with the runner's output.
 * @param {string} node
 * @param {string} url
 * @param {string} revision
 * @param {string} out
 * @returns {Promise<string>}
 */
function suite(node, url, revision, out) {
  return new Promise((resolve) => {
    const child = spawn(node, [RUNNER, 'server', '--url', url, '--suite', 'all', '--spec-version', revision, '--output-dir', out], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', () => resolve(output.replace(/\x1b\[[0-9;]*m/g, '')));
  });
}

/**
 * The checks the runner wrote for each scenario it ran, by name (its folder is `server-<name>-<time>`).
 * @param {string} out
 * @returns {Map<string, { id: string, status: string }[]>}
 */
function checksOf(out) {
  const byName = new Map();
  for (const dir of readdirSync(out)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir)?.[1];
    if (name) byName.set(name, JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8')));
  }
  return byName;
}

/**
 * @param {string} node
 * @param {string} url
 */
async function runAll(node, url) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-conformance-'));
  try {
    for (const [revision, names] of Object.entries(SCENARIOS)) {
      const out = path.join(scratch, revision);
      const output = await suite(node, url, revision, out);
      assert.match(output, /^Total: \d+ passed, \d+ failed$/m, `${revision}: the runner did not finish\n${output}`);
      const ran = checksOf(out);
      for (const name of names) {
        const where = `${name} (${revision})`;
        const checks = ran.get(name);
        assert.ok(checks?.length, `${where}: the runner ran no such scenario, or it wrote no checks\n${output}`);
        const allowed = REFERENCE_ONLY[name] ?? [];
        const short = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.id} ${c.status}`);
        assert.deepEqual(short.filter((c) => !allowed.includes(c.split(' ')[0])), [], `${where}: checks failed or warned\n${JSON.stringify(checks, null, 1)}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// The two servers share nothing, and their runs mostly wait on the scenarios' own timers: side by side.
describe('MCP conformance', { concurrency: true }, () => {
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
});
