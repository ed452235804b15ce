// zot-host watch over real processes: a save restarts the extension, a crash
// loop while editing does not use up the restart budget, and Ctrl-C ends it
// with no process left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeExt, tmpdir, waitFor } from '../helpers.mjs';

/**
 * Processes whose working folder is `dir` (an extension runs in its own folder).
 * @param {string} dir
 */
function processesIn(dir) {
  /** @type {number[]} */
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/cwd`) === dir) pids.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/**
 * @param {import('node:test').TestContext} t
 * @param {string[]} args
 */
function startWatch(t, args) {
  const child = spawn(process.execPath, [CLI, 'watch', ...args], { env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {{ child: typeof child, stdout: string, stderr: string, exit: Promise<{ code: number | null, signal: NodeJS.Signals | null }>, lines: () => string[] }} */
  const w = { child, stdout: '', stderr: '', exit: new Promise((r) => child.on('close', (code, signal) => r({ code, signal }))), lines: () => w.stdout.split('\n') };
  child.stdout.on('data', (d) => (w.stdout += d));
  child.stderr.on('data', (d) => (w.stderr += d));
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  return w;
}

test('watch: a saved file restarts its extension; Ctrl-C stops everything', { skip: process.platform === 'win32' && 'reads /proc' }, async (t) => {
  const root = tmpdir('zot-watch-');
  const dir = makeExt(root, 'watched', { tools: [{ name: 'echo' }] });
  const code = path.join(dir, 'code.js');
  fs.writeFileSync(code, '// v1\n');
  const w = startWatch(t, ['--no-discover', '--ext', dir]);
  await waitFor('watching', () => w.stdout.includes('watching 1 folder'), 15_000);
  assert.match(w.stdout, /^watched: ready in /m);
  const [first] = await waitFor('its process', () => processesIn(dir).length === 1 && processesIn(dir));
  // Several writes in a burst are one restart.
  fs.writeFileSync(code, '// v2\n');
  fs.appendFileSync(code, '// v2.1\n');
  fs.writeFileSync(path.join(dir, 'swap.js.swp'), 'editor noise');
  await waitFor('the restart', () => /watched: code\.js changed; restarting it\n(.*\n)*watched: ready\n/.test(w.stdout), 15_000);
  const [second] = await waitFor('its new process', () => processesIn(dir).length === 1 && processesIn(dir)[0] !== first && processesIn(dir));
  assert.notEqual(second, first);
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(w.lines().filter((l) => l.includes('changed; restarting')).length, 1, `one restart for the burst:\n${w.stdout}`);
  w.child.kill('SIGINT');
  const { code: exitCode } = await w.exit;
  assert.equal(exitCode, 0, w.stderr);
  assert.match(w.stdout, /stopping\n$/);
  assert.deepEqual(processesIn(dir), [], 'no process left');
});

test('watch: a change to extension.json reloads, with the new manifest', async (t) => {
  const root = tmpdir('zot-watch-');
  const dir = makeExt(root, 'manifested', {});
  const w = startWatch(t, ['--no-discover', '--ext', dir]);
  await waitFor('watching', () => w.stdout.includes('watching 1 folder'), 15_000);
  const manifest = /** @type {Record<string, unknown>} */ (JSON.parse(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8')));
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ ...manifest, enabled: false }));
  await waitFor('the reload', () => /manifested: extension\.json changed; reloading every extension/.test(w.stdout), 15_000);
  await waitFor('disabled by its new manifest', () => /manifested: disabled \(disabled in its extension\.json/.test(w.stdout), 15_000);
  w.child.kill('SIGTERM');
  assert.equal((await w.exit).code, 0);
  assert.deepEqual(processesIn(dir), []);
});

test('watch: an extension crashing while being edited is restarted by the next save with its whole budget', async (t) => {
  const root = tmpdir('zot-watch-');
  const dir = makeExt(root, 'crashy', { crashAfterMs: 50 });
  const w = startWatch(t, ['--no-discover', '--ext', dir]);
  await waitFor('its second crash', () => /crashy: restarting \(.*restart 2 of 4\)/.test(w.stdout), 20_000);
  fs.writeFileSync(path.join(dir, 'fix.js'), '// a fix\n');
  await waitFor('the save to restart it', () => w.stdout.includes('crashy: fix.js changed; restarting it'), 15_000);
  const after = () => w.stdout.slice(w.stdout.indexOf('fix.js changed'));
  // It still crashes (the fixture does), but counting starts over.
  await waitFor('a crash after the save', () => /crashy: restarting \(.*restart \d of 4\)/.test(after()), 15_000);
  assert.match(after(), /crashy: restarting \(.*restart 1 of 4\)/, after());
  w.child.kill('SIGINT');
  assert.equal((await w.exit).code, 0);
  assert.deepEqual(processesIn(dir), []);
});

/**
 * inotify watches held by a process: one `inotify wd:` line each in the fdinfo of its inotify descriptors.
 * @param {number | undefined} pid
 */
function inotifyWatches(pid) {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (!fs.readlinkSync(`/proc/${pid}/fd/${fd}`).includes('inotify')) continue;
      n += fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

test('watch: an extension that writes into its own folder at every start is restarted at most 8 times, then paused until quiet', { skip: process.platform === 'win32' && 'reads /proc' }, async (t) => {
  const dir = makeExt(tmpdir('zot-watch-'), 'writer', { tools: [{ name: 'echo' }], writeOnStart: 'state.json' });
  const w = startWatch(t, ['--no-discover', '--ext', dir]);
  await waitFor('watching', () => w.stdout.includes('watching 1 folder'), 15_000);
  // Its first start wrote state.json before the watch began; one edit begins the storm.
  fs.writeFileSync(path.join(dir, 'code.js'), '// edited\n');
  await waitFor('the pause', () => w.stderr.includes('watch paused'), 30_000);
  const restarts = () => w.lines().filter((l) => l.includes('changed; restarting it')).length;
  assert.equal(restarts(), 8, w.stdout);
  assert.match(w.stderr, /^writer: watch paused: its folder changed 8 times in a row while restarting it or within 5 s after \(last: state\.json\); it may be writing into its own folder\. Watching resumes once the folder has been quiet for 5 s$/m);
  await waitFor('the resume', () => w.stderr.includes('watch resumed'), 15_000);
  assert.equal(restarts(), 8, 'nothing restarted it while paused');
  fs.writeFileSync(path.join(dir, 'code.js'), '// edited\n');
  await waitFor('a restart for a change after the pause', () => restarts() >= 9, 10_000);
  w.child.kill('SIGINT');
  assert.equal((await w.exit).code, 0, w.stderr);
});

test('watch: no inotify watch for node_modules, and a symlink loop does not stop the watch', { skip: process.platform !== 'linux' && 'inotify' }, async (t) => {
  const dir = makeExt(tmpdir('zot-watch-'), 'deps', { tools: [{ name: 'echo' }] });
  for (let i = 0; i < 300; i++) fs.mkdirSync(path.join(dir, 'node_modules', `dep${i}`, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'src', 'inner'), { recursive: true });
  fs.symlinkSync('..', path.join(dir, 'src', 'loop'));
  const w = startWatch(t, ['--no-discover', '--ext', dir]);
  await waitFor('watching', () => w.stdout.includes('watching 1 folder'), 15_000);
  assert.equal(inotifyWatches(w.child.pid), 3, 'the folder, src and src/inner: nothing under node_modules, nothing through the loop');
  fs.writeFileSync(path.join(dir, 'src', 'inner', 'code.js'), '// edited\n');
  await waitFor('the restart', () => /deps: src\/inner\/code\.js changed; restarting it/.test(w.stdout), 10_000);
  fs.mkdirSync(path.join(dir, 'src', 'added'));
  await waitFor('the new folder seen', () => /deps: src\/added changed; restarting it\n(.*\n)*deps: ready\n/.test(w.stdout), 10_000);
  fs.writeFileSync(path.join(dir, 'src', 'added', 'more.js'), '// new\n');
  await waitFor('a change in a folder made after the start', () => /deps: src\/added\/more\.js changed; restarting it/.test(w.stdout), 10_000);
  assert.doesNotMatch(w.stderr, /ELOOP|failed/, w.stderr);
  w.child.kill('SIGINT');
  assert.equal((await w.exit).code, 0, w.stderr);
});
