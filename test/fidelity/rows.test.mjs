// Rows of docs/FIDELITY.md's "Fidelity to zot" table that no other test holds, each
// over a real extension process: delivery order, a tool_call event without
// args, an image with empty data, several panels of one extension.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstText, makeExt, RecordingUI, startHost, tmpdir, waitFor } from '../helpers.mjs';

test('events reach an extension in the order they were sent (zot: each on its own goroutine, in any order)', async (t) => {
  const host = await startHost(t, [makeExt(tmpdir(), 'sub', { subscribe: { events: ['turn_start'] } })]);
  for (let step = 1; step <= 200; step++) host.emit('turn_start', { step });
  const steps = await waitFor('all 200 events', () => {
    const got = host.received('sub', 'event').map((f) => f.step);
    return got.length === 200 && got;
  });
  assert.deepEqual(steps, Array.from({ length: 200 }, (_, i) => i + 1));
});

test('a tool_call event for a call without args carries tool_args: {} (zot leaves it out), and the call gets {}', async (t) => {
  const root = tmpdir();
  const host = await startHost(t, [makeExt(root, 'sub', { subscribe: { events: ['tool_call'] } }), makeExt(root, 'tools', { tools: [{ name: 'echo' }] })]);
  const o = await host.runToolCall('echo', undefined);
  assert.equal(firstText(o), '{}');
  const [event] = await waitFor('the event', () => host.received('sub', 'event').length && host.received('sub', 'event'));
  assert.equal(event.tool_name, 'echo');
  assert.deepEqual(event.tool_args, {});
});

test('an image with empty data passes as zot passes it; one that is not base64 makes the result an error', async (t) => {
  const host = await startHost(t, [makeExt(tmpdir(), 'pics', {
    tools: [
      { name: 'empty', behaviour: 'content', content: [{ type: 'image', mime_type: 'image/png', data: '' }, { type: 'text', text: 'an empty image' }] },
      { name: 'bad', behaviour: 'content', content: [{ type: 'image', mime_type: 'image/png', data: 'not base64!' }] },
    ],
  })]);
  const empty = await host.runToolCall('empty', {});
  assert.equal(empty.outcome, 'completed');
  assert.equal(empty.isError, false, empty.message);
  assert.deepEqual(empty.content[0], { type: 'image', mime_type: 'image/png', data: '' });
  const bad = await host.runToolCall('bad', {});
  assert.equal(bad.isError, true);
  assert.match(bad.message, /an image that could not be decoded/);
  assert.equal(bad.content.length, 1);
  assert.equal(bad.content[0].type, 'text', 'a text block in the image\'s place');
});

test('panels: one per extension and panel id, so two panels of one extension are open at once (zot shows one at a time)', async (t) => {
  const ui = new RecordingUI();
  /** @param {string} id */
  const panel = (id) => ({ type: 'open_panel', panel: { id, title: id, lines: [id] } });
  const host = await startHost(t, [makeExt(tmpdir(), 'pan', { caps: ['commands', 'panels'], commands: [{ name: 'two', reply: { action: 'noop' }, after: [panel('a'), panel('b')] }] })], { ui });
  await host.runCommand('two', '');
  await waitFor('both panels', () => ui.of('openPanel').length === 2);
  assert.deepEqual(ui.of('openPanel').map((c) => c.args[1].id), ['a', 'b']);
  assert.equal(ui.of('closePanel').length, 0, 'the second does not replace the first');
  assert.equal(host.openPanels.length, 2);
});
