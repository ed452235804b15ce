// What an extension receives, and what the caller is told, when a call ends
// before its frame was written, and when callers reuse their own call ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, lib, makeExt, sleep, startHost, tmpdir, waitFor } from '../helpers.mjs';

const { CancellationTokenSource } = lib;

/**
 * @param {import('node:test').TestContext} t
 * @param {Record<string, unknown>[]} tools
 * @param {{ name?: string, [key: string]: unknown }} [cfg]
 * @param {Parameters<typeof startHost>[2]} [opts]
 */
async function toolHost(t, tools, cfg = {}, opts = {}) {
  const dir = makeExt(tmpdir(), cfg.name ?? 'tools', { tools, ...cfg });
  return startHost(t, [dir], opts);
}

test('two calls in one tick, the second cancelled at once: not_run, one tool_call received, no tool_cancel', async (t) => {
  const host = await toolHost(t, [{ name: 'work', behaviour: 'cancellable', workMs: 300 }], { name: 'q', caps: ['tools', 'tool_cancel'] });
  const first = host.runToolCall('work', { n: 1 });
  const src = new CancellationTokenSource();
  // The first frame is being written, so the second still waits in the queue.
  const second = host.runToolCall('work', { n: 2 }, { token: src.token });
  src.cancel();
  const o = await second;
  assert.equal(o.outcome, 'not_run');
  assert.equal(o.extension, 'q');
  assert.match(o.message, /canceled before the request reached the extension/);
  assert.equal((await first).outcome, 'completed');
  await waitFor('the first call in its log', () => host.received('q', 'tool_call').length === 1);
  // A third call written after it: a wrongly sent frame would be logged before this one.
  assert.equal((await host.runToolCall('work', { n: 3 }, { timeoutMs: 5000 })).outcome, 'completed');
  await waitFor('the third call in its log', () => host.received('q', 'tool_call').length === 2);
  assert.deepEqual(host.received('q', 'tool_call').map((f) => f.args.n), [1, 3], 'the cancelled call never reached the extension');
  assert.deepEqual(host.received('q', 'tool_cancel'), [], 'no tool_cancel for an id the extension never saw');
});

test('a call cancelled while its frame waits behind a write the pipe has not taken: not_run, never received, no tool_cancel', async (t) => {
  const host = await toolHost(t, [
    { name: 'pause', behaviour: 'pause_reading', ms: 1500 },
    { name: 'big_in', behaviour: 'empty' },
    { name: 'work', behaviour: 'cancellable', workMs: 50 },
  ], { name: 'q', caps: ['tools', 'tool_cancel'] });
  assert.equal((await host.runToolCall('pause', {})).outcome, 'completed');
  // More than the pipe holds while the extension reads nothing: the rest waits in the stream, and what follows queues behind it.
  const big = host.runToolCall('big_in', { data: 'z'.repeat(4 * 1024 * 1024) }, { timeoutMs: 0 });
  const src = new CancellationTokenSource();
  const queued = host.runToolCall('work', { n: 2 }, { token: src.token });
  src.cancel();
  const o = await queued;
  assert.equal(o.outcome, 'not_run');
  assert.equal(o.extension, 'q');
  assert.match(o.message, /canceled before the request reached the extension/);
  // Once it reads again, the big call is through; a call after it is written and answered.
  assert.equal((await big).outcome, 'completed');
  assert.equal((await host.runToolCall('work', { n: 3 }, { timeoutMs: 5000 })).outcome, 'completed');
  await waitFor('the calls in its log', () => host.received('q', 'tool_call').length === 3);
  assert.deepEqual(host.received('q', 'tool_call').map((f) => f.name), ['pause', 'big_in', 'work']);
  assert.equal(host.received('q', 'tool_call')[2].args.n, 3, 'the cancelled call never reached the extension');
  assert.deepEqual(host.received('q', 'tool_cancel'), [], 'no tool_cancel for an id the extension never saw');
});

test('a call that times out while its frame is queued behind a stuck write is not_run, not timed_out', async (t) => {
  const host = await toolHost(t, [{ name: 'stop', behaviour: 'stop_reading' }, { name: 'big_in' }, { name: 'small' }], { caps: ['tools', 'tool_cancel'] }, { timing: { writeTimeoutMs: 20000 } });
  assert.equal((await host.runToolCall('stop', {}, { timeoutMs: 300 })).outcome, 'timed_out');
  // A frame larger than the pipe can hold stays mid-write; what comes after it stays queued.
  const big = host.runToolCall('big_in', { data: 'z'.repeat(4 * 1024 * 1024) }, { timeoutMs: 0 });
  const started = Date.now();
  const o = await host.runToolCall('small', {}, { timeoutMs: 200 });
  assert.equal(o.outcome, 'not_run');
  assert.match(o.message, /^timed out after 200 ms before the request reached the extension/);
  assert.ok(Date.now() - started < 3000, 'settled at its own deadline');
  // The big call is still pending; disposing the host ends it.
  void big;
});

test('a cancel of a delivered call on a tool_cancel extension sends tool_cancel with the id it received', async (t) => {
  // The counterpart of the test above, so that "never sent" is not met by never sending anything.
  const host = await toolHost(t, [{ name: 'work', behaviour: 'cancellable' }], { name: 'd', caps: ['tools', 'tool_cancel'] });
  const src = new CancellationTokenSource();
  const p = host.runToolCall('work', {}, { token: src.token });
  const [call] = await waitFor('delivered', () => host.received('d', 'tool_call').length && host.received('d', 'tool_call'));
  src.cancel();
  assert.equal((await p).outcome, 'canceled');
  await waitFor('tool_cancel received', () => host.received('d', 'tool_cancel').some((f) => f.id === call.id));
});

test('two concurrent calls with the same caller id each get their own answer, under distinct wire ids', async (t) => {
  const host = await toolHost(t, [{ name: 'rev', behaviour: 'reverse', count: 2 }]);
  const [a, b] = await Promise.all([
    host.runToolCall('rev', { i: 0 }, { toolId: 'call-1', timeoutMs: 3000 }),
    host.runToolCall('rev', { i: 1 }, { toolId: 'call-1', timeoutMs: 3000 }),
  ]);
  assert.equal(a.outcome, 'completed', a.message);
  assert.equal(b.outcome, 'completed', b.message);
  assert.equal(firstText(a), 'answer 0');
  assert.equal(firstText(b), 'answer 1');
  const calls = await waitFor('both calls in its log', () => host.received('tools', 'tool_call').length === 2 && host.received('tools', 'tool_call'));
  assert.notEqual(calls[0].id, calls[1].id, 'the wire ids differ');
  await sleep(50);
  assert.equal(host.get('tools')?.lateReplies, 0, 'no answer was taken for someone else\'s');
});

test('a call made after an earlier one settled, while another is still pending, gets its own answer; no wire id is reused', async (t) => {
  const host = await toolHost(t, [{ name: 'quick', behaviour: 'late', delayMs: 50 }, { name: 'slow', behaviour: 'late', delayMs: 600 }, { name: 'echo' }]);
  // Each call is bounded here, so an answer taken by another call fails this test instead of hanging it.
  const bounded = (/** @type {Promise<import('../../out/types/host/index.js').ToolOutcome>} */ p) => Promise.race([p, sleep(4000).then(() => ({ outcome: 'still pending', content: [] }))]);
  const quick = bounded(host.runToolCall('quick', {}, { timeoutMs: 10_000 }));
  const slow = bounded(host.runToolCall('slow', {}, { timeoutMs: 10_000 }));
  assert.equal((await quick).outcome, 'completed');
  const echo = await bounded(host.runToolCall('echo', { n: 3 }, { timeoutMs: 10_000 }));
  assert.equal(echo.outcome, 'completed');
  assert.equal(firstText(echo), '{"n":3}');
  const s = await slow;
  assert.equal(s.outcome, 'completed', 'the slow call still gets its answer');
  assert.equal(firstText(s), 'late answer');
  const ids = (await waitFor('three calls in its log', () => host.received('tools', 'tool_call').length === 3 && host.received('tools', 'tool_call'))).map((f) => f.id);
  assert.equal(new Set(ids).size, 3, `wire ids ${ids.join(', ')}`);
  assert.equal(host.get('tools')?.lateReplies, 0, 'no answer was dropped as late');
});
