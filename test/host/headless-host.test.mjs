// The one boot of a host without an editor (src/host/headlessHost.ts), which
// every zot-host verb that runs extensions uses: started once, announced as
// one session after the ready wait (or not, for a hook), notes and the host's
// own lines as text, end signals heard only while someone listens, and
// nothing left running or listening after dispose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alive, lib, makeExt, sleep, tmpdir, waitFor, FAST } from '../helpers.mjs';

/**
 * A headless host over one fixture extension that subscribes to session_start and records what it receives.
 * @param {import('node:test').TestContext} t
 */
function boot(t, hostLines = false) {
  const root = tmpdir('zot-headless-');
  const dir = makeExt(root, 'listener', { subscribe: { events: ['session_start'] }, tools: [{ name: 'echo' }] });
  /** @type {string[]} */
  const lines = [];
  const h = new lib.HeadlessHost({ cwd: root, zotHome: tmpdir('zot-home-'), extensionPaths: [dir], discover: false, timing: FAST }, { log: (l) => lines.push(l), hostLines });
  /** @type {string[]} */
  const stderr = [];
  h.host.onLog((e) => e.kind === 'stderr' && stderr.push(e.line));
  t.after(() => h.dispose());
  const received = (/** @type {string} */ type) => stderr.filter((l) => l.startsWith('RECV ')).map((l) => /** @type {import('../../out/types/host/index.js').FrameFromHost} */ (JSON.parse(l.slice(5)))).filter((f) => f.type === 'event' && f.event === type);
  return { h, lines, received };
}

const ours = () => lib.END_SIGNALS.map((s) => process.listenerCount(s));

test('begin starts the extensions once and announces one session after the ready wait', async (t) => {
  const { h, received } = boot(t);
  const first = h.begin();
  assert.equal(h.begin(), first, 'a second begin shares the first');
  await first;
  assert.equal(lib.stateOf(h.host.get('listener')), 'ready');
  await waitFor('session_start', () => received('session_start').length === 1, 5_000);
  await sleep(200);
  assert.equal(received('session_start').length, 1, 'announced once');
});

test('begin({ announce: false }) starts them without a session_start (a hook sends its own)', async (t) => {
  const { h, received } = boot(t);
  await h.begin({ announce: false });
  assert.equal(lib.stateOf(h.host.get('listener')), 'ready');
  await sleep(300);
  assert.deepEqual(received('session_start'), []);
});

test('hostLines: the host\'s own lines about an extension reach the log as [name] line; notes always do', async (t) => {
  const quiet = boot(t);
  const loud = boot(t, true);
  await Promise.all([quiet.h.begin(), loud.h.begin()]);
  assert.ok(loud.lines.some((l) => l.startsWith('[listener] ')), loud.lines.join('\n'));
  assert.deepEqual(quiet.lines.filter((l) => l.startsWith('[listener] ')), []);
});

test('end signals are listened to only while a handler is; a once handler hears one; dispose stops every process and every listener', async (t) => {
  const before = ours();
  const { h } = boot(t);
  await h.begin();
  const pid = h.host.get('listener')?.pid;
  assert.ok(pid !== undefined, 'the extension has a process');
  assert.ok(alive(pid));
  assert.deepEqual(ours(), before, 'no listener before anyone asks');

  /** @type {string[]} */
  const heard = [];
  const always = h.onEndSignal((s) => heard.push(`always ${s}`));
  h.onEndSignal((s) => heard.push(`once ${s}`), { once: true });
  assert.deepEqual(ours(), before.map((n) => n + 1), 'one listener per signal, however many handlers');
  process.kill(process.pid, 'SIGHUP');
  await waitFor('the first signal', () => heard.length === 2, 5_000);
  process.kill(process.pid, 'SIGHUP');
  await waitFor('the second signal', () => heard.length === 3, 5_000);
  assert.deepEqual(heard, ['always SIGHUP', 'once SIGHUP', 'always SIGHUP']);
  always.dispose();
  assert.deepEqual(ours(), before, 'no handler left: no listener left');

  h.onEndSignal(() => undefined);
  await h.dispose();
  assert.deepEqual(ours(), before, 'dispose leaves no listener');
  assert.equal(alive(pid), false, 'dispose stopped the extension');
});
