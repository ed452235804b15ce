// Windows' tree kill, carried out: the taskkill it starts is named by its full
// path, so one planted where a bare name is looked for first never runs, nor
// one where a relative SystemRoot would point. Here a `.` on PATH plays
// Windows' look in the current folder, and the planted program leaves a mark
// when it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleSources, tmpdir } from '../helpers.mjs';

test('Windows kill: a taskkill planted in the current folder is never run, whatever SystemRoot says', async (t) => {
  const scratch = tmpdir('zot-treekill-');
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
  await bundleSources(path.join(scratch, 'bundle'), 'host', ['process/treeKill']);
  const planted = path.join(scratch, 'project');
  const mark = path.join(scratch, 'planted-ran');
  fs.mkdirSync(planted);
  // The bare names, and (a file name may hold backslashes here) what a relative SystemRoot would make of them.
  const roots = ['.', '', 'project', '..\\project'];
  for (const name of ['taskkill', 'taskkill.exe', ...roots.map((r) => `${r}\\System32\\taskkill.exe`)]) {
    fs.writeFileSync(path.join(planted, name), `#!/bin/sh\necho "$0 $*" >> '${mark}'\n`, { mode: 0o755 });
  }
  const bundle = path.join(scratch, 'bundle', 'treeKill.js');
  // The default environment (the host's own), then hostile ones passed in.
  const code = `const { killTree } = require(${JSON.stringify(bundle)});
    killTree(999999, false, 'win32');
    killTree(999999, true, 'win32');
    for (const SystemRoot of ${JSON.stringify(roots)}) killTree(999999, true, 'win32', { SystemRoot, windir: SystemRoot, PATH: process.env.PATH });`;
  // The premise: here, as on Windows, the bare name finds the planted program.
  const probe = spawnSync(process.execPath, ['-e', `require('node:child_process').spawnSync('taskkill', ['probe'])`], { cwd: planted, env: { PATH: `.:${process.env.PATH}` } });
  assert.equal(probe.status, 0);
  assert.match(fs.readFileSync(mark, 'utf8'), /probe/);
  fs.rmSync(mark);
  for (const SystemRoot of [undefined, ...roots]) {
    const env = { PATH: `.:${planted}:${process.env.PATH}`, ...(SystemRoot === undefined ? {} : { SystemRoot }) };
    const run = spawnSync(process.execPath, ['-e', code], { cwd: planted, env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!fs.existsSync(mark), `SystemRoot ${SystemRoot}: the planted taskkill ran: ${fs.existsSync(mark) ? fs.readFileSync(mark, 'utf8') : ''}`);
  }
});

test('Windows kill: where the forced step\'s taskkill fails, the process itself is ended; the polite step ends nothing by itself', async (t) => {
  const scratch = tmpdir('zot-treekill-fallback-');
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
  await bundleSources(path.join(scratch, 'bundle'), 'host', ['process/treeKill']);
  const bundle = path.join(scratch, 'bundle', 'treeKill.js');
  // A stubborn process: SIGTERM is ignored, as an extension that does not answer shutdown.
  const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1e6);'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const pid = /** @type {number} */ (child.pid);
  const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  // No taskkill where SystemRoot points (as on a Windows without it, or Wine's, which refuses /T).
  const kill = (/** @type {boolean} */ force) => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(bundle)}).killTree(${pid}, ${force}, 'win32', { SystemRoot: ${JSON.stringify(path.join(scratch, 'no-windows'))} })`], { encoding: 'utf8' });
  assert.equal(kill(false).status, 0);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(child.exitCode, null, 'the polite step has no stand-in: the process runs on');
  assert.equal(child.signalCode, null);
  assert.equal(kill(true).status, 0);
  assert.equal(await exited, 'SIGKILL', 'the forced step ended it by itself');
});
