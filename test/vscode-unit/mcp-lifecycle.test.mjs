// Start, Stop and Restart of a zot extension's server in VS Code's MCP UI
// (src/vscode/mcp/serverLifecycle.ts), in plain Node over a real host with
// real extensions: what a launch's end and a start mean for the extension,
// as VS Code signals them (a session's DELETE, a resolve), and the consent
// gate in front of every start. The same in a real VS Code, through its own
// commands: test/e2e/agent-mode/suite.cjs.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { bundleSources, makeExt, sleep, startHost, tmpdir, lib, waitFor } from '../helpers.mjs';

/** @typedef {import('../helpers.mjs').TestHost} TestHost */

/** @type {typeof import('../../src/vscode/mcp/serverLifecycle')} */
let m;
before(async () => {
  ({ serverLifecycle: m } = await bundleSources(tmpdir('zot-lifecycle-'), 'vscode/mcp', ['serverLifecycle']));
});

/**
 * Two extensions, a gate that holds those the test names, and a lifecycle over them.
 * @param {import('node:test').TestContext} t
 */
async function setUp(t) {
  const root = tmpdir('zot-lifecycle-ext-');
  const dirs = ['alpha', 'beta'].map((n) => makeExt(root, n, { tools: [{ name: `${n}_echo`, description: 'echo' }] }));
  /** @type {Set<string>} */
  const held = new Set();
  /** @type {import('../helpers.mjs').Gate} */
  const gate = (found) => (held.has(path.basename(found.dir)) ? { start: false, reason: 'not allowed in this test', hold: 'consent' } : { start: true });
  const host = await startHost(t, dirs, { gate });
  const versions = new Map([['alpha', 'v1'], ['beta', 'v1']]);
  /** What the editor's host manager has queued: the test puts a restart there as the Zot view would. */
  let queue = Promise.resolve();
  /** @type {string[]} */
  const lines = [];
  let changes = 0;
  /** @type {import('../../src/vscode/mcp/serverLifecycle').ServerLifecycle} */
  const lifecycle = new m.ServerLifecycle({
    startExtension: (n) => host.startExtension(n),
    stopExtension: (n) => host.stopExtension(n),
    restartExtension: (n) => host.restartExtension(n),
    settled: () => queue,
    extension: (n) => host.get(n),
    versionNow: (n) => (lifecycle.stopped.has(n) ? lifecycle.stopped.get(n) : host.get(n)?.status.kind === 'running' ? versions.get(n) : undefined),
    changed: () => changes++,
    log: (l) => lines.push(l),
  });
  t.after(() => lifecycle.dispose());
  return { host, held, versions, lines, lifecycle, changes: () => changes, enqueue: (/** @type {Promise<void>} */ p) => (queue = queue.then(() => p)) };
}

/** @type {(host: TestHost, n: string) => import('../../out/types/host/index.js').ExtensionState | undefined} */
const state = (host, n) => lib.stateOf(host.get(n));
/** The pid of `n`, which must be loaded. @type {(host: TestHost, n: string) => number | undefined} */
const pidOf = (host, n) => {
  const rt = host.get(n);
  assert.ok(rt, `${n} is loaded`);
  return rt.pid;
};

test('Stop in VS Code: a launch that ends with no start after it stops the extension, and its definition stays listed at its version; the other runs on', async (t) => {
  const { host, lifecycle, lines, changes } = await setUp(t);
  const launch = await lifecycle.start('alpha', 'v1');
  assert.ok(launch, 'a launch');
  assert.match(launch, /^[0-9a-f-]{36}$/);
  lifecycle.ended('alpha', launch);
  // Not before the window in which a start makes it a restart.
  await sleep(m.RESTART_WINDOW_MS / 2);
  assert.equal(state(host, 'alpha'), 'ready');
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped', m.RESTART_WINDOW_MS + 5_000);
  assert.deepEqual([...lifecycle.stopped], [['alpha', 'v1']]);
  await waitFor('the definitions offered again', () => changes() > 0);
  assert.equal(state(host, 'beta'), 'ready');
  assert.ok(lines.some((l) => /VS Code stopped the server of "alpha": stopping the extension/.test(l)), lines.join('\n'));
  // Still stopped after the provider's next look: a stop made there is kept.
  lifecycle.sync();
  assert.ok(lifecycle.stopped.has('alpha'));
});

test('Start in VS Code: the extension stopped there starts again (through the gate), and its server gets a launch', async (t) => {
  const { host, lifecycle } = await setUp(t);
  lifecycle.ended('alpha', await lifecycle.start('alpha', 'v1'));
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped', m.RESTART_WINDOW_MS + 5_000);
  const again = await lifecycle.start('alpha', 'v1');
  assert.ok(again, 'a launch');
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(lifecycle.stopped.size, 0);
  const result = await host.runToolCall('alpha_echo', { text: 'back' });
  assert.equal(result.outcome, 'completed');
});

test('Restart in VS Code: an end and a start at the same version restart the extension (a new process)', async (t) => {
  const { host, lifecycle, lines } = await setUp(t);
  const pid = pidOf(host, 'alpha');
  lifecycle.ended('alpha', await lifecycle.start('alpha', 'v1'));
  const launch = await lifecycle.start('alpha', 'v1');
  assert.ok(launch);
  assert.equal(state(host, 'alpha'), 'ready');
  assert.notEqual(pidOf(host, 'alpha'), pid, 'a new process');
  assert.ok(lines.some((l) => /VS Code restarted the server of "alpha": restarting the extension/.test(l)), lines.join('\n'));
  // The end of the old launch does not stop it later.
  await sleep(m.RESTART_WINDOW_MS + 300);
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(lifecycle.stopped.size, 0);
});

test('VS Code following a change of ours leaves the extension alone: a restart at the new version of its tools, a definition dropped by a Stop in the Zot view', async (t) => {
  const { host, lifecycle, versions } = await setUp(t);
  const pid = pidOf(host, 'alpha');
  // Its tools changed: VS Code restarts the server at the new version (the start after the end, or before it).
  const first = await lifecycle.start('alpha', 'v1');
  versions.set('alpha', 'v2');
  lifecycle.touched('alpha');
  lifecycle.ended('alpha', first);
  assert.ok(await lifecycle.start('alpha', 'v2'));
  const second = await lifecycle.start('alpha', 'v2');
  versions.set('alpha', 'v3');
  lifecycle.touched('alpha');
  assert.ok(await lifecycle.start('alpha', 'v3'));
  lifecycle.ended('alpha', second);
  // beta stopped in the Zot view: its definition is dropped, and VS Code ends its launch.
  const b = await lifecycle.start('beta', 'v1');
  await host.stopExtension('beta');
  lifecycle.ended('beta', b);
  await sleep(m.RESTART_WINDOW_MS + 300);
  assert.equal(pidOf(host, 'alpha'), pid, 'alpha was not restarted');
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(state(host, 'beta'), 'stopped');
  assert.equal(lifecycle.stopped.size, 0, 'nothing counts as stopped in VS Code');
});

test('a launch whose definition changed since it began (dropped and added again by a restart, a crash, new tools) is ended by VS Code for that change: the extension is left alone', async (t) => {
  const { host, lifecycle } = await setUp(t);
  const launch = await lifecycle.start('alpha', 'v1');
  lifecycle.touched('alpha'); // dropped
  lifecycle.touched('alpha'); // and back, at the same version
  lifecycle.ended('alpha', launch);
  await sleep(m.RESTART_WINDOW_MS + 300);
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(lifecycle.stopped.size, 0);
  // The next launch, begun after the change, is VS Code's to stop.
  const next = await lifecycle.start('alpha', 'v1');
  lifecycle.ended('alpha', next);
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped', m.RESTART_WINDOW_MS + 5_000);
});

test('a start the consent gate refuses: VS Code is told the server cannot start, and the extension stays held', async (t) => {
  const { host, held, lifecycle, lines } = await setUp(t);
  lifecycle.ended('alpha', await lifecycle.start('alpha', 'v1'));
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped', m.RESTART_WINDOW_MS + 5_000);
  held.add('alpha');
  assert.equal(await lifecycle.start('alpha', 'v1'), undefined);
  assert.match(state(host, 'alpha') ?? '', /held/);
  assert.ok(lines.some((l) => /the server of "alpha" cannot start: the extension is held/.test(l)), lines.join('\n'));
  assert.ok(lifecycle.stopped.has('alpha'), 'still listed, so a later Start can ask again');
});

test('ends that name no launch of that endpoint are ignored: an unknown id, another extension\'s launch, none at all', async (t) => {
  const { host, lifecycle } = await setUp(t);
  const a = await lifecycle.start('alpha', 'v1');
  lifecycle.ended('alpha', 'not-a-launch');
  lifecycle.ended('beta', a);
  lifecycle.ended('alpha', undefined);
  lifecycle.ended(undefined, a);
  await sleep(m.RESTART_WINDOW_MS + 300);
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(state(host, 'beta'), 'ready');
  // The launch itself still counts once.
  lifecycle.ended('alpha', a);
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped', m.RESTART_WINDOW_MS + 5_000);
});

test('a stop made in VS Code is forgotten once the extension runs again from elsewhere (the Zot view\'s Start)', async (t) => {
  const { host, lifecycle } = await setUp(t);
  lifecycle.ended('alpha', await lifecycle.start('alpha', 'v1'));
  await waitFor('alpha stopped', () => state(host, 'alpha') === 'stopped' && lifecycle.stopped.has('alpha'), m.RESTART_WINDOW_MS + 5_000);
  await host.startExtension('alpha');
  lifecycle.sync();
  assert.equal(lifecycle.stopped.size, 0);
});

test('Restart whose start reaches the editor before the end of the old launch does (VS Code does not wait for its DELETE): the extension restarts, and is not stopped after', async (t) => {
  const { host, lifecycle } = await setUp(t);
  const pid = pidOf(host, 'alpha');
  const old = await lifecycle.start('alpha', 'v1');
  assert.ok(await lifecycle.start('alpha', 'v1'));
  lifecycle.ended('alpha', old);
  await waitFor('a new process', () => pidOf(host, 'alpha') !== pid && state(host, 'alpha') === 'ready', 10_000);
  await sleep(m.RESTART_WINDOW_MS + 300);
  assert.equal(state(host, 'alpha'), 'ready');
  assert.equal(lifecycle.stopped.size, 0);
});

test('a start that comes while the extension restarts from elsewhere (the Zot view, between its stop and its start) waits for it, and is not refused', async (t) => {
  const { host, lifecycle, enqueue } = await setUp(t);
  const pid = pidOf(host, 'alpha');
  /** @type {Promise<string | undefined> | undefined} */
  let restarted;
  enqueue((async () => {
    await host.stopExtension('alpha');
    restarted = lifecycle.start('alpha', 'v1'); // VS Code resolves just now, with the extension stopped
    await sleep(300);
    await host.startExtension('alpha');
  })());
  const launch = await waitFor('the start asked', () => restarted);
  assert.ok(await launch, 'a launch, not a refusal');
  assert.equal(state(host, 'alpha'), 'ready');
  assert.notEqual(pidOf(host, 'alpha'), pid);
});
