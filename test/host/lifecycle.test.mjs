import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, lib, makeExt, startHost, tmpdir, waitFor } from '../helpers.mjs';

test('handshake: hello_ack carries protocol version, the zot release, host version, model, cwd and folders', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'hs', { commands: [{ name: 'x' }] });
  const project = tmpdir('zot-proj-');
  const host = await startHost(t, [dir], { cwd: project, noStart: true });
  host.setModel('copilot', 'gpt-test');
  await host.start();
  const rt = host.get('hs');
  assert.ok(rt);
  assert.equal(lib.stateOf(rt), 'ready');
  assert.equal(rt.version, '1.2.3');
  assert.deepEqual(rt.capabilities, ['commands', 'tools']);
  const [ack] = await waitFor('hello_ack', () => host.received('hs', 'hello_ack').length > 0 && host.received('hs', 'hello_ack'));
  assert.deepEqual(ack, {
    type: 'hello_ack', protocol_version: 6, zot_version: lib.ZOT_PROTOCOL_RELEASE, host_version: lib.HOST_VERSION, provider: 'copilot', model: 'gpt-test',
    cwd: project, extension_dir: dir, data_dir: dir, supported_events: [...lib.SUPPORTED_EVENTS], capabilities: ['call_tool'],
  });
  assert.notEqual(lib.HOST_VERSION, '0.0.0-dev');
});

test('an extension that never sends ready is auto-ready after 250 ms of silence; a slow one is marked ready-timed-out', async (t) => {
  const root = tmpdir();
  const quiet = makeExt(root, 'quiet', { noReady: true, tools: [{ name: 'q' }] });
  // The grace leaves a loaded machine time to start node; the slow one registers for longer than that.
  const slow = makeExt(root, 'slow', { trickle: { count: 25, everyMs: 100 } });
  const host = await startHost(t, [quiet, slow], { timing: { readyGraceMs: 1500 } });
  assert.equal(lib.stateOf(host.get('quiet')), 'auto_ready');
  assert.equal(lib.stateOf(host.get('slow')), 'ready_timed_out');
  assert.ok(host.findTool('q'), 'registrations of an auto-ready extension count');
  await waitFor('late ready', () => lib.stateOf(host.get('slow')) === 'ready', 10_000);
  const report = host.diagnostics().find((r) => r.name === 'slow');
  assert.ok(report);
  assert.match(report.diagnostics.join('\n'), /ready grace/);
});

test('exit before hello fails loading with the exit status and the log location', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'early', { exitBeforeHello: 4 });
  const host = await startHost(t, [dir]);
  const rt = host.get('early');
  assert.ok(rt);
  assert.equal(lib.stateOf(rt), 'failed');
  assert.ok(rt.error);
  assert.match(rt.error, /exited with code 4 before sending hello/);
  assert.ok(rt.error.includes(rt.logPath));
  const log = fs.readFileSync(rt.logPath, 'utf8');
  assert.match(log, /--- .* start early/);
  assert.match(log, /exiting before hello/, 'stderr goes to the zot log file');
});

test('an extension that never says hello fails after the bounded wait and is stopped', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'mute', { noHello: true });
  const host = await startHost(t, [dir], { timing: { helloTimeoutMs: 400, readyGraceMs: 3000 } });
  const rt = host.get('mute');
  assert.ok(rt);
  await waitFor('failed', () => lib.stateOf(rt) === 'failed');
  assert.ok(rt.error);
  assert.match(rt.error, /did not say hello within 400 ms/);
  await waitFor('process gone', () => rt.pid === undefined);
});

test('a first frame that is not hello fails loading', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'rude', { firstFrame: { type: 'register_tool', name: 'x', schema: {} } });
  const host = await startHost(t, [dir]);
  const rt = host.get('rude');
  assert.ok(rt);
  await waitFor('failed', () => lib.stateOf(rt) === 'failed');
  assert.ok(rt.error);
  assert.match(rt.error, /first frame was "register_tool", not "hello"/);
});

test('the manifest name wins over the name in hello', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'real-name', { helloName: 'other' });
  const host = await startHost(t, [dir]);
  assert.equal(lib.stateOf(host.get('real-name')), 'ready');
  assert.match(host.get('real-name')?.problems.map((p) => p.message).join() ?? '', /hello names it "other"/);
});

test('disabled and shadowed extensions are listed, not started', async (t) => {
  const root = tmpdir();
  const off = makeExt(root, 'off', {}, { enabled: false });
  const a = makeExt(root, 'a', { name: 'twin' });
  const b = makeExt(root, 'b', { name: 'twin' });
  const host = await startHost(t, [off, a, b]);
  const states = host.diagnostics().map((r) => [r.dir, r.state]);
  assert.deepEqual(states, [[off, 'disabled'], [a, 'ready'], [b, 'disabled']]);
  const offRt = host.get('off');
  assert.ok(offRt);
  assert.equal(offRt.pid, undefined);
});

test('a crash restarts the extension with backoff; past the budget it is failed with a message saying so', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'crashy', { crashAfterMs: 100, tools: [{ name: 'c' }] });
  const host = await startHost(t, [dir], { timing: { restartMax: 2, restartBaseDelayMs: 20 } });
  const rt = host.get('crashy');
  assert.ok(rt);
  /** @type {string[]} */
  const states = [];
  host.onDidChangeState((c) => c.extension === rt && states.push(lib.stateName(c.new)));
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 8000);
  assert.ok(rt.error);
  assert.match(rt.error, /crashed 3 times within 3 min.*not restarting it again/s);
  assert.ok(states.filter((s) => s === 'restarting').length === 2, `restarted twice: ${states.join(' ')}`);
  assert.ok(states.includes('ready'));
  assert.equal(host.findTool('c'), undefined, 'a dead extension provides nothing');
});

test('a restarted extension serves again; a requested stop is never followed by a restart', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'phoenix', { tools: [{ name: 'boom', behaviour: 'crash' }, { name: 'ok' }] });
  const host = await startHost(t, [dir]);
  const rt = host.get('phoenix');
  assert.ok(rt);
  const firstPid = rt.pid;
  const o = await host.runToolCall('boom', {});
  assert.equal(o.outcome, 'disconnected');
  await waitFor('restarted', () => lib.stateOf(rt) === 'ready' && rt.pid !== firstPid);
  assert.equal((await host.runToolCall('ok', { n: 1 })).outcome, 'completed');
  await host.stopExtension('phoenix');
  assert.equal(lib.stateOf(rt), 'stopped');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(lib.stateOf(rt), 'stopped');
  assert.equal(rt.pid, undefined);
  await host.startExtension('phoenix');
  assert.equal(lib.stateOf(rt), 'ready');
});

test('stop ladder: an extension that ignores shutdown and SIGTERM, with a grandchild, is gone when dispose resolves', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'stubborn', { ignoreShutdown: true, ignoreSigterm: true, grandchild: true });
  const host = await startHost(t, [dir]);
  const rt = host.get('stubborn');
  assert.ok(rt);
  const pid = rt.pid;
  assert.ok(pid);
  const gpid = Number(await waitFor('grandchild pid', () => host.stderrOf('stubborn').find((l) => l.startsWith('GRANDCHILD'))?.split(' ')[1]));
  assert.ok(alive(pid) && alive(gpid));
  const started = Date.now();
  await host.dispose();
  assert.equal(alive(pid), false, 'the extension is gone');
  assert.equal(alive(gpid), false, 'its grandchild is gone');
  assert.ok(Date.now() - started >= 500 + 300, 'the ladder waited for the grace and SIGTERM first');
  const log = fs.readFileSync(rt.logPath, 'utf8');
  assert.match(log, /did not exit within 500 ms of shutdown; sending SIGTERM/);
  assert.match(log, /ignored SIGTERM; sending SIGKILL/);
});

test('a grandchild left behind by an extension that exits politely is ended too', async (t) => {
  const root = tmpdir();
  const dir = makeExt(root, 'parent', { grandchild: true });
  const host = await startHost(t, [dir]);
  const gpid = Number(await waitFor('grandchild pid', () => host.stderrOf('parent').find((l) => l.startsWith('GRANDCHILD'))?.split(' ')[1]));
  await host.stopExtension('parent');
  assert.equal(alive(gpid), false);
});

test('reload: stop all, forget registrations, rediscover (new folders too), start and wait for ready', async (t) => {
  const project = tmpdir('zot-proj-');
  const zotHome = tmpdir('zot-home-');
  const explicit = makeExt(tmpdir(), 'explicit-one', { tools: [{ name: 'one' }] });
  makeExt(path.join(zotHome, 'extensions'), 'global-one', { tools: [{ name: 'g1' }] });
  const host = await startHost(t, [explicit], { cwd: project, zotHome, discover: true });
  const pid = host.get('explicit-one')?.pid;
  assert.ok(pid);
  assert.deepEqual(host.tools().map((x) => x.name).sort(), ['g1', 'one']);
  makeExt(path.join(project, '.zot', 'extensions'), 'project-new', { tools: [{ name: 'p1' }] });
  let changes = 0;
  host.onDidChangeRegistry(() => changes++);
  await host.reload();
  assert.deepEqual(host.extensions.map((e) => [e.name, lib.stateOf(e)]), [['explicit-one', 'ready'], ['project-new', 'ready'], ['global-one', 'ready']]);
  assert.notEqual(host.get('explicit-one')?.pid, pid);
  assert.equal(alive(pid), false);
  assert.deepEqual(host.tools().map((x) => x.name).sort(), ['g1', 'one', 'p1']);
  await waitFor('registry change event', () => changes > 0);
});

test('the gate holds extensions back without starting them, at every launch, until it lets them through', async (t) => {
  const root = tmpdir();
  const a = makeExt(root, 'allowed');
  const b = makeExt(root, 'withheld');
  let allowed = false;
  const host = await startHost(t, [a, b], { gate: (f) => (f.name === 'withheld' && !allowed ? { start: false, reason: 'not trusted' } : { start: true }) });
  assert.equal(lib.stateOf(host.get('allowed')), 'ready');
  assert.equal(lib.stateOf(host.get('withheld')), 'held');
  assert.equal(host.get('withheld')?.error, 'not trusted');
  assert.equal(host.get('withheld')?.pid, undefined);
  await host.startExtension('withheld');
  assert.equal(lib.stateOf(host.get('withheld')), 'held', 'Start asks the gate too: no way around it');
  assert.equal(host.get('withheld')?.pid, undefined);
  allowed = true;
  await host.startExtension('withheld');
  assert.equal(lib.stateOf(host.get('withheld')), 'ready');
});

test('a second stop while the ladder waits kills the tree at once', async (t) => {
  const dir = makeExt(tmpdir(), 'sluggish', { ignoreShutdown: true, ignoreSigterm: true, grandchild: true });
  const host = await startHost(t, [dir], { timing: { shutdownGraceMs: 5000, killAfterMs: 5000 } });
  const rt = host.get('sluggish');
  assert.ok(rt);
  const pid = rt.pid;
  assert.ok(pid);
  const gpid = Number(await waitFor('grandchild pid', () => host.stderrOf('sluggish').find((l) => l.startsWith('GRANDCHILD'))?.split(' ')[1]));
  const started = Date.now();
  const first = host.stopExtension('sluggish');
  await waitFor('stopping', () => lib.stateOf(rt) === 'stopping');
  await new Promise((r) => setTimeout(r, 100));
  await Promise.all([host.stopExtension('sluggish'), first]);
  assert.ok(Date.now() - started < 3000, `forced well before the 5 s grace (${Date.now() - started} ms)`);
  assert.equal(lib.stateOf(rt), 'stopped');
  assert.equal(alive(pid), false);
  assert.equal(alive(gpid), false);
  assert.match(fs.readFileSync(rt.logPath, 'utf8'), /stopped again: killing its process tree now/);
});

test('every state change is one transition with its old and new state; the launch lives in the state', async (t) => {
  const dir = makeExt(tmpdir(), 'moves', { crashAfterMs: 300 });
  const host = await startHost(t, [dir], { noStart: true, timing: { restartMax: 1, restartBaseDelayMs: 20 } });
  /** @type {[string, string, string][]} */
  const seen = [];
  host.onDidChangeState((c) => c.extension.name === 'moves' && seen.push([c.old.kind, c.new.kind, 'readiness' in c.new ? c.new.readiness : 'reason' in c.new ? c.new.reason : '']));
  await host.start();
  await waitFor('failed after its one restart', () => host.get('moves')?.status.kind === 'failed', 5000);
  for (let i = 1; i < seen.length; i++) assert.equal(seen[i][0], seen[i - 1][1], `chained: ${JSON.stringify(seen)}`);
  // A crash may close the connection before the exit is seen: then "lost" comes between, and only there.
  const kinds = seen.map((s) => s[1]);
  kinds.forEach((k, i) => k === 'lost' && assert.ok(['restarting', 'failed'].includes(kinds[i + 1]), `lost only before the crash verdict: ${kinds}`));
  assert.deepEqual(kinds.filter((k) => k !== 'lost'), ['stopped', 'starting', 'running', 'running', 'restarting', 'starting', 'running', 'running', 'failed']);
  assert.match(host.get('moves')?.error ?? '', /crashed 2 times/);
});

test('a lost connection is a state at once: not running, not serving, its tools gone, then the restart policy decides', async (t) => {
  const dir = makeExt(tmpdir(), 'dropper', { closeStdoutAfterMs: 300, ignoreSigterm: true, ignoreShutdown: true, tools: [{ name: 'echo' }] });
  const host = await startHost(t, [dir], { timing: { shutdownGraceMs: 1500, killAfterMs: 1500 } });
  const rt = host.get('dropper');
  assert.ok(rt);
  /** @type {string[]} */
  const states = [];
  host.onDidChangeState((e) => e.extension === rt && states.push(e.new.kind));
  assert.equal(lib.stateOf(rt), 'ready');
  await waitFor('the lost state', () => rt.status.kind === 'lost', 3000);
  // The process is still alive (it ignores shutdown and SIGTERM), yet nothing shows it as running.
  assert.ok(rt.pid && alive(rt.pid), 'its process is still being ended');
  assert.equal(lib.stateOf(rt), 'stopping');
  assert.equal(lib.isServing(rt.status), false);
  assert.ok(rt.error);
  assert.match(rt.error, /^connection lost \(.+\); ending the process$/);
  assert.equal(host.findTool('echo'), undefined, 'its tools are gone with the connection');
  assert.equal((await host.runToolCall('echo', {})).outcome, 'not_run');
  assert.ok(lib.canStop(rt.status) && !lib.canStart(rt.status));
  await waitFor('the restart', () => lib.stateOf(rt) === 'ready' && rt.status.kind === 'running', 10_000);
  assert.deepEqual(states.slice(0, 3), ['lost', 'restarting', 'starting'], 'lost, then (once the process ended) a crash restart');
});

test('the restart policy is an option: a policy that never restarts fails the extension at its first crash', async (t) => {
  /** @type {[string, string][]} */
  const asked = [];
  /** @type {import('../../out/types/host/index.js').HostOptions['restartPolicy']} */
  const restartPolicy = (name) => ({ crashed: (now) => (asked.push([name, typeof now]), { restart: false, crashes: 1, windowMs: 1 }), reset: () => undefined });
  const dir = makeExt(tmpdir(), 'once', { crashAfterMs: 200 });
  const host = await startHost(t, [dir], { restartPolicy });
  await waitFor('failed', () => lib.stateOf(host.get('once')) === 'failed', 5000);
  assert.deepEqual(asked, [['once', 'number']]);
  assert.match(host.get('once')?.error ?? '', /^crashed 1 times within 1 ms \(last: exited with code 3\); not restarting it again/);
});

test('a host busy past the auto-ready deadline reads the frames that came in time before it calls the extension quiet', async (t) => {
  // Registers every 40 ms for about 1.2 s, then says ready: never quiet for 250 ms.
  const dir = makeExt(tmpdir(), 'steady', { trickle: { count: 30, everyMs: 40 } });
  const host = await startHost(t, [dir], { noStart: true, timing: { readyGraceMs: 5000 } });
  /** @type {string[]} */
  const seen = [];
  host.onDidChangeState((c) => c.extension.name === 'steady' && seen.push(c.new.kind === 'running' ? c.new.readiness : c.new.kind));
  // Busy for 600 ms while handling a frame it read (as a host is when a big frame or a slow listener holds it),
  // after that frame set the quiet deadline; the extension goes on writing, its frames wait in the pipe.
  let busy = true;
  host.onDidChangeRegistry(() => {
    if (!busy || !((host.get('steady')?.commands.size ?? 0) > 0)) return;
    busy = false;
    for (const until = Date.now() + 600; Date.now() < until;) { /* busy */ }
  });
  await host.start();
  assert.equal(lib.stateOf(host.get('steady')), 'ready', `states: ${seen.join(' → ')}`);
  assert.ok(!seen.includes('auto_ready'), `never auto-ready: ${seen.join(' → ')}`);
});
