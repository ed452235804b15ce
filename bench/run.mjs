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
 * `--only roundtrip,throughput,cancel,big,startup,hook,harness,memory,instructions,bundle,vscode`
 * runs only those sections (the others are null, their bars SKIP), `--peers
 * host,floor` only those peers; bench/compare.mjs uses all three to measure two
 * builds in one sitting. `--only harness --into bench/results.json` writes the
 * agent harness figures into a full run's document, keeping its other figures
 * and recording the section's own run. `--quick` leaves the harness section out
 * unless `--only` names it (it runs real agent CLIs for minutes).
 *
 * METHOD
 *
 * Peers. Four ways to make the same call, "echo a small text", from this process
 * to a child process over stdio:
 *   host    ZotHost.runToolCall('echo'), the one door (arguments checked, the tool_call
 *           event and intercepts, the call), to bench/fixtures/zot-echo (a minimal
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
 *                 each block in its own order of the peers (every order in
 *                 turn), so a slow spell of the machine, and the collector
 *                 work one peer leaves behind, are shared
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
 * Agent harnesses (bench/measure/harness.mjs). Claude Code and Codex, as
 * installed in the test cache by scripts/harness-env.mjs (a harness that is not
 * there is skipped, with the reason), each driven offline by the scripted model
 * of test/harness/fake-model.mjs, with the agent plugin `zot-host plugin`
 * writes over a zot home holding the guard of test/fixtures/compat/guard and
 * the tool extension test/fixtures/compat/node-nosdk. In each session the model
 * asks for the plugin server's echo_upper HARNESS_CALLS times, one after
 * another, after untimed steps that wait for the tool to be offered and call it
 * once, then as many times for a tool of the harness's own that the guard hook
 * is asked about (Claude Code's Read of a small file, Codex's exec_command
 * `cat` of it); a sample is the time from the model's answer carrying the call
 * being all written to the model's next request carrying its result arriving
 * (every result is checked). In Claude Code the mcp_tool guard's matcher leaves
 * the plugin's own tools out, so there the zot tool's call meets no hook. Three plugins: the mcp_tool guard (`--guard-hook mcp`),
 * the same with its hooks file removed (no hook: same server, same tool),
 * the command hook (`--guard-hook command`, a zot-host process per call), and
 * in Claude Code the floor: no plugin hook, and the same mcp_tool hook (matcher,
 * input) given by the project into a server that answers every call at once
 * (bench/fixtures/hook-floor-server.cjs), the least such a hook costs there.
 * HARNESS_ROUNDS rounds, each one session per harness and plugin, the plugins
 * in a rotating order; medians, and the mcp_tool guard's ratio to no hook. The
 * plugin's server loads bench/fixtures/mcp-probe.cjs (NODE_OPTIONS in its
 * .mcp.json entry, in all three), which logs when each tools/call reached it
 * and when it answered on the clock all processes share: that splits a sample
 * into the harness's part and the server's (`harness.<harness>.split_ms`).
 *
 * Instructions (bench/measure/instructions.mjs). User-space instructions per
 * sequential call, a count that machine load does not change: this process
 * runs again under `valgrind --tool=callgrind` (which follows no child, so the
 * extension is not counted, as for the CPU figure), once making
 * INSTR_CALLS_SHORT and once INSTR_CALLS_LONG calls after the same warm-up of
 * INSTR_WARM calls; the difference of the two totals over the difference of
 * the calls is one call, with start, warm-up and exit cancelled out. V8 runs
 * single-threaded with a fixed GC schedule there (V8_FLAGS), so the count
 * repeats. Host and floor. Without valgrind the figures are null.
 *
 * Bundle. `node esbuild.mjs --production --outdir <scratch>` once per run
 * (the dev build in dist/ that other tools use is left alone): the size of its
 * extension.js, and its cli.js for the agent hook and CLI start figures; the
 * production VSIX is built in a copy of the project (`npm run package`,
 * test/e2e/vsix.mjs) and sized.
 *
 * VS Code (bench/measure/vscode.mjs). One code-server session with headless
 * Chromium through the e2e harness (test/e2e/harness.mjs), the test VSIX
 * (`npm run package:test` in a copy), and a ZOT_HOME with the startup
 * figure's 20 echo extensions and bench/fixtures/zot-panel, a panel of 40 lines
 * that sends all 40 again on every key. bench/vscode/suite.cjs runs in the
 * extension host:
 *   activate()      the time activate() took, from the test API;
 *   time to tools   from the start of activate() to the moment the last of the
 *                   20 extensions was ready with its tools registered (what the
 *                   chat participant and the MCP server offer), against
 *                   `startup.floor_twenty_ms`, the same 20 processes spawned
 *                   bare by this process in this run (with its split: when
 *                   the first and last were started, and each start to its
 *                   ready, while VS Code itself is still starting);
 * then it opens the panel as a webview, and later as a QuickPick, and the
 * bench types PANEL_WARM + PANEL_KEYS keys into each from the page, one at a
 * time: ArrowDown into the webview (two lines change), 'x' into the QuickPick.
 * Each key is timed in the page that shows it, on that page's clock, from the
 * keydown event's timeStamp to the frame after the DOM holds the render for
 * that key (its "key <n>" footer): requestAnimationFrame, then a
 * MessageChannel message, which runs after the paint. For the webview the
 * render message's arrival splits that into outside the webview (both
 * postMessage hops, the extension host, the zot extension), the DOM update,
 * and the paint. Last, with VS Code idle, every extension of that ZOT_HOME is
 * started again (Zot: Reload Extensions), from the first start to the last
 * ready, against the same processes spawned bare from the extension host, from
 * the first spawn to the last `ready` frame; four of each, taking turns,
 * medians (`vscode_restart_ms`).
 *
 * A figure that cannot be measured is null, with the reason printed; its bar is
 * reported as SKIP (not a failure, even with --strict).
 *
 * The run's 1-minute load average (bench/load.mjs, sampled at each section and
 * every 10 s) is printed and kept in the JSON (`meta.load_average`).
 *
 * The bench re-runs itself under `node --expose-gc` (gc() before measurements;
 * a scavenge only before each block of the steady-state figures, see
 * bench/util.mjs),
 * keeps every temporary ZOT_HOME and log under os.tmpdir() and removes them at
 * the end, and stops every process it started.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { argv, PART, STRICT, value } from './config.mjs';

// gc() before measurements makes them steadier; the bench needs it for memory.
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
// Loaded only now: the peers load the host library, which the re-run above must not pay for.
const { cleanup } = await import('./util.mjs');

/** Runs one part in this child process and prints its figures as one JSON line. */
function runPart(measured) {
  measured.then((m) => {
    cleanup();
    process.stdout.write(JSON.stringify(m) + '\n');
    process.exit(0);
  }, (err) => {
    cleanup();
    console.error(err);
    process.exit(1);
  });
}

if (PART === 'memory') {
  const { memoryPart } = await import('./measure/memory.mjs');
  runPart(memoryPart(value('--peer') ?? 'host'));
} else if (PART === 'instructions') {
  const { instructionsPart } = await import('./measure/instructions.mjs');
  runPart(instructionsPart(value('--peer') ?? 'host', Number(value('--calls'))));
} else {
  const { main } = await import('./main.mjs');
  main().then((code) => {
    cleanup();
    process.exit(STRICT ? code : 0);
  }, (err) => {
    cleanup();
    console.error(err);
    process.exit(1); // the bench itself broke: that is not a figure
  });
}
