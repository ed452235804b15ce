#!/usr/bin/env node
// The test runner of `npm test` and `npm run test:quick`: Node's own test
// runner in lanes that run side by side. The end-to-end suites spend most of
// their time waiting on a browser and a VS Code server, the others on child
// processes, so on a 2-core machine a lane of each finishes far sooner than
// one file after another. Each lane is one `node --test` with the project's
// per-test bound (test/per-test-timeout.mjs); its spec output is shown as it
// comes, each line led by the lane's name, and a summary of every lane ends
// the run. The exit status is 1 when any lane failed.
//
//   node scripts/test.mjs            every test (npm test, after the build and the environment)
//   node scripts/test.mjs --quick    the inner loop: protocol, host and VS Code-layer unit tests
//   node scripts/test.mjs --lanes    prints the lanes and their files, runs nothing
//   node scripts/test.mjs <file>...  those files, in one lane
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The test files of a folder of test/, sorted. */
export function filesOf(folder, { except = [] } = {}) {
  const dir = path.join(repo, 'test', folder);
  return readdirSync(dir).filter((f) => f.endsWith('.test.mjs') && !except.includes(f)).sort().map((f) => path.join('test', folder, f));
}

/**
 * The lanes of a run: a name, its files, how many of its files run at once,
 * and the bound on a whole file (each test has its own, see
 * test/per-test-timeout.mjs).
 * @returns {{ name: string, files: string[], concurrency: number, fileTimeoutMs: number }[]}
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
    { name: 'unit', files: [...filesOf('setup'), ...filesOf('build'), ...filesOf('protocol'), ...filesOf('host'), ...filesOf('fidelity'), ...filesOf('vscode-unit'), ...filesOf('cli'), ...filesOf('mcp')], concurrency: 1, fileTimeoutMs: 1_800_000 },
  ];
}

/** Runs one lane; resolves with its counts as the spec reporter sums them up. */
function runLane(lane, width) {
  return new Promise((resolve) => {
    const started = Date.now();
    const args = ['--test', `--test-timeout=${lane.fileTimeoutMs}`, '--test-force-exit', `--test-concurrency=${lane.concurrency}`, '--import', './test/per-test-timeout.mjs', '--test-reporter=spec', ...lane.files];
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const tag = `[${lane.name}]`.padEnd(width + 2);
    const counts = {};
    let pending = '';
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
      resolve({ lane, code, signal, counts, seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function main(argv) {
  const files = argv.filter((a) => !a.startsWith('--'));
  const run = files.length ? [{ name: 'tests', files, concurrency: 1, fileTimeoutMs: 1_800_000 }] : lanes(argv.includes('--quick') ? 'quick' : 'all');
  if (argv.includes('--lanes')) {
    for (const l of run) console.log(`${l.name} (${l.concurrency} at a time): ${l.files.join(' ')}`);
    return 0;
  }
  const width = Math.max(...run.map((l) => l.name.length));
  const started = Date.now();
  const results = await Promise.all(run.map((l) => runLane(l, width)));
  console.log('');
  let failed = false;
  for (const r of results) {
    const c = r.counts;
    const ok = r.code === 0;
    failed ||= !ok;
    const tally = c.tests === undefined ? 'no summary (the runner did not finish)' : `${c.pass} passed, ${c.fail} failed${c.cancelled ? `, ${c.cancelled} cancelled` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''} of ${c.tests}`;
    console.log(`${ok ? '✔' : '✖'} ${r.lane.name}: ${tally} in ${r.seconds.toFixed(0)} s (${r.lane.files.length} files, ${r.lane.concurrency} at a time)${ok ? '' : `; exit ${r.signal ?? r.code}`}`);
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
