// One run of every section, in order, each one's figures into `out` (the
// headline figures) and `extra` (the detail), each failure into `reasons`.
import { N, INTO, JSON_OUT, ONLY, PEERS, QUICK, want } from './config.mjs';
import { openFloorPeer, openHostPeer, openJsonrpcPeer, openMcpPeer } from './peers.mjs';
import { bundleSize, vsixSize } from './measure/artifacts.mjs';
import { bigFrame } from './measure/bigFrame.mjs';
import { cancelViaFloor, cancelViaHost, inFlight, rounds, sequential } from './measure/calls.mjs';
import { instructionsPerCall, valgrindVersion } from './measure/instructions.mjs';
import { hookFigures } from './measure/hook.mjs';
import { harnessFigures } from './measure/harness.mjs';
import { runMemoryChild } from './measure/memory.mjs';
import { makeHome, startupFloor, startupHost } from './measure/startup.mjs';
import { vscodeFigures } from './measure/vscode.mjs';
import { evaluate, mergeHarness, printTable, writeJson } from './report.mjs';
import { gc, median, now, round, scratch } from './util.mjs';
import { loadSampler } from './load.mjs';

/** Runs the bench; resolves to 1 when a bar fails, else 0. */
export async function main() {
  if (INTO && ONLY?.join() !== 'harness') throw new Error('--into <file> takes the figures of a run of --only harness alone');
  const t00 = now();
  const reasons = {};
  const failed = (key, err) => {
    reasons[key] = err instanceof Error ? err.message : String(err);
    console.error(`! ${key}: ${reasons[key]}`);
  };
  // Other work on the machine shows in the wall-clock figures: its load average goes with them.
  const load = loadSampler();
  const progress = (s) => {
    load.sample();
    process.stderr.write(`… ${s} (${((now() - t00) / 1000).toFixed(0)} s)\n`);
  };

  const out = {
    roundtrip_us: { host: null, floor: null, jsonrpc: null, mcp: null },
    throughput_64: { host: null, floor: null, jsonrpc: null, mcp: null },
    cancel_ms: { p50: null, p99: null },
    startup_ms: { one: null, twenty: null },
    hook_ms: { cold_allow: null, cold_deny: null, editor_allow: null, editor_deny: null, floor_node: null },
    cli_start_ms: { help: null, node_bare: null },
    big_frame_ms: { host: null, json_parse: null },
    rss_growth_mb: null,
    idle_extension_kb: null,
    bundle_kb: null,
    vsix_kb: null,
    activate_ms: null,
    panel_latency_ms: { p50: null, p99: null, max: null, n: null },
    panel_seen_ms: { p50: null, p99: null, max: null, n: null, guessed: null },
    panel_latency_quickpick_ms: { p50: null, p99: null, max: null, n: null },
    panel_latency_floor_ms: { p50: null, p99: null, max: null, n: null },
    panel_seen_floor_ms: { p50: null, p99: null, max: null, n: null },
    panel_seen_browser_ms: { p50: null, p99: null, max: null, n: null },
    panel_latency_quickpick_floor_ms: { p50: null, p99: null, max: null, n: null },
    time_to_tools_ms: { twenty: null, floor_twenty: null, ratio: null },
    instructions_per_call: { host: null, floor: null },
    harness_tool_ms: { claude_code: null, codex: null },
  };
  const extra = {};

  // Peers.
  const peers = [];
  const steady = want('roundtrip') || want('throughput');
  if (steady || want('cancel') || want('big')) progress(`starting the peers (${PEERS.join(', ')})`);
  for (const [name, open] of [['host', openHostPeer], ['floor', openFloorPeer], ['jsonrpc', openJsonrpcPeer], ['mcp', openMcpPeer]]) {
    if (!PEERS.includes(name)) continue;
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
  else for (const k of PEERS) {
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

  // 5b. An agent hook per tool call, zot-host started cold.
  if (want('hook')) try {
    progress(`agent hook: ${N.HOOK_REPS} runs of zot-host hook PreToolUse with one guard, cold and through an editor window, allowed and denied, and a bare Node hook`);
    const h = await hookFigures(N.HOOK_REPS);
    out.hook_ms = { cold_allow: round(median(h.allow), 1), cold_deny: round(median(h.deny), 1), editor_allow: round(median(h.editor_allow), 1), editor_deny: round(median(h.editor_deny), 1), floor_node: round(median(h.floor), 1) };
    out.cli_start_ms = { help: round(median(h.cli_help), 1), node_bare: round(median(h.node_bare), 1) };
    extra.hook = { samples_ms: Object.fromEntries(Object.entries(h).map(([k, xs]) => [k, xs.map((x) => round(x, 1))])) };
  } catch (err) {
    failed('hook_ms', err);
    failed('cli_start_ms', err);
  }
  else reasons.hook_ms = reasons.cli_start_ms = 'not run (--only)';

  // 5c. A zot tool call and a call of the harness's own tool in real agent harnesses, with the mcp_tool guard, with no hook, with the command hook.
  if (want('harness', { quick: false })) try {
    progress(`agent harnesses: ${N.HARNESS_ROUNDS} rounds of a session per harness and hook (mcp_tool, none, command; in Claude Code also floor), ${N.HARNESS_CALLS} calls of a zot tool and as many of the harness's own tool each (${N.HARNESS_COMMAND_CALLS} with the command hook)`);
    const t0 = now();
    const { figures, skipped } = await harnessFigures({ rounds: N.HARNESS_ROUNDS, calls: N.HARNESS_CALLS, commandCalls: N.HARNESS_COMMAND_CALLS, progress });
    for (const [k, why] of Object.entries(skipped)) reasons[`harness_tool_ms.${k}`] = why;
    for (const [k, f] of Object.entries(figures)) {
      out.harness_tool_ms[k] = {
        mcp_tool: round(f.median_ms.mcp_tool, 1), none: round(f.median_ms.none, 1), command: round(f.median_ms.command, 1), ratio: round(f.ratio, 2), n: f.n.mcp_tool, n_command: f.n.command,
        // A tool of the harness's own, which the guard hook is asked about.
        guarded_tool: f.guarded_tool, guarded_mcp_tool: round(f.guarded_median_ms.mcp_tool, 1), guarded_none: round(f.guarded_median_ms.none, 1), guarded_command: round(f.guarded_median_ms.command, 1), guarded_ratio: round(f.guarded_ratio, 2),
        // Where measured, the least any mcp_tool hook costs there (a server that answers at once), and zot's guard against it.
        ...(f.guarded_floor_ratio !== undefined && { floor: round(f.median_ms.floor, 1), guarded_floor: round(f.guarded_median_ms.floor, 1), guarded_floor_ratio: round(f.guarded_floor_ratio, 2) }),
      };
    }
    const r1 = (o) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, Array.isArray(x) ? x.map((y) => round(y, 1)) : round(x, 1)]));
    const perVariant = (o) => Object.fromEntries(Object.entries(o).map(([v, x]) => [v, r1(x)]));
    extra.harness = {
      rounds: N.HARNESS_ROUNDS, calls: N.HARNESS_CALLS, command_calls: N.HARNESS_COMMAND_CALLS, seconds: round((now() - t0) / 1000, 1),
      ...Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, {
        version: f.version, n: f.n, command_ratio: round(f.command_ratio, 2), split_ms: perVariant(f.split_ms), samples_ms: r1(f.samples_ms),
        guarded_n: f.guarded_n, guarded_split_ms: perVariant(f.guarded_split_ms), guarded_samples_ms: r1(f.guarded_samples_ms),
      }])),
    };
  } catch (err) {
    failed('harness_tool_ms', err);
  }
  else reasons.harness_tool_ms = `not run (${QUICK ? '--quick runs it only when --only names it' : '--only'})`;

  // 6. Memory, in a clean process.
  if (want('memory')) try {
    progress(`memory: ${N.WARM_MEM} + ${N.MEM_CALLS} calls in a fresh process, host and floor`);
    const m = runMemoryChild('host');
    out.rss_growth_mb = round(m.rss_growth_mb, 2);
    out.idle_extension_kb = m.idle_extension_kb;
    if (m.idle_extension_kb === null) reasons.idle_extension_kb = 'could not read /proc/<pid>/status';
    let f = null;
    if (PEERS.includes('floor')) try {
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

  // 7. Instructions per call under callgrind, host and floor.
  if (want('instructions')) try {
    extra.instructions = { valgrind: valgrindVersion(), counts: {} };
    for (const which of ['host', 'floor'].filter((p) => PEERS.includes(p))) {
      progress(`instructions per call of the ${which} under callgrind: ${N.INSTR_CALLS_SHORT} and ${N.INSTR_CALLS_LONG} sequential calls`);
      const c = instructionsPerCall(which);
      out.instructions_per_call[which] = Math.round(c.per_call);
      extra.instructions.counts[which] = { short: c.short, long: c.long, calls: c.calls };
    }
    const { host: ih, floor: if_ } = out.instructions_per_call;
    if (ih && if_) extra.instructions.ratio = round(ih / if_, 2);
  } catch (err) {
    failed('instructions_per_call', err);
  }
  else reasons.instructions_per_call = 'not run (--only)';

  // 8. Bundle and VSIX, both built here.
  if (want('bundle')) {
    try {
      progress('the production build of dist/ (one for the hook figures and this size, in a scratch folder)');
      out.bundle_kb = round(bundleSize(), 1);
    } catch (err) {
      failed('bundle_kb', err);
    }
    try {
      progress('the production VSIX (npm run package in a temporary copy)');
      out.vsix_kb = round(await vsixSize(), 1);
    } catch (err) {
      failed('vsix_kb', err);
    }
  } else reasons.vsix_kb = reasons.bundle_kb = 'not run (--only)';

  // 9. In a real VS Code: activate(), the time to tools, panel latency.
  if (want('vscode')) try {
    progress(`VS Code (code-server + headless Chromium): activate(), ${N.TOOLS_EXTENSIONS} extensions to their tools, ${N.PANEL_KEYS} keys into a webview panel and into a QuickPick, and into their floors`);
    const v = await vscodeFigures({ count: N.TOOLS_EXTENSIONS, keys: N.PANEL_KEYS, warm: N.PANEL_WARM });
    const r2 = (o) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, k === 'n' ? x : round(x, 2)]));
    /** A split: its parts' statistics, each rounded. */
    const parts = (o) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, r2(x)]));
    out.activate_ms = round(v.activate_ms, 2);
    out.panel_latency_ms = r2(v.panel);
    out.panel_seen_ms = { ...r2(v.panel_seen), guessed: v.panel_guessed };
    out.panel_latency_quickpick_ms = r2(v.quickpick);
    out.panel_latency_floor_ms = r2(v.panel_floor);
    out.panel_seen_floor_ms = r2(v.panel_seen_floor);
    out.panel_seen_browser_ms = r2(v.browser_alone);
    extra.panel_seen_split_ms = parts(v.panel_seen_split);
    extra.browser_alone_split_ms = parts(v.browser_alone_split);
    out.panel_latency_quickpick_floor_ms = r2(v.quickpick_floor);
    const floor = extra.startup?.floor_twenty_ms ?? null;
    out.time_to_tools_ms = { twenty: round(v.time_to_tools_ms, 1), floor_twenty: floor, ratio: floor ? round(v.time_to_tools_ms / floor, 2) : null };
    if (!floor) reasons.time_to_tools_ms = 'no startup floor to compare with (the startup section did not run)';
    extra.panel_split_ms = parts(v.panel_split);
    extra.panel_quickpick_split_ms = parts(v.quickpick_split);
    extra.vscode_tools = v.tools;
    extra.time_to_tools_split_ms = Object.fromEntries(Object.entries(v.time_to_tools_split).map(([k, x]) => [k, round(x, 1)]));
    out.vscode_restart_ms = { extensions: v.restart.extensions, host: round(v.restart.host_ms, 1), bare: round(v.restart.bare_ms, 1), ratio: round(v.restart.host_ms / v.restart.bare_ms, 2) };
    extra.vscode_restart = { host_samples_ms: v.restart.host_samples_ms, bare_samples_ms: v.restart.bare_samples_ms.map((x) => round(x, 1)), host_cpu_ms: v.restart.host_cpu_ms.map((x) => round(x, 1)), bare_cpu_ms: v.restart.bare_cpu_ms.map((x) => round(x, 1)) };
  } catch (err) {
    failed('activate_ms / panel_latency_ms / time_to_tools_ms', err);
  }
  else {
    reasons.activate_ms = reasons.panel_latency_ms = reasons.panel_seen_ms = reasons.panel_latency_quickpick_ms = 'not run (--only)';
    reasons.panel_latency_floor_ms = reasons.panel_seen_floor_ms = reasons.panel_seen_browser_ms = reasons.panel_latency_quickpick_floor_ms = 'not run (--only)';
    reasons.vscode_restart_ms = 'not run (--only)';
  }

  // ---- report ----
  const loadAverage = load.stop();
  const bars = evaluate(out, extra);
  printTable(out, extra, reasons, loadAverage);
  console.log('');
  for (const b of bars) console.log(`${b.status.padEnd(4)} ${b.name}: ${b.detail}`);
  const seconds = (now() - t00) / 1000;
  console.log(`\n(${seconds.toFixed(0)} s; ${bars.filter((b) => b.status === 'FAIL').length} FAIL, ${bars.filter((b) => b.status === 'SKIP').length} SKIP of ${bars.length} bars)`);

  if (JSON_OUT) writeJson(JSON_OUT, out, extra, bars, reasons, seconds, loadAverage);
  if (INTO && Object.values(out.harness_tool_ms).some(Boolean)) mergeHarness(INTO, out, extra, reasons, loadAverage);
  else if (INTO) console.error(`! nothing written into ${INTO}: no harness was measured`);
  return bars.some((b) => b.status === 'FAIL') ? 1 : 0;
}
