// The report: the bars (PASS, FAIL, SKIP), the table, and the JSON document.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { N, QUICK, ROOT } from './config.mjs';
import { median, round } from './util.mjs';
import { HARNESSES as HARNESS_LABELS, harnessBar, harnessGuardedBar } from '../scripts/readme-perf.mjs';


/** The bars, from the headline figures. */
export function evaluate(o, e = {}) {
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
  const cpu = e.roundtrip_cpu_us ?? {};
  bar('host CPU per call ≤ 1.2 × floor', has(cpu.host, cpu.floor) ? cpu.host <= 1.2 * cpu.floor : null,
    has(cpu.host, cpu.floor) ? `host ${cpu.host} µs, floor ${cpu.floor} µs: ${x(cpu.host, cpu.floor)}× (wall clock ${has(r.host, r.floor) ? x(r.host, r.floor) : '?'}×)` : 'not measured');
  const c = o.cancel_ms;
  bar('cancel p99 ≤ 2 ms', has(c.p99) ? c.p99 <= 2 : null, has(c.p99) ? `p50 ${c.p50} ms, p99 ${c.p99} ms` : 'not measured');
  const s = o.startup_ms;
  // Against the same 20 processes spawned bare: each Node extension needs its
  // own CPU to boot, so on a machine with fewer cores than extensions no host
  // can start 20 in twice the time of one; what the host adds is the measure.
  const floor20 = e.startup?.floor_twenty_ms;
  bar('startup of 20 ≤ 1.1 × the same 20 spawned bare', has(s.twenty, floor20) ? s.twenty <= 1.1 * floor20 : null,
    has(s.twenty, floor20) ? `twenty ${s.twenty} ms, bare ${floor20} ms: ${x(s.twenty, floor20)}× (one ${s.one} ms)` : 'not measured');
  // In VS Code, once it is idle: at activation the extensions share the machine with VS Code's own startup.
  const vr = o.vscode_restart_ms;
  bar('VS Code, every extension started again ≤ 1.1 × the same spawned bare from its extension host', has(vr?.host, vr?.bare) ? vr.host <= 1.1 * vr.bare : null,
    has(vr?.host, vr?.bare) ? `${vr.extensions} extensions: ${vr.host} ms, bare ${vr.bare} ms: ${x(vr.host, vr.bare)}×` : 'not measured');
  const b = o.big_frame_ms;
  bar('4 MiB frame ≤ 1.5 × JSON.parse', has(b.host, b.json_parse) ? b.host <= 1.5 * b.json_parse : null,
    has(b.host, b.json_parse) ? `host ${b.host} ms, JSON.parse ${b.json_parse} ms: ${x(b.host, b.json_parse)}×` : 'not measured');
  bar('RSS growth ≤ 5 MB / 100,000 calls', has(o.rss_growth_mb) ? o.rss_growth_mb <= 5 : null,
    has(o.rss_growth_mb) ? `${o.rss_growth_mb} MB` : 'not measured');
  bar('activate() ≤ 25 ms', has(o.activate_ms) ? o.activate_ms <= 25 : null, has(o.activate_ms) ? `${o.activate_ms} ms` : 'not measured');
  const p = o.panel_latency_ms;
  const seen = o.panel_seen_ms ?? {};
  const floor = (fl) => (has(fl?.p99) ? `; its floor p50 ${fl.p50} ms, p99 ${fl.p99} ms` : '');
  bar('panel key → seen p99 ≤ 16 ms (webview)', has(seen.p99) ? seen.p99 <= 16 : null, has(seen.p99) ? `p50 ${seen.p50} ms, p99 ${seen.p99} ms, max ${seen.max} ms, n ${seen.n}, ${seen.guessed} shown before the render${floor(o.panel_seen_floor_ms)}${has(o.panel_seen_browser_ms?.p99) ? `; the browser alone p50 ${o.panel_seen_browser_ms.p50} ms, p99 ${o.panel_seen_browser_ms.p99} ms` : ''}` : 'not measured');
  bar('panel key → the extension\'s render painted p99 ≤ 35 ms (webview)', has(p.p99) ? p.p99 <= 35 : null, has(p.p99) ? `p50 ${p.p50} ms, p99 ${p.p99} ms, max ${p.max} ms, n ${p.n}${floor(o.panel_latency_floor_ms)}` : 'not measured');
  const q = o.panel_latency_quickpick_ms ?? {};
  bar('panel key → painted p99 ≤ 50 ms (QuickPick)', has(q.p99) ? q.p99 <= 50 : null, has(q.p99) ? `p50 ${q.p50} ms, p99 ${q.p99} ms, max ${q.max} ms, n ${q.n}${floor(o.panel_latency_quickpick_floor_ms)}` : 'not measured');
  const cli = o.cli_start_ms ?? {};
  bar('zot-host --help ≤ 1.3 × node -e 0', has(cli.help, cli.node_bare) ? cli.help <= 1.3 * cli.node_bare : null,
    has(cli.help, cli.node_bare) ? `${cli.help} ms against ${cli.node_bare} ms (${x(cli.help, cli.node_bare)}×)` : 'not measured');
  // What an agent pays on every tool call with the editor open, against the least a hook written in Node costs.
  const hk = o.hook_ms ?? {};
  const viaEditor = has(hk.editor_allow, hk.editor_deny) ? Math.max(hk.editor_allow, hk.editor_deny) : null;
  bar('agent hook through the editor ≤ 1.3 × a bare Node hook', has(viaEditor, hk.floor_node) ? viaEditor <= 1.3 * hk.floor_node : null,
    has(viaEditor, hk.floor_node) ? `allowed ${hk.editor_allow} ms, denied ${hk.editor_deny} ms against ${hk.floor_node} ms (${x(viaEditor, hk.floor_node)}×)` : 'not measured');
  // In each agent harness, against the same calls with no hook in the same run (bench/measure/harness.mjs).
  for (const [key, label] of HARNESS_LABELS) {
    const hx = o.harness_tool_ms?.[key];
    bar(harnessBar(label), has(hx?.mcp_tool, hx?.none) ? hx.mcp_tool <= 1.2 * hx.none : null,
      has(hx?.mcp_tool, hx?.none) ? `mcp_tool guard ${hx.mcp_tool} ms, no hook ${hx.none} ms: ${x(hx.mcp_tool, hx.none)}× (medians of ${hx.n} calls each; the command hook ${hx.command} ms, of ${hx.n_command})` : 'not measured');
    bar(harnessGuardedBar(label), has(hx?.guarded_mcp_tool, hx?.guarded_none) ? hx.guarded_mcp_tool <= 1.2 * hx.guarded_none : null,
      has(hx?.guarded_mcp_tool, hx?.guarded_none) ? `${hx.guarded_tool}: mcp_tool guard ${hx.guarded_mcp_tool} ms, no hook ${hx.guarded_none} ms: ${x(hx.guarded_mcp_tool, hx.guarded_none)}× (medians of ${hx.n} calls each; the command hook ${hx.guarded_command} ms)` : 'not measured');
  }
  bar('dist/extension.js ≤ 400 KB minified', has(o.bundle_kb) ? o.bundle_kb <= 400 : null, has(o.bundle_kb) ? `${o.bundle_kb} KB` : 'not measured');
  return bars;
}

/** The figures as a table, with the reasons for those that are null. */
export function printTable(o, e, reasons, load) {
  const f = (v, d = 1) => (v === null || v === undefined ? 'null' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: 0 }) : String(v));
  const row = (label, cells) => console.log(label.padEnd(38) + cells.map((c) => String(c).padStart(11)).join(''));
  console.log(`\nzot host benchmark — node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}${QUICK ? '  (--quick: reduced counts)' : ''}`);
  if (load) console.log(`load average (1 min) during the run: ${load.min} to ${load.max} (median ${load.median})`);
  console.log('');
  row('', ['host', 'floor', 'jsonrpc', 'mcp']);
  const r = o.roundtrip_us;
  row(`round trip, µs/call (best of ${N.ROUNDS_RT})`, [f(r.host), f(r.floor), f(r.jsonrpc), f(r.mcp)]);
  const t = o.throughput_64;
  const rc = e.roundtrip_cpu_us ?? {};
  row('  CPU of this process, µs/call (median)', [f(rc.host), f(rc.floor), f(rc.jsonrpc), f(rc.mcp)]);
  row(`64 in flight, calls/s (best of ${N.ROUNDS_TP})`, [f(t.host, 0), f(t.floor, 0), f(t.jsonrpc, 0), f(t.mcp, 0)]);
  const tc = e.throughput_cpu_us ?? {};
  row('  CPU of this process, µs/call (median)', [f(tc.host, 2), f(tc.floor, 2), f(tc.jsonrpc, 2), f(tc.mcp, 2)]);
  const ic = o.instructions_per_call ?? {};
  row('instructions/call, callgrind', [f(ic.host, 0), f(ic.floor, 0), '', '']);
  console.log('');
  const kv = (label, text) => console.log(label.padEnd(38) + text);
  const cf = e.cancel_floor_ms;
  kv('cancel → tool_cancel read, ms', `p50 ${f(o.cancel_ms.p50, 3)}   p99 ${f(o.cancel_ms.p99, 3)}   max ${f(e.cancel?.max_ms, 3)}${cf ? `   (floor p50 ${f(cf.p50, 3)}, p99 ${f(cf.p99, 3)})` : ''}`);
  const st = e.startup;
  kv('agent hook per tool call, ms', `cold, one guard: allowed ${f(o.hook_ms?.cold_allow)} denied ${f(o.hook_ms?.cold_deny)}   through the editor: allowed ${f(o.hook_ms?.editor_allow)} denied ${f(o.hook_ms?.editor_deny)}   (a bare Node hook ${f(o.hook_ms?.floor_node)})`);
  for (const [key, label] of HARNESS_LABELS) {
    const hx = o.harness_tool_ms?.[key];
    const sp = e.harness?.[key]?.split_ms;
    kv(`${label}, tool call → result, ms`, hx ? `mcp_tool guard ${f(hx.mcp_tool)}   no hook ${f(hx.none)}   ratio ${f(hx.ratio, 2)}   command hook ${f(hx.command)}   (medians of ${hx.n} calls, the command hook's of ${hx.n_command})` : 'null');
    if (sp?.mcp_tool) kv('  of which (medians)', `to the hook's call ${f(sp.mcp_tool.to_hook_ms)}   the server's hook ${f(sp.mcp_tool.hook_ms)}   on to the tool ${f(sp.mcp_tool.hook_to_tool_ms)}   the tool ${f(sp.mcp_tool.tool_ms)}   to the model ${f(sp.mcp_tool.after_tool_ms)}   (no hook: to the tool ${f(sp.none?.to_tool_ms)}, the tool ${f(sp.none?.tool_ms)}, to the model ${f(sp.none?.after_tool_ms)})`);
    if (hx?.guarded_tool) kv(`${label}, its ${hx.guarded_tool} → result, ms`, `mcp_tool guard ${f(hx.guarded_mcp_tool)}   no hook ${f(hx.guarded_none)}   ratio ${f(hx.guarded_ratio, 2)}   command hook ${f(hx.guarded_command)}${hx.guarded_floor !== undefined ? `   an mcp_tool hook answering at once ${f(hx.guarded_floor)} (zot's guard ${f(hx.guarded_floor_ratio, 2)}× it)` : ''}`);
    const gs = e.harness?.[key]?.guarded_split_ms?.mcp_tool;
    if (gs) kv('  of which (medians)', `to the hook's call ${f(gs.to_hook_ms)}   the server's hook ${f(gs.hook_ms)}   on to the model ${f(gs.after_hook_ms)}`);
  }
  kv('zot-host --help, whole process, ms', `${f(o.cli_start_ms?.help)}   (node -e 0: ${f(o.cli_start_ms?.node_bare)})`);
  kv('startup (discover+spawn+ready), ms', `one ${f(o.startup_ms.one)}   twenty ${f(o.startup_ms.twenty)}   ratio ${f(st?.ratio, 2)}${st ? `   (floor one ${f(st.floor_one_ms)}, twenty ${f(st.floor_twenty_ms)}, ratio ${f(st.floor_ratio, 2)})` : ''}`);
  const bf = e.big_frame;
  kv('4 MiB tool_result, ms', `host ${f(o.big_frame_ms.host, 2)}   JSON.parse ${f(o.big_frame_ms.json_parse, 2)}${bf ? `   (decode ${f(bf.decode_ms, 2)}; call→outcome ${f(bf.call_to_outcome_ms, 2)})` : ''}`);
  const m = e.memory;
  kv('memory: RSS growth / 100,000 calls', `${f(o.rss_growth_mb, 2)} MB${m ? ` (${f(m.rss_before_mb)} → ${f(m.rss_after_mb)} MB, heap ${f(m.heap_growth_mb, 2)} MB; first ${f(m.warmup_calls, 0)} calls +${f(m.rss_warmup_growth_mb)} MB${m.floor ? `; floor ${f(m.floor.rss_growth_mb, 2)} MB, first calls +${f(m.floor.rss_warmup_growth_mb)} MB` : ''})` : ''}`);
  kv('idle extension (VmRSS)', `${f(o.idle_extension_kb, 0)} KB`);
  kv('dist/extension.js (production)', `${f(o.bundle_kb)} KB;  VSIX ${f(o.vsix_kb)} KB`);
  kv('activate() in VS Code', `${f(o.activate_ms, 2)} ms`);
  const p = o.panel_latency_ms;
  const q = o.panel_latency_quickpick_ms;
  const ps = e.panel_split_ms;
  const seen = o.panel_seen_ms ?? {};
  kv('panel key → seen (webview), ms', `p50 ${f(seen.p50, 2)}   p99 ${f(seen.p99, 2)}   max ${f(seen.max, 2)}   n ${f(seen.n, 0)}   (${f(seen.guessed, 0)} shown before the render)`);
  const ss = e.panel_seen_split_ms;
  if (ss) kv('  of which (p50 / p99)', `to the next frame ${f(ss.to_frame.p50, 2)} / ${f(ss.to_frame.p99, 2)}   the frame ${f(ss.frame.p50, 2)} / ${f(ss.frame.p99, 2)}`);
  const ba = o.panel_seen_browser_ms ?? {};
  const bs = e.browser_alone_split_ms;
  if (Number.isFinite(ba.p99)) kv('  browser alone (plain page), ms', `p50 ${f(ba.p50, 2)}   p99 ${f(ba.p99, 2)}   max ${f(ba.max, 2)}${bs ? `   (to the next frame ${f(bs.to_frame.p50, 2)} / ${f(bs.to_frame.p99, 2)}, the frame ${f(bs.frame.p50, 2)} / ${f(bs.frame.p99, 2)})` : ''}`);
  kv('panel key → render painted (webview), ms', `p50 ${f(p.p50, 2)}   p99 ${f(p.p99, 2)}   max ${f(p.max, 2)}   n ${f(p.n, 0)}`);
  if (ps) kv('  of which (p50 / p99)', `outside the webview ${f(ps.outside_webview.p50, 2)} / ${f(ps.outside_webview.p99, 2)}   DOM ${f(ps.dom_update.p50, 2)} / ${f(ps.dom_update.p99, 2)}   to paint ${f(ps.to_paint.p50, 2)} / ${f(ps.to_paint.p99, 2)}`);
  kv('panel key → painted (QuickPick), ms', `p50 ${f(q.p50, 2)}   p99 ${f(q.p99, 2)}   max ${f(q.max, 2)}   n ${f(q.n, 0)}`);
  const qs = e.panel_quickpick_split_ms;
  if (qs?.in_extension_host) kv('  of which (p50 / p99)', `to the extension host ${f(qs.to_extension_host.p50, 1)} / ${f(qs.to_extension_host.p99, 1)}   host + zot extension ${f(qs.in_extension_host.p50, 1)} / ${f(qs.in_extension_host.p99, 1)}   back to the paint ${f(qs.back_to_paint.p50, 1)} / ${f(qs.back_to_paint.p99, 1)}`);
  const sf = o.panel_seen_floor_ms ?? {};
  const pf = o.panel_latency_floor_ms ?? {};
  const qf = o.panel_latency_quickpick_floor_ms ?? {};
  kv('  floors (the suite\'s own panels), ms', `webview seen ${f(sf.p50, 2)} / ${f(sf.p99, 2)}   render ${f(pf.p50, 2)} / ${f(pf.p99, 2)}   QuickPick ${f(qf.p50, 2)} / ${f(qf.p99, 2)} (p50 / p99)`);
  const tt = o.time_to_tools_ms;
  kv('activate() → tools of 20, ms', `${f(tt.twenty)}   (floor: the same 20 spawned bare ${f(tt.floor_twenty)}; ratio ${f(tt.ratio, 2)})`);
  const ts = e.time_to_tools_split_ms;
  if (ts) kv('  of which, ms', `first start ${f(ts.first_start_ms)}   last start ${f(ts.last_start_ms)}   a start to its ready: median ${f(ts.start_to_ready_median_ms)}, max ${f(ts.start_to_ready_max_ms)}`);
  const vr = o.vscode_restart_ms;
  if (vr) kv(`reload, VS Code idle: ${vr.extensions} ext., ms`, `${f(vr.host)}   (the same spawned bare from the extension host ${f(vr.bare)}; ratio ${f(vr.ratio, 2)})`);
  const vc = e.vscode_restart;
  if (vc?.host_cpu_ms) kv('  extension host CPU over one, ms', `reload ${f(median(vc.host_cpu_ms))} (its stop and discovery too)   bare ${f(median(vc.bare_cpu_ms))}   (medians of ${vc.host_cpu_ms.length})`);
  const rs = Object.entries(reasons);
  if (rs.length) {
    console.log('');
    for (const [k, v] of rs) console.log(`note: ${k}: ${v}`);
  }
}

/**
 * The agent harness figures of a run of that section alone, written into `file`, a full run's document: its other
 * figures are kept, its bars made again from the whole, and the section's own run is recorded (`harness.run`).
 */
export function mergeHarness(file, out, extra, reasons, load) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const merged = { ...doc, harness_tool_ms: out.harness_tool_ms, harness: { ...extra.harness, run: { date: new Date().toISOString(), git: gitHead(), load_average: load ?? null } } };
  merged.bars = evaluate(merged, merged).map((b) => ({ name: b.name, status: b.status, detail: b.detail }));
  merged.reasons = { ...Object.fromEntries(Object.entries(doc.reasons ?? {}).filter(([k]) => !k.startsWith('harness_tool_ms'))), ...Object.fromEntries(Object.entries(reasons).filter(([k]) => k.startsWith('harness_tool_ms'))) };
  fs.writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
  console.log(`the agent harness figures written into ${file}`);
}

const gitHead = () => spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || null;

/** Every figure, the bars, the reasons and how the run was made, as JSON into `file`. */
export function writeJson(file, out, extra, bars, reasons, seconds, load) {
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
      git: gitHead(),
      seconds: round(seconds, 1),
      load_average: load ?? null,
      method: 'see the comment at the top of bench/run.mjs',
    },
  };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
  console.log(`figures written to ${file}`);
}
