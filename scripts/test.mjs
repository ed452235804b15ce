#!/usr/bin/env node
// The test runner of `npm test` and `npm run test:quick`: Node's own test
// runner in lanes that run side by side. The end-to-end suites spend most of
// their time waiting on a browser and a VS Code server, the others on child
// processes, so on a 2-core machine a lane of each finishes far sooner than
// one file after another. Each lane is one `node --test` with the project's
// per-test bound (test/per-test-timeout.mjs); its spec output is shown as it
// comes, each line led by the lane's name, and a summary of every lane ends
// the run with the files that took longest. The VSIXes the end-to-end and
// packaging tests install are built once, before the lanes, and named to
// them (ZOT_E2E_VSIX, ZOT_E2E_TEST_VSIX, ZOT_E2E_FAKE_LM_VSIX; test/e2e/vsix.mjs), where each file
// would otherwise package its own. The tests' temporary folders are made in
// the run's own (TMPDIR), removed when it ends. The exit status is 1 when any
// lane failed.
//
//   node scripts/test.mjs            every test (npm test, after the build and the environment)
//   node scripts/test.mjs --quick    the inner loop: protocol, host and VS Code-layer unit tests
//   node scripts/test.mjs --lanes    prints the lanes and their files, runs nothing
//   node scripts/test.mjs <file>...  those files, in one lane
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { floorNodeBin, NODE_FLOOR } from './vscode-test-env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @typedef {{ name: string, files: string[], concurrency: number, fileTimeoutMs: number }} Lane */

/**
 * The test files of a folder of test/, sorted.
 * @param {string} folder
 * @param {{ except?: string[] }} [options]
 */
export function filesOf(folder, { except = [] } = {}) {
  const dir = path.join(repo, 'test', folder);
  return readdirSync(dir).filter((f) => f.endsWith('.test.mjs') && !except.includes(f)).sort().map((f) => path.join('test', folder, f));
}

/**
 * The lanes of a run: a name, its files, how many of its files run at once,
 * and the bound on a whole file (each test has its own, see
 * test/per-test-timeout.mjs).
 * @param {string} kind 'quick', or any other for all
 * @returns {Lane[]}
 */
export function lanes(kind) {
  if (kind === 'quick') {
    return [
      { name: 'unit', files: [...filesOf('protocol'), ...filesOf('host', { except: ['soak.test.mjs', 'go.test.mjs'] })], concurrency: 2, fileTimeoutMs: 300_000 },
      { name: 'vscode', files: filesOf('vscode-unit'), concurrency: 1, fileTimeoutMs: 300_000 },
    ];
  }
  return [
    { name: 'e2e', files: filesOf('e2e'), concurrency: 1, fileTimeoutMs: 1_800_000 },
    // One at a time: with its files made shorter the lane ends before the end-to-end one, which sets the
    // run's length; two at a time beside it overloaded 2 cores into timing failures (three in one clean run).
    { name: 'unit', files: [...filesOf('setup'), ...filesOf('build'), ...filesOf('protocol'), ...filesOf('host'), ...filesOf('fidelity'), ...filesOf('vscode-unit'), ...filesOf('cli'), ...filesOf('mcp')], concurrency: 1, fileTimeoutMs: 1_800_000 },
    // The agent CLIs (test/harness): each waits on its CLI and a fake model, beside the others.
    { name: 'harness', files: filesOf('harness'), concurrency: 1, fileTimeoutMs: 1_800_000 },
  ];
}

/**
 * Runs one lane; resolves with its counts as the spec reporter sums them up,
 * and the seconds each of its files took, its process included.
 * @param {Lane} lane
 * @param {number} width
 * @param {{ scratch: string, env: NodeJS.ProcessEnv }} run
 * @returns {Promise<{ lane: Lane, code: number | null, signal: NodeJS.Signals | null, counts: Record<string, number>, seconds: number, fileSeconds: Map<string, number> }>}
 */
function runLane(lane, width, { scratch, env }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const times = path.join(scratch, `${lane.name}.jsonl`);
    const args = ['--test', `--test-timeout=${lane.fileTimeoutMs}`, '--test-force-exit', `--test-concurrency=${lane.concurrency}`, '--import', './test/per-test-timeout.mjs',
      '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${path.join(repo, 'scripts', 'test-reporter.mjs')}`, `--test-reporter-destination=${times}`, ...lane.files];
    const child = spawn(testNode(), args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env });
    const tag = `[${lane.name}]`.padEnd(width + 2);
    /** @type {Record<string, number>} */
    const counts = {};
    let pending = '';
    /** @param {string} chunk */
    const onData = (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
        if (m) counts[m[1]] = Number(m[2]);
        process.stdout.write(`${tag} ${line}\n`);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    const stop = () => child.kill('SIGTERM');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('close', (code, signal) => {
      if (pending) onData('\n');
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve({ lane, code, signal, counts, seconds: (Date.now() - started) / 1000, fileSeconds: fileSeconds(times) });
    });
  });
}

/**
 * Seconds per file, from the lane's second reporter.
 * @param {string} times
 */
function fileSeconds(times) {
  /** @type {Map<string, number>} */
  const seconds = new Map();
  let text = '';
  try {
    text = readFileSync(times, 'utf8');
  } catch {
    return seconds;
  }
  for (const line of text.split('\n').filter(Boolean)) {
    const { file, ms } = /** @type {{ file: string, ms: number }} */ (JSON.parse(line));
    const name = path.relative(repo, file);
    seconds.set(name, (seconds.get(name) ?? 0) + ms / 1000);
  }
  return seconds;
}

/**
 * The VSIXes the end-to-end suites and the packaging checks install, built
 * once for the whole run (in copies of the project, as test/e2e/vsix.mjs
 * builds them), unless the environment already names them.
 * @param {string} scratch
 * @returns {Promise<NodeJS.ProcessEnv>}
 */
async function packagedOnce(scratch) {
  const { extensionVsix, fakeLmVsix, testBundleVsix } = await import('../test/e2e/vsix.mjs');
  const started = Date.now();
  for (const dir of ['vsix', 'test-vsix', 'fake-lm']) mkdirSync(path.join(scratch, dir));
  const [vsix, testVsix, fakeLm] = await Promise.all([
    process.env.ZOT_E2E_VSIX ?? extensionVsix(path.join(scratch, 'vsix')),
    process.env.ZOT_E2E_TEST_VSIX ?? testBundleVsix(path.join(scratch, 'test-vsix')),
    fakeLmVsix(path.join(scratch, 'fake-lm')),
  ]);
  console.log(`packaged the VSIXes the tests install in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { ZOT_E2E_VSIX: vsix, ZOT_E2E_TEST_VSIX: testVsix, ZOT_E2E_FAKE_LM_VSIX: fakeLm };
}

/**
 * The Node the tests run on: the floor (package.json's engines.node, installed into the cache by
 * `npm test`'s set-up), so the oldest Node the product admits is the one tested; this Node where it
 * is not installed (a run of this script alone), said once.
 */
export function testNode() {
  const floor = floorNodeBin();
  return existsSync(floor) ? floor : process.execPath;
}

/** @param {string[]} argv */
async function main(argv) {
  const files = argv.filter((a) => !a.startsWith('--'));
  const run = files.length ? [{ name: 'tests', files, concurrency: 1, fileTimeoutMs: 1_800_000 }] : lanes(argv.includes('--quick') ? 'quick' : 'all');
  if (argv.includes('--lanes')) {
    for (const l of run) console.log(`${l.name} (${l.concurrency} at a time): ${l.files.join(' ')}`);
    return 0;
  }
  const width = Math.max(...run.map((l) => l.name.length));
  const started = Date.now();
  const node = testNode();
  const version = node === process.execPath ? process.version : execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(node === process.execPath && Number(process.versions.node.split('.')[0]) !== NODE_FLOOR
    ? `tests run on this Node, ${version}: the floor, Node ${NODE_FLOOR}, is not installed (npm test installs it)`
    : `tests run on Node ${version}, the floor package.json's engines.node names`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-test-run-'));
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  const installs = run.some((l) => l.files.some((f) => f.startsWith(path.join('test', 'e2e')) || f === path.join('test', 'build', 'marketplace.test.mjs')));
  // Every temporary folder the tests make (thousands: zot homes, projects, plugins) goes inside the run's
  // own, which goes with the run, so repeated runs do not fill the machine's temporary folder.
  const tmp = path.join(scratch, 'tmp');
  mkdirSync(tmp);
  const env = { ...process.env, TMPDIR: tmp, ...(installs ? await packagedOnce(scratch) : {}) };
  const results = await Promise.all(run.map((l) => runLane(l, width, { scratch, env })));
  console.log('');
  let failed = false;
  for (const r of results) {
    const c = r.counts;
    // A lane that exits 0 without its summary did not run its files (node:test skips them when nested, say).
    const ok = r.code === 0 && c.tests !== undefined;
    failed ||= !ok;
    const tally = c.tests === undefined ? 'no summary (the runner did not finish)' : `${c.pass} passed, ${c.fail} failed${c.cancelled ? `, ${c.cancelled} cancelled` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''} of ${c.tests}`;
    console.log(`${ok ? '✔' : '✖'} ${r.lane.name}: ${tally} in ${r.seconds.toFixed(0)} s (${r.lane.files.length} files, ${r.lane.concurrency} at a time)${ok ? '' : `; exit ${r.signal ?? r.code}`}`);
    const slowest = [...r.fileSeconds].sort((a, b) => b[1] - a[1]).slice(0, 5);
    if (slowest.length > 1) console.log(`    longest: ${slowest.map(([f, s]) => `${f} ${s.toFixed(0)} s`).join(', ')}`);
  }
  console.log(`${failed ? '✖ failed' : '✔ all passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    console.error(error?.stack ?? String(error));
    process.exit(1);
  });
}
