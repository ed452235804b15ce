import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, lib, makeExt, RecordingUI, startHost, tmpdir, waitFor } from '../helpers.mjs';

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

test('a tool call completes with the blocks as sent; missing args are sent as {}', async (t) => {
  const host = await toolHost(t, [{ name: 'echo' }, { name: 'img', behaviour: 'image' }, { name: 'fail', behaviour: 'error' }, { name: 'none', behaviour: 'empty' }]);
  const o = await host.runToolCall('echo', { city: 'Berlin' });
  assert.deepEqual(o, { outcome: 'completed', extension: 'tools', isError: false, content: [{ type: 'text', text: '{"city":"Berlin"}' }], message: '' });
  assert.equal(firstText(await host.runToolCall('echo')), '{}');
  const img = await host.runToolCall('img', {});
  assert.deepEqual(img.content[0], { type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo=' });
  const fail = await host.runToolCall('fail', {});
  assert.equal(fail.outcome, 'completed');
  assert.equal(fail.isError, true);
  assert.deepEqual((await host.runToolCall('none', {})).content, []);
  // The fixture logs what it read on stderr, which arrives on its own schedule.
  const calls = await waitFor('the calls in its log', () => host.received('tools', 'tool_call').length === 5 && host.received('tools', 'tool_call'));
  assert.deepEqual(calls[0], { type: 'tool_call', id: calls[0].id, name: 'echo', args: { city: 'Berlin' } });
});

test('32 concurrent calls answered in reverse order each get their own answer; ids are unique', async (t) => {
  const host = await toolHost(t, [{ name: 'rev', behaviour: 'reverse', count: 32 }]);
  const outcomes = await Promise.all(Array.from({ length: 32 }, (_, i) => host.runToolCall('rev', { i })));
  outcomes.forEach((o, i) => assert.equal(firstText(o), `answer ${i}`));
  const ids = (await waitFor('32 calls in its log', () => host.received('tools', 'tool_call').length === 32 && host.received('tools', 'tool_call'))).map((f) => f.id);
  assert.equal(new Set(ids).size, 32);
  assert.equal(host.get('tools')?.pendingCount, 0, 'no pending entry is left');
});

test('correlation ids are unique across extensions and hosts in one process', async (t) => {
  const a = await toolHost(t, [{ name: 'a' }], { name: 'exa' });
  const b = await toolHost(t, [{ name: 'b' }], { name: 'exb' });
  await Promise.all([...Array(10)].flatMap(() => [a.runToolCall('a', {}), b.runToolCall('b', {})]));
  await waitFor('20 calls in the logs', () => a.received('exa', 'tool_call').length === 10 && b.received('exb', 'tool_call').length === 10);
  const ids = [...a.received('exa', 'tool_call'), ...b.received('exb', 'tool_call')].map((f) => f.id);
  assert.equal(new Set(ids).size, 20);
});

test('timeout with tool_cancel: the extension is told; without it the message says the work may go on', async (t) => {
  const withCancel = await toolHost(t, [{ name: 'slow', behaviour: 'cancellable' }], { name: 'polite', caps: ['tools', 'tool_cancel'] });
  const o = await withCancel.runToolCall('slow', {}, { timeoutMs: 150 });
  assert.equal(o.outcome, 'timed_out');
  assert.equal(o.message, 'timed out after 150 ms; the extension was told to stop');
  const { id } = await waitFor('the call in its log', () => withCancel.received('polite', 'tool_call')[0]);
  await waitFor('tool_cancel received', () => withCancel.received('polite', 'tool_cancel').some((f) => f.id === id));
  await waitFor('work stopped', () => withCancel.stderrOf('polite').includes(`CANCELLED ${id}`));

  const legacy = await toolHost(t, [{ name: 'slow', behaviour: 'hang' }], { name: 'legacy' });
  const l = await legacy.runToolCall('slow', {}, { timeoutMs: 150 });
  assert.equal(l.outcome, 'timed_out');
  assert.match(l.message, /cannot be cancelled.*may still finish/);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(legacy.received('legacy', 'tool_cancel').length, 0, 'no tool_cancel to an extension that does not list it');
});

test('calls with different deadlines each time out at their own, the later ones too', async (t) => {
  const host = await toolHost(t, [{ name: 'slow', behaviour: 'hang' }]);
  const started = performance.now();
  const deadlines = [100, 300, 600];
  // Each call is bounded here, so a deadline that never fires fails this test by name instead of hanging it.
  const results = await Promise.all(deadlines.map((ms) => Promise.race([
    host.runToolCall('slow', {}, { timeoutMs: ms }).then((o) => ({ outcome: o.outcome, took: performance.now() - started })),
    new Promise((r) => setTimeout(() => r({ outcome: 'still pending', took: performance.now() - started }), ms + 4000)),
  ])));
  results.forEach(({ outcome, took }, i) => {
    assert.equal(outcome, 'timed_out', `the call with a ${deadlines[i]} ms deadline`);
    assert.ok(took >= deadlines[i] - 2, `the ${deadlines[i]} ms call timed out after ${took.toFixed(0)} ms`);
  });
  assert.equal(host.get('tools')?.pendingCount, 0, 'no pending entry is left');
});

test('cancel before delivery is not_run and nothing is sent; after delivery it is canceled or abandoned', async (t) => {
  const host = await toolHost(t, [{ name: 'work', behaviour: 'cancellable' }], { name: 'c', caps: ['tools', 'tool_cancel'] });
  const pre = new CancellationTokenSource();
  pre.cancel();
  const notRun = await host.runToolCall('work', {}, { token: pre.token });
  assert.equal(notRun.outcome, 'not_run');
  assert.match(notRun.message, /canceled before the request reached the extension/);

  const src = new CancellationTokenSource();
  const p = host.runToolCall('work', {}, { token: src.token });
  const [call] = await waitFor('delivered', () => host.received('c', 'tool_call').length && host.received('c', 'tool_call'));
  src.cancel();
  const o = await p;
  assert.equal(o.outcome, 'canceled');
  assert.equal(o.message, 'canceled; the extension was told to stop');
  await waitFor('tool_cancel with that id', () => host.received('c', 'tool_cancel').some((f) => f.id === call.id));
  assert.equal(host.received('c', 'tool_call').length, 1, 'the pre-cancelled call was never sent');

  const legacy = await toolHost(t, [{ name: 'work', behaviour: 'hang' }], { name: 'old' });
  const src2 = new CancellationTokenSource();
  const p2 = legacy.runToolCall('work', {}, { token: src2.token });
  await waitFor('delivered', () => legacy.received('old', 'tool_call').length);
  src2.cancel();
  const a = await p2;
  assert.equal(a.outcome, 'abandoned');
  assert.match(a.message, /cannot be cancelled.*may still finish/);
});

test('late results are dropped silently and never block later frames', async (t) => {
  const host = await toolHost(t, [{ name: 'late', behaviour: 'late', delayMs: 200 }, { name: 'echo' }]);
  const o = await host.runToolCall('late', {}, { timeoutMs: 50 });
  assert.equal(o.outcome, 'timed_out');
  await waitFor('late reply seen', () => host.get('tools')?.lateReplies === 1);
  assert.equal((await host.runToolCall('echo', { after: true })).outcome, 'completed');
  assert.equal(host.get('tools')?.problems.length, 0, 'a late result is not a problem');
});

test('a crash mid-call fails the call at once as disconnected, not at its timeout', async (t) => {
  const host = await toolHost(t, [{ name: 'boom', behaviour: 'crash' }, { name: 'hang', behaviour: 'hang' }]);
  const started = Date.now();
  const [hanging, boom] = await Promise.all([host.runToolCall('hang', {}, { timeoutMs: 30000 }), host.runToolCall('boom', {}, { timeoutMs: 30000 })]);
  assert.equal(boom.outcome, 'disconnected');
  assert.equal(hanging.outcome, 'disconnected');
  assert.match(hanging.message, /extension "tools" (exited with code 7|closed its connection).*while the call was pending/);
  assert.ok(Date.now() - started < 5000);
});

test('an extension that stops reading while a large request is written is given up; other calls fail as disconnected', async (t) => {
  const host = await toolHost(t, [{ name: 'stop', behaviour: 'stop_reading' }, { name: 'big_in' }], {}, { timing: { writeTimeoutMs: 300 } });
  assert.equal((await host.runToolCall('stop', {}, { timeoutMs: 1000 })).outcome, 'timed_out');
  const big = { data: 'z'.repeat(4 * 1024 * 1024) };
  const o = await host.runToolCall('big_in', big, { timeoutMs: 20000 });
  assert.equal(o.outcome, 'disconnected');
  assert.match(o.message, /stopped reading its stdin/);
  await waitFor('restarted after being given up', () => lib.stateOf(host.get('tools')) === 'ready' && host.get('tools')?.pid);
});

test('a cancel while the request is stuck mid-write drops that transport', async (t) => {
  const host = await toolHost(t, [{ name: 'stop', behaviour: 'stop_reading' }, { name: 'big_in' }], {}, { timing: { writeTimeoutMs: 10000 } });
  await host.runToolCall('stop', {}, { timeoutMs: 300 });
  const ext = host.get('tools');
  assert.ok(ext, 'no extension "tools"');
  const pid = ext.pid;
  const src = new CancellationTokenSource();
  const p = host.runToolCall('big_in', { data: 'z'.repeat(4 * 1024 * 1024) }, { token: src.token, timeoutMs: 0 });
  await new Promise((r) => setTimeout(r, 200));
  src.cancel();
  const o = await p;
  assert.equal(o.outcome, 'not_run');
  assert.match(o.message, /still being written.*connection was closed/);
  await waitFor('replaced process', () => host.get('tools')?.pid !== pid);
});

test('malformed and error-frame replies fail their call at once', async (t) => {
  const host = await toolHost(t, [{ name: 'bad', behaviour: 'malformed' }, { name: 'err', behaviour: 'error_frame' }]);
  const bad = await host.runToolCall('bad', {}, { timeoutMs: 20000 });
  assert.equal(bad.outcome, 'completed');
  assert.equal(bad.isError, true);
  assert.match(bad.message, /malformed tool_result.*list of content blocks/);
  const err = await host.runToolCall('err', {}, { timeoutMs: 20000 });
  assert.equal(err.isError, true);
  assert.equal(firstText(err), 'cannot do that');
});

test('interactive tools: no reply deadline by default; a host without UI refuses them as not_run', async (t) => {
  const headless = await toolHost(t, [{ name: 'ask', interactive: true, behaviour: 'hang' }]);
  const refused = await headless.runToolCall('ask', {});
  assert.deepEqual([refused.outcome, refused.message], ['not_run', 'interactive extension tools require an interactive host']);
  assert.equal(headless.received('tools', 'tool_call').length, 0);

  const ui = new RecordingUI();
  const host = await toolHost(t, [{ name: 'ask', interactive: true, behaviour: 'cancellable', workMs: 400 }], { name: 'ui-tools', caps: ['tools', 'tool_cancel'] }, { ui, timing: { toolTimeoutMs: 100 } });
  const o = await host.runToolCall('ask', {});
  assert.equal(o.outcome, 'completed', 'the 100 ms tool timeout does not apply to interactive tools');
  assert.equal((await host.runToolCall('ask', {}, { timeoutMs: 50 })).outcome, 'timed_out', "the caller's explicit deadline does");
});

test('an unknown tool is not_run without an extension', async (t) => {
  const host = await toolHost(t, [{ name: 'x' }]);
  assert.deepEqual(await host.runToolCall('nope', {}), { outcome: 'not_run', extension: null, isError: true, content: [], message: 'no running extension provides the tool "nope"' });
});

test('commands: case-insensitive lookup, args trimmed, response returned; timeout and cancel outcomes', async (t) => {
  const dir = makeExt(tmpdir(), 'cmds', {
    commands: [
      { name: 'Todo', reply: { action: 'open_panel', open_panel: { id: 'p', title: 'T', lines: ['a'] } } },
      { name: 'slow', hang: true },
      { name: 'echo' },
    ],
  });
  const host = await startHost(t, [dir]);
  const o = await host.invokeCommand('TODO', '  some args  ');
  assert.equal(o.outcome, 'completed');
  assert.equal(o.response.action, 'open_panel');
  const inv = await waitFor('the command in its log', () => host.received('cmds', 'command_invoked')[0]);
  assert.deepEqual(inv, { type: 'command_invoked', id: inv.id, name: 'Todo', args: 'some args' });
  const slow = await host.invokeCommand('slow', '', { timeoutMs: 100 });
  assert.equal(slow.outcome, 'timed_out');
  const src = new CancellationTokenSource();
  const p = host.invokeCommand('slow', '', { token: src.token });
  await waitFor('delivered', () => host.received('cmds', 'command_invoked').length === 3);
  src.cancel();
  assert.equal((await p).outcome, 'abandoned');
  assert.equal((await host.invokeCommand('missing', '')).outcome, 'not_run');
});
