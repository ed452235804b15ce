import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, makeExt, passed, startHost, tmpdir, waitFor, ownFields } from '../helpers.mjs';

test('events reach only their subscribers, fire-and-forget', async (t) => {
  const root = tmpdir();
  const sub = makeExt(root, 'sub', { subscribe: { events: ['turn_start', 'turn_end', 'custom_thing'] } });
  const other = makeExt(root, 'other', { subscribe: { events: ['assistant_message'] } });
  const host = await startHost(t, [sub, other]);
  const r = host.emit('turn_start', { step: 1 });
  assert.equal(r, undefined, 'emit returns nothing to wait on');
  host.emit('turn_end', { stop: 'error', error: 'x' });
  host.beginSession({ session_id: 's1', cwd: '/srv/code' });
  host.emit('turn_start', { step: 2 });
  await waitFor('events', () => host.received('sub', 'event').length === 3);
  // zot's common fields on every event: the session (once there is one), its folder (else the host's), one counter for all events, heard or not.
  assert.deepEqual(host.received('sub', 'event'), [
    { type: 'event', event: 'turn_start', cwd: host.cwd, sequence: 1, step: 1 },
    { type: 'event', event: 'turn_end', cwd: host.cwd, sequence: 2, stop: 'error', error: 'x' },
    { type: 'event', event: 'turn_start', session_id: 's1', cwd: '/srv/code', sequence: 4, step: 2 },
  ]);
  assert.equal(host.received('other', 'event').length, 0);
});

test('intercepts run serially in load order: rewrites chain, the first block wins and later subscribers are not asked', async (t) => {
  const root = tmpdir();
  const a = makeExt(root, 'a', { subscribe: { intercept: ['tool_call', 'assistant_message'] }, interceptReplies: { tool_call: { modified_args: { x: 1 } }, assistant_message: { replace_text: 'from a' } } });
  const b = makeExt(root, 'b', { subscribe: { intercept: ['tool_call', 'assistant_message'] }, interceptReplies: { tool_call: { modified_args: { x: 2, y: true } } } });
  const host = await startHost(t, [a, b]);
  const r = await host.intercept('tool_call', { tool_id: 'm1', tool_name: 'bash', tool_args: { x: 0 } });
  assert.deepEqual({ ...r, heard: r.heard?.map((h) => `${h.by} ${h.ending.kind}`) }, { blocked: false, payload: { tool_id: 'm1', tool_name: 'bash', tool_args: { x: 2, y: true } }, heard: ['a answered', 'b answered'] });
  const seenByB = await waitFor('b asked', () => host.received('b', 'event_intercept')[0]);
  assert.deepEqual(seenByB.tool_args, { x: 1 }, 'b sees what a rewrote');
  const msg = await host.intercept('assistant_message', { text: 'original' });
  assert.equal(passed(msg).text, 'from a');
  assert.equal((await waitFor('b asked again', () => host.received('b', 'event_intercept')[1])).text, 'from a');

  const c = makeExt(root, 'c', { subscribe: { intercept: ['turn_start'] }, interceptReplies: { turn_start: { block: true, reason: 'not now' } } });
  const d = makeExt(root, 'd', { subscribe: { intercept: ['turn_start'] } });
  const host2 = await startHost(t, [c, d]);
  const stopped = await host2.intercept('turn_start', { step: 3 });
  assert.deepEqual({ ...stopped, heard: stopped.heard?.map((h) => h.by) }, { blocked: true, reason: 'not now', by: 'c', payload: { step: 3 }, heard: ['c'] }, 'd was not asked');
  assert.equal(host2.received('d', 'event_intercept').length, 0);
});

test('a subscriber that does not answer in time counts as allow; a non-object modified_args is ignored with a diagnostic', async (t) => {
  const root = tmpdir();
  const mute = makeExt(root, 'mute', { subscribe: { intercept: ['tool_call'] }, interceptReplies: { tool_call: 'ignore' } });
  const bad = makeExt(root, 'bad', { subscribe: { intercept: ['tool_call'] }, interceptReplies: { tool_call: { modified_args: [1, 2] } } });
  const host = await startHost(t, [mute, bad], { timing: { interceptTimeoutMs: 200 } });
  const started = Date.now();
  const r = await host.intercept('tool_call', { tool_id: 'x', tool_name: 't', tool_args: { keep: 1 } });
  assert.ok(Date.now() - started >= 190);
  // How each guard ended travels as data: the silent one allowed for want of an answer, and says why.
  assert.deepEqual(r, { blocked: false, payload: { tool_id: 'x', tool_name: 't', tool_args: { keep: 1 } }, heard: [
    { by: 'mute', ending: { kind: 'timed_out', said: 'did not answer the tool_call intercept within 200 ms' } },
    { by: 'bad', ending: { kind: 'answered', answer: { type: 'event_intercept_response', id: r.heard?.[1]?.ending.kind === 'answered' ? r.heard[1].ending.answer?.id ?? '' : '', modified_args: [1, 2] } } },
  ] });
  assert.match(host.get('mute')?.problems.map((p) => p.message).join() ?? '', /did not answer the tool_call intercept within 200 ms; treated as allow/);
  assert.match(host.get('bad')?.problems.map((p) => p.message).join() ?? '', /ignored modified_args.*must be an object/);
});

test('runToolCall: a blocked call is not run and carries the reason; modified args are what runs; the tool_call event carries the model\'s args', async (t) => {
  const root = tmpdir();
  const guard = makeExt(root, 'guard', {
    subscribe: { events: ['tool_call'], intercept: ['tool_call'] },
    interceptReplies: { tool_call: { modified_args: { patched: true } } },
  });
  const tools = makeExt(root, 'tools', { tools: [{ name: 'echo' }] });
  const host = await startHost(t, [guard, tools]);
  const o = await host.runToolCall('echo', { patched: false }, { toolId: 'model-1' });
  assert.equal(firstText(o), '{"patched":true}');
  const [ev] = await waitFor('event', () => host.received('guard', 'event').length > 0 && host.received('guard', 'event'));
  assert.deepEqual(ownFields(ev), { type: 'event', event: 'tool_call', tool_id: 'model-1', tool_name: 'echo', tool_args: { patched: false } });

  const blocker = makeExt(root, 'blocker', { subscribe: { intercept: ['tool_call'] }, interceptReplies: { tool_call: { block: true, reason: 'rm -rf is not allowed' } } });
  const host2 = await startHost(t, [blocker, tools]);
  const b = await host2.runToolCall('echo', {});
  assert.deepEqual(b, { outcome: 'not_run', extension: 'tools', isError: true, content: [{ type: 'text', text: 'rm -rf is not allowed' }], message: 'blocked by extension "blocker": rm -rf is not allowed', ending: { status: 'blocked', executed: false } });
  assert.equal(host2.received('tools', 'tool_call').length, 0);
});
