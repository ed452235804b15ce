// End-to-end proof of the e2e harness: packages test/e2e/selftest/extension
// into a VSIX, installs it into a fresh code-server, runs
// test/e2e/selftest/tests.cjs in the real extension host with a trusted and
// then an untrusted folder, and checks that nothing is left running.
//
//   node --test test/e2e/selftest.test.mjs
//
// The first run ever installs the cached environment (minutes); see
// scripts/vscode-test-env.mjs.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runExtensionTests, startCodeServer } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const TESTS_ENTRY = path.join(here, 'selftest', 'tests.cjs');

/** @type {string} */
let scratch;
/** @type {string} */
let vsixPath;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-selftest-'));
  vsixPath = path.join(scratch, 'zot-e2e-selftest.vsix');
  // Packaged as a user would get it, to prove --install-extension of a VSIX.
  execFileSync(
    path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsixPath],
    { cwd: path.join(here, 'selftest', 'extension'), stdio: 'pipe' },
  );
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

for (const trusted of [true, false]) {
  test(`VSIX extension activates and reports isTrusted=${trusted} in ${trusted ? 'a trusted' : 'an untrusted'} folder`, { timeout: 300_000 }, async (t) => {
    const folder = await mkdtemp(path.join(scratch, trusted ? 'trusted-' : 'untrusted-'));
    const started = Date.now();
    const server = await startCodeServer({ vsixPaths: [vsixPath] });
    const serverRoot = path.dirname(server.userDataDir);
    let run;
    try {
      t.diagnostic(`code-server listening at ${server.url} after ${Date.now() - started} ms`);
      run = await runExtensionTests({ server, folder, testsEntry: TESTS_ENTRY, trusted, timeoutMs: 120_000 });
      t.diagnostic(`tests finished after ${Date.now() - started} ms`);
    } finally {
      await server.stop();
    }

    const consoleDump = `browser console:\n${run.logs.join('\n')}`;
    assert.equal(run.exitCode, 0, consoleDump);
    const resultLine = run.logs.find((line) => line.includes('RESULT {'));
    assert.ok(resultLine, consoleDump);
    /** @type {{ isTrusted: boolean, folder: string }} */
    const result = JSON.parse(resultLine.slice(resultLine.indexOf('RESULT ') + 'RESULT '.length));
    t.diagnostic(`extension host reported ${JSON.stringify(result)}`);
    assert.equal(result.isTrusted, trusted);
    assert.equal(result.folder, pathToFileURL(realpathSync(folder)).href);

    // Nothing of this server survives stop(): no process in its group, none
    // naming its files (a child that left the group), no files.
    const leftovers = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => {
        const [, pgid] = line.trim().split(/\s+/);
        return Number(pgid) === server.pid || line.includes(serverRoot);
      });
    assert.deepEqual(leftovers, [], 'processes left after stop()');
    assert.equal(existsSync(serverRoot), false, `${serverRoot} left after stop()`);
  });
}
