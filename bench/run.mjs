#!/usr/bin/env node
/**
 * `npm run bench [-- --json <file>] [-- --strict] [-- --quick]`
 *
 * Measures the zot host (dist/host.js, built by `npm run build`) in one run and
 * prints a table, then the bars as PASS/FAIL lines. `--json <file>` also writes
 * the figures; `--strict` exits 1 when a bar fails (otherwise the bench always
 * exits 0 and only reports). `--quick` shrinks every count (for trying the bench
 * out; its figures are not the reference ones). For comparing a change:
 * `--host-lib <path/to/host.js>` measures another build of the host library,
 * `--only roundtrip,throughput,cancel,big,startup,memory,bundle` runs only
 * those sections (the others are null, their bars SKIP).
 *
 * METHOD
 *
 * Peers. Four ways to make the same call, "echo a small text", from this process
 * to a child process over stdio:
 *   host    ZotHost.invokeTool('echo') to bench/fixtures/zot-echo (a minimal
 *           zot extension in plain Node);
 *   floor   the same extension script spawned here with child_process, and a
 *           bare NDJSON client: write a tool_call line, split stdout into lines,
 *           JSON.parse, look the id up, resolve. No host logic at all;
 *   jsonrpc vscode-jsonrpc over stdio (StreamMessageReader/Writer on both sides,
 *           as VS Code's language clients do), bench/fixtures/jsonrpc-peer.cjs;
 *   mcp     the MCP TypeScript SDK: Client + StdioClientTransport against an
 *           McpServer with one tool, bench/fixtures/mcp-peer.mjs.
 * Every peer returns the same content shape and every answer is checked (the
 * echoed text must come back) the same way, synchronously, with no extra
 * promise hop for any of them. All four child processes are started once and
 * stay up for the whole run; the idle ones sleep in epoll.
 *
 * Noise. The machine is small (2 cores) and shared, and noise only ever makes a
 * figure worse, so for the steady-state figures the best round is reported:
 *   round trip    after a warm-up of WARM calls per peer, ROUNDS_RT rounds; in
 *                 each round every peer makes RT_CALLS (20,000) sequential
 *                 calls, in BLOCKS blocks: the peers take turns block by block,
 *                 the order rotating, so a slow spell of the machine is shared
 *                 by all of them; µs per call of the best round per peer;
 *   throughput    the same with TP_CALLS calls per round and 64 in flight (a
 *                 new call is started as each one ends), calls/s, best round.
 * Every round is in the JSON (`roundtrip_rounds_us`, `throughput_rounds`), with
 * the medians, and the CPU time of this process per call (median over the
 * rounds; `roundtrip_cpu_us`, `throughput_cpu_us`): CPU time is much less
 * sensitive to a busy machine than wall time, and for host vs floor it is the
 * host's own cost per call.
 * The one-off figures (cancel, startup, big frame) are medians / percentiles
 * over many repetitions instead, interleaved with their anchors.
 *
 * Cancel latency. From `CancellationTokenSource.cancel()` of the caller's token
 * to the moment the extension's read of the `tool_cancel` line returned. For
 * each of CANCEL_CALLS calls of the `hang` tool: the extension writes "got <k>"
 * to stderr when it has the call in hand (we see it through host.onLog), we let
 * 1 ms pass so the extension is idle in epoll as it would be in real life, take
 * t0 = process.hrtime.bigint() and cancel. The extension takes
 * process.hrtime.bigint() first thing in its stdin 'data' handler and keeps it
 * for that k; one `cancel_report` call at the end brings all of them back.
 * On Linux process.hrtime is CLOCK_MONOTONIC, a single clock for every process
 * of the machine, so the two timestamps are directly comparable (no wall-clock
 * skew, no conversion). The figure therefore includes everything the host does
 * (token link, retract, write), the pipe, and the extension's wake-up: it is the
 * real latency. The same is measured for the floor (a bare write of
 * tool_cancel) for comparison. Every host call must end as `canceled`.
 *
 * Startup. A temporary ZOT_HOME holding 1, or 20, copies of the extension
 * (each its own name and tool prefix); time of `new ZotHost({zotHome,
 * discover: true}).start()` (discovery, spawn, hello, hello_ack, registration,
 * `ready`); every extension must end `ready` (not auto-ready, not timed out).
 * STARTUP_REPS repetitions alternating 1 and 20, median. As the floor: spawning
 * the same 1 or 20 processes directly and waiting for each one's `ready` line.
 *
 * Big frame. One `tool_result` line of exactly 4 MiB (text with JSON escapes).
 * "host" is the host's processing time for that frame measured inside this (the
 * host's) process, without the time spent waiting for the bytes to come through
 * the pipe: a 'data' listener prepended before the host's own on the child's
 * stdout and one appended after it bracket the host's synchronous handling of
 * every chunk; for the chunks before the last one that bracket is summed, and
 * from the arrival of the last chunk (the one holding the '\n') the clock runs
 * until the host's outcome promise has resolved, so any work the host might
 * defer is counted too. The chunks seen by the prepended listener are exactly
 * the bytes of the line; "json_parse" is JSON.parse of those bytes (as one
 * string; the UTF-8 decode is reported separately, `decode_ms`). BIG_REPS
 * repetitions, alternating host and JSON.parse, gc() before each, medians.
 * The call-to-outcome time and that minus a tiny call's round trip are in the
 * JSON as well (`call_to_outcome_ms`), for reference; they include the
 * extension building and writing 4 MiB and the pipe transfer.
 *
 * Memory. In a fresh child process (`node --expose-gc`, nothing else in it):
 * the host with the extension, WARM_MEM (100,000) calls, gc() three times,
 * RSS, then MEM_CALLS (100,000) calls, 64 in flight, gc() three times, RSS; the
 * growth in MB (MiB) is the figure. The warm-up is there because over its first
 * tens of thousands of calls V8 grows its young generation to the allocation
 * rate (about +30 MB RSS, once; the bare floor client does the same): that is
 * not a cost per call, and a leak still shows in the second 100,000. The
 * warm-up's growth is reported next to it, and the same figures for the floor
 * (its own fresh process) as the anchor. The idle extension's cost is VmRSS
 * from /proc/<pid>/status of its process, ready and idle for 500 ms, before
 * any call.
 *
 * Bundle. `node esbuild.mjs --production` in a temporary copy of the sources
 * (so the dev build in dist/ that other tools use is left alone), the size of
 * its dist/extension.js. The VSIX is only measured if `npm run package` made
 * dist/zot-extensions.vsix. activate() time is read from
 * .vscode-test/activate-ms.json, written by the VS Code e2e run.
 *
 * A figure that cannot be measured is null, with the reason printed; its bar is
 * reported as SKIP (not a failure, even with --strict).
 *
 * The bench re-runs itself under `node --expose-gc` (gc() before measurements),
 * keeps every temporary ZOT_HOME and log under os.tmpdir() and removes them at
 * the end, and stops every process it started.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(ROOT, 'bench');
const ECHO_DIR = path.join(BENCH, 'fixtures', 'zot-echo');
const JSONRPC_PEER = path.join(BENCH, 'fixtures', 'jsonrpc-peer.cjs');
const MCP_PEER = path.join(BENCH, 'fixtures', 'mcp-peer.mjs');
const require = createRequire(import.meta.url);

// ---- arguments ----

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : undefined;
};
const QUICK = flag('--quick');
const STRICT = flag('--strict');
const JSON_OUT = value('--json');
const PART = value('--part');
/** Another build of the host library, for comparing a change (default: dist/host.js). */
const HOST_LIB = path.resolve(value('--host-lib') ?? path.join(ROOT, 'dist', 'host.js'));
/** Only these sections: roundtrip,throughput,cancel,big,startup,memory,bundle (the others are null). */
const ONLY = value('--only')?.split(',');
const want = (section) => !ONLY || ONLY.includes(section);

const N = {
  WARM: QUICK ? 500 : 2_000,
  RT_CALLS: QUICK ? 2_000 : 20_000,
  ROUNDS_RT: 3,
  TP_CALLS: QUICK ? 5_000 : 30_000,
  ROUNDS_TP: 3,
  BLOCKS: 10,
  CANCEL_CALLS: QUICK ? 200 : 1_000,
  CANCEL_WARM: 50,
  STARTUP_REPS: QUICK ? 3 : 5,
  BIG_REPS: QUICK ? 6 : 15,
  WARM_MEM: QUICK ? 20_000 : 100_000,
  MEM_CALLS: QUICK ? 20_000 : 100_000,
  WIDTH: 64,
};
const TEXT = 'hello from the benchmark';

// gc() before measurements makes them steadier; the bench needs it for memory.
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const gc = globalThis.gc;

const { ZotHost, CancellationTokenSource } = require(HOST_LIB);

// ---- small helpers ----

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Nearest-rank percentile. */
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const round = (x, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
const tmpDir = (tag) => fs.mkdtempSync(path.join(os.tmpdir(), `zot-bench-${tag}-`));
const tmpDirs = [];
const scratch = (tag) => {
  const d = tmpDir(tag);
  tmpDirs.push(d);
  return d;
};
async function settleGc() {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(30);
  }
}
function vmRssKb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
function waitExit(child, ms = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * A bare NDJSON line reader over a child's stdout: splits, JSON.parses, hands
 * each frame to `onFrame`. Linear in the bytes however they are chunked.
 */
function readFrames(stream, onFrame) {
  let parts = [];
  stream.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      let text;
      if (parts.length) {
        parts.push(chunk.subarray(start, nl));
        text = Buffer.concat(parts).toString('utf8');
        parts = [];
      } else {
        text = chunk.toString('utf8', start, nl);
      }
      start = nl + 1;
      if (text.length) onFrame(JSON.parse(text));
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
}

/** Lines of a child's stderr. */
function readLines(stream, onLine) {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const l of lines) onLine(l);
  });
}

// ---- the four peers: { name, call(text) -> Promise<reply>, textOf(reply) -> string, close() } ----

async function openHostPeer() {
  const home = scratch('home');
  const project = scratch('project');
  const host = new ZotHost({ cwd: project, zotHome: home, extensionPaths: [ECHO_DIR], discover: false });
  await host.start();
  const rt = host.get('zot-bench-echo');
  if (!rt || rt.state !== 'ready') throw new Error(`the echo extension is ${rt?.state}: ${rt?.error}`);
  return {
    name: 'host',
    host,
    rt,
    call: (text) => host.invokeTool('echo', { text }),
    textOf: (o) => (o.outcome === 'completed' && !o.isError ? o.content[0]?.text : `${o.outcome}: ${o.message}`),
    close: () => host.dispose(),
  };
}

async function openFloorPeer() {
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

async function openJsonrpcPeer() {
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

async function openMcpPeer() {
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

// ---- the measurements ----

/** n sequential calls: { ms, cpuUs } (wall time, and CPU time of this process). */
async function sequential(peer, n) {
  const c0 = process.cpuUsage();
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const r = await peer.call(TEXT);
    if (peer.textOf(r) !== TEXT) throw new Error(`${peer.name}: wrong answer: ${peer.textOf(r)}`);
  }
  const ms = now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuUs: c.user + c.system };
}

/** `total` calls with `width` in flight (a new call starts as each one ends): { ms, cpuUs }. */
function inFlight(peer, total, width) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let done = 0;
    const c0 = process.cpuUsage();
    const t0 = now();
    const launch = () => {
      started++;
      peer.call(TEXT).then((r) => {
        if (peer.textOf(r) !== TEXT) return reject(new Error(`${peer.name}: wrong answer: ${peer.textOf(r)}`));
        done++;
        if (done === total) {
          const ms = now() - t0;
          const c = process.cpuUsage(c0);
          resolve({ ms, cpuUs: c.user + c.system });
        } else if (started < total) launch();
      }, reject);
    };
    for (let i = 0; i < Math.min(width, total); i++) launch();
  });
}

/**
 * `count` rounds of `perRound` calls per peer. A round is cut into `blocks`
 * blocks and the peers take turns block by block (the order rotating), so a
 * noisy spell of the machine is shared by all of them. Per peer and round:
 * { ms, cpuUs, calls } summed over its blocks.
 */
async function rounds(peers, count, perRound, blocks, fn) {
  const all = Object.fromEntries(peers.map((p) => [p.name, []]));
  const n = Math.ceil(perRound / blocks);
  for (let r = 0; r < count; r++) {
    const acc = Object.fromEntries(peers.map((p) => [p.name, { ms: 0, cpuUs: 0, calls: 0 }]));
    for (let b = 0; b < blocks; b++) {
      for (let i = 0; i < peers.length; i++) {
        const p = peers[(i + b + r) % peers.length];
        gc();
        const x = await fn(p, n);
        acc[p.name].ms += x.ms;
        acc[p.name].cpuUs += x.cpuUs;
        acc[p.name].calls += n;
      }
    }
    for (const p of peers) all[p.name].push(acc[p.name]);
  }
  return all;
}

async function cancelViaHost(hp, n, warm) {
  const { host } = hp;
  const waiters = new Map();
  const sub = host.onLog(({ line, kind }) => {
    if (kind === 'stderr' && line.startsWith('got ')) waiters.get(Number(line.slice(4)))?.();
  });
  const t0s = new Map();
  const outcomes = {};
  try {
    for (let k = 0; k < warm + n; k++) {
      const cts = new CancellationTokenSource();
      const got = new Promise((r) => waiters.set(k, r));
      const p = host.invokeTool('hang', { k }, { token: cts.token });
      await got;
      waiters.delete(k);
      await sleep(1);
      const t0 = process.hrtime.bigint();
      cts.cancel();
      const o = await p;
      t0s.set(k, t0);
      outcomes[o.outcome] = (outcomes[o.outcome] ?? 0) + 1;
      cts.dispose();
    }
  } finally {
    sub.dispose();
  }
  const rep = await host.invokeTool('cancel_report', {});
  return latencies(JSON.parse(rep.content[0].text), t0s, warm, { outcomes });
}

async function cancelViaFloor(fp, n, warm) {
  const waiters = new Map();
  const listener = (line) => {
    if (line.startsWith('got ')) waiters.get(Number(line.slice(4)))?.();
  };
  fp.stderrListeners.add(listener);
  const t0s = new Map();
  try {
    for (let k = 0; k < warm + n; k++) {
      const got = new Promise((r) => waiters.set(k, r));
      const id = fp.nextId();
      void fp.request('hang', { k }); // never answered
      await got;
      waiters.delete(k);
      await sleep(1);
      const t0 = process.hrtime.bigint();
      fp.child.stdin.write(JSON.stringify({ type: 'tool_cancel', id }) + '\n');
      t0s.set(k, t0);
    }
  } finally {
    fp.stderrListeners.delete(listener);
  }
  const rep = await fp.request('cancel_report', {});
  return latencies(JSON.parse(rep.content[0].text), t0s, warm, {});
}

function latencies(readAt, t0s, warm, extra) {
  const ms = [];
  let missing = 0;
  for (const [k, t0] of t0s) {
    if (k < warm) continue;
    if (readAt[k] === undefined) {
      missing++;
      continue;
    }
    ms.push(Number(BigInt(readAt[k]) - t0) / 1e6);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.length ? Math.max(...ms) : null, n: ms.length, missing, ...extra };
}

// ---- startup ----

function makeHome(count) {
  const home = scratch(`startup${count}`);
  const dirs = [];
  for (let i = 1; i <= count; i++) {
    const tag = String(i).padStart(2, '0');
    const dir = path.join(home, 'extensions', `echo-${tag}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(ECHO_DIR, 'index.mjs'), path.join(dir, 'index.mjs'));
    const args = ['index.mjs', '--name', `echo-${tag}`, '--prefix', `e${tag}_`];
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: `echo-${tag}`, version: '1.0.0', exec: 'node', args, enabled: true }));
    dirs.push({ dir, args });
  }
  return { home, dirs };
}

async function startupHost({ home }, count, project) {
  const host = new ZotHost({ cwd: project, zotHome: home, env: { ...process.env, ZOT_HOME: home }, discover: true });
  const t0 = now();
  await host.start();
  const ms = now() - t0;
  const states = host.extensions.map((r) => r.state);
  await host.dispose();
  if (states.length !== count || !states.every((s) => s === 'ready')) throw new Error(`startup of ${count}: states ${states.join(',')}`);
  return ms;
}

async function startupFloor({ dirs }) {
  const t0 = now();
  const children = await Promise.all(dirs.map(({ dir, args }) => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    child.once('error', reject);
    readFrames(child.stdout, (f) => {
      if (f.type === 'ready') resolve(child);
    });
  })));
  const ms = now() - t0;
  for (const c of children) c.stdin.end();
  await Promise.all(children.map((c) => waitExit(c)));
  return ms;
}

// ---- the 4 MiB frame ----

async function bigFrame(hp, reps, tinyUs) {
  // The child's stdout is private to the host; it is reached here only to time the host from outside its code.
  const stdout = hp.rt.spawn?.child?.stdout;
  if (!stdout) throw new Error('cannot reach the extension stdout inside the host (internal field "spawn.child" moved)');
  let armed = false;
  let chunks = [];
  let handler = 0;
  let lastAt = 0;
  let tIn = 0;
  const pre = (c) => {
    if (!armed) return;
    tIn = now();
    chunks.push(c);
  };
  const post = (c) => {
    if (!armed) return;
    if (c.indexOf(10) !== -1) lastAt = tIn; // the line's end: the clock now runs until the outcome
    else handler += now() - tIn;
  };
  stdout.prependListener('data', pre);
  stdout.on('data', post);
  const once = () => new Promise((resolve, reject) => {
    chunks = [];
    handler = 0;
    lastAt = 0;
    armed = true;
    const tCall = now();
    hp.host.invokeTool('big', {}).then((o) => {
      const tEnd = now();
      armed = false;
      if (o.outcome !== 'completed' || o.isError) return reject(new Error(`big: ${o.outcome} ${o.message}`));
      resolve({ host: handler + (tEnd - lastAt), total: tEnd - tCall, bytes: Buffer.concat(chunks), chunks: chunks.length, textLen: o.content[0].text.length });
    }, reject);
  });
  const parseOnce = (bytes) => {
    const t0 = now();
    const text = bytes.toString('utf8', 0, bytes.length - 1);
    const t1 = now();
    const v = JSON.parse(text);
    const t2 = now();
    if (v.type !== 'tool_result') throw new Error('big frame did not parse to a tool_result');
    return { decode: t1 - t0, parse: t2 - t1 };
  };
  try {
    const host = [], total = [], parse = [], decode = [];
    let bytes = 0;
    let nChunks = 0;
    for (let i = 0; i < reps + 2; i++) {
      gc();
      const r = await once();
      gc();
      const p = parseOnce(r.bytes);
      if (i < 2) continue; // warm-up of both sides
      bytes = r.bytes.length;
      nChunks = r.chunks;
      host.push(r.host);
      total.push(r.total);
      parse.push(p.parse);
      decode.push(p.decode);
    }
    const totalMed = median(total);
    return {
      host: median(host),
      json_parse: median(parse),
      decode_ms: median(decode),
      call_to_outcome_ms: totalMed,
      call_to_outcome_minus_tiny_ms: tinyUs ? totalMed - tinyUs / 1000 : null,
      frame_bytes: bytes,
      chunks: nChunks,
    };
  } finally {
    stdout.removeListener('data', pre);
    stdout.removeListener('data', post);
  }
}

// ---- memory (runs as its own process: node --expose-gc bench/run.mjs --part memory) ----

async function memoryPart(which) {
  const peer = which === 'floor' ? await openFloorPeer() : await openHostPeer();
  const pid = which === 'floor' ? peer.child.pid : peer.rt.pid;
  const mb = (b) => b / (1024 * 1024);
  try {
    await sleep(500);
    const idleKb = vmRssKb(pid);
    await settleGc();
    const fresh = process.memoryUsage();
    // Warm-up to the steady state: V8 grows its young generation to the allocation rate over the first
    // tens of thousands of calls (the floor's process does the same), which is not a cost per call.
    await inFlight(peer, N.WARM_MEM, N.WIDTH);
    await settleGc();
    const before = process.memoryUsage();
    await inFlight(peer, N.MEM_CALLS, N.WIDTH);
    await settleGc();
    const after = process.memoryUsage();
    return {
      idle_extension_kb: idleKb,
      rss_fresh_mb: mb(fresh.rss),
      rss_before_mb: mb(before.rss),
      rss_after_mb: mb(after.rss),
      rss_warmup_growth_mb: mb(before.rss - fresh.rss),
      rss_growth_mb: (mb(after.rss - before.rss) * 100_000) / N.MEM_CALLS,
      heap_growth_mb: (mb(after.heapUsed - before.heapUsed) * 100_000) / N.MEM_CALLS,
      calls: N.MEM_CALLS,
      warmup_calls: N.WARM_MEM,
      extension_rss_after_kb: vmRssKb(pid),
    };
  } finally {
    await peer.close();
  }
}

function runMemoryChild(which) {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--part', 'memory', '--peer', which, '--host-lib', HOST_LIB, ...(QUICK ? ['--quick'] : [])], { encoding: 'utf8', timeout: 120_000 });
  const line = (r.stdout ?? '').trim().split('\n').pop();
  if (r.status !== 0 || !line) throw new Error(`memory child failed (${r.status ?? r.signal}): ${(r.stderr ?? '').slice(-500)}`);
  return JSON.parse(line);
}

// ---- bundle, VSIX, activate() ----

function bundleSize() {
  const copy = scratch('bundle');
  for (const f of fs.readdirSync(ROOT)) {
    if (f === 'esbuild.mjs' || f === 'package.json' || /^tsconfig.*\.json$/.test(f)) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
  }
  fs.cpSync(path.join(ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`production build failed: ${(r.stderr || r.stdout).slice(-500)}`);
  return fs.statSync(path.join(copy, 'dist', 'extension.js')).size / 1024;
}

function vsixSize() {
  const f = path.join(ROOT, 'dist', 'zot-extensions.vsix');
  if (!fs.existsSync(f)) return { value: null, reason: 'dist/zot-extensions.vsix is missing (make it with `npm run package`)' };
  return { value: fs.statSync(f).size / 1024, reason: null };
}

function activateMs() {
  const f = path.join(ROOT, '.vscode-test', 'activate-ms.json');
  if (!fs.existsSync(f)) return { value: null, reason: '.vscode-test/activate-ms.json is missing (written by the VS Code e2e run)' };
  let v;
  try {
    v = JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch (err) {
    return { value: null, reason: `.vscode-test/activate-ms.json is not JSON: ${err.message}` };
  }
  if (typeof v === 'number') return { value: v, reason: null };
  for (const k of ['activate_ms', 'activateMs', 'ms', 'median_ms', 'median', 'value']) {
    if (v && typeof v[k] === 'number') return { value: v[k], reason: null };
  }
  return { value: null, reason: `.vscode-test/activate-ms.json has no number (looked for activate_ms, activateMs, ms, median_ms): ${JSON.stringify(v).slice(0, 120)}` };
}

// ---- main ----

async function main() {
  const t00 = now();
  const reasons = {};
  const failed = (key, err) => {
    reasons[key] = err instanceof Error ? err.message : String(err);
    console.error(`! ${key}: ${reasons[key]}`);
  };
  const progress = (s) => process.stderr.write(`… ${s} (${((now() - t00) / 1000).toFixed(0)} s)\n`);

  const out = {
    roundtrip_us: { host: null, floor: null, jsonrpc: null, mcp: null },
    throughput_64: { host: null, floor: null, jsonrpc: null, mcp: null },
    cancel_ms: { p50: null, p99: null },
    startup_ms: { one: null, twenty: null },
    big_frame_ms: { host: null, json_parse: null },
    rss_growth_mb: null,
    idle_extension_kb: null,
    bundle_kb: null,
    vsix_kb: null,
    activate_ms: null,
  };
  const extra = {};

  // Peers.
  progress('starting the four peers');
  const peers = [];
  const steady = want('roundtrip') || want('throughput');
  for (const [name, open] of [['host', openHostPeer], ['floor', openFloorPeer], ['jsonrpc', openJsonrpcPeer], ['mcp', openMcpPeer]]) {
    if (!steady && (name === 'jsonrpc' || name === 'mcp')) continue;
    if (!steady && !want('cancel') && !want('big')) continue;
    try {
      peers.push(await open());
    } catch (err) {
      failed(`peer ${name}`, err);
    }
  }
  const hp = peers.find((p) => p.name === 'host');
  const fp = peers.find((p) => p.name === 'floor');

  // 1. Sequential round trip.
  if (want('roundtrip')) try {
    progress(`warm-up, ${N.WARM} calls per peer`);
    for (const p of peers) {
      await sequential(p, N.WARM);
      await inFlight(p, N.WARM, N.WIDTH);
    }
    progress(`round trip: ${N.ROUNDS_RT} rounds of ${N.RT_CALLS} sequential calls per peer, interleaved in blocks of ${N.RT_CALLS / N.BLOCKS}`);
    const rt = await rounds(peers, N.ROUNDS_RT, N.RT_CALLS, N.BLOCKS, (p, n) => sequential(p, n));
    const us = (x) => (x.ms * 1000) / x.calls;
    for (const [name, xs] of Object.entries(rt)) out.roundtrip_us[name] = round(Math.min(...xs.map(us)), 1);
    extra.roundtrip_rounds_us = Object.fromEntries(Object.entries(rt).map(([k, xs]) => [k, xs.map((x) => round(us(x), 1))]));
    extra.roundtrip_median_us = Object.fromEntries(Object.entries(rt).map(([k, xs]) => [k, round(median(xs.map(us)), 1)]));
    extra.roundtrip_cpu_us = Object.fromEntries(Object.entries(rt).map(([k, xs]) => [k, round(median(xs.map((x) => x.cpuUs / x.calls)), 1)]));
  } catch (err) {
    failed('roundtrip_us', err);
  }

  // 2. Throughput, 64 in flight.
  if (want('throughput')) try {
    progress(`throughput: ${N.ROUNDS_TP} rounds of ${N.TP_CALLS} calls per peer, ${N.WIDTH} in flight, interleaved in blocks of ${N.TP_CALLS / N.BLOCKS}`);
    const tp = await rounds(peers, N.ROUNDS_TP, N.TP_CALLS, N.BLOCKS, (p, n) => inFlight(p, n, N.WIDTH));
    const rate = (x) => x.calls / (x.ms / 1000);
    for (const [name, xs] of Object.entries(tp)) out.throughput_64[name] = Math.round(Math.max(...xs.map(rate)));
    extra.throughput_rounds = Object.fromEntries(Object.entries(tp).map(([k, xs]) => [k, xs.map((x) => Math.round(rate(x)))]));
    extra.throughput_median = Object.fromEntries(Object.entries(tp).map(([k, xs]) => [k, Math.round(median(xs.map(rate)))]));
    extra.throughput_cpu_us = Object.fromEntries(Object.entries(tp).map(([k, xs]) => [k, round(median(xs.map((x) => x.cpuUs / x.calls)), 2)]));
  } catch (err) {
    failed('throughput_64', err);
  }
  if (!steady) reasons.roundtrip_throughput = 'not run (--only)';
  else for (const k of ['host', 'floor', 'jsonrpc', 'mcp']) {
    if (!peers.some((p) => p.name === k)) reasons[`roundtrip/throughput ${k}`] ??= `the ${k} peer did not start`;
  }

  // 3. Cancel latency.
  if (!want('cancel')) reasons.cancel_ms = 'not run (--only)';
  else if (hp) {
    try {
      progress(`cancel latency: ${N.CANCEL_CALLS} calls through the host, then as many on the floor`);
      const c = await cancelViaHost(hp, N.CANCEL_CALLS, N.CANCEL_WARM);
      if (c.missing) reasons.cancel_ms = `${c.missing} tool_cancel frames never reached the extension`;
      if ((c.outcomes.canceled ?? 0) !== N.CANCEL_CALLS + N.CANCEL_WARM) reasons.cancel_outcomes = `outcomes: ${JSON.stringify(c.outcomes)}`;
      out.cancel_ms = { p50: round(c.p50, 3), p99: round(c.p99, 3) };
      extra.cancel = { max_ms: round(c.max, 3), n: c.n, missing: c.missing, outcomes: c.outcomes };
      if (fp) {
        const f = await cancelViaFloor(fp, N.CANCEL_CALLS, N.CANCEL_WARM);
        extra.cancel_floor_ms = { p50: round(f.p50, 3), p99: round(f.p99, 3), max: round(f.max, 3), missing: f.missing };
      }
    } catch (err) {
      failed('cancel_ms', err);
    }
  } else reasons.cancel_ms = 'the host peer did not start';

  // 5. The 4 MiB frame (before startup, while the host peer is up).
  if (!want('big')) reasons.big_frame_ms = 'not run (--only)';
  else if (hp) {
    try {
      progress(`4 MiB frame: ${N.BIG_REPS} repetitions, host and JSON.parse alternating`);
      const b = await bigFrame(hp, N.BIG_REPS, out.roundtrip_us.host);
      out.big_frame_ms = { host: round(b.host, 2), json_parse: round(b.json_parse, 2) };
      extra.big_frame = {
        decode_ms: round(b.decode_ms, 2),
        call_to_outcome_ms: round(b.call_to_outcome_ms, 2),
        call_to_outcome_minus_tiny_ms: round(b.call_to_outcome_minus_tiny_ms, 2),
        frame_bytes: b.frame_bytes,
        chunks: b.chunks,
      };
    } catch (err) {
      failed('big_frame_ms', err);
    }
  } else reasons.big_frame_ms = 'the host peer did not start';

  // Close the peers before the startup figures, so they do not compete.
  for (const p of peers) {
    try {
      await p.close();
    } catch (err) {
      failed(`closing ${p.name}`, err);
    }
  }

  // 4. Startup.
  if (want('startup')) try {
    progress(`startup: ${N.STARTUP_REPS} repetitions of 1 and of 20 extensions, host and floor`);
    const one = makeHome(1);
    const twenty = makeHome(20);
    const project = scratch('project');
    const s = { one: [], twenty: [], floor_one: [], floor_twenty: [] };
    // One warm-up of each (disk caches), then alternate.
    await startupHost(one, 1, project);
    await startupFloor(twenty);
    for (let i = 0; i < N.STARTUP_REPS; i++) {
      const order = i % 2 ? ['twenty', 'one'] : ['one', 'twenty'];
      for (const k of order) {
        gc();
        s[k].push(await startupHost(k === 'one' ? one : twenty, k === 'one' ? 1 : 20, project));
        gc();
        s[`floor_${k}`].push(await startupFloor(k === 'one' ? one : twenty));
      }
    }
    out.startup_ms = { one: round(median(s.one), 1), twenty: round(median(s.twenty), 1) };
    extra.startup = {
      ratio: round(median(s.twenty) / median(s.one), 2),
      floor_one_ms: round(median(s.floor_one), 1),
      floor_twenty_ms: round(median(s.floor_twenty), 1),
      floor_ratio: round(median(s.floor_twenty) / median(s.floor_one), 2),
      samples_ms: Object.fromEntries(Object.entries(s).map(([k, xs]) => [k, xs.map((x) => round(x, 1))])),
    };
  } catch (err) {
    failed('startup_ms', err);
  }

  // 6. Memory, in a clean process.
  if (want('memory')) try {
    progress(`memory: ${N.WARM_MEM} + ${N.MEM_CALLS} calls in a fresh process, host and floor`);
    const m = runMemoryChild('host');
    out.rss_growth_mb = round(m.rss_growth_mb, 2);
    out.idle_extension_kb = m.idle_extension_kb;
    if (m.idle_extension_kb === null) reasons.idle_extension_kb = 'could not read /proc/<pid>/status';
    let f = null;
    try {
      f = runMemoryChild('floor');
    } catch (err) {
      reasons.memory_floor = err.message;
    }
    const r1 = (x) => round(x, 1);
    extra.memory = {
      rss_fresh_mb: r1(m.rss_fresh_mb), rss_before_mb: r1(m.rss_before_mb), rss_after_mb: r1(m.rss_after_mb),
      rss_warmup_growth_mb: r1(m.rss_warmup_growth_mb), warmup_calls: m.warmup_calls,
      heap_growth_mb: round(m.heap_growth_mb, 2), calls: m.calls, extension_rss_after_kb: m.extension_rss_after_kb,
      floor: f && { rss_growth_mb: round(f.rss_growth_mb, 2), rss_warmup_growth_mb: r1(f.rss_warmup_growth_mb), heap_growth_mb: round(f.heap_growth_mb, 2), idle_extension_kb: f.idle_extension_kb },
    };
  } catch (err) {
    failed('rss_growth_mb', err);
    reasons.idle_extension_kb = reasons.rss_growth_mb;
  }

  // 7. Bundle, VSIX, activate().
  if (want('bundle')) try {
    progress('production build of dist/extension.js in a temporary copy');
    out.bundle_kb = round(bundleSize(), 1);
  } catch (err) {
    failed('bundle_kb', err);
  }
  const vsix = vsixSize();
  out.vsix_kb = vsix.value === null ? null : round(vsix.value, 1);
  if (vsix.reason) reasons.vsix_kb = vsix.reason;
  const act = activateMs();
  out.activate_ms = act.value === null ? null : round(act.value, 2);
  if (act.reason) reasons.activate_ms = act.reason;

  // ---- report ----
  const bars = evaluate(out);
  printTable(out, extra, reasons);
  console.log('');
  for (const b of bars) console.log(`${b.status.padEnd(4)} ${b.name}: ${b.detail}`);
  const seconds = (now() - t00) / 1000;
  console.log(`\n(${seconds.toFixed(0)} s; ${bars.filter((b) => b.status === 'FAIL').length} FAIL, ${bars.filter((b) => b.status === 'SKIP').length} SKIP of ${bars.length} bars)`);

  if (JSON_OUT) {
    const doc = {
      ...out,
      ...extra,
      bars: bars.map((b) => ({ name: b.name, status: b.status, detail: b.detail })),
      reasons,
      meta: {
        date: new Date().toISOString(),
        node: process.version,
        platform: `${process.platform} ${os.release()}`,
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? null,
        quick: QUICK,
        counts: N,
        git: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || null,
        seconds: round(seconds, 1),
        method: 'see the comment at the top of bench/run.mjs',
      },
    };
    fs.mkdirSync(path.dirname(path.resolve(JSON_OUT)), { recursive: true });
    fs.writeFileSync(JSON_OUT, JSON.stringify(doc, null, 2) + '\n');
    console.log(`figures written to ${JSON_OUT}`);
  }
  return bars.some((b) => b.status === 'FAIL') ? 1 : 0;
}

function evaluate(o) {
  const bars = [];
  const bar = (name, ok, detail) => bars.push({ name, status: ok === null ? 'SKIP' : ok ? 'PASS' : 'FAIL', detail });
  const has = (...xs) => xs.every((x) => x !== null && x !== undefined && Number.isFinite(x));
  const x = (a, b) => (a / b).toFixed(2);
  const { roundtrip_us: r, throughput_64: t } = o;

  bar('round trip ≤ 1.15 × floor', has(r.host, r.floor) ? r.host <= 1.15 * r.floor : null,
    has(r.host, r.floor) ? `host ${r.host} µs, floor ${r.floor} µs: ${x(r.host, r.floor)}×` : 'not measured');
  bar('round trip < vscode-jsonrpc', has(r.host, r.jsonrpc) ? r.host < r.jsonrpc : null,
    has(r.host, r.jsonrpc) ? `host ${r.host} µs, jsonrpc ${r.jsonrpc} µs: ${x(r.host, r.jsonrpc)}×` : 'not measured');
  bar('round trip < MCP SDK', has(r.host, r.mcp) ? r.host < r.mcp : null,
    has(r.host, r.mcp) ? `host ${r.host} µs, mcp ${r.mcp} µs: ${x(r.host, r.mcp)}×` : 'not measured');
  bar('64 in flight ≥ 0.5 × floor', has(t.host, t.floor) ? t.host >= 0.5 * t.floor : null,
    has(t.host, t.floor) ? `host ${t.host}/s, floor ${t.floor}/s: ${x(t.host, t.floor)}×` : 'not measured');
  bar('64 in flight ≥ 2 × vscode-jsonrpc', has(t.host, t.jsonrpc) ? t.host >= 2 * t.jsonrpc : null,
    has(t.host, t.jsonrpc) ? `host ${t.host}/s, jsonrpc ${t.jsonrpc}/s: ${x(t.host, t.jsonrpc)}×` : 'not measured');
  const c = o.cancel_ms;
  bar('cancel p99 ≤ 2 ms', has(c.p99) ? c.p99 <= 2 : null, has(c.p99) ? `p50 ${c.p50} ms, p99 ${c.p99} ms` : 'not measured');
  const s = o.startup_ms;
  bar('startup of 20 ≤ 2 × startup of 1', has(s.one, s.twenty) ? s.twenty <= 2 * s.one : null,
    has(s.one, s.twenty) ? `one ${s.one} ms, twenty ${s.twenty} ms: ${x(s.twenty, s.one)}×` : 'not measured');
  const b = o.big_frame_ms;
  bar('4 MiB frame ≤ 1.5 × JSON.parse', has(b.host, b.json_parse) ? b.host <= 1.5 * b.json_parse : null,
    has(b.host, b.json_parse) ? `host ${b.host} ms, JSON.parse ${b.json_parse} ms: ${x(b.host, b.json_parse)}×` : 'not measured');
  bar('RSS growth ≤ 5 MB / 100,000 calls', has(o.rss_growth_mb) ? o.rss_growth_mb <= 5 : null,
    has(o.rss_growth_mb) ? `${o.rss_growth_mb} MB` : 'not measured');
  bar('activate() ≤ 25 ms', has(o.activate_ms) ? o.activate_ms <= 25 : null, has(o.activate_ms) ? `${o.activate_ms} ms` : 'not measured');
  bar('dist/extension.js ≤ 400 KB minified', has(o.bundle_kb) ? o.bundle_kb <= 400 : null, has(o.bundle_kb) ? `${o.bundle_kb} KB` : 'not measured');
  return bars;
}

function printTable(o, e, reasons) {
  const f = (v, d = 1) => (v === null || v === undefined ? 'null' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: 0 }) : String(v));
  const row = (label, cells) => console.log(label.padEnd(38) + cells.map((c) => String(c).padStart(11)).join(''));
  console.log(`\nzot host benchmark — node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}${QUICK ? '  (--quick: reduced counts)' : ''}\n`);
  row('', ['host', 'floor', 'jsonrpc', 'mcp']);
  const r = o.roundtrip_us;
  row(`round trip, µs/call (best of ${N.ROUNDS_RT})`, [f(r.host), f(r.floor), f(r.jsonrpc), f(r.mcp)]);
  const t = o.throughput_64;
  const rc = e.roundtrip_cpu_us ?? {};
  row('  CPU of this process, µs/call (median)', [f(rc.host), f(rc.floor), f(rc.jsonrpc), f(rc.mcp)]);
  row(`64 in flight, calls/s (best of ${N.ROUNDS_TP})`, [f(t.host, 0), f(t.floor, 0), f(t.jsonrpc, 0), f(t.mcp, 0)]);
  const tc = e.throughput_cpu_us ?? {};
  row('  CPU of this process, µs/call (median)', [f(tc.host, 2), f(tc.floor, 2), f(tc.jsonrpc, 2), f(tc.mcp, 2)]);
  console.log('');
  const kv = (label, text) => console.log(label.padEnd(38) + text);
  const cf = e.cancel_floor_ms;
  kv('cancel → tool_cancel read, ms', `p50 ${f(o.cancel_ms.p50, 3)}   p99 ${f(o.cancel_ms.p99, 3)}   max ${f(e.cancel?.max_ms, 3)}${cf ? `   (floor p50 ${f(cf.p50, 3)}, p99 ${f(cf.p99, 3)})` : ''}`);
  const st = e.startup;
  kv('startup (discover+spawn+ready), ms', `one ${f(o.startup_ms.one)}   twenty ${f(o.startup_ms.twenty)}   ratio ${f(st?.ratio, 2)}${st ? `   (floor one ${f(st.floor_one_ms)}, twenty ${f(st.floor_twenty_ms)}, ratio ${f(st.floor_ratio, 2)})` : ''}`);
  const bf = e.big_frame;
  kv('4 MiB tool_result, ms', `host ${f(o.big_frame_ms.host, 2)}   JSON.parse ${f(o.big_frame_ms.json_parse, 2)}${bf ? `   (decode ${f(bf.decode_ms, 2)}; call→outcome ${f(bf.call_to_outcome_ms, 2)})` : ''}`);
  const m = e.memory;
  kv('memory: RSS growth / 100,000 calls', `${f(o.rss_growth_mb, 2)} MB${m ? ` (${f(m.rss_before_mb)} → ${f(m.rss_after_mb)} MB, heap ${f(m.heap_growth_mb, 2)} MB; first ${f(m.warmup_calls, 0)} calls +${f(m.rss_warmup_growth_mb)} MB${m.floor ? `; floor ${f(m.floor.rss_growth_mb, 2)} MB, first calls +${f(m.floor.rss_warmup_growth_mb)} MB` : ''})` : ''}`);
  kv('idle extension (VmRSS)', `${f(o.idle_extension_kb, 0)} KB`);
  kv('dist/extension.js (production)', `${f(o.bundle_kb)} KB;  VSIX ${f(o.vsix_kb)} KB`);
  kv('activate() in VS Code', `${f(o.activate_ms, 2)} ms`);
  const rs = Object.entries(reasons);
  if (rs.length) {
    console.log('');
    for (const [k, v] of rs) console.log(`note: ${k}: ${v}`);
  }
}

function cleanup() {
  for (const d of tmpDirs) {
    try {
      fs.rmSync(d, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}

if (PART === 'memory') {
  memoryPart(value('--peer') ?? 'host').then((m) => {
    cleanup();
    process.stdout.write(JSON.stringify(m) + '\n');
    process.exit(0);
  }, (err) => {
    cleanup();
    console.error(err);
    process.exit(1);
  });
} else {
  main().then((code) => {
    cleanup();
    process.exit(STRICT ? code : 0);
  }, (err) => {
    cleanup();
    console.error(err);
    process.exit(1); // the bench itself broke: that is not a figure
  });
}
