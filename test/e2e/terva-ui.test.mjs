// terva's panel widgets and withdrawn tools in a real VS Code (code-server +
// headless Chromium, see /work/shared/VSCODE-TESTING.md), with the frames of
// test/fixtures/terva/examples.jsonl sent by the scriptable fixture
// (test/fixtures/node/behave.js), which logs every line it reads as
// `RECV <json>` to its log in $ZOT_HOME/logs.
//
// 1. Through the real UI, with Playwright: a command opens a panel whose
//    widgets the webview draws as elements, every string as text; pressing an
//    action sends panel_key with its action_id and no text. A withdrawn tool
//    shows as withdrawn in the Zot view and leaves the Run Extension Tool
//    picker; shown again, it is back.
// 2. In the extension host (test/e2e/terva-ui/suite.cjs): the same withdrawal
//    read through the test API (tools, tree items), the MCP server's tool list
//    and definition version, and a call to the withdrawn tool refused.
// Both in one window (a window costs seconds): the suite runs once the UI part
// ended, which it learns from the file $ZOT_E2E_UI_DONE.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkInnerSuite, uiFirst } from './innerSuite.mjs';
import { testBundleVsix } from './vsix.mjs';
import { runFromPalette } from './workbenchUi.mjs';
import { BEHAVE, TERVA_EXAMPLES, waitFor } from '../helpers.mjs';

/** @typedef {import('../../out/types/protocol/frames.js').FrameFromHost} FrameFromHost */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const NAME = 'ledger';
/** An extension string that would be an element if the webview ever parsed it as HTML. */
const MARKUP = '<img src=x onerror="document.title=\'pwned\'">';

/** @type {string} */
let scratch;
/** @type {string} */
let vsix;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-terva-ui-'));
  // The test bundle: the suite reads the UI through its test API; the UI is the one users get.
  vsix = await testBundleVsix(scratch);
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const example = (/** @type {string} */ name) => {
  const e = TERVA_EXAMPLES.find((x) => x.name === name);
  assert.ok(e, `example "${name}" in test/fixtures/terva/examples.jsonl`);
  return structuredClone(e.frame);
};

/** The render of every widget kind, with extension markup in a paragraph and a table cell. */
function renderWithMarkup() {
  const render = /** @type {import('../helpers.mjs').JsonFrame & import('../../out/types/protocol/frames.js').PanelRenderFromExt} */ (example('panel_render every widget kind'));
  assert.ok(render.widgets, 'the example has widgets');
  render.widgets.splice(1, 0, { type: 'text', text: MARKUP });
  const table = render.widgets.find((w) => w.type === 'table');
  assert.ok(table, 'the example has a table');
  table.cells.push(['<script>document.title="pwned"</script>', '0.00', '<b>0.00</b>']);
  return render;
}

/**
 * A zot home with one extension, `ledger`: two tools, a command `/ledger` that
 * answers with terva's open_panel example and then renders every widget kind,
 * and the commands `/withdraw` and `/restore` that send terva's
 * set_withdrawn_tools examples (withdraw `invoice_send` and a name it does not
 * own; show all again).
 * @param {string} name
 */
function stage(name) {
  const root = path.join(scratch, name);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(path.join(home, 'extensions', NAME), { recursive: true });
  const { id: _id, type: _type, ...opening } = example('command_response open_panel with widgets');
  const cfg = {
    name: NAME,
    caps: ['commands', 'tools', 'panels'],
    tools: [
      { name: 'invoice_send', description: 'sends an invoice to a customer' },
      { name: 'ledger_read', description: 'reads the ledger' },
    ],
    commands: [
      { name: 'ledger', description: 'the ledger panel', reply: opening, after: [renderWithMarkup()] },
      { name: 'withdraw', description: 'withdraws invoice_send', reply: { action: 'noop' }, after: [example('set_withdrawn_tools some')] },
      { name: 'restore', description: 'offers every tool again', reply: { action: 'noop' }, after: [example('set_withdrawn_tools restore')] },
    ],
  };
  writeFileSync(path.join(home, 'extensions', NAME, 'extension.json'), JSON.stringify({ name: NAME, version: '1.0.0', exec: 'node', args: [BEHAVE, JSON.stringify(cfg)] }));
  return { root, home, workspace };
}

/**
 * The frames the extension read, from its log; of one type, when given.
 * @template {FrameFromHost['type']} T
 * @param {string} home
 * @param {T} [type]
 * @returns {Extract<FrameFromHost, { type: T }>[]}
 */
function received(home, type) {
  const file = path.join(home, 'logs', `ext-${NAME}.log`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('RECV ')).map((l) => JSON.parse(l.slice(5))).filter((f) => !type || f.type === type);
}

/**
 * The real UI, driven with Playwright on the window the extension-host suite runs in.
 * @param {import('node:test').TestContext} t
 * @param {import('playwright-core').Page} page
 * @param {ReturnType<typeof stage>} s
 */
async function driveUi(t, page, s) {
  await page.locator('.statusbar-item').filter({ hasText: 'Zot' }).first().waitFor({ timeout: 30_000 });
  /** @type {(command: string, pick?: { title: string, item: string }) => Promise<void>} */
  const palette = (command, pick) => runFromPalette(page, command, pick);
  const runCommand = async (/** @type {string} */ name) => {
    await palette('Zot: Run Extension Command', { title: 'Run Zot Extension Command', item: `/${name}` });
    await page.locator('.quick-input-widget input[placeholder="arguments (optional)"]').waitFor();
    await page.keyboard.press('Enter');
    await waitFor(`/${name} to reach the extension`, () => received(s.home, 'command_invoked').some((f) => f.name === name), 15_000);
  };

  // The panel: opened with a note, then rendered with every widget kind.
  await runCommand('ledger');
  const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  const widgets = webview.locator('#widgets');
  await widgets.locator('button', { hasText: 'Reconcile again' }).waitFor({ timeout: 30_000 });
  assert.equal(await webview.locator('#title').textContent(), 'Ledger · March');
  assert.equal(await webview.locator('#lines').isVisible(), false, 'the widgets show instead of the lines');
  assert.equal(await widgets.locator('h2.w-heading').textContent(), 'March close', 'a level-1 heading comes under the panel title');
  assert.equal(await widgets.locator('.w-meter-label').textContent(), 'reconciled');
  assert.equal(await widgets.locator('.w-meter-numbers').textContent(), '9 / 12 accounts', 'the meter\'s numbers as text');
  assert.equal(await widgets.locator('[role="meter"]').getAttribute('aria-valuenow'), '9');
  assert.deepEqual(await widgets.locator('dl.w-kv dt').allTextContents(), ['ledger file', 'difference']);
  assert.deepEqual(await widgets.locator('table.w-table th').allTextContents(), ['account', 'ledger', 'bank']);
  assert.deepEqual(await widgets.locator('table.w-table tbody tr').first().locator('td').allTextContents(), ['4010', '1200.00', '1200.00']);
  assert.deepEqual(await widgets.locator('ul.w-list li .w-item-text').allTextContents(), ['4020 office supplies', '4030 travel']);
  assert.equal(await widgets.locator('ul.w-list li button').count(), 1, 'only the item with an action_id is a button');
  assert.equal(await widgets.locator('.w-group .w-note').textContent(), 'Export stays read-only until March is closed.');
  assert.equal(await widgets.locator('hr.w-divider').count(), 1);
  assert.deepEqual(await widgets.locator('button').evaluateAll((bs) => bs.map((b) => b.dataset.action)), ['open-4020', 'export-csv', 'reconcile']);

  // Extension strings are text: the markup shows as written and makes no element.
  assert.equal(await widgets.locator('p.w-text').first().textContent(), MARKUP);
  assert.equal(await widgets.locator('table.w-table tbody tr').nth(2).locator('td').first().textContent(), '<script>document.title="pwned"</script>');
  assert.equal(await widgets.locator('table.w-table tbody tr').nth(2).locator('td').nth(2).textContent(), '<b>0.00</b>');
  assert.equal(await widgets.locator('img, script, b').count(), 0, 'no element made from extension text');
  await page.screenshot({ path: path.join(os.tmpdir(), 'zot-e2e-terva-ui-widgets.png') });

  // Pressing an action (a button, a list item, one in a group) sends panel_key with its id and no text.
  await widgets.locator('button', { hasText: 'Reconcile again' }).click();
  await widgets.locator('ul.w-list button', { hasText: '4020 office supplies' }).click();
  await widgets.locator('.w-group button', { hasText: 'Export CSV' }).click();
  const keys = await waitFor('three panel_key frames', () => {
    const k = received(s.home, 'panel_key');
    return k.length >= 3 && k;
  }, 15_000);
  assert.deepEqual(keys, [
    { type: 'panel_key', panel_id: 'ledger-status', key: 'reconcile' },
    { type: 'panel_key', panel_id: 'ledger-status', key: 'open-4020' },
    { type: 'panel_key', panel_id: 'ledger-status', key: 'export-csv' },
  ]);
  t.diagnostic('widgets drawn as elements, markup as text, actions sent as panel_key');
  await page.keyboard.press('Escape');
  await waitFor('panel_close', () => received(s.home, 'panel_close').length === 1, 15_000);

  // The Zot view: the extension's tools, one withdrawn by it.
  await runCommand('withdraw');
  await page.locator('.activitybar [aria-label^="Zot"]').first().click();
  const viewRow = (/** @type {string} */ label) => page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
  await waitFor('the tools under ledger', async () => {
    const item = viewRow(NAME);
    if ((await item.getAttribute('aria-expanded')) === 'false') await item.locator('.monaco-tl-twistie').click();
    return viewRow('invoice_send').isVisible();
  }, 30_000, 200);
  await waitFor('invoice_send shown withdrawn', async () => /\(withdrawn by its extension\) sends an invoice/.test((await viewRow('invoice_send').locator('.label-description').textContent()) ?? ''), 15_000, 200);
  assert.equal(await viewRow('ledger_read').locator('.label-description').textContent(), 'reads the ledger');
  await page.screenshot({ path: path.join(os.tmpdir(), 'zot-e2e-terva-ui-withdrawn.png') });

  // The picker of Run Extension Tool offers only what is offered.
  const pickerRows = async () => {
    await palette('Zot: Run Extension Tool');
    const picker = page.locator('.quick-input-widget').filter({ hasText: 'Run Extension Tool' });
    await picker.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'ledger_read' }).first().waitFor({ timeout: 15_000 });
    const rows = await picker.locator('.quick-input-list .monaco-list-row').allTextContents();
    await page.keyboard.press('Escape');
    return rows;
  };
  const offers = (/** @type {string[]} */ rows, /** @type {string} */ tool) => rows.some((r) => r.includes(tool));
  const whileWithdrawn = await pickerRows();
  assert.ok(offers(whileWithdrawn, 'ledger_read'), whileWithdrawn.join(' | '));
  assert.ok(!offers(whileWithdrawn, 'invoice_send'), `the withdrawn tool is offered: ${whileWithdrawn.join(' | ')}`);

  // Shown again: back in the picker, and plain in the view.
  await runCommand('restore');
  await waitFor('invoice_send shown plainly', async () => (await viewRow('invoice_send').locator('.label-description').textContent()) === 'sends an invoice to a customer', 15_000, 200);
  const restored = await pickerRows();
  assert.ok(offers(restored, 'invoice_send') && offers(restored, 'ledger_read'), restored.join(' | '));
  assert.deepEqual(received(s.home, 'tool_call'), [], 'no tool ran');
}

describe('terva\'s widgets and withdrawn tools in VS Code', { concurrency: false }, () => {
  // One window for both: the real UI first (its checks a subtest), while the suite waits for it; then the suite.
  test('the real UI, then the extension host: a widget panel, its actions; a withdrawn tool in the view, the picker, the test API, the MCP list', { timeout: 420_000 }, async (t) => {
    const s = stage('window');
    const ui = uiFirst(t, {
      name: 'the real UI: a widget panel drawn as elements, its actions sent as panel_key; a withdrawn tool in the Zot view and the tool picker',
      scratch: s.root,
      shot: 'terva-ui',
      drive: (sub, page) => driveUi(sub, page, s),
    });
    await checkInnerSuite(t, {
      vsixPaths: [vsix],
      env: { ZOT_HOME: s.home, ZOT_E2E_REPO: repoRoot, ...ui.env },
      settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'zot.panels.style': 'webview' },
      results: path.join(s.root, 'results.json'),
      folder: s.workspace,
      testsEntry: path.join(here, 'terva-ui', 'suite.cjs'),
      timeoutMs: 360_000,
      onPage: ui.onPage,
    });
  });
});
