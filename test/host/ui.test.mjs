import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib, makeExt, RecordingUI, sleep, startHost, tmpdir, waitFor } from '../helpers.mjs';

const { CancellationTokenSource } = lib;

test('notify, clear_notes, submit and submit_slash reach the UI in order; the host runs a submit_slash itself; one without "/" is refused', async (t) => {
  const after = [
    { type: 'notify', level: 'success', message: 'done' },
    { type: 'notify', level: 'shouting', message: 'unknown level' },
    { type: 'clear_notes' },
    { type: 'submit', text: '   ' },
    { type: 'submit', text: 'explain this' },
    { type: 'submit_slash', text: 'todo add' },
    { type: 'submit_slash', text: '  /todo add milk ' },
    { type: 'submit_slash', text: '/nothing here' },
  ];
  const dir = makeExt(tmpdir(), 'chatty', { commands: [{ name: 'go', reply: { action: 'noop' }, after }, { name: 'todo', reply: { action: 'display', display: 'added' } }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  await host.invokeCommand('go', '');
  await waitFor('all UI frames', () => ui.calls.length === 6);
  assert.deepEqual(ui.calls.map((c) => [c.kind, ...c.args]), [
    ['notify', 'chatty', 'success', 'done'],
    ['notify', 'chatty', 'info', 'unknown level'],
    ['clearNotes', 'chatty'],
    ['submit', 'chatty', 'explain this'],
    // /todo ran as a typed slash command: its response carried out through the UI.
    ['display', 'chatty', 'added'],
    ['notify', 'chatty', 'warn', 'asked to run /nothing, but no running extension provides that command'],
  ]);
  assert.deepEqual(host.received('chatty', 'command_invoked').map((f) => [f.name, f.args]), [['go', ''], ['todo', 'add milk']]);
  assert.match(host.get('chatty')?.problems.map((p) => p.message).join() ?? '', /submit_slash refused: "todo add" does not start with "\/"/);
});

test('a host without UI runs no submit_slash: it says so', async (t) => {
  const dir = makeExt(tmpdir(), 'quiet', { commands: [{ name: 'go', reply: { action: 'noop' }, after: [{ type: 'submit_slash', text: '/go again' }] }] });
  const ui = new RecordingUI({ interactive: false });
  const host = await startHost(t, [dir], { ui });
  await host.invokeCommand('go', '');
  await waitFor('the note', () => ui.calls.length === 1);
  assert.deepEqual(ui.calls[0].args, ['quiet', 'info', 'asked to run /go again; not interactive, ignored']);
  // Its log (stderr) is read apart from its frames: wait for the first run's line, then give a second one time to show.
  await waitFor('go received once', () => host.received('quiet', 'command_invoked').length >= 1);
  await sleep(300);
  assert.equal(host.received('quiet', 'command_invoked').length, 1, 'go ran once: the slash did not run it again');
});

test('runCommand applies each action through the UI', async (t) => {
  const dir = makeExt(tmpdir(), 'acts', {
    commands: [
      { name: 'p', reply: { action: 'prompt', prompt: 'write a poem' } },
      { name: 'i', reply: { action: 'insert', insert: 'inserted text' } },
      { name: 'd', reply: { action: 'display', display: 'shown text' } },
      { name: 'o', reply: { action: 'open_panel', open_panel: { id: 'main', title: 'T', lines: ['› a', '  b'], footer: 'keys' } } },
      { name: 'e', reply: { action: 'display', display: 'ignored', error: 'it broke' } },
      { name: 'n', reply: { action: 'noop' } },
    ],
  });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  for (const c of ['p', 'i', 'd', 'o', 'e', 'n']) assert.equal((await host.runCommand(c, '')).outcome, 'completed');
  assert.deepEqual(ui.calls.map((c) => c.kind), ['submit', 'insert', 'display', 'openPanel', 'notify']);
  assert.equal(ui.of('submit')[0].args[1], 'write a poem');
  assert.deepEqual(ui.of('notify')[0].args, ['acts', 'error', '/acts: it broke']);
  const panel = ui.of('openPanel')[0].args[1];
  assert.deepEqual([panel.id, panel.title, panel.lines, panel.footer, panel.forToolCall], ['main', 'T', ['› a', '  b'], 'keys', false]);
});

test('panels: keys, sizes (to an extension that asks for them) and closes reach the extension; renders and its own close reach the UI', async (t) => {
  const dir = makeExt(tmpdir(), 'pan', { echoPanel: true, caps: ['commands', 'panels', 'panel_resize'], commands: [{ name: 'open', reply: { action: 'open_panel', open_panel: { id: 'p1', title: 'P', lines: ['x'] } } }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  await host.runCommand('open', '');
  const key = ui.of('openPanel')[0].args[0];
  const handle = ui.panel(key);
  handle.resize(80.7, 24);
  handle.key('down');
  handle.key('rune', 'x');
  await waitFor('renders', () => ui.of('renderPanel').length === 2);
  assert.deepEqual(ui.of('renderPanel').map((c) => c.args[1].lines), [['key down'], ['key rune x']]);
  assert.equal(ui.of('renderPanel')[1].args[1].title, 'P', 'a render without a title keeps the old one');
  handle.dismiss();
  await waitFor('panel_close', () => host.received('pan', 'panel_close').length === 1);
  assert.deepEqual(host.received('pan').filter((f) => f.type.startsWith('panel_')), [
    { type: 'panel_resize', panel_id: 'p1', width: 80, height: 24 },
    { type: 'panel_key', panel_id: 'p1', key: 'down' },
    { type: 'panel_key', panel_id: 'p1', key: 'rune', text: 'x' },
    { type: 'panel_close', panel_id: 'p1' },
  ]);
  assert.equal(host.openPanels.length, 0);
});

/**
 * The response of a command that completed.
 * @param {import('../../out/types/host/index.js').CommandOutcome} outcome
 */
function responseOf(outcome) {
  if (outcome.outcome !== 'completed') assert.fail(`the command did not complete: ${outcome.outcome} ${outcome.message}`);
  return outcome.response;
}

test('frames for a panel sent right after the response that opens it are not lost: a render shows in it, a close keeps it shut', async (t) => {
  const open = { action: 'open_panel', open_panel: { id: 'led', title: 'Ledger', lines: ['loading'] } };
  const dir = makeExt(tmpdir(), 'quick', {
    commands: [
      { name: 'render', reply: open, after: [{ type: 'panel_render', panel_id: 'led', lines: ['first'] }, { type: 'panel_render', panel_id: 'led', title: 'Ledger · March', lines: ['loaded'], footer: 'esc close' }] },
      { name: 'shut', reply: { action: 'open_panel', open_panel: { id: 'gone', title: 'Gone', lines: ['x'] } }, after: [{ type: 'panel_render', panel_id: 'gone', lines: ['y'] }, { type: 'panel_close', panel_id: 'gone' }, { type: 'panel_render', panel_id: 'gone', lines: ['after the close'] }] },
    ],
  });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  // The response is carried out only once the frames after it were read, as a busy front end would.
  const o = await host.invokeCommand('render', '');
  await sleep(300);
  await host.applyCommandResponse('quick', responseOf(o));
  const shown = ui.of('openPanel')[0].args[1];
  assert.deepEqual([shown.title, shown.lines, shown.footer], ['Ledger · March', ['loaded'], 'esc close'], 'opened with the last render on top of the response');
  assert.equal(ui.of('renderPanel').length, 0);
  assert.equal(host.logs.filter((l) => /ignored panel_render/.test(l.line)).length, 0);

  const shut = await host.invokeCommand('shut', '');
  await sleep(300);
  await host.applyCommandResponse('quick', responseOf(shut));
  assert.equal(ui.of('openPanel').length, 1, 'a panel closed by its extension before it was shown is not shown');
  assert.deepEqual(host.openPanels.map((p) => p.id), ['led']);
  assert.deepEqual(host.received('quick', 'panel_close'), [], 'the extension closed it itself; nothing to tell it');
  assert.ok(host.logs.some((l) => /ignored panel_render for "gone"/.test(l.line)), 'a render after its close is for no open panel, as zot has it');

  // A response that replaces the open panel: the renders after it still end on top.
  await host.runCommand('render', '');
  await waitFor('the last render on top', () => {
    const shown = ui.calls.at(-1)?.args[1];
    return typeof shown === 'object' && shown.lines?.[0] === 'loaded' && host.openPanels[0]?.lines[0] === 'loaded';
  });
});

test('a response whose panel the front end never opens leaves nothing waiting: later renders of that id are ignored', async (t) => {
  const dir = makeExt(tmpdir(), 'shown', {
    commands: [
      { name: 'o', reply: { action: 'open_panel', open_panel: { id: 'p', title: 'P', lines: ['x'] } } },
      { name: 'r', reply: { action: 'noop' }, after: [{ type: 'panel_render', panel_id: 'p', lines: ['late'] }] },
    ],
  });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui });
  const o = await host.invokeCommand('o', '');
  // A front end that shows the panel its own way (chat's answer names it, say).
  await host.applyCommandResponse('shown', responseOf(o), { openPanel: () => undefined });
  await host.runCommand('r', '');
  await waitFor('the render ignored', () => host.logs.some((l) => /ignored panel_render for "p"/.test(l.line)));
  assert.equal(ui.of('openPanel').length + ui.of('renderPanel').length, 0);
});

test('a panel opened during an interactive call is bound to it: dismissing it cancels the call with tool_cancel', async (t) => {
  const ext = makeExt(tmpdir(), 'asker', {
    caps: ['tools', 'panels', 'tool_cancel'],
    tools: [{ name: 'ask', interactive: true, behaviour: 'cancellable' }],
    commands: [{ name: 'noop', reply: { action: 'noop' } }],
  });
  const ui = new RecordingUI();
  const host = await startHost(t, [ext], { ui });
  const call = host.runToolCall('ask', {});
  const [frame] = await waitFor('call delivered', () => host.received('asker', 'tool_call').length > 0 && host.received('asker', 'tool_call'));
  // The extension opens its panel spontaneously, naming the call explicitly.
  const rt = host.get('asker');
  assert.ok(rt);
  await host.openPanel(rt, { id: 'q', title: 'Pick', lines: ['› yes', '  no'], tool_call_id: frame.id });
  const panel = ui.of('openPanel')[0].args[1];
  assert.equal(panel.forToolCall, true);
  ui.panel(panel.uid).dismiss();
  const o = await call;
  assert.equal(o.outcome, 'canceled');
  await waitFor('tool_cancel', () => host.received('asker', 'tool_cancel').some((f) => f.id === frame.id));
  assert.deepEqual(host.received('asker', 'panel_close'), [{ type: 'panel_close', panel_id: 'q' }]);
});

test('a call cancelled elsewhere closes its bound panel in the UI and tells the extension', async (t) => {
  const ext = makeExt(tmpdir(), 'asker2', { caps: ['tools', 'panels', 'tool_cancel'], tools: [{ name: 'ask', interactive: true, behaviour: 'cancellable' }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [ext], { ui });
  const src = new CancellationTokenSource();
  const call = host.runToolCall('ask', {}, { token: src.token });
  await waitFor('call delivered', () => host.received('asker2', 'tool_call').length);
  // No tool_call_id: bound to the extension's interactive call in flight.
  const rt = host.get('asker2');
  assert.ok(rt);
  await host.openPanel(rt, { id: 'q2', lines: ['a'] });
  src.cancel();
  assert.equal((await call).outcome, 'canceled');
  await waitFor('UI closed', () => ui.of('closePanel').length === 1);
  await waitFor('extension told', () => host.received('asker2', 'panel_close').length === 1);
  assert.equal(host.openPanels.length, 0);
});

test('without tool_call_id a panel is bound to the newest interactive call that has no panel yet', async (t) => {
  const ext = makeExt(tmpdir(), 'asker3', { caps: ['tools', 'panels', 'tool_cancel'], tools: [{ name: 'ask', interactive: true, behaviour: 'cancellable' }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [ext], { ui });
  const first = new CancellationTokenSource();
  const second = new CancellationTokenSource();
  const call1 = host.runToolCall('ask', { n: 1 }, { token: first.token });
  await waitFor('first delivered', () => host.received('asker3', 'tool_call').length === 1);
  const call2 = host.runToolCall('ask', { n: 2 }, { token: second.token });
  await waitFor('second delivered', () => host.received('asker3', 'tool_call').length === 2);
  const rt = host.get('asker3');
  assert.ok(rt);
  await host.openPanel(rt, { id: 'for-newest', lines: ['a'] });
  await host.openPanel(rt, { id: 'for-older', lines: ['b'] });
  second.cancel();
  assert.equal((await call2).outcome, 'canceled');
  await waitFor('its panel closed', () => host.received('asker3', 'panel_close').length === 1);
  assert.deepEqual(host.received('asker3', 'panel_close').map((f) => f.panel_id), ['for-newest']);
  assert.deepEqual(host.openPanels.map((p) => p.id), ['for-older']);
  first.cancel();
  assert.equal((await call1).outcome, 'canceled');
  await waitFor('the other closed', () => host.openPanels.length === 0);
});

test('without tool_call_id a panel is not bound to a call of a tool that is not interactive: it outlives the call', async (t) => {
  const ext = makeExt(tmpdir(), 'asker4', { caps: ['tools', 'panels', 'tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable' }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [ext], { ui });
  const src = new CancellationTokenSource();
  const call = host.runToolCall('work', {}, { token: src.token });
  await waitFor('call delivered', () => host.received('asker4', 'tool_call').length === 1);
  const rt = host.get('asker4');
  assert.ok(rt);
  await host.openPanel(rt, { id: 'status', lines: ['a'] });
  assert.equal(ui.of('openPanel')[0].args[1].forToolCall, false, 'a panel of its own, not the call\'s');
  src.cancel();
  assert.equal((await call).outcome, 'canceled');
  await waitFor('the cancel delivered', () => host.received('asker4', 'tool_cancel').length === 1);
  await sleep(100);
  assert.deepEqual(host.openPanels.map((p) => p.id), ['status']);
  assert.deepEqual(host.received('asker4', 'panel_close'), []);
});

test('a UI handler that blocks never stops replies from being read', async (t) => {
  let release = /** @type {((value: void) => void) | undefined} */ (undefined);
  const ui = new RecordingUI({ notify: () => new Promise((r) => (release = r)) });
  const dir = makeExt(tmpdir(), 'blocky', { tools: [{ name: 'echo' }], commands: [{ name: 'n', reply: { action: 'noop' }, after: [{ type: 'notify', message: 'blocks the UI queue' }, { type: 'submit', text: 'queued behind it' }] }] });
  const host = await startHost(t, [dir], { ui });
  await host.invokeCommand('n', '');
  await waitFor('handler blocked', () => release);
  assert.ok(release);
  const o = await host.runToolCall('echo', { while: 'blocked' });
  assert.equal(o.outcome, 'completed');
  assert.equal(ui.of('submit').length, 0, 'later UI frames wait their turn');
  release();
  await waitFor('queue drained', () => ui.of('submit').length === 1);
});

test('a submit_slash whose command does not complete is said, as an error note of the extension that asked', async (t) => {
  const dir = makeExt(tmpdir(), 'asker', { commands: [{ name: 'go', reply: { action: 'noop' }, after: [{ type: 'submit_slash', text: '/stuck now' }] }, { name: 'stuck', hang: true }] });
  const ui = new RecordingUI();
  const host = await startHost(t, [dir], { ui, timing: { commandTimeoutMs: 300 } });
  await host.invokeCommand('go', '');
  const note = await waitFor('the error note', () => ui.of('notify').find((c) => c.args[1] === 'error'), 5000);
  assert.deepEqual(note.args, ['asker', 'error', '/stuck: timed out after 300 ms; the command may still finish in the extension']);
});
