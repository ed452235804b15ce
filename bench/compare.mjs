#!/usr/bin/env node
/**
 * `node bench/compare.mjs --before <dir> --after <dir> [--interleaved-rounds 3] [--rounds 3] [--callgrind-rounds 2] [--sections …] [--quick] [--json <file>]`
 *
 * Compares two builds of the host library in one sitting: <dir> is a checkout
 * built with `npm run build` (its dist/host.js is what is measured). Both are
 * measured by this tree's bench (bench/run.mjs --host-lib, the same peers,
 * fixtures and measurements), section by section, the two builds taking turns
 * and the order flipping every round, so a busy spell of the machine is shared
 * by both. Only the host and its floor run (--peers host,floor): the floor, a
 * bare NDJSON client in the same run, shows what the machine was doing.
 *
 * First, the steady-state calls once more with both builds in this one
 * process: two host peers (one per build, each with its own echo extension)
 * and the floor take turns every RT_CALLS / BLOCKS calls (bench/measure/calls.mjs
 * `rounds`), the finest interleaving there is, for the figures that load
 * moves most (--interleaved-rounds, default 3; 0: not at all).
 *
 * Instructions per call (callgrind, bench/measure/instructions.mjs) do not
 * depend on load; they run after the timed rounds, --callgrind-rounds times
 * per build (0: not at all), the floor once per round.
 *
 * Noise is the spread (max − min, over the median) of one build's figure over
 * the rounds; "worse" means the after build is worse than before by more than
 * the larger of the two spreads. The load average (1 min) before and after
 * each block is kept with it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run.mjs');
const argv = process.argv.slice(2);
// The interleaved rounds run here, with the bench's gc() before each block.
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const value = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : undefined;
};
const count = (name, d) => {
  const v = value(name);
  if (v === undefined) return d;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
};

/** A build's dist/host.js, or a clear error naming what is missing. */
function hostLib(flag) {
  const dir = value(flag);
  if (!dir) throw new Error(`${flag} <dir> is required: a checkout built with npm run build`);
  const lib = path.resolve(dir, 'dist', 'host.js');
  if (!fs.existsSync(lib)) throw new Error(`${flag}: ${lib} does not exist (run npm ci && npm run build in ${dir})`);
  return { dir: path.resolve(dir), lib, commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout?.trim() || null };
}

/** The blocks the builds take turns on (`--sections roundtrip,throughput+cancel`: '+' separates blocks). */
const SECTIONS = (value('--sections') ?? 'roundtrip,throughput+cancel+big+startup+memory').split('+');

/** What is compared: a label, where it is in the bench's JSON, and which way is better. */
const METRICS = [
  ['sequential round trip, µs/call', (d) => d.roundtrip_us?.host, 'lower'],
  ['  its floor in the same run, µs/call', (d) => d.roundtrip_us?.floor, 'anchor'],
  ['CPU of the calling process, µs/call', (d) => d.roundtrip_cpu_us?.host, 'lower'],
  ['  its floor\'s CPU in the same run, µs/call', (d) => d.roundtrip_cpu_us?.floor, 'anchor'],
  ['64 in flight, calls/s', (d) => d.throughput_64?.host, 'higher'],
  ['  CPU, µs/call', (d) => d.throughput_cpu_us?.host, 'lower'],
  ['cancel → tool_cancel read p50, ms', (d) => d.cancel_ms?.p50, 'lower'],
  ['cancel → tool_cancel read p99, ms', (d) => d.cancel_ms?.p99, 'lower'],
  ['one 4 MiB tool_result, ms', (d) => d.big_frame_ms?.host, 'lower'],
  ['  JSON.parse of it in the same run, ms', (d) => d.big_frame_ms?.json_parse, 'anchor'],
  ['RSS growth / 100,000 calls, MB', (d) => d.rss_growth_mb, 'lower'],
  ['startup of 1 extension, ms', (d) => d.startup_ms?.one, 'lower'],
  ['startup of 20 extensions, ms', (d) => d.startup_ms?.twenty, 'lower'],
  ['instructions per call (callgrind)', (d) => d.instructions_per_call?.host, 'lower'],
  ['  the floor\'s (callgrind)', (d) => d.instructions_per_call?.floor, 'anchor'],
];

/** One block: this tree's bench against one build, some sections; its JSON and the load around it. */
function block(side, lib, only, peers, quick) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zot-compare-')), 'figures.json');
  const load0 = os.loadavg()[0];
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [RUN, '--host-lib', lib, '--only', only, '--peers', peers, '--json', file, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', timeout: 3_600_000 });
  const load1 = os.loadavg()[0];
  if (r.status !== 0 || !fs.existsSync(file)) throw new Error(`the bench failed on the ${side} build (--only ${only}): ${(r.stderr || r.stdout || '').slice(-800)}`);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  for (const [k, why] of Object.entries(doc.reasons ?? {})) if (!/not run \(--only\)/.test(why)) process.stderr.write(`! ${side} ${only}: ${k}: ${why}\n`);
  process.stderr.write(`… ${side.padEnd(6)} ${only.padEnd(22)} ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s, load ${load0.toFixed(2)} → ${load1.toFixed(2)}\n`);
  return { side, only, load: [round(load0, 2), round(load1, 2)], seconds: round((Date.now() - t0) / 1000, 1), doc };
}

const round = (x, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Both builds and the floor as peers of one process, taking turns block by
 * block: per round, µs per sequential call, calls/s with 64 in flight, and the
 * CPU time per call of each.
 */
async function interleaved(before, after, count) {
  const { N } = await import('./config.mjs');
  const { openFloorPeer, openHostPeer } = await import('./peers.mjs');
  const { inFlight, rounds, sequential } = await import('./measure/calls.mjs');
  const { cleanup } = await import('./util.mjs');
  const peers = [await openHostPeer({ name: 'before', lib: before.lib }), await openHostPeer({ name: 'after', lib: after.lib }), await openFloorPeer()];
  const load0 = os.loadavg()[0];
  try {
    for (const p of peers) {
      await sequential(p, N.WARM);
      await inFlight(p, N.WARM, N.WIDTH);
    }
    const rt = await rounds(peers, count, N.RT_CALLS, N.BLOCKS, (p, n) => sequential(p, n));
    const tp = await rounds(peers, count, N.TP_CALLS, N.BLOCKS, (p, n) => inFlight(p, n, N.WIDTH));
    const of = (name) => ({
      roundtrip_us: rt[name].map((x) => round((x.ms * 1000) / x.calls, 1)),
      roundtrip_cpu_us: rt[name].map((x) => round(x.cpuUs / x.calls, 1)),
      throughput_64: tp[name].map((x) => Math.round(x.calls / (x.ms / 1000))),
      throughput_cpu_us: tp[name].map((x) => round(x.cpuUs / x.calls, 2)),
    });
    return { before: of('before'), after: of('after'), floor: of('floor'), load: [round(load0, 2), round(os.loadavg()[0], 2)] };
  } finally {
    for (const p of peers) await p.close();
    cleanup();
  }
}

const INTERLEAVED = [
  ['sequential round trip, µs/call', 'roundtrip_us', 'lower'],
  ['CPU of the calling process, µs/call', 'roundtrip_cpu_us', 'lower'],
  ['64 in flight, calls/s', 'throughput_64', 'higher'],
  ['  CPU, µs/call', 'throughput_cpu_us', 'lower'],
];

/** Per metric and build: every round's figure, the median, and the spread. */
function summarize(blocks, pair) {
  const rows = METRICS.map(([label, get, better]) => [label, better, (side) => blocks.filter((b) => b.side === side).map((b) => get(b.doc))]);
  if (pair) {
    rows.unshift(...INTERLEAVED.map(([label, key, better]) => [`${label.startsWith(' ') ? label : `${label} [one process]`}`, better, (side) => pair[side][key]]));
    rows.splice(INTERLEAVED.length, 0, ['  the floor in that process, µs/call', 'anchor', () => pair.floor.roundtrip_us]);
  }
  return rows.map(([label, better, values]) => {
    const per = {};
    for (const side of ['before', 'after']) {
      const xs = values(side).filter((x) => x !== null && x !== undefined && Number.isFinite(x));
      const med = median(xs);
      per[side] = { values: xs, median: med, spread: xs.length > 1 && med ? (Math.max(...xs) - Math.min(...xs)) / Math.abs(med) : null };
    }
    const { before: b, after: a } = per;
    const ratio = a.median !== null && b.median ? a.median / b.median : null;
    let verdict = '';
    if (ratio !== null && better !== 'anchor' && (a.values.length < 2 || b.values.length < 2)) verdict = 'one round: no noise figure';
    else if (ratio !== null && better !== 'anchor') {
      const worse = better === 'lower' ? ratio - 1 : 1 / ratio - 1;
      const noise = Math.max(a.spread ?? 0, b.spread ?? 0);
      verdict = worse > noise ? 'worse' : worse < -noise ? 'better' : 'within noise';
    }
    return { label, better, before: b, after: a, ratio: round(ratio, 3), verdict };
  });
}

function fmt(x) {
  if (x === null || x === undefined) return '–';
  const d = Math.abs(x) >= 1000 ? 0 : Math.abs(x) >= 10 ? 1 : 3;
  return x.toLocaleString('en-US', { maximumFractionDigits: d });
}

function printTable(rows, before, after) {
  const cell = (s) => (s.values.length ? `${fmt(s.median)} (${fmt(Math.min(...s.values))}–${fmt(Math.max(...s.values))})` : '–');
  const pct = (s) => (s.spread === null ? '' : `${(s.spread * 100).toFixed(1)}%`);
  console.log(`\nbefore ${before.commit ?? '?'} (${before.dir})\nafter  ${after.commit ?? '?'} (${after.dir})\nmedian (min–max) over the rounds; spread = (max − min) / median of one build\n`);
  const line = (...c) => console.log(c[0].padEnd(50) + c.slice(1).map((x, i) => String(x).padStart([26, 26, 8, 9, 9, 13][i])).join(''));
  line('', 'before', 'after', 'a/b', 'spread b', 'spread a', '');
  for (const r of rows) line(r.label, cell(r.before), cell(r.after), r.ratio ?? '–', pct(r.before), pct(r.after), r.verdict);
}

async function main() {
  const before = hostLib('--before');
  const after = hostLib('--after');
  const rounds = count('--rounds', 3);
  const pairRounds = count('--interleaved-rounds', 3);
  const cgRounds = count('--callgrind-rounds', 2);
  const quick = argv.includes('--quick');
  const sides = { before: before.lib, after: after.lib };
  const blocks = [];
  const t0 = Date.now();
  let pair = null;
  if (pairRounds > 0) {
    process.stderr.write(`… both builds and the floor in one process: ${pairRounds} interleaved rounds\n`);
    pair = await interleaved(before, after, pairRounds);
    process.stderr.write(`… interleaved rounds done, load ${pair.load[0]} → ${pair.load[1]}\n`);
  }
  for (let r = 0; r < rounds; r++) {
    for (const [i, only] of SECTIONS.entries()) {
      // before first in even blocks, after first in odd ones, and the pattern shifts each round
      const order = (r + i) % 2 ? ['after', 'before'] : ['before', 'after'];
      for (const side of order) blocks.push({ round: r + 1, ...block(side, sides[side], only, 'host,floor', quick) });
    }
  }
  for (let r = 0; r < cgRounds; r++) {
    const order = r % 2 ? ['after', 'before'] : ['before', 'after'];
    for (const side of order) blocks.push({ round: r + 1, ...block(side, sides[side], 'instructions', 'host', quick) });
    // The floor does not use the host library: once per round, kept with both builds' rows.
    const floor = block('floor', after.lib, 'instructions', 'floor', quick);
    for (const b of blocks.slice(-2)) b.doc.instructions_per_call.floor = floor.doc.instructions_per_call.floor;
    blocks.push({ round: r + 1, ...floor });
  }
  const rows = summarize(blocks, pair);
  printTable(rows, before, after);
  const loads = [...blocks.flatMap((b) => b.load), ...(pair?.load ?? [])];
  console.log(`\nload average (1 min) around the blocks: ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}; ${pairRounds} interleaved rounds in one process, ${rounds} rounds of blocks, ${cgRounds} callgrind rounds, ${((Date.now() - t0) / 60000).toFixed(1)} min; ${os.cpus().length} cores, node ${process.version}`);
  const out = value('--json');
  if (out) {
    const doc = {
      before: { dir: before.dir, commit: before.commit },
      after: { dir: after.dir, commit: after.commit },
      rows,
      interleaved: pair,
      blocks: blocks.map(({ doc, ...b }) => ({ ...b, figures: Object.fromEntries(METRICS.map(([label, get]) => [label.trim(), get(doc) ?? null])) })),
      meta: { date: new Date().toISOString(), rounds, interleaved_rounds: pairRounds, callgrind_rounds: cgRounds, quick, node: process.version, cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? null },
    };
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
    console.log(`written to ${out}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
