#!/usr/bin/env node
// The soak: random tool calls, cancels, timeouts, crashes, restarts, reloads,
// panel opens and keys against real fixture extensions, with the host's
// invariants checked after every step:
//   - every call resolves exactly once, with the outcome its situation allows
//     (an echo that completes says back what it was given, a hang times out or
//     is cut off, a cancel cancels…), and within a deadline;
//   - no process is left: at quiet points the processes carrying this host's
//     marker are exactly the live extensions; at the end there are none;
//   - the host's RSS stays within a bound;
//   - no unhandled rejection or uncaught exception.
// Prints the figures and exits 1 on any violation.
//
//   node scripts/soak.mjs [--ops N] [--seconds S] [--seed N] [--rss-mb M] [--quiet]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = require(path.join(ROOT, 'dist', 'host.js'));
const BEHAVE = path.join(ROOT, 'test', 'fixtures', 'node', 'behave.js');

const opts = parse(process.argv.slice(2));
const violations = [];
const violate = (what) => {
  violations.push(what);
  if (violations.length <= 20) console.error(`VIOLATION: ${what}`);
};
process.on('unhandledRejection', (e) => violate(`unhandled rejection: ${e?.stack ?? e}`));
process.on('uncaughtException', (e) => violate(`uncaught exception: ${e?.stack ?? e}`));

// A PRNG with a seed, so a failing run can be repeated.
let seed = opts.seed >>> 0 || 1;
const rand = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
const pick = (weights) => {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [v, w] of weights) if ((r -= w) < 0) return v;
  return weights[weights.length - 1][0];
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zot-soak-'));
const home = path.join(scratch, 'home');
function ext(name, cfg) {
  const dir = path.join(scratch, 'exts', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: 'node', args: [BEHAVE, JSON.stringify({ name, ...cfg })] }));
  return dir;
}
const TOOLS = [
  { name: 'echo', behaviour: 'echo' },
  { name: 'late', behaviour: 'late', delayMs: 15 },
  { name: 'hang', behaviour: 'hang' },
  { name: 'slow', behaviour: 'cancellable', delayMs: 400 },
  { name: 'crash', behaviour: 'crash' },
  { name: 'fail', behaviour: 'error' },
];
const dirs = ['a', 'b'].map((n) => ext(`soak-${n}`, {
  caps: ['commands', 'tools', 'tool_cancel', 'panels'],
  tools: TOOLS.map((t) => ({ ...t, name: `${n}_${t.name}` })),
  commands: [{ name: `${n}_panel`, reply: { action: 'open_panel', open_panel: { id: 'p', title: 'soak', lines: ['x'] } } }],
  echoPanel: true,
}));

class SoakUI extends lib.HeadlessUI {
  interactive = true;
  panels = new Map();
  constructor() { super(() => undefined); }
  notify() {}
  openPanel(p) { this.panels.set(p.uid, p); }
  renderPanel(p) { this.panels.set(p.uid, p); }
  closePanel(p) { this.panels.delete(p.uid); }
}
const ui = new SoakUI();
const host = new lib.ZotHost({
  cwd: scratch, zotHome: home, extensionPaths: dirs, discover: false, ui,
  timing: { helloTimeoutMs: 5000, readyGraceMs: 3000, shutdownGraceMs: 300, killAfterMs: 300, restartMax: 1_000_000, restartWindowMs: 1000, restartBaseDelayMs: 5, restartMaxDelayMs: 20, toolTimeoutMs: 10_000 },
});

const counts = {};
const count = (k) => (counts[k] = (counts[k] ?? 0) + 1);
const inflight = new Set();
const CALL_DEADLINE_MS = 15_000;
const MAX_INFLIGHT = 6;

/** Tracks one call: it must resolve once, in time, with an outcome `allowed` accepts. */
function track(label, promise, allowed) {
  const entry = { label, at: Date.now(), done: false };
  inflight.add(entry);
  promise.then((o) => {
    if (entry.done) return violate(`${label} resolved twice`);
    entry.done = true;
    inflight.delete(entry);
    count(`${label}:${o.outcome}`);
    const why = allowed(o);
    if (why !== true) violate(`${label} ended ${o.outcome} (${o.message ?? ''}): ${why}`);
  }, (e) => {
    entry.done = true;
    inflight.delete(entry);
    violate(`${label} rejected instead of resolving with an outcome: ${e?.stack ?? e}`);
  });
  return promise;
}

const textOf = (o) => (o.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
const UNAVAILABLE = ['not_run', 'disconnected', 'abandoned'];
const either = (...ok) => (o) => (ok.includes(o.outcome) || UNAVAILABLE.includes(o.outcome) ? true : `expected ${ok.join(' or ')}`);

async function step(i) {
  const n = rand() < 0.5 ? 'a' : 'b';
  const extName = `soak-${n}`;
  const op = pick([['echo', 40], ['late', 12], ['timeout', 6], ['cancel', 8], ['fail', 6], ['crash', 1.5], ['restart', 1], ['stopstart', 0.5], ['reload', 0.15], ['panel', 5], ['key', 10]]);
  count(`op:${op}`);
  switch (op) {
    case 'echo': {
      const args = { i, s: 'x'.repeat(Math.floor(rand() * 200)) };
      return track('echo', host.runToolCall(`${n}_echo`, args), (o) => (o.outcome === 'completed' ? (textOf(o) === JSON.stringify(args) ? true : `said back ${textOf(o).slice(0, 80)}`) : UNAVAILABLE.includes(o.outcome) || 'expected completed'));
    }
    case 'late':
      return track('late', host.runToolCall(`${n}_late`, {}), (o) => (o.outcome === 'completed' ? (textOf(o) === 'late answer' || 'wrong text') : either('completed')(o)));
    case 'timeout':
      return track('timeout', host.runToolCall(`${n}_hang`, {}, { timeoutMs: 20 + Math.floor(rand() * 40) }), either('timed_out'));
    case 'cancel': {
      const source = new lib.CancellationTokenSource();
      const p = track('cancel', host.runToolCall(`${n}_slow`, {}, { token: source.token }), either('canceled'));
      setTimeout(() => source.cancel(), Math.floor(rand() * 30));
      p.finally(() => source.dispose());
      return p;
    }
    case 'fail':
      return track('fail', host.runToolCall(`${n}_fail`, {}), (o) => (o.outcome === 'completed' ? (o.isError === true || 'an error result must say so') : either('completed')(o)));
    case 'crash':
      return track('crash', host.runToolCall(`${n}_crash`, {}), (o) => (o.outcome === 'completed' ? 'a crash cannot complete' : true));
    case 'restart': await host.restartExtension(extName); return undefined;
    case 'stopstart': await host.stopExtension(extName); await host.startExtension(extName); return undefined;
    case 'reload': await host.reload(); return undefined;
    case 'panel': {
      const r = await host.runCommand(`${n}_panel`, '');
      count(`panel:${r.outcome}`);
      if (!['completed', ...UNAVAILABLE].includes(r.outcome)) violate(`panel command ended ${r.outcome}: ${r.message}`);
      return undefined;
    }
    case 'key': {
      const open = [...ui.panels.values()].filter((p) => p.extension.name === extName);
      if (open.length === 0) return undefined;
      const p = open[Math.floor(rand() * open.length)];
      if (rand() < 0.15) p.dismiss();
      else p.key(pick([['up', 1], ['down', 1], ['enter', 1], ['rune', 1]]), 'k');
      return undefined;
    }
  }
  return undefined;
}

/** Waits for all calls to end and the extensions to settle; then the marked processes must be the live extensions. */
async function quiesce(where) {
  const deadline = Date.now() + CALL_DEADLINE_MS;
  while (inflight.size > 0 && Date.now() < deadline) await sleep(5);
  await Promise.all(host.extensions.map((rt) => rt.whenSettled?.() ?? Promise.resolve()));
  await sleep(50);
  const live = new Set(host.extensions.map((rt) => rt.pid).filter((p) => p !== undefined));
  let marked = lib.markedProcesses(undefined, true);
  for (let tries = 0; marked.some((p) => !live.has(p)) && tries < 40; tries++) {
    await sleep(50);
    marked = lib.markedProcesses(undefined, true);
    for (const rt of host.extensions) if (rt.pid !== undefined) live.add(rt.pid);
  }
  const strays = marked.filter((p) => !live.has(p));
  if (strays.length) violate(`${where}: processes left that are no live extension: ${strays.map(describe).join('; ')}`);
}

/** A process as a violation names it: pid, state and command line. */
function describe(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 160);
    return `${pid} [${stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(0, 4).join(' ')}] ${cmd}`;
  } catch {
    return `${pid} (gone)`;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rss = () => process.memoryUsage().rss;
const mb = (b) => (b / 1024 / 1024).toFixed(1);

await host.start();
const rssStart = rss();
let rssMax = rssStart;
const began = Date.now();
let ops = 0;
const stopAt = opts.seconds ? began + opts.seconds * 1000 : Infinity;
for (; ops < opts.ops && Date.now() < stopAt; ops++) {
  const p = step(ops);
  if (p && inflight.size >= MAX_INFLIGHT) await Promise.race([...inflight].map(() => p)).catch(() => undefined);
  else await p;
  // After every step: nothing overdue.
  const now = Date.now();
  for (const e of inflight) if (now - e.at > CALL_DEADLINE_MS && !e.reported) { e.reported = true; violate(`${e.label} unresolved after ${CALL_DEADLINE_MS} ms`); }
  if (ops % 1000 === 999) {
    await quiesce(`after ${ops + 1} operations`);
    const r = rss();
    rssMax = Math.max(rssMax, r);
    if (r - rssStart > opts.rssMb * 1024 * 1024) violate(`RSS ${mb(r)} MB after ${ops + 1} operations: over ${opts.rssMb} MB above the start (${mb(rssStart)} MB)`);
    if (!opts.quiet && ops % 10_000 === 9_999) console.error(`… ${ops + 1} operations, RSS ${mb(r)} MB, ${((Date.now() - began) / 1000).toFixed(0)} s`);
  }
}
await quiesce('at the end');
const rssEnd = rss();
await host.dispose();
await sleep(100);
const left = lib.markedProcesses(undefined, true);
if (left.length) violate(`after dispose: ${left.length} processes left (${left.map(describe).join('; ')})`);
if (violations.length) console.error(`logs kept in ${home}/logs`);
else fs.rmSync(scratch, { recursive: true, force: true });

const outcomes = Object.fromEntries(Object.entries(counts).filter(([k]) => !k.startsWith('op:')).sort());
const operations = Object.fromEntries(Object.entries(counts).filter(([k]) => k.startsWith('op:')).map(([k, v]) => [k.slice(3), v]).sort());
console.log(JSON.stringify({
  operations: ops, seconds: Math.round((Date.now() - began) / 1000), seed: opts.seed, byOperation: operations, outcomes,
  rssStartMB: Number(mb(rssStart)), rssEndMB: Number(mb(rssEnd)), rssMaxMB: Number(mb(rssMax)), processesLeft: left.length, violations: violations.length,
}, null, 2));
process.exit(violations.length ? 1 : 0);

function parse(argv) {
  const o = { ops: 10_000, seconds: 0, seed: 1, rssMb: 200, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) { console.error(`soak: ${a} takes a number`); process.exit(2); }
      return v;
    };
    if (a === '--ops') o.ops = num();
    else if (a === '--seconds') o.seconds = num();
    else if (a === '--seed') o.seed = num();
    else if (a === '--rss-mb') o.rssMb = num();
    else if (a === '--quiet') o.quiet = true;
    else { console.error(`soak: unknown option ${a}`); process.exit(2); }
  }
  if (o.seconds && !argv.includes('--ops')) o.ops = Infinity;
  return o;
}
