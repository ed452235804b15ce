// Reliability and containment of the host against extensions that misbehave
// or workspaces that try to get around the user: each test is one attack.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { lib, makeExt, ROOT, tmpdir, startHost, waitFor, alive, RecordingUI, sleep } from '../helpers.mjs';

/**
 * The host's view of an extension, failing the test when it has none by that name.
 * @param {import('../helpers.mjs').TestHost} host
 * @param {string} name
 */
const view = (host, name) => {
  const rt = host.get(name);
  assert.ok(rt, `no extension "${name}"`);
  return rt;
};
/**
 * @param {import('../helpers.mjs').TestHost} host
 * @param {string} name
 */
const logText = (host, name) => fs.readFileSync(view(host, name).logPath, 'utf8');
/**
 * @param {string} text
 * @param {string} re
 */
const count = (text, re) => (text.match(new RegExp(re, 'g')) ?? []).length;

describe('processes that leave the group', () => {
  test('detached and setsid grandchildren are found by their marker and ended with the extension', async (t) => {
    const dir = makeExt(tmpdir(), 'esc', { escapees: 4 });
    const host = await startHost(t, [dir]);
    const pids = await waitFor('escapees', () => {
      const p = host.stderrOf('esc').filter((l) => l.startsWith('ESCAPEE ')).map((l) => Number(l.slice(8)));
      return p.length === 4 && p;
    });
    for (const pid of pids) {
      assert.ok(alive(pid), `escapee ${pid} runs`);
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
      assert.match(env, /ZOT_HOST_INSTANCE=[0-9a-f]+-\d+-\d+\0/, 'the marker is inherited');
      const pgid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);
      assert.notEqual(pgid, view(host, 'esc').pid, 'it left the extension\'s process group');
    }
    await host.stopExtension('esc');
    await waitFor('escapees gone', () => pids.every((p) => !alive(p)), 3000);
    assert.match(logText(host, 'esc'), /ended 4 processes it started outside its process group/);
  });

  test('a host process that exits without stopping its extensions still ends them and their escapees', async () => {
    const dir = makeExt(tmpdir(), 'left', { escapees: 2, ignoreShutdown: true, ignoreSigterm: true });
    const home = tmpdir('zot-home-');
    // A process embedding the host that exits as soon as the extension runs: no dispose, no stop.
    const script = `const lib = require(${JSON.stringify(path.join(ROOT, 'dist', 'host.js'))});
      const host = new lib.ZotHost({ cwd: ${JSON.stringify(home)}, zotHome: ${JSON.stringify(home)}, discover: false, extensionPaths: [${JSON.stringify(dir)}] });
      host.onLog((e) => { if (e.line.startsWith('ESCAPEE ')) { seen.push(e.line.slice(8)); if (seen.length === 2) { console.log(JSON.stringify([host.get('left').pid, ...seen.map(Number)])); process.exit(0); } } });
      const seen = [];
      host.start();`;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    /** @type {number[]} */
    const pids = JSON.parse(out.trim());
    assert.equal(pids.length, 3);
    await waitFor('the extension and its escapees gone', () => pids.every((p) => !alive(p)), 3000);
  });

  test('a crashed extension\'s escaped grandchildren are ended too', async (t) => {
    const dir = makeExt(tmpdir(), 'escrash', { escapees: 2, crashAfterMs: 300 });
    const host = await startHost(t, [dir], { timing: { restartMax: 0 } });
    const pids = await waitFor('escapees', () => {
      const p = host.stderrOf('escrash').filter((l) => l.startsWith('ESCAPEE ')).map((l) => Number(l.slice(8)));
      return p.length === 2 && p;
    });
    await waitFor('escapees gone after the crash', () => pids.every((p) => !alive(p)), 5000);
  });
});

describe('extension.json is read with bounds', () => {
  test('a FIFO, a link to /dev/zero and a 2 MiB file are refused at once, each with a reason', async (t) => {
    const root = tmpdir();
    const fifo = path.join(root, 'fifo');
    fs.mkdirSync(fifo);
    execFileSync('mkfifo', [path.join(fifo, 'extension.json')]);
    const zero = path.join(root, 'zero');
    fs.mkdirSync(zero);
    fs.symlinkSync('/dev/zero', path.join(zero, 'extension.json'));
    const big = path.join(root, 'big');
    fs.mkdirSync(big);
    fs.writeFileSync(path.join(big, 'extension.json'), `{"name":"big","exec":"node","pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    const began = Date.now();
    const found = lib.discoverExtensions({ projectDir: root, zotHome: tmpdir(), explicit: [fifo, zero, big], discover: false });
    assert.ok(Date.now() - began < 2000, 'no read blocked');
    assert.match(/** @type {string} */ (found[0].error), /extension\.json: it is not a regular file \(a FIFO\)/);
    assert.match(/** @type {string} */ (found[1].error), /extension\.json: it is not a regular file \(a device\)/);
    assert.match(/** @type {string} */ (found[2].error), /extension\.json: it is \d+ bytes; a manifest may be at most 1048576/);
  });

  test('the buffer follows the file, not its reported size: one just under the limit is read whole, a file that says 0 bytes is read to its end', { skip: process.platform !== 'linux' && 'a /proc file is Linux' }, () => {
    const root = tmpdir();
    const near = path.join(root, 'near');
    fs.mkdirSync(near);
    const head = '{"name":"near","exec":"node","args":["x.js"],"pad":"';
    fs.writeFileSync(path.join(near, 'extension.json'), `${head}${'x'.repeat(1024 * 1024 - head.length - 2)}"}`);
    assert.equal(fs.statSync(path.join(near, 'extension.json')).size, 1024 * 1024);
    // /proc files are regular files whose stat size is 0: the read grows its buffer to the end.
    const proc = path.join(root, 'proc');
    fs.mkdirSync(proc);
    fs.symlinkSync('/proc/self/status', path.join(proc, 'extension.json'));
    const [a, b] = lib.discoverExtensions({ projectDir: root, zotHome: tmpdir(), explicit: [near, proc], discover: false });
    assert.equal(a.error, undefined, `a 1 MiB manifest is allowed: ${a.error}`);
    assert.equal(a.manifest?.name, 'near');
    assert.match(/** @type {string} */ (b.error), /extension\.json is not valid JSON: .*"Name:\s/, 'the text past the first byte was read');
  });

  test('in an untrusted workspace too: the project folder with a FIFO manifest does not hang the host', async (t) => {
    const project = tmpdir();
    const ext = path.join(project, '.zot', 'extensions', 'trap');
    fs.mkdirSync(ext, { recursive: true });
    execFileSync('mkfifo', [path.join(ext, 'extension.json')]);
    const host = await startHost(t, [], { cwd: project, discover: true, gate: () => ({ start: false, reason: 'workspace is not trusted', hold: 'untrusted' }) });
    assert.equal(lib.stateOf(host.get('trap')), 'failed');
    assert.match(/** @type {string} */ (host.get('trap')?.error), /not a regular file \(a FIFO\)/);
  });
});

describe('held workspace code shadows nothing', () => {
  test('an untrusted project extension with a global one\'s folder and name: the global one runs, the project one is held with a note', async (t) => {
    const project = tmpdir();
    const home = tmpdir('zot-home-');
    makeExt(path.join(home, 'extensions'), 'helper', { name: 'helper', tools: [{ name: 'mine', behaviour: 'echo' }] });
    makeExt(path.join(project, '.zot', 'extensions'), 'helper', { name: 'helper', tools: [{ name: 'mine', behaviour: 'echo' }] });
    /** @type {import('../helpers.mjs').Gate} */
    const gate = (f) => (f.source === 'project' ? { start: false, reason: 'workspace is not trusted', hold: 'untrusted' } : { start: true });
    const host = await startHost(t, [], { cwd: project, zotHome: home, discover: true, gate });
    const all = host.extensions;
    const proj = all.find((r) => r.found.source === 'project');
    const glob = all.find((r) => r.found.source === 'global');
    assert.ok(glob, 'the global one');
    assert.ok(proj, 'the project one');
    assert.equal(lib.stateOf(glob), 'ready', `global: ${glob.error}`);
    assert.equal(lib.stateOf(proj), 'held');
    assert.match(/** @type {string} */ (proj.error), new RegExp(`${glob.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has the same name and runs instead while this one is held`));
    assert.ok(host.tools().some((x) => x.name === 'mine' && x.active), 'the global one\'s tool is served');
  });

  test('a different folder with the same manifest name: the same', async (t) => {
    const project = tmpdir();
    const home = tmpdir('zot-home-');
    makeExt(path.join(home, 'extensions'), 'real', { name: 'shared' });
    makeExt(path.join(project, '.zot', 'extensions'), 'copycat', { name: 'shared' });
    /** @type {import('../helpers.mjs').Gate} */
    const gate = (f) => (f.source === 'project' ? { start: false, reason: 'waiting', hold: 'consent' } : { start: true });
    const host = await startHost(t, [], { cwd: project, zotHome: home, discover: true, gate });
    const glob = host.extensions.find((r) => r.found.source === 'global');
    assert.ok(glob, 'the global one');
    assert.equal(lib.stateOf(glob), 'ready');
    assert.equal(lib.stateOf(host.extensions.find((r) => r.found.source === 'project')), 'held');
  });

  test('once allowed, the project extension takes its name back', async (t) => {
    const project = tmpdir();
    const home = tmpdir('zot-home-');
    makeExt(path.join(home, 'extensions'), 'dup', { name: 'dup' });
    makeExt(path.join(project, '.zot', 'extensions'), 'dup', { name: 'dup' });
    let allowed = false;
    /** @type {import('../helpers.mjs').Gate} */
    const gate = (f) => (f.source === 'project' && !allowed ? { start: false, reason: 'waiting', hold: 'consent' } : { start: true });
    const host = await startHost(t, [], { cwd: project, zotHome: home, discover: true, gate });
    allowed = true;
    await host.startExtension('dup');
    const proj = host.extensions.find((r) => r.found.source === 'project');
    const glob = host.extensions.find((r) => r.found.source === 'global');
    assert.ok(proj, 'the project one');
    assert.ok(glob, 'the global one');
    assert.equal(lib.stateOf(proj), 'ready');
    assert.equal(lib.stateOf(glob), 'disabled');
  });
});

describe('spontaneous panels are bounded', () => {
  /**
   * A host with one extension that sends `frames` at start; `refused()` lists its open_panel refusals.
   * @param {import('node:test').TestContext} t
   * @param {string} name
   * @param {string[]} frames
   */
  async function panelsHost(t, name, frames) {
    const ui = new RecordingUI();
    const host = await startHost(t, [makeExt(tmpdir(), name, { raw: frames })], { ui });
    const refused = () => view(host, name).problems.filter((p) => /open_panel refused/.test(p.message));
    return { host, ui, refused };
  }
  test('a flood of open_panel frames opens at most the bound, with one diagnostic, and the extension is told', async (t) => {
    const frames = Array.from({ length: 200 }, (_, i) => JSON.stringify({ type: 'open_panel', panel: { id: `p${i}`, title: 'flood', lines: ['x'] } }) + '\n');
    const { host, ui, refused } = await panelsHost(t, 'flood', frames);
    await waitFor('refusals reach the extension', () => host.received('flood', 'panel_close').length >= 192);
    assert.equal(ui.of('openPanel').length, 8);
    assert.equal(refused().length, 1, 'one diagnostic for the whole flood');
    assert.match(refused()[0].message, /at most 8/);
  });
  test('closing them again does not reset the rate: at most 20 within 10 s', async (t) => {
    const open = (/** @type {number} */ i) => JSON.stringify({ type: 'open_panel', panel: { id: `p${i}`, title: 'again', lines: ['x'] } }) + '\n';
    const close = (/** @type {number} */ i) => JSON.stringify({ type: 'panel_close', panel_id: `p${i}` }) + '\n';
    const frames = [];
    // Three rounds of 8 opened and closed by the extension itself, never more than 8 open at a time.
    for (let round = 0; round < 3; round++) {
      for (let i = round * 8; i < round * 8 + 8; i++) frames.push(open(i));
      for (let i = round * 8; i < round * 8 + 8; i++) frames.push(close(i));
    }
    const { host, ui, refused } = await panelsHost(t, 'again', frames);
    await waitFor('the refusals reach the extension', () => host.received('again', 'panel_close').length >= 4);
    assert.equal(ui.of('openPanel').length, 20);
    assert.equal(refused().length, 1);
    assert.match(refused()[0].message, /opened 20 panels within 10 s that no tool call asked for \(at most 20\)/);
  });
});

describe('panels bound to a tool call are bounded and end with it', () => {
  test('an ordinary call that opens 300 panels bound to it gets 4, one diagnostic; none outlives the call', async (t) => {
    const ui = new RecordingUI();
    const dir = makeExt(tmpdir(), 'binder', { tools: [{ name: 'bind', behaviour: 'bound_panels', count: 300, delayMs: 400 }] });
    const host = await startHost(t, [dir], { ui });
    const outcome = host.runToolCall('bind', {});
    await waitFor('the refusals reach the extension', () => host.received('binder', 'panel_close').length >= 296);
    assert.equal(ui.of('openPanel').length, 4, 'at most 4 panels per call');
    assert.equal(host.openPanels.length, 4);
    const refused = view(host, 'binder').problems.filter((p) => /open_panel refused/.test(p.message));
    assert.equal(refused.length, 1, 'one diagnostic for the call');
    assert.match(refused[0].message, /^open_panel refused: tool call \S+ already has 4 panels open \(at most 4 per call\)/);
    assert.equal((await outcome).outcome, 'completed');
    await waitFor('its panels closed with the call', () => host.openPanels.length === 0, 2000);
    assert.equal(ui.of('closePanel').length, 4, 'each one closed in the UI');
    await waitFor('the extension told of each', () => host.received('binder', 'panel_close').length === 300);
  });
});

describe('log files', () => {
  test('a stderr flood rotates the log at its bound: the file and one .1, never more', async (t) => {
    const home = tmpdir('zot-home-');
    const root = tmpdir();
    const dir = path.join(root, 'noisy');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'flood.js'), `
      const line = 'y'.repeat(1023) + '\\n';
      process.stdout.write(JSON.stringify({ type: 'hello', name: 'noisy', version: '1', capabilities: [] }) + '\\n');
      process.stdout.write(JSON.stringify({ type: 'ready' }) + '\\n');
      let n = 0;
      (function more() { while (n < 24 * 1024) { n++; if (!process.stderr.write(line)) return process.stderr.once('drain', more); } process.stderr.write('FLOOD DONE\\n'); })();
      process.stdin.resume();
    `);
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'noisy', exec: 'node', args: ['flood.js'] }));
    const host = await startHost(t, [dir], { zotHome: home });
    await waitFor('the flood', () => host.stderrOf('noisy').includes('FLOOD DONE'), 20000);
    await host.stopExtension('noisy');
    const file = view(host, 'noisy').logPath;
    const size = fs.statSync(file).size;
    const older = fs.statSync(`${file}.1`).size;
    assert.equal(lib.MAX_LOG_BYTES, 8 * 1024 * 1024, 'the bound is 8 MiB');
    assert.ok(size <= lib.MAX_LOG_BYTES + 64 * 1024, `current file ${size}`);
    assert.ok(older <= lib.MAX_LOG_BYTES + 64 * 1024, `.1 file ${older}`);
    assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['ext-noisy.log', 'ext-noisy.log.1']);
    assert.match(fs.readFileSync(file, 'utf8'), /log rotated: the earlier part is in ext-noisy\.log\.1|FLOOD DONE/);
  });

  test('names map to files one to one and within file-name limits; messages name the real file', async (t) => {
    const home = tmpdir('zot-home-');
    const names = ['a/b', 'a_b', 'a%2fb', '..', 'n'.repeat(300), `${'n'.repeat(300)}x`,
      // Lone surrogates and U+FFFD, which UTF-8 would make one; a pair stays itself; the same at length.
      'lone\ud800', 'lone\udc00', 'lone\ufffd', 'pair\ud83d\ude00', 'lone%ud800', `${'n'.repeat(300)}\ud800`, `${'n'.repeat(300)}\udc00`, `${'n'.repeat(300)}\ufffd`];
    const paths = names.map((n) => lib.extensionLogPath(home, n));
    assert.equal(new Set(paths).size, names.length, paths.join('\n'));
    for (const p of paths) {
      assert.equal(path.dirname(p), path.join(home, 'logs'));
      assert.ok(Buffer.byteLength(path.basename(p)) + 2 <= 255, `${path.basename(p).length} bytes`);
    }
    assert.equal(path.basename(lib.extensionLogPath(home, 'my_ext-1.2')), 'ext-my_ext-1.2.log', 'plain names keep zot\'s file name');
    assert.deepEqual(['lone\ud800', 'lone\udc00', 'lone\ufffd', 'pair\ud83d\ude00'].map((n) => path.basename(lib.extensionLogPath(home, n))),
      ['ext-lone%ud800.log', 'ext-lone%udc00.log', 'ext-lone%ef%bf%bd.log', 'ext-pair%f0%9f%98%80.log']);
    const root = tmpdir();
    const long = makeExt(root, 'long', { name: 'L'.repeat(300), exitBeforeHello: 4 }, { name: 'L'.repeat(300) });
    const slash = makeExt(root, 'slash', { name: 'a/b', exitBeforeHello: 5 }, { name: 'a/b' });
    const under = makeExt(root, 'under', { name: 'a_b', exitBeforeHello: 6 }, { name: 'a_b' });
    const host = await startHost(t, [long, slash, under], { zotHome: home, timing: { restartMax: 0 } });
    for (const [name, code] of /** @type {[string, number][]} */ ([['L'.repeat(300), 4], ['a/b', 5], ['a_b', 6]])) {
      const rt = view(host, name);
      await waitFor(`${name.slice(0, 10)} failed`, () => lib.stateOf(rt) === 'failed');
      const text = fs.readFileSync(rt.logPath, 'utf8');
      assert.match(text, new RegExp(`exited with code ${code}`), 'its own file');
      assert.ok(rt.error?.includes(rt.logPath), `the message names the real file: ${rt.error}`);
    }
  });
});

describe('discovery says what it skipped', () => {
  test('a folder name that is not UTF-8 and a symlink loop each get a diagnostic', async (t) => {
    const home = tmpdir('zot-home-');
    const exts = path.join(home, 'extensions');
    makeExt(exts, 'fine');
    const bad = Buffer.concat([Buffer.from(exts + '/'), Buffer.from([0x62, 0xff, 0x61, 0x64])]);
    fs.mkdirSync(bad);
    fs.symlinkSync(path.join(exts, 'loop'), path.join(exts, 'loop'));
    fs.symlinkSync(path.join(exts, 'nowhere-target'), path.join(exts, 'nowhere'));
    fs.writeFileSync(path.join(exts, 'README.md'), 'not an extension');
    const found = lib.discoverExtensions({ projectDir: tmpdir(), zotHome: home });
    const errors = /** @type {string[]} */ (found.filter((f) => f.error).map((f) => f.error));
    assert.equal(errors.length, 3, errors.join('\n'));
    assert.ok(errors.some((e) => /name is not valid UTF-8/.test(e)));
    assert.ok(errors.some((e) => /loop: it is a symlink loop/.test(e)));
    assert.ok(errors.some((e) => /nowhere: it is a symlink to nothing/.test(e)));
    assert.ok(found.some((f) => f.name === 'fine' && !f.error));
  });
});

describe('the stop ladder runs once', () => {
  test('after an extension closes its stdout: SIGTERM and SIGKILL logged once, and a stop joins the ladder', async (t) => {
    const dir = makeExt(tmpdir(), 'closer', { closeStdoutAfterMs: 200, ignoreSigterm: true, ignoreShutdown: true });
    const host = await startHost(t, [dir], { timing: { restartMax: 0 } });
    const rt = view(host, 'closer');
    await waitFor('connection lost', () => host.logs.some((e) => /connection lost/.test(e.line)));
    await host.stopExtension('closer');
    await sleep(100);
    const text = logText(host, 'closer');
    assert.equal(count(text, 'sending SIGTERM'), 1, text);
    assert.equal(count(text, 'sending SIGKILL'), 1, text);
    assert.equal(count(text, 'stopped again'), 0, text);
    assert.equal(lib.stateOf(rt), 'stopped');
  });
});

describe('a stop before hello', () => {
  test('a hello that arrives while it is being stopped does not bring it back (nor restart it)', async (t) => {
    const dir = makeExt(tmpdir(), 'latehello', { helloDelayMs: 150, ignoreShutdown: true });
    const host = await startHost(t, [dir], { noStart: true, timing: { shutdownGraceMs: 600, restartBaseDelayMs: 10 } });
    void host.start();
    const rt = await waitFor('the runtime', () => host.get('latehello'));
    await waitFor('starting', () => lib.stateOf(rt) === 'starting');
    await host.stopExtension('latehello');
    await sleep(400);
    assert.equal(lib.stateOf(rt), 'stopped');
    assert.equal(count(logText(host, 'latehello'), 'started process'), 1, 'not started again');
  });
});
