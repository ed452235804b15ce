#!/usr/bin/env node
// Mutation pass over the host: puts one realistic defect at a time into a
// copy of the repository, builds it, runs the host tests with a time bound and
// reports whether they caught it. Not part of npm test; it takes a minute or
// two per mutant, run one at a time to spare the CPU.
//
//   node scripts/mutate.mjs                 every mutant
//   node scripts/mutate.mjs --only a,b      the named ones
//   node scripts/mutate.mjs --list          names and descriptions
//
// A mutant whose snippet is no longer found exactly once is "not applicable":
// the code moved on, so its snippet needs updating, and it does not count.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** Longest one test run may take before it counts as hung (and is killed). */
const RUN_BOUND_MS = 240_000;
const TEST_FILES = ['test/protocol', 'test/host', 'test/cli'];

/** name, file, snippet to find (exactly once), its replacement, and what the defect means for a user. */
const MUTANTS = [
  ['queued-cancel-delivered', 'src/host/connection/requests.ts', "if (where === 'written') return false;", "if (where !== 'stuck') return false;", 'a cancel or timeout of a call still queued is treated as delivered (tool_cancel for an unseen id, canceled instead of not_run)'],
  ['queued-frame-kept', 'src/host/transport.ts', "if (ticket.state === 'queued') {", "if (ticket.state === ('never' as string)) {", 'taking back a queued frame leaves it in the queue, so it is sent anyway'],
  ['default-restart-budget-40', 'src/host/options.ts', 'restartMax: 4,', 'restartMax: 40,', 'the default restart budget raised from 4 to 40'],
  ['restart-budget-off-by-one', 'src/host/extension.ts', 'if (this.crashes.length > max) {', 'if (this.crashes.length >= max) {', 'one restart fewer than the budget'],
  ['no-backoff', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'Math.min(b.baseDelayMs, b.maxDelayMs)', 'restarts without exponential backoff'],
  ['backoff-uncapped', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'b.baseDelayMs * 2 ** (crashes.length - 1)', 'the restart delay is not capped at its maximum'],
  ['stop-ladder-sigterm-for-sigkill', 'src/host/process/child.ts', "sending SIGKILL to its process group');\n          killTree(this.pid, true);", "sending SIGKILL to its process group');\n          killTree(this.pid, false);", "the stop ladder's SIGKILL turned into a second SIGTERM"],
  ['no-sigkill-for-leftovers', 'src/host/processGroup.ts', "signalGroup(pgid, 'SIGKILL');", '', 'what is left of a process group is never sent SIGKILL'],
  ['no-shutdown-grace', 'src/host/extension.ts', 'if (!(await within(sp.exited, shutdownGraceMs))) {', 'if (!(await within(sp.exited, 0))) {', 'SIGTERM at once after shutdown, without the grace'],
  ['kill-delay-5x', 'src/host/extension.ts', 'if (!(await within(sp.exited, killAfterMs))) {', 'if (!(await within(sp.exited, killAfterMs * 5))) {', 'SIGKILL five times later than configured'],
  ['restart-after-requested-stop', 'src/host/extension.ts', '  stop(): Promise<void> {\n    this.wantRunning = false;', '  stop(): Promise<void> {', 'a requested stop is followed by a restart'],
  ['oversized-line-buffered', 'src/protocol/lineSplitter.ts', '} else if (this.pendingBytes + size > this.maxLineBytes) {', '} else if (false) {', 'an oversized line without newline is buffered whole instead of discarded (and passed on at end of stream)'],
  ['oversized-tail-unreported', 'src/protocol/lineSplitter.ts', 'if (this.discarded >= 0) {\n      this.sink.oversized(this.discarded, this.discardedHead);\n    } else if', 'if (this.discarded >= 0) {\n    } else if', 'an over-limit last line at end of stream is dropped without a word'],
  ['cr-kept', 'src/protocol/lineSplitter.ts', 'bytes[n - 1] === CR ? bytes.subarray(0, n - 1) : bytes', 'bytes', 'a CRLF line keeps its CR'],
  ['default-line-limit-1mib', 'src/protocol/lineSplitter.ts', 'DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024', 'DEFAULT_MAX_LINE_BYTES = 1024 * 1024', 'frames over 1 MiB (zot allows 4 MiB) are dropped'],
  ['cli-timeout-0', 'src/cli/args.ts', 'n <= 0) throw new UsageError', 'n < 0) throw new UsageError', 'zot-host --timeout 0 accepted (no deadline)'],
  ['cli-usage-exit-1', 'src/cli/main.ts', '      return 2;', '      return 1;', 'a usage error exits 1 like a failed call'],
  ['caller-id-as-wire-id', 'src/host/host.ts', 'const wireId = nextId();', 'const wireId = (opts as { toolId?: string }).toolId ?? nextId();', "the caller's call id reused as the wire id"],
  ['headless-runs-interactive', 'src/host/agent.ts', 'if (tool.interactive && !this.interactive()) {', 'if (false) {', 'a headless host runs interactive tools (nobody can answer them)'],
  ['default-hello-1s', 'src/host/options.ts', 'helloTimeoutMs: 10_000,', 'helloTimeoutMs: 1_000,', 'the default hello wait cut from 10 s to 1 s'],
  ['default-auto-ready-2500', 'src/host/options.ts', 'autoReadyMs: 250,', 'autoReadyMs: 2_500,', 'auto-ready after 2.5 s instead of 250 ms'],
  ['default-tool-timeout-none', 'src/host/options.ts', 'toolTimeoutMs: 60_000,', 'toolTimeoutMs: 0,', 'tool calls get no deadline by default'],
  ['default-stop-grace-20s', 'src/host/options.ts', 'shutdownGraceMs: 2_000,', 'shutdownGraceMs: 20_000,', 'the default shutdown grace raised from 2 s to 20 s'],
  ['tool-cancel-to-everyone', 'src/host/extension.ts', 'const told = this.supportsCancel;', 'const told = true;', 'tool_cancel sent to extensions that did not list it'],
  ['pending-not-failed-on-crash', 'src/host/extension.ts', 'for (const call of [...this.pending.values()]) call.disconnect(why);', '', 'calls pending on a crashed extension wait for their timeout'],
  ['late-reply-is-problem', 'src/host/extension.ts', 'else this.lateReplies++;', "else this.addProblem('a reply for no pending call');", 'late replies reported as problems'],
  ['no-hello-timeout', 'src/host/extension.ts', 'if (this.spawn === sp && !sp.gotHello) this.failRunning', 'if (false) this.failRunning', 'an extension that never says hello is never failed'],
  ['no-write-timeout', 'src/host/transport.ts', 'if (waited >= this.opts.writeTimeoutMs) {', 'if (false) {', 'an extension that stops reading is never given up'],
  ['auto-ready-not-rearmed', 'src/host/extension.ts', '    if (sp.autoReadyTimer) this.armAutoReady(sp);\n', '', 'an extension still registering is declared auto-ready 250 ms after hello'],
  ['intercept-block-ignored', 'src/host/host.ts', 'if (answer.block) return', 'if (answer.block && false) return', 'an intercept that blocks is ignored'],
  ['validate-array-as-object', 'src/protocol/validate.ts', "if (typeof value !== 'object' || value === null || Array.isArray(value)) {", "if (typeof value !== 'object' || value === null) {", 'a JSON array line taken as a frame object'],
  ['mcp-error-flag-lost', 'src/mcp/bridge.ts', 'return { isError: o.isError, content };', 'return { isError: false, content };', 'a tool error reaches the MCP client as a success'],
].map(([name, file, find, replace, description]) => ({ name, file, find, replace, description }));

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const m of MUTANTS) console.log(`${m.name.padEnd(34)} ${m.file.padEnd(30)} ${m.description}`);
  process.exit(0);
}
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',').filter(Boolean)) : undefined;
if (only) for (const n of only) if (!MUTANTS.some((m) => m.name === n)) fail(`unknown mutant "${n}" (see --list)`);
const selected = MUTANTS.filter((m) => !only || only.has(m.name));

function fail(message) {
  console.error(`mutate: ${message}`);
  process.exit(2);
}

/** A copy of the working tree (tracked and untracked, not ignored files), node_modules linked. */
function makeCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zot-mutate-'));
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (ls.status !== 0) fail(`git ls-files failed: ${ls.stderr}`);
  for (const rel of ls.stdout.split('\0').filter(Boolean)) {
    const from = path.join(ROOT, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, rel));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Marks every process a run starts (extensions run in groups of their own, and inherit it). */
const MARK = 'ZOT_MUTATE_COPY';

/** Kills what a run left behind (a mutant may leave stubborn processes): only processes carrying this copy's mark. */
function reapMarked(copy) {
  const mark = `${MARK}=${copy}\0`;
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    let env;
    try { env = fs.readFileSync(`/proc/${e}/environ`, 'latin1'); } catch { continue; }
    if (env.includes(mark)) try { process.kill(Number(e), 'SIGKILL'); } catch { /* gone */ }
  }
}

/** Runs a command in its own process group; kills the whole group past `boundMs`. */
function run(cmd, argv, cwd, boundMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, argv, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [MARK]: cwd } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, boundMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the tests left in this group goes with it.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      reapMarked(cwd);
      resolve({ code, out, hung, ms: Date.now() - started });
    });
  });
}

async function buildAndTest(dir) {
  const build = await run(process.execPath, ['esbuild.mjs'], dir, 120_000);
  if (build.code !== 0) return { verdict: 'build failed', detail: build.out.slice(-2000) };
  return runTests(dir, []);
}

/** The host tests, or only those named. */
async function runTests(dir, names) {
  const files = TEST_FILES.flatMap((d) => fs.readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.test.mjs')).map((f) => `${d}/${f}`));
  const patterns = names.flatMap((n) => ['--test-name-pattern', `^${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`]);
  const r = await run(process.execPath, ['--test', '--test-timeout=60000', '--test-force-exit', '--import', './test/per-test-timeout.mjs', '--test-reporter=tap', ...patterns, ...files], dir, RUN_BOUND_MS);
  const failing = [...r.out.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1]).filter((n) => !n.endsWith('.test.mjs'));
  const counts = /^# pass (\d+)$/m.exec(r.out)?.[1];
  return { code: r.code, hung: r.hung, ms: r.ms, failing, passCount: counts, out: r.out };
}

const dir = makeCopy();
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
/** Each run's TAP output is kept here, to read why a mutant was caught. */
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'zot-mutate-logs-'));
console.log(`copy: ${dir}\nlogs: ${logs}`);
const originals = new Map();
const readOriginal = (file) => {
  if (!originals.has(file)) originals.set(file, fs.readFileSync(path.join(dir, file), 'utf8'));
  return originals.get(file);
};

const base = await buildAndTest(dir);
fs.writeFileSync(path.join(logs, 'baseline.tap'), base.out ?? base.detail);
if (base.verdict || base.code !== 0 || base.hung) {
  console.log(base.out ?? base.detail);
  fail(`the unmutated copy does not pass its tests (${base.verdict ?? (base.hung ? 'hung' : `exit ${base.code}`)}); fix that first`);
}
console.log(`baseline: ${base.passCount} tests pass in ${(base.ms / 1000).toFixed(0)} s\n`);

const results = [];
for (const m of selected) {
  const text = readOriginal(m.file);
  const at = text.indexOf(m.find);
  let result;
  if (at < 0 || text.indexOf(m.find, at + 1) >= 0) {
    result = { verdict: 'not applicable', why: at < 0 ? 'snippet not found' : 'snippet found more than once' };
  } else {
    fs.writeFileSync(path.join(dir, m.file), text.slice(0, at) + m.replace + text.slice(at + m.find.length));
    const r = await buildAndTest(dir);
    fs.writeFileSync(path.join(logs, `${m.name}.tap`), r.out ?? r.detail);
    // A failure that does not repeat is the machine's load, not the mutant: run the failing tests again.
    const again = !r.verdict && !r.hung && r.code !== 0 && r.failing.length ? await runTests(dir, r.failing) : undefined;
    if (again) fs.writeFileSync(path.join(logs, `${m.name}.again.tap`), again.out);
    fs.writeFileSync(path.join(dir, m.file), text);
    const repeated = again ? r.failing.filter((n) => again.hung || again.failing.includes(n)) : [];
    if (r.verdict) result = { verdict: r.verdict, why: r.detail };
    else if (r.hung) result = { verdict: 'caught', why: `the run hung and was killed after ${RUN_BOUND_MS / 1000} s` };
    else if (r.code !== 0 && !r.failing.length) result = { verdict: 'caught', why: `exit ${r.code}` };
    else if (repeated.length) result = { verdict: 'caught', why: `failed twice: ${repeated.slice(0, 3).join(' | ')}${repeated.length > 3 ? ` (+${repeated.length - 3})` : ''}` };
    else if (r.code !== 0) result = { verdict: 'survived', why: `failures did not repeat: ${r.failing.join(' | ')}` };
    else result = { verdict: 'survived', why: `all ${r.passCount} tests passed` };
    result.ms = r.ms;
  }
  results.push({ ...m, ...result });
  console.log(`${result.verdict.toUpperCase().padEnd(15)} ${m.name}: ${m.description}\n${' '.repeat(16)}${result.why}${result.ms ? ` [${(result.ms / 1000).toFixed(0)} s]` : ''}`);
}

const applicable = results.filter((r) => r.verdict === 'caught' || r.verdict === 'survived');
const caught = applicable.filter((r) => r.verdict === 'caught').length;
console.log(`\nscore: ${caught}/${applicable.length} caught${applicable.length ? ` (${Math.round((100 * caught) / applicable.length)}%)` : ''}; ` +
  `${results.filter((r) => r.verdict === 'not applicable').length} not applicable, ${results.filter((r) => r.verdict === 'build failed').length} failed to build`);
for (const r of results.filter((x) => x.verdict === 'survived')) console.log(`  survived: ${r.name}`);
process.exit(applicable.length === caught ? 0 : 1);
