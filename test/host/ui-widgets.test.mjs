// terva's panel widgets through the host, with a real extension process: the
// tree reaches every UI through the port, an action goes back as panel_key
// with the action's id as the key (docs/TERVA.md 17.7), and a render replaces it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib, makeExt, RecordingUI, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** The panel of terva's example: a heading, a meter, a list with an action, a button. */
const LEDGER = {
  id: 'ledger', title: 'Ledger', lines: ['March: 9 of 12 accounts reconciled'], footer: 'enter select · esc close',
  widgets: [
    { type: 'heading', text: 'March close', level: 1 },
    { type: 'meter', label: 'reconciled', value: 9, max: 12, unit: 'accounts' },
    { type: 'list', items: [{ text: '4020 office supplies', note: 'off by 0.03', tone: 'danger', action_id: 'open-4020' }, { text: '4030 travel', tone: 'ok' }] },
    { type: 'chart', series: [1, 2, 3] },
    { type: 'group', children: [{ type: 'action', text: 'Reconcile again', action_id: 'reconcile' }] },
  ],
};
const AFTER_RECONCILE = [{ type: 'meter', label: 'reconciled', value: 12, max: 12, unit: 'accounts' }, { type: 'action', text: 'Export CSV', action_id: 'export-csv' }];

function ledgerExt(extra = {}) {
  return makeExt(tmpdir(), 'ledger', {
    caps: ['commands', 'panels'],
    echoPanel: true,
    commands: [
      { name: 'open', reply: { action: 'open_panel', open_panel: LEDGER } },
      { name: 'broken', reply: { action: 'noop' }, after: [{ type: 'panel_render', panel_id: 'ledger', lines: ['x'], widgets: [{ type: 'meter', value: 'nine' }] }] },
    ],
    onPanelKey: {
      reconcile: { type: 'panel_render', lines: ['March: 12 of 12 accounts reconciled'], widgets: AFTER_RECONCILE },
      'export-csv': { type: 'panel_render', lines: ['exported'] },
    },
    ...extra,
  });
}

test('widgets reach the UI validated; an action goes back as panel_key with its id as the key and no text; the render that answers replaces the tree', async (t) => {
  const ui = new RecordingUI();
  const host = await startHost(t, [ledgerExt()], { ui });
  await host.runCommand('open', '');
  const opened = ui.of('openPanel')[0].args[1];
  assert.deepEqual(opened.lines, LEDGER.lines, 'lines stay, for the UIs that show them');
  assert.deepEqual(opened.widgets, LEDGER.widgets.filter((w) => w.type !== 'chart'), 'the unknown node is skipped, the rest as sent');
  const handle = ui.panel(opened.uid);

  handle.action('reconcile');
  await waitFor('the render that answers the action', () => ui.of('renderPanel').length === 1);
  assert.deepEqual(host.received('ledger', 'panel_key'), [{ type: 'panel_key', panel_id: 'ledger', key: 'reconcile' }], 'as terva 17.7: key = action_id, no text');
  const rendered = ui.of('renderPanel')[0].args[1];
  assert.deepEqual([rendered.lines, rendered.widgets], [['March: 12 of 12 accounts reconciled'], AFTER_RECONCILE]);
  assert.equal(rendered.title, 'Ledger', 'a render without a title keeps it, widgets or not');

  // 'reconcile' is no longer offered: a click on the old render is not sent. Ids never offered are not either.
  handle.action('reconcile');
  handle.action('enter');
  handle.action('open-4020');
  handle.action('export-csv');
  await waitFor('the render without widgets', () => ui.of('renderPanel').length === 2);
  assert.deepEqual(host.received('ledger', 'panel_key').map((f) => f.key), ['reconcile', 'export-csv']);
  const plain = ui.of('renderPanel')[1].args[1];
  assert.deepEqual([plain.lines, plain.widgets], [['exported'], []], 'a render without widgets has none, as lines are replaced');

  // Keys still go as keys, beside the actions.
  handle.key('down');
  await waitFor('the echo of the key', () => ui.of('renderPanel').length === 3);
  assert.deepEqual(host.received('ledger', 'panel_key').at(-1), { type: 'panel_key', panel_id: 'ledger', key: 'down' });
  handle.dismiss();
  handle.action('export-csv');
  await waitFor('panel_close', () => host.received('ledger', 'panel_close').length === 1);
  assert.equal(host.received('ledger', 'panel_key').length, 3, 'nothing after the panel closed');
});

test('a render whose widgets are malformed is refused with a problem naming the node; the panel keeps what it showed', async (t) => {
  const ui = new RecordingUI();
  const host = await startHost(t, [ledgerExt()], { ui });
  await host.runCommand('open', '');
  await host.runCommand('broken', '');
  await waitFor('the problem', () => host.get('ledger')?.problems.some((p) => /widgets/.test(p.message)));
  assert.match(host.get('ledger')?.problems.map((p) => p.message).join('\n') ?? '', /"panel_render" frame: field "widgets" item 0 \("meter"\): "value" must be a finite number, got string "nine"/);
  assert.equal(ui.of('renderPanel').length, 0);
  assert.equal(host.openPanels[0].widgets.length, 4, 'the tree it had');
});

test('a UI that shows text gets the widgets as text lines, actions marked', async (t) => {
  /** @type {string[]} */
  const report = [];
  const host = await startHost(t, [ledgerExt()], { ui: new lib.HeadlessUI((l) => report.push(l)) });
  await host.runCommand('open', '');
  await waitFor('the panel reported', () => report.some((l) => l.includes('opened panel')));
  const text = report.find((l) => l.includes('opened panel'));
  assert.ok(text);
  assert.deepEqual(text.split('\n').slice(1), [
    '── Ledger ──',
    '# March close',
    'reconciled  [███████████████░░░░░]  9 / 12 accounts',
    '• ✗ 4020 office supplies — off by 0.03 ↵',
    '• ✓ 4030 travel',
    '  [ Reconcile again ]',
    '(enter select · esc close)',
  ]);
});
