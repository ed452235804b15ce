#!/usr/bin/env node
// Mutation pass over the host: puts one realistic defect at a time into a
// copy of the repository, builds it, runs the host tests with a time bound and
// reports whether they caught it. Not part of npm test. Each mutant runs the
// test files that cover its module first; one that survives them runs every
// host test before it counts as survived. One at a time, to spare the CPU.
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

/**
 * name, file, snippet to find (exactly once), its replacement, what the defect means for a user,
 * and the test files that cover the module (run first; a survivor is re-run against every host test).
 */
const MUTANTS = [
  ['queued-cancel-delivered', 'src/host/connection/requests.ts', "if (where === 'written') return false;", "if (where !== 'stuck') return false;", 'a cancel or timeout of a call still queued is treated as delivered (tool_cancel for an unseen id, canceled instead of not_run)', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['queued-frame-kept', 'src/host/connection/transport.ts', "if (ticket.state === 'queued') {", "if (ticket.state === ('never' as string)) {", 'taking back a queued frame leaves it in the queue, so it is sent anyway', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['wire-id-reused-after-settle', 'src/host/connection/requests.ts', 'const id = nextId();', 'const id = String(this.pending.size + 1);', 'wire ids counted from what is pending, so an id is reused while an earlier call with it is still pending (two calls share one wire id)', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['deadline-timer-not-rearmed', 'src/host/connection/requests.ts', 'if (next < Infinity && next < this.timerAt) this.arm(next);', '', 'after the earliest deadline fires, later deadlines of calls still pending are never armed (they wait forever)', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['no-write-timeout', 'src/host/connection/transport.ts', 'if (waited >= this.opts.writeTimeoutMs) {', 'if (false) {', 'an extension that stops reading is never given up', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['default-restart-budget-40', 'src/host/options.ts', 'restartMax: 4,', 'restartMax: 40,', 'the default restart budget raised from 4 to 40', ['test/host/timings.test.mjs']],
  ['restart-budget-off-by-one', 'src/host/extension/restartPolicy.ts', 'if (crashes.length > b.max) return', 'if (crashes.length >= b.max) return', 'one restart fewer than the budget', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-backoff', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'Math.min(b.baseDelayMs, b.maxDelayMs)', 'restarts without exponential backoff', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['backoff-uncapped', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'b.baseDelayMs * 2 ** (crashes.length - 1)', 'the restart delay is not capped at its maximum', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['restart-after-requested-stop', 'src/host/extension/runtime.ts', "if (this.live !== l || s.kind === 'stopping') return;", 'if (this.live !== l) return;', 'an extension that exits while it is being stopped is restarted as if it had crashed', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs', 'test/host/samples.test.mjs']],
  ['stop-ladder-sigterm-for-sigkill', 'src/host/process/child.ts', "sending SIGKILL to its process group');\n          killTree(this.pid, true);", "sending SIGKILL to its process group');\n          killTree(this.pid, false);", "the stop ladder's SIGKILL turned into a second SIGTERM", ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-sigkill-for-leftovers', 'src/host/process/treeKill.ts', '  killTree(pid, true);\n  return waitTreeGone(pid, 2000);', '  return waitTreeGone(pid, 2000);', 'what is left of a process tree after SIGTERM is never sent SIGKILL', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-shutdown-grace', 'src/host/process/child.ts', 'if (!(await this.waitExit(shutdownGraceMs))) {', 'if (!(await this.waitExit(0))) {', 'SIGTERM at once after shutdown, without the grace', ['test/host/samples.test.mjs', 'test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['kill-delay-5x', 'src/host/process/child.ts', 'if (!(await this.waitExit(killAfterMs))) {', 'if (!(await this.waitExit(killAfterMs * 5))) {', 'SIGKILL five times later than configured', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['second-stop-not-forced', 'src/host/process/child.ts', '      this.force();\n      return this.stopping;', '      return this.stopping;', 'stopping again while a stop is under way does not kill the tree at once (the ladder runs its full course)', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['oversized-line-buffered', 'src/protocol/lineSplitter.ts', '} else if (this.pendingBytes + size > this.maxLineBytes) {', '} else if (false) {', 'an oversized line without newline is buffered whole instead of discarded (and passed on at end of stream)', ['test/protocol/lineBounds.test.mjs', 'test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['oversized-tail-unreported', 'src/protocol/lineSplitter.ts', 'if (this.discarded >= 0) {\n      this.sink.oversized(this.discarded, this.discardedHead);\n    } else if', 'if (this.discarded >= 0) {\n    } else if', 'an over-limit last line at end of stream is dropped without a word', ['test/protocol/lineBounds.test.mjs', 'test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['cr-kept', 'src/protocol/lineSplitter.ts', 'end > start && bytes[end - 1] === CR ? end - 1 : end', 'end', 'a CRLF line keeps its CR', ['test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['default-line-limit-1mib', 'src/protocol/lineSplitter.ts', 'DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024', 'DEFAULT_MAX_LINE_BYTES = 1024 * 1024', 'frames over 1 MiB (zot allows 4 MiB) are dropped', ['test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['cli-timeout-0', 'src/cli/args.ts', 'n <= 0) throw new UsageError', 'n < 0) throw new UsageError', 'zot-host --timeout 0 accepted (no deadline)', ['test/cli/timeout-option.test.mjs', 'test/cli/cli.test.mjs']],
  ['cli-usage-exit-1', 'src/cli/main.ts', 'return e.message ? 2 : 0;', 'return e.message ? 1 : 0;', 'a usage error exits 1 like a failed call', ['test/cli/cli.test.mjs', 'test/cli/timeout-option.test.mjs']],
  ['headless-runs-interactive', 'src/host/agent.ts', 'if (tool.interactive && !this.interactive()) {', 'if (false) {', 'a headless host runs interactive tools (nobody can answer them)', ['test/cli/timeout-option.test.mjs', 'test/cli/mcp.test.mjs']],
  ['interactive-gets-default-deadline', 'src/host/agent.ts', '(tool.interactive ? 0 : this.timing.toolTimeoutMs)', 'this.timing.toolTimeoutMs', 'an interactive tool (waiting for the user) times out after the tool deadline', ['test/host/calls.test.mjs', 'test/host/samples.test.mjs', 'test/host/ui.test.mjs']],
  ['intercept-block-ignored', 'src/host/agent.ts', 'if (answer.block) return', 'if (answer.block && false) return', 'an intercept that blocks is ignored', ['test/host/events.test.mjs']],
  ['default-hello-1s', 'src/host/options.ts', 'helloTimeoutMs: 10_000,', 'helloTimeoutMs: 1_000,', 'the default hello wait cut from 10 s to 1 s', ['test/host/timings.test.mjs', 'test/host/hello-bound.test.mjs']],
  ['default-auto-ready-2500', 'src/host/options.ts', 'autoReadyMs: 250,', 'autoReadyMs: 2_500,', 'auto-ready after 2.5 s instead of 250 ms', ['test/host/timings.test.mjs']],
  ['default-tool-timeout-none', 'src/host/options.ts', 'toolTimeoutMs: 60_000,', 'toolTimeoutMs: 0,', 'tool calls get no deadline by default', ['test/host/timings.test.mjs']],
  ['default-stop-grace-20s', 'src/host/options.ts', 'shutdownGraceMs: 2_000,', 'shutdownGraceMs: 20_000,', 'the default shutdown grace raised from 2 s to 20 s', ['test/host/timings.test.mjs']],
  ['tool-cancel-to-everyone', 'src/host/extension/runtime.ts', 'supportsCancel: this.supportsCancel }', 'supportsCancel: true }', 'tool_cancel sent to extensions that did not list it', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['pending-not-failed-on-crash', 'src/host/extension/runtime.ts', '    l.requests.closeAll(l.process.exit ?? `closed its connection (${reason})`);\n', '', 'calls pending on a crashed extension wait for their timeout', ['test/host/calls.test.mjs']],
  ['late-reply-is-problem', 'src/host/extension/runtime.ts', 'if (!l.requests.answer(frame.id, frame)) this.lateReplies++;', "if (!l.requests.answer(frame.id, frame)) this.addProblem('a reply for no pending call');", 'late replies reported as problems', ['test/host/calls.test.mjs']],
  ['error-frame-not-matched', 'src/host/extension/runtime.ts', 'if (frame.id === undefined || !l.requests.answer(frame.id, frame as ReplyFrame))', 'if (frame.id === undefined || true)', 'an error frame naming a pending call leaves the call waiting for its deadline', ['test/host/calls.test.mjs', 'test/host/frames.test.mjs']],
  ['no-hello-timeout', 'src/host/extension/runtime.ts', 'if (this.live === l && !l.gotHello) this.failLaunch', 'if (false) this.failLaunch', 'an extension that never says hello is never failed', ['test/host/lifecycle.test.mjs', 'test/host/hello-bound.test.mjs']],
  ['auto-ready-not-rearmed', 'src/host/extension/runtime.ts', '    if (l.autoReadyTimer) this.armAutoReady(l);\n', '', 'an extension still registering is declared auto-ready 250 ms after hello', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['validate-array-as-object', 'src/protocol/validate.ts', "if (typeof value !== 'object' || value === null || Array.isArray(value)) {", "if (typeof value !== 'object' || value === null) {", 'a JSON array line taken as a frame object', ['test/protocol/validate.test.mjs', 'test/host/frames.test.mjs']],
  ['mcp-error-flag-lost', 'src/mcp/bridge.ts', 'return { isError: o.isError, content };', 'return { isError: false, content };', 'a tool error reaches the MCP client as a success', ['test/cli/mcp.test.mjs', 'test/cli/mcp-http.test.mjs']],
].map(([name, file, find, replace, description, tests]) => ({ name, file, find, replace, description, tests }));

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const m of MUTANTS) console.log(`${m.name.padEnd(34)} ${m.file.padEnd(36)} ${m.description}`);
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

async function build(dir) {
  const b = await run(process.execPath, ['esbuild.mjs'], dir, 120_000);
  return b.code === 0 ? undefined : b.out.slice(-2000);
}

/** Every host test file of the copy (protocol, host, CLI). */
function allTestFiles(dir) {
  return TEST_FILES.flatMap((d) => fs.readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.test.mjs')).map((f) => `${d}/${f}`));
}

/** The given test files, or only the named tests in them. */
async function runTests(dir, files, names = []) {
  const patterns = names.flatMap((n) => ['--test-name-pattern', `^${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`]);
  const r = await run(process.execPath, ['--test', '--test-timeout=60000', '--test-force-exit', '--import', './test/per-test-timeout.mjs', '--test-reporter=tap', ...patterns, ...files], dir, RUN_BOUND_MS);
  const failing = [...r.out.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1]).filter((n) => !n.endsWith('.test.mjs'));
  const counts = /^# pass (\d+)$/m.exec(r.out)?.[1];
  return { code: r.code, hung: r.hung, ms: r.ms, failing, passCount: counts, out: r.out };
}

/**
 * Runs `files` against the mutated copy and judges it. A failure that does not
 * repeat is the machine's load, not the mutant: the failing tests run again and
 * only what fails twice counts as a catch.
 */
async function judge(dir, files, logName) {
  const r = await runTests(dir, files);
  fs.writeFileSync(path.join(logs, `${logName}.tap`), r.out);
  const again = !r.hung && r.code !== 0 && r.failing.length ? await runTests(dir, files, r.failing) : undefined;
  if (again) fs.writeFileSync(path.join(logs, `${logName}.again.tap`), again.out);
  const repeated = again ? r.failing.filter((n) => again.hung || again.failing.includes(n)) : [];
  const ms = r.ms + (again?.ms ?? 0);
  if (r.hung) return { caught: true, ms, why: `the run hung and was killed after ${RUN_BOUND_MS / 1000} s` };
  if (r.code !== 0 && !r.failing.length) return { caught: true, ms, why: `exit ${r.code}` };
  if (repeated.length) return { caught: true, ms, why: `failed twice: ${repeated.slice(0, 3).join(' | ')}${repeated.length > 3 ? ` (+${repeated.length - 3})` : ''}` };
  if (r.code !== 0) return { caught: false, ms, why: `failures did not repeat: ${r.failing.join(' | ')}` };
  return { caught: false, ms, why: `all ${r.passCount} tests passed` };
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
const ALL = allTestFiles(dir);
for (const m of MUTANTS) for (const t of m.tests) if (!ALL.includes(t)) fail(`mutant "${m.name}" names a test file that does not exist: ${t}`);

const baseBuild = await build(dir);
if (baseBuild) fail(`the unmutated copy does not build:\n${baseBuild}`);
const base = await runTests(dir, ALL);
fs.writeFileSync(path.join(logs, 'baseline.tap'), base.out);
if (base.code !== 0 || base.hung) {
  console.log(base.out);
  fail(`the unmutated copy does not pass its tests (${base.hung ? 'hung' : `exit ${base.code}`}); fix that first`);
}
console.log(`baseline: ${base.passCount} tests pass in ${(base.ms / 1000).toFixed(0)} s\n`);

const results = [];
for (const m of selected) {
  const text = readOriginal(m.file);
  const at = text.indexOf(m.find);
  const started = Date.now();
  let result;
  if (at < 0 || text.indexOf(m.find, at + 1) >= 0) {
    result = { verdict: 'not applicable', why: at < 0 ? 'snippet not found' : 'snippet found more than once' };
  } else {
    fs.writeFileSync(path.join(dir, m.file), text.slice(0, at) + m.replace + text.slice(at + m.find.length));
    const broken = await build(dir);
    if (broken) {
      result = { verdict: 'build failed', why: broken };
    } else {
      // The module's own tests first; a survivor must also pass every host test
      // before it counts as survived, so a narrow selection never flatters the score.
      const narrow = await judge(dir, m.tests, m.name);
      const wide = narrow.caught ? undefined : await judge(dir, ALL, `${m.name}.all`);
      const final = wide ?? narrow;
      result = { verdict: final.caught ? 'caught' : 'survived', why: `${wide ? 'all host tests' : 'its tests'}: ${final.why}` };
    }
    fs.writeFileSync(path.join(dir, m.file), text);
    result.ms = Date.now() - started;
  }
  results.push({ ...m, ...result });
  console.log(`${result.verdict.toUpperCase().padEnd(15)} ${m.name}: ${m.description}\n${' '.repeat(16)}${result.why}${result.ms ? ` [${(result.ms / 1000).toFixed(0)} s]` : ''}`);
}

const applicable = results.filter((r) => r.verdict === 'caught' || r.verdict === 'survived');
const caught = applicable.filter((r) => r.verdict === 'caught').length;
const totalMs = results.reduce((t, r) => t + (r.ms ?? 0), 0);
console.log(`\nscore: ${caught}/${applicable.length} caught${applicable.length ? ` (${Math.round((100 * caught) / applicable.length)}%)` : ''}; ` +
  `${results.filter((r) => r.verdict === 'not applicable').length} not applicable, ${results.filter((r) => r.verdict === 'build failed').length} failed to build; ` +
  `${(totalMs / 60000).toFixed(1)} min for the mutants`);
for (const r of results.filter((x) => x.verdict === 'survived')) console.log(`  survived: ${r.name}`);
process.exit(applicable.length === caught ? 0 : 1);
