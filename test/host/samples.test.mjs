// The shipped samples, through the host, with a UI that records what it is asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { firstText, lib, RecordingUI, ROOT, startHost, tmpdir, waitFor } from '../helpers.mjs';

const { CancellationTokenSource } = lib;

/**
 * A private copy of a sample, so the test never writes into the repository.
 * @param {string} name
 */
function sample(name) {
  const dir = path.join(tmpdir(), name);
  fs.cpSync(path.join(ROOT, 'samples', name), dir, { recursive: true });
  return dir;
}

test('ask_user: the spontaneous open_panel is bound to its call; keys choose; the answer completes the call', async (t) => {
  const ui = new RecordingUI();
  const host = await startHost(t, [sample('ask-user')], { ui });
  assert.equal(host.findTool('ask_user')?.interactive, true);
  const call = host.runToolCall('ask_user', { question: 'Which database?', choices: ['Postgres', 'SQLite'] });
  const [, opened] = (await waitFor('panel', () => ui.of('openPanel')[0])).args;
  assert.equal(opened.title, 'Which database?');
  assert.equal(opened.forToolCall, true);
  assert.deepEqual(opened.lines, ['› Postgres', '  SQLite']);
  ui.panel(opened.uid).key('down');
  await waitFor('render', () => ui.of('renderPanel').length === 1);
  assert.deepEqual(ui.of('renderPanel')[0].args[1].lines, ['  Postgres', '› SQLite']);
  ui.panel(opened.uid).key('enter');
  const o = await call;
  assert.equal(o.outcome, 'completed');
  assert.equal(firstText(o), 'User chose: SQLite');
  await waitFor('the extension closed its panel', () => ui.of('closePanel').length === 1);
  assert.equal(host.openPanels.length, 0);
});

test('ask_user: dismissing the panel cancels the call; the extension gets tool_cancel and sends no result', async (t) => {
  const ui = new RecordingUI();
  const host = await startHost(t, [sample('ask-user')], { ui });
  const call = host.runToolCall('ask_user', { question: 'Sure?', choices: ['yes', 'no'] });
  const [key] = (await waitFor('panel', () => ui.of('openPanel')[0])).args;
  ui.panel(key).dismiss();
  const o = await call;
  assert.equal(o.outcome, 'canceled');
  assert.equal(o.message, 'canceled; the extension was told to stop');
  assert.equal(host.get('ask-user')?.lateReplies, 0);
});

test('ask_user: Stop elsewhere closes the panel in the UI; concurrent questions each get their own panel', async (t) => {
  const ui = new RecordingUI();
  const host = await startHost(t, [sample('ask-user')], { ui });
  const src = new CancellationTokenSource();
  const first = host.runToolCall('ask_user', { question: 'One?', choices: ['a'] }, { token: src.token });
  await waitFor('first panel', () => ui.of('openPanel').length === 1);
  const second = host.runToolCall('ask_user', { question: 'Two?', choices: ['b', 'c'] });
  await waitFor('second panel', () => ui.of('openPanel').length === 2);
  const [p1, p2] = ui.of('openPanel').map((c) => c.args[1]);
  assert.notEqual(p1.id, p2.id);
  src.cancel();
  assert.equal((await first).outcome, 'canceled');
  await waitFor('first panel closed', () => ui.of('closePanel').some((c) => c.args[0] === p1.uid));
  ui.panel(p2.uid).key('enter');
  assert.equal(firstText((await second)), 'User chose: b');
});

test('todo: data lives in data_dir, adds are notified as success, the panel toggles with x', async (t) => {
  const ui = new RecordingUI();
  const dir = sample('todo');
  const host = await startHost(t, [dir], { ui });
  assert.equal((await host.runToolCall('todo_add', { text: 'buy milk' })).outcome, 'completed');
  await waitFor('notify', () => ui.of('notify').length === 1);
  assert.deepEqual(ui.of('notify')[0].args.slice(1), ['success', 'Added "buy milk"']);
  /** @type {{ items: { text: string }[] }} */
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'todos.json'), 'utf8'));
  assert.equal(saved.items.at(-1)?.text, 'buy milk');
  await host.runCommand('todo', '');
  const [key, panel] = ui.of('openPanel')[0].args;
  assert.equal(panel.id, 'todos-main');
  ui.panel(key).key('rune', 'x');
  await waitFor('toggled', () => ui.of('renderPanel').length >= 1);
  const listed = await host.runToolCall('todo_list', {});
  assert.equal(listed.outcome, 'completed');
});

test('a polite extension is stopped with shutdown, answers shutdown_ack and exits without signals', async (t) => {
  const host = await startHost(t, [sample('todo')]);
  const rt = host.get('todo');
  assert.ok(rt);
  await host.stopExtension('todo');
  const log = fs.readFileSync(rt.logPath, 'utf8');
  assert.match(log, /exited with code 0/);
  assert.doesNotMatch(log, /did not exit within|SIGTERM|SIGKILL/, 'no step of the ladder past shutdown was needed');
});
