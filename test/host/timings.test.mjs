// The host's timings as a user meets them: the defaults it runs with, the
// restart budget and backoff, and how long stopping may take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, lib, makeExt, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

/**
 * The host's view of an extension, failing the test when it has none by that name.
 * @param {import('../../out/types/host/index.js').ZotHost} host
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
const grandchildPid = (host, name) => waitFor('grandchild pid', () => Number(host.stderrOf(name).find((l) => l.startsWith('GRANDCHILD'))?.split(' ')[1]));

test('the effective default timings are zot\'s', async (t) => {
  const home = tmpdir('zot-home-');
  const host = new lib.ZotHost({ cwd: home, zotHome: home, discover: false, extensionPaths: [] });
  t.after(() => host.dispose());
  const d = host.timing;
  assert.equal(d.helloTimeoutMs, 10_000, 'hello within 10 s');
  assert.equal(d.bootstrapLimitMs, 600_000, 'bootstrap lines stretch the hello wait to 10 min at most (terva\'s ceiling)');
  assert.equal(d.readyGraceMs, 3_000, 'ready grace 3 s');
  assert.equal(d.autoReadyMs, 250, 'auto-ready after 250 ms of silence');
  assert.equal(d.shutdownGraceMs, 2_000, 'SIGTERM 2 s after shutdown');
  assert.equal(d.killAfterMs, 1_000, 'SIGKILL 1 s after SIGTERM');
  assert.equal(d.writeTimeoutMs, 5_000, 'a write must complete within 5 s');
  assert.equal(d.interceptTimeoutMs, 5_000, 'an intercept is answered within 5 s');
  assert.equal(d.restartMax, 4, 'at most 4 restarts…');
  assert.equal(d.restartWindowMs, 180_000, '…within 3 min');
  assert.equal(d.toolTimeoutMs, 60_000, 'a tool call times out after 60 s');
  assert.equal(d.commandTimeoutMs, 30_000, 'a command times out after 30 s');
  // Every field, so a new or changed default is a decision this test sees.
  assert.deepEqual({ ...d }, {
    helloTimeoutMs: 10_000, bootstrapLimitMs: 600_000, readyGraceMs: 3_000, autoReadyMs: 250, toolTimeoutMs: 60_000, commandTimeoutMs: 30_000,
    interceptTimeoutMs: 5_000, writeTimeoutMs: 5_000, shutdownGraceMs: 2_000, killAfterMs: 1_000,
    restartMax: 4, restartWindowMs: 180_000, restartBaseDelayMs: 500, restartMaxDelayMs: 8_000,
  });
  // The editor's settings default to the same values.
  const settings = /** @type {{ contributes: { configuration: { properties: Record<string, { default: number }> } } }} */ (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).contributes.configuration.properties;
  assert.equal(settings['zot.toolTimeoutSeconds'].default * 1000, d.toolTimeoutMs);
  assert.equal(settings['zot.readyGraceSeconds'].default * 1000, d.readyGraceMs);
  // An override changes only what it names.
  const other = new lib.ZotHost({ cwd: home, zotHome: home, discover: false, extensionPaths: [], timing: { toolTimeoutMs: 5 } });
  t.after(() => other.dispose());
  assert.deepEqual(other.timing, { ...d, toolTimeoutMs: 5 });
});

test('at the default auto-ready time, an extension that never says ready is auto-ready about 250 ms after its last frame', async (t) => {
  const dir = makeExt(tmpdir(), 'quiet', { noReady: true, logHelloAt: true, commands: [{ name: 'hi' }] });
  // Only the ready grace is lengthened, so a slow machine cannot turn this into ready_timed_out.
  const host = await startHost(t, [dir], { noStart: true, timing: { readyGraceMs: 10_000 } });
  let autoAt = 0;
  host.onDidChangeState(({ extension: r }) => r.name === 'quiet' && lib.stateOf(r) === 'auto_ready' && (autoAt = Date.now()));
  await host.start();
  const rt = view(host, 'quiet');
  assert.equal(lib.stateOf(rt), 'auto_ready');
  // Taken by the extension just before it wrote its frames: never later than the host read them.
  const helloAt = await waitFor('its hello time', () => Number(host.stderrOf('quiet').find((l) => l.startsWith('HELLO_AT'))?.split(' ')[1]));
  const waited = autoAt - helloAt;
  assert.ok(waited >= 250, `auto-ready came ${waited} ms after its frames, not 250 ms`);
  assert.ok(waited < 1500, `auto-ready came ${waited} ms after its frames, long after 250 ms`);
  assert.equal((await host.invokeCommand('hi', '')).outcome, 'completed', 'an auto-ready extension serves');
});

test('a crash loop at the default budget: restarted 4 times, then failed', async (t) => {
  const dir = makeExt(tmpdir(), 'crashy', { crashAfterMs: 30 });
  // Short delays; the budget itself is the default.
  const host = await startHost(t, [dir], { timing: { restartBaseDelayMs: 5, restartMaxDelayMs: 20 } });
  const rt = view(host, 'crashy');
  /** @type {(string | undefined)[]} */
  const restarts = [];
  host.onDidChangeState(({ extension: r }) => r === rt && lib.stateOf(r) === 'restarting' && restarts.push(r.error));
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 15_000);
  assert.equal(restarts.length, 4, restarts.join('\n'));
  assert.match(/** @type {string} */ (restarts[3]), /restart 4 of 4/);
  assert.match(/** @type {string} */ (rt.error), /crashed 5 times within 3 min.*not restarting it again/s);
});

test('restarts back off: 20, 40, 80 ms with a 20 ms base, capped at the maximum', async (t) => {
  const dir = makeExt(tmpdir(), 'crashy', { crashAfterMs: 30 });
  const host = await startHost(t, [dir], { timing: { restartMax: 4, restartBaseDelayMs: 20, restartMaxDelayMs: 100 } });
  const rt = view(host, 'crashy');
  /** @type {(string | undefined)[]} */
  const said = [];
  /** @type {number[]} */
  const delays = [];
  /** @type {number | undefined} */
  let since;
  host.onDidChangeState(({ extension: r }) => {
    if (r !== rt) return;
    if (lib.stateOf(r) === 'restarting') {
      since = performance.now();
      said.push(/restarting in (\d+) ms/.exec(/** @type {string} */ (r.error))?.[1]);
    } else if (lib.stateOf(r) === 'starting' && since !== undefined) {
      delays.push(performance.now() - since);
      since = undefined;
    }
  });
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 15_000);
  assert.deepEqual(said, ['20', '40', '80', '100'], 'the delays it announces');
  assert.equal(delays.length, 4);
  [20, 40, 80, 100].forEach((want, i) => assert.ok(delays[i] >= want - 2, `restart ${i + 1} waited ${delays[i].toFixed(1)} ms, want ${want}`));
});

test('dispose of an extension that ignores shutdown and SIGTERM takes no longer than grace + kill delay + 1 s', async (t) => {
  const dir = makeExt(tmpdir(), 'stubborn', { ignoreShutdown: true, ignoreSigterm: true, grandchild: true });
  const host = await startHost(t, [dir], { timing: { shutdownGraceMs: 500, killAfterMs: 300 } });
  const rt = view(host, 'stubborn');
  const pid = rt.pid;
  assert.ok(pid !== undefined, 'the extension runs');
  const gpid = await grandchildPid(host, 'stubborn');
  const started = performance.now();
  await host.dispose();
  const took = performance.now() - started;
  assert.equal(alive(pid), false, 'the extension is gone');
  assert.equal(alive(gpid), false, 'its grandchild is gone');
  assert.ok(took >= 500 + 300 - 5, `took ${took.toFixed(0)} ms: the grace and the SIGTERM wait came first`);
  assert.ok(took < 500 + 300 + 1000, `took ${took.toFixed(0)} ms: SIGKILL follows SIGTERM after the kill delay`);
  assert.match(fs.readFileSync(rt.logPath, 'utf8'), /ignored SIGTERM; sending SIGKILL/);
});

test('a grandchild that ignores SIGTERM, left by an extension that exits politely, is killed within the kill delay + 1 s', async (t) => {
  const dir = makeExt(tmpdir(), 'parent', { grandchild: true });
  const host = await startHost(t, [dir], { timing: { shutdownGraceMs: 500, killAfterMs: 300 } });
  const gpid = await grandchildPid(host, 'parent');
  assert.ok(alive(gpid));
  const started = performance.now();
  await host.stopExtension('parent');
  const took = performance.now() - started;
  assert.equal(alive(gpid), false, 'the grandchild is gone when stop resolves');
  assert.ok(took < 300 + 1000, `took ${took.toFixed(0)} ms`);
});

test('a grandchild that ignores SIGTERM, left by an extension that crashed, is killed too', async (t) => {
  const dir = makeExt(tmpdir(), 'crasher', { grandchild: true, tools: [{ name: 'boom', behaviour: 'crash' }] });
  const host = await startHost(t, [dir], { timing: { killAfterMs: 300, restartBaseDelayMs: 5000 } });
  const gpid = await grandchildPid(host, 'crasher');
  assert.equal((await host.runToolCall('boom', {})).outcome, 'disconnected');
  await waitFor('the grandchild gone', () => !alive(gpid), 300 + 2000);
});

/**
 * A host at the default timings (startHost shortens them), but for `timing`, disposed when the test ends.
 * @param {import('node:test').TestContext} t
 * @param {string[]} dirs
 * @param {Partial<import('../../out/types/host/index.js').Timing>} [timing]
 */
async function defaultHost(t, dirs, timing = {}) {
  const home = tmpdir('zot-home-');
  const host = new lib.ZotHost({ cwd: home, zotHome: home, discover: false, extensionPaths: dirs, timing });
  t.after(() => host.dispose());
  const began = performance.now();
  await host.start();
  return Object.assign(host, { startedIn: performance.now() - began });
}

/**
 * @template T
 * @param {() => Promise<T>} fn
 */
const timed = async (fn) => {
  const began = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - began };
};

test('at the default timings: the 3 s ready grace, stop 2 s then SIGTERM then SIGKILL 1 s later, the 5 s intercept and write bounds', async (t) => {
  const root = tmpdir();
  const checks = [
    // Registers for 8 s without ready: loading goes on without it after 3 s. Only the 250 ms auto-ready is
    // lengthened: on a loaded machine the fixture, put off the CPU for 250 ms between two of its frames,
    // was auto_ready (a quiet spell) before the grace was up, which is not what this measures.
    (async () => {
      const host = await defaultHost(t, [makeExt(root, 'slow', { trickle: { count: 160, everyMs: 50 } })], { autoReadyMs: 2_000 });
      assert.equal(lib.stateOf(view(host, 'slow')), 'ready_timed_out');
      assert.ok(host.startedIn >= 2_950 && host.startedIn < 4_500, `loading took ${host.startedIn.toFixed(0)} ms, not 3 s`);
    })(),
    // Ignores shutdown, dies of SIGTERM: stopped 2 s after shutdown.
    (async () => {
      const host = await defaultHost(t, [makeExt(root, 'deaf', { ignoreShutdown: true })]);
      const { ms } = await timed(() => host.stopExtension('deaf'));
      assert.ok(ms >= 1_950 && ms < 2_900, `stop took ${ms.toFixed(0)} ms, not 2 s`);
      assert.match(fs.readFileSync(view(host, 'deaf').logPath, 'utf8'), /did not exit within 2 s of shutdown; sending SIGTERM/);
    })(),
    // Ignores SIGTERM too: SIGKILL 1 s after it.
    (async () => {
      const host = await defaultHost(t, [makeExt(root, 'stubborn', { ignoreShutdown: true, ignoreSigterm: true })]);
      const { ms } = await timed(() => host.stopExtension('stubborn'));
      assert.ok(ms >= 2_950 && ms < 4_000, `stop took ${ms.toFixed(0)} ms, not 2 s + 1 s`);
      assert.match(fs.readFileSync(view(host, 'stubborn').logPath, 'utf8'), /ignored SIGTERM; sending SIGKILL/);
    })(),
    // An interceptor that never answers: the call goes ahead, allowed, after 5 s.
    (async () => {
      const host = await defaultHost(t, [
        makeExt(root, 'guard', { subscribe: { intercept: ['tool_call'] }, interceptReplies: { tool_call: 'ignore' } }),
        makeExt(root, 'worker', { tools: [{ name: 'echo' }] }),
      ]);
      const { value: o, ms } = await timed(() => host.runToolCall('echo', { n: 1 }));
      assert.equal(o.outcome, 'completed');
      assert.equal(/** @type {{ text?: string }} */ (o.content[0]).text, '{"n":1}');
      assert.ok(ms >= 4_950 && ms < 6_500, `the call waited ${ms.toFixed(0)} ms for the intercept, not 5 s`);
      assert.ok(view(host, 'guard').problems.some((p) => /did not answer the tool_call intercept within 5 s; treated as allow/.test(p.message)));
    })(),
    // Stops reading: a 4 MiB request cannot be written, and the connection is given up after 5 s.
    (async () => {
      const host = await defaultHost(t, [makeExt(root, 'tools', { tools: [{ name: 'stop', behaviour: 'stop_reading' }, { name: 'big_in' }] })]);
      assert.equal((await host.runToolCall('stop', {}, { timeoutMs: 300 })).outcome, 'timed_out');
      const { value: o, ms } = await timed(() => host.runToolCall('big_in', { data: 'z'.repeat(4 * 1024 * 1024) }, { timeoutMs: 30_000 }));
      assert.equal(o.outcome, 'disconnected');
      assert.match(o.message, /stopped reading its stdin/);
      assert.ok(ms >= 4_950 && ms < 7_000, `given up after ${ms.toFixed(0)} ms, not 5 s`);
    })(),
  ];
  await Promise.all(checks);
});
