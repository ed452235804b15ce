// The four peers, four ways to make the same call to a child process over
// stdio: { name, call(text) -> Promise<reply>, textOf(reply) -> string, close() }.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { BENCH, ECHO_DIR, HOST_LIB, JSONRPC_PEER, MCP_PEER } from './config.mjs';
import { readFrames, readLines, scratch, waitExit } from './util.mjs';

const require = createRequire(import.meta.url);
/** The host library under test (dist/host.js, or --host-lib). */
export const { ZotHost, CancellationTokenSource } = require(HOST_LIB);

/** The host peer; `lib` loads another build of the host library next to this one (bench/compare.mjs), under `name`. */
export async function openHostPeer({ name = 'host', lib } = {}) {
  const Host = lib ? require(lib).ZotHost : ZotHost;
  const home = scratch('home');
  const project = scratch('project');
  const host = new Host({ cwd: project, zotHome: home, extensionPaths: [ECHO_DIR], discover: false });
  await host.start();
  const rt = host.get('zot-bench-echo');
  if (!rt || rt.state !== 'ready') throw new Error(`the echo extension is ${rt?.state}: ${rt?.error}`);
  return {
    name,
    host,
    rt,
    call: (text) => host.runToolCall('echo', { text }),
    textOf: (o) => (o.outcome === 'completed' && !o.isError ? o.content[0]?.text : `${o.outcome}: ${o.message}`),
    close: () => host.dispose(),
  };
}

export async function openFloorPeer() {
  const child = spawn(process.execPath, ['index.mjs'], { cwd: ECHO_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map();
  let seq = 0;
  let onReady;
  const ready = new Promise((r) => (onReady = r));
  readFrames(child.stdout, (f) => {
    if (f.id !== undefined) {
      const resolve = pending.get(f.id);
      if (resolve) {
        pending.delete(f.id);
        resolve(f);
      }
    } else if (f.type === 'hello') {
      child.stdin.write(JSON.stringify({ type: 'hello_ack', protocol_version: 1, zot_version: 'bench', provider: '', model: '', cwd: ECHO_DIR, extension_dir: ECHO_DIR, data_dir: ECHO_DIR }) + '\n');
    } else if (f.type === 'ready') onReady();
  });
  const stderrListeners = new Set();
  readLines(child.stderr, (l) => {
    for (const fn of stderrListeners) fn(l);
  });
  await ready;
  const request = (name, args) => {
    const id = String(++seq);
    child.stdin.write(JSON.stringify({ type: 'tool_call', id, name, args }) + '\n');
    return new Promise((resolve) => pending.set(id, resolve));
  };
  return {
    name: 'floor',
    child,
    request,
    stderrListeners,
    nextId: () => String(seq + 1),
    call: (text) => request('echo', { text }),
    textOf: (f) => f.content[0].text,
    close: async () => {
      child.stdin.end();
      await waitExit(child);
    },
  };
}

export async function openJsonrpcPeer() {
  const rpc = require('vscode-jsonrpc/node');
  const child = spawn(process.execPath, [JSONRPC_PEER], { cwd: BENCH, stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  conn.listen();
  const first = await conn.sendRequest('echo', { text: 'x' });
  if (first?.content?.[0]?.text !== 'x') throw new Error('the jsonrpc peer did not echo');
  return {
    name: 'jsonrpc',
    call: (text) => conn.sendRequest('echo', { text }),
    textOf: (r) => r.content[0].text,
    close: async () => {
      conn.dispose();
      child.stdin.end();
      await waitExit(child);
    },
  };
}

export async function openMcpPeer() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'zot-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_PEER], cwd: BENCH, stderr: 'inherit' });
  await client.connect(transport);
  const tools = await client.listTools();
  if (!tools.tools.some((t) => t.name === 'echo')) throw new Error('the MCP peer has no echo tool');
  return {
    name: 'mcp',
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    textOf: (r) => r.content[0].text,
    close: () => client.close(),
  };
}
