// Chat, MCP and panels in a real VS Code (code-server + headless Chromium),
// with the extension installed from its VSIX and a scripted fake language
// model (test/e2e/fake-lm) installed beside it.
//
// 1. In the extension host (test/e2e/agent/suite.cjs): @zot calls zot tools,
//    an interceptor blocks one, an image reaches the model as data, Stop
//    cancels a hanging tool and an interactive tool's panel, the MCP server
//    definition works with its bearer token and cancellation.
// 2. Through the real UI, with Playwright: keys typed into a webview panel
//    reach the extension as panel_key frames and its re-render shows; markup
//    in lines stays text; Esc closes it. A panel serving an interactive tool
//    call is a QuickPick: moving, accepting and dismissing it produce the
//    right frames, and dismissing cancels the call with tool_cancel. A tool
//    run from the palette shows a progress notification whose Cancel cancels it.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openWorkbench, startCodeServer } from './harness.mjs';
import { checkInnerSuite } from './innerSuite.mjs';
import { closeWorkbench, failureScreenshot, findNotification, panelFrame, runFromPalette, seriousViolations } from './workbenchUi.mjs';
import { waitFor } from '../helpers.mjs';
import { agentVsixes, frames, stageAgentFixtures } from './agentFixtures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
// The README's screenshots are refreshed by `npm run screenshots`; other runs keep theirs in a temp folder.
const SCREENSHOTS = process.env.ZOT_UPDATE_SCREENSHOTS ? path.join(repoRoot, 'media', 'screenshots') : path.join(os.tmpdir(), 'zot-e2e-screenshots');

/** @type {string} */
let scratch;
/**
 * The suite reads the UI through the test bundle's API; the real-UI test runs the VSIX users get.
 * @type {string[]}
 */
let testVsixPaths;
/** @type {string[]} */
let vsixPaths;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-agent-'));
  ({ test: testVsixPaths, user: vsixPaths } = await agentVsixes(scratch));
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const stage = (/** @type {string} */ name) => stageAgentFixtures(scratch, name);

/**
 * Waits for a notification with that text, then puts the notification center away.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function notification(page, text) {
  await findNotification(page, text);
  await page.keyboard.press('Escape');
}


describe('chat, MCP and panels in VS Code', { concurrency: false }, () => {
  test('@zot with zot tools, intercepts, images and Stop; the MCP definition with its token and cancellation', { timeout: 300_000 }, async (t) => {
    const s = await stage('agent');
    const results = path.join(s.root, 'results.json');
    await checkInnerSuite(t, {
      vsixPaths: testVsixPaths,
      env: { ZOT_HOME: s.home, ZOT_E2E_REPO: repoRoot },
      results,
      folder: s.workspace,
      testsEntry: path.join(here, 'agent', 'suite.cjs'),
      timeoutMs: 240_000,
    });
  });

  test('panels through the real UI: a webview takes keys and shows markup as text; a QuickPick serves an interactive call', { timeout: 300_000 }, async (t) => {
    const s = await stage('panels');
    await mkdir(SCREENSHOTS, { recursive: true });
    const server = await startCodeServer({
      vsixPaths,
      env: { ZOT_HOME: s.home },
      settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
    });
    let session;
    try {
      session = await openWorkbench({ server, folder: s.workspace, trusted: true });
      const { page } = session;
      // The extension is up once its status bar item shows.
      await page.locator('.statusbar-item').filter({ hasText: 'Zot' }).first().waitFor({ timeout: 30_000 });
      /** @type {(command: string, pick?: { title: string, item: string }) => Promise<void>} */
      const palette = (command, pick) => runFromPalette(page, command, pick);

      // A command's panel opens as a webview in the editor area.
      await palette('Zot: Run Extension Command', { title: 'Run Zot Extension Command', item: '/show-panel' });
      await page.locator('.quick-input-widget input[placeholder="arguments (optional)"]').waitFor();
      await page.keyboard.press('Enter');
      const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      const lines = webview.locator('#lines');
      await lines.locator('.line').first().waitFor({ timeout: 30_000 });
      await waitFor('the size report', () => frames(s.home, 'panels', 'panel_resize').length > 0);
      const [size] = frames(s.home, 'panels', 'panel_resize');
      assert.ok(size.width > 20 && size.height > 5, `columns and rows from font metrics: ${JSON.stringify(size)}`);

      // Markup in lines and title is text, never HTML.
      assert.equal(await lines.locator('script, img').count(), 0, 'no element made from extension text');
      assert.equal(await lines.locator('.line').first().textContent(), '<script>document.title="pwned"</script>');
      assert.equal(await lines.locator('.line').nth(1).textContent(), '<img src=x onerror="document.title=\'pwned\'">');
      assert.equal(await webview.locator('#title').textContent(), 'Markup <b>stays</b> text');
      assert.equal(await lines.locator('.line').nth(2).textContent(), '┌──────┐');

      // Keys typed into the focused webview reach the extension by zot's names (the README lists
      // exactly these); its re-render shows in place.
      await lines.click();
      const named = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', Enter: 'enter', Tab: 'tab', PageUp: 'pageup', PageDown: 'pagedown', Home: 'home', End: 'end', Backspace: 'backspace', Delete: 'delete' };
      for (const key of Object.keys(named)) await page.keyboard.press(key);
      await page.keyboard.press('Shift+ArrowDown'); // Shift is not told apart
      await page.keyboard.type('q');
      await page.keyboard.press('Shift+KeyQ');
      // Ctrl, Alt and Cmd with a named key, and Ctrl with a character, stay VS Code's shortcuts.
      for (const combo of ['Control+ArrowDown', 'Alt+ArrowUp', 'Meta+ArrowLeft', 'Control+Home', 'Control+KeyU']) await page.keyboard.press(combo);
      await page.keyboard.type('x');
      await lines.locator('.line', { hasText: 'key rune x' }).waitFor({ timeout: 10_000 });
      // A screen reader hears the line a render added, politely.
      assert.equal(await webview.locator('#announce[aria-live="polite"]').textContent(), 'key rune x');
      // Key frames only: this panel has no widget actions.
      const keyFrames = /** @type {import('../../out/types/protocol/frames.js').PanelKeyFromHost[]} */ (frames(s.home, 'panels', 'panel_key'));
      const keys = keyFrames.map((f) => (f.key === 'rune' ? `rune:${f.text}` : f.key));
      assert.deepEqual(keys, [...Object.values(named), 'down', 'rune:q', 'rune:Q', 'rune:x']);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-webview.png') });

      // Esc closes it and tells the extension with panel_close, not as a key.
      await page.keyboard.press('Escape');
      await waitFor('panel_close', () => frames(s.home, 'panels', 'panel_close').length === 1);
      assert.ok(!frames(s.home, 'panels', 'panel_key').some((f) => f.key === 'esc'), 'Esc is not forwarded');
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached', timeout: 10_000 });

      // An arrow key that moves a marked cursor shows at once, before the extension's render; the render settles it.
      const openList = async (/** @type {string} */ args) => {
        await palette('Zot: Run Extension Command', { title: 'Run Zot Extension Command', item: '/cursor-list' });
        await page.locator('.quick-input-widget input[placeholder="arguments (optional)"]').waitFor();
        if (args) await page.keyboard.type(args);
        await page.keyboard.press('Enter');
        const list = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame').locator('#lines');
        await list.locator('.line.current', { hasText: '› one' }).waitFor({ timeout: 30_000 });
        await list.click();
        return list;
      };
      /**
       * The rows as shown: `*` where the highlight is, then the extension's text.
       * @param {import('playwright-core').Locator} list
       */
      const rowsOf = (list) => list.locator('.line').evaluateAll((els) => els.map((e) => `${e.classList.contains('current') ? '*' : '-'}${e.textContent}`));
      const cursorKeys = () => frames(s.home, 'panels', 'panel_key').filter((f) => f.panel_id === 'cursor').length;
      const list = await openList('');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      // Read at once, in one look (a guess the extension does not answer within a second is taken back).
      const held = await list.evaluate((el) => ({
        rows: [...el.children].map((e) => `${e.classList.contains('current') ? '*' : '-'}${e.textContent}`),
        options: [...el.children].map((e) => `${e.getAttribute('role')}:${e.getAttribute('aria-selected')}`),
        role: el.getAttribute('role'),
        label: el.getAttribute('aria-label'),
        active: el.getAttribute('aria-activedescendant'),
        current: el.querySelector('.line.current')?.id,
      }));
      // Its renders are held: the highlight moved two lines, the extension's marks did not.
      assert.deepEqual(held.rows, ['-› one', '-  two', '*  three', '-  four', '-  five', '-  six']);
      // A listbox of options for a screen reader: the highlighted line is the selected one and the active descendant.
      assert.equal(held.role, 'listbox');
      assert.equal(held.label, 'A list');
      assert.deepEqual(held.options, ['option:false', 'option:false', 'option:true', 'option:false', 'option:false', 'option:false']);
      assert.equal(held.active, held.current);
      await waitFor('both keys at the extension', () => cursorKeys() === 2);
      // axe-core in the open panel: no serious or critical violation.
      assert.deepEqual(await seriousViolations(await panelFrame(page)), [], 'axe-core: serious or critical violations in the panel');
      writeFileSync(path.join(s.home, 'release-render'), '');
      await list.locator('.line.current', { hasText: '› three' }).waitFor({ timeout: 10_000 });
      assert.deepEqual(await rowsOf(list), ['-  one', '-  two', '*› three', '-  four', '-  five', '-  six']);
      await page.keyboard.press('Escape');
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached', timeout: 10_000 });
      // A move off the first line of a list not known to wrap is not guessed.
      const atEdge = async (/** @type {import('playwright-core').Locator} */ l) => (await rowsOf(l)).findIndex((r) => r.startsWith('*'));
      const stops = await openList('');
      await page.keyboard.press('ArrowUp');
      assert.equal(await atEdge(stops), 0);
      await waitFor('the key at the extension', () => cursorKeys() === 3);
      await page.keyboard.press('Escape');
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached', timeout: 10_000 });
      // A list that wraps: the first move off an edge waits for the render; once it showed the wrap, the next one is guessed.
      const wrapping = await openList('wrap');
      await page.keyboard.press('ArrowUp');
      assert.equal(await atEdge(wrapping), 0, 'the first move off an edge is not guessed');
      await waitFor('the key at the extension', () => cursorKeys() === 4);
      writeFileSync(path.join(s.home, 'release-render'), '');
      await wrapping.locator('.line.current', { hasText: '› six' }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('ArrowDown');
      assert.deepEqual(await rowsOf(wrapping), ['*  one', '-  two', '-  three', '-  four', '-  five', '-› six'], 'the wrap is guessed, the render held');
      await waitFor('the key at the extension', () => cursorKeys() === 5);
      writeFileSync(path.join(s.home, 'release-render'), '');
      await wrapping.locator('.line.current', { hasText: '› one' }).waitFor({ timeout: 10_000 });
      assert.deepEqual(await rowsOf(wrapping), ['*› one', '-  two', '-  three', '-  four', '-  five', '-  six']);
      await page.keyboard.press('Escape');
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached', timeout: 10_000 });
      // An extension that does not answer the key: the guess is taken back, the highlight returns to its cursor.
      const deaf = await openList('deaf');
      await page.keyboard.press('ArrowDown');
      await deaf.locator('.line.current', { hasText: 'two' }).waitFor({ timeout: 2_000 });
      await deaf.locator('.line.current', { hasText: '› one' }).waitFor({ timeout: 10_000 });
      assert.equal(cursorKeys(), 6, 'the key reached the extension');
      await page.keyboard.press('Escape');
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached', timeout: 10_000 });

      // An interactive tool run from the palette: its panel is a QuickPick bound to the call.
      await palette('Zot: Run Extension Tool', { title: 'Run Extension Tool', item: 'ask' });
      await page.locator('.quick-input-widget').filter({ hasText: 'ask — agent-ask' }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{"choices":["red","green","blue"]}');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').filter({ hasText: 'Choose' }).waitFor({ timeout: 20_000 });
      await page.keyboard.press('ArrowDown');
      await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: 'green' }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-quickpick.png') });
      await page.keyboard.press('Enter');
      await waitFor('down and enter reached the extension', () => frames(s.home, 'ask', 'panel_key').length >= 2, 15_000);
      assert.deepEqual(frames(s.home, 'ask', 'panel_key').map((f) => f.key), ['down', 'enter']);
      const first = frames(s.home, 'ask', 'tool_call')[0];
      await notification(page, 'ask: chose green');

      // Dismissing the bound panel cancels its call: tool_cancel with that call's id.
      await palette('Zot: Run Extension Tool', { title: 'Run Extension Tool', item: 'ask' });
      await page.locator('.quick-input-widget').filter({ hasText: 'ask — agent-ask' }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{"choices":["yes","no"]}');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').filter({ hasText: 'Choose' }).waitFor({ timeout: 20_000 });
      const second = await waitFor('the second call', () => frames(s.home, 'ask', 'tool_call').find((f) => f.id !== first.id));
      await page.keyboard.press('Escape');
      await waitFor('tool_cancel for the dismissed call', () => frames(s.home, 'ask', 'tool_cancel').some((f) => f.id === second.id), 15_000);
      assert.ok(frames(s.home, 'ask', 'panel_close').some((f) => f.panel_id === `ask-${second.id}`), 'the extension was told its panel closed');
      await notification(page, 'ask canceled by the user; the extension was told to stop');

      // The Quick Pick's close button sends the extension an esc key; this one answers by dismissing its question.
      await palette('Zot: Run Extension Tool', { title: 'Run Extension Tool', item: 'ask' });
      await page.locator('.quick-input-widget').filter({ hasText: 'ask — agent-ask' }).waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').filter({ hasText: 'Choose' }).waitFor({ timeout: 20_000 });
      await page.locator('.quick-input-widget [aria-label="Send Esc to the extension"]').first().click();
      await waitFor('esc reached the extension', () => frames(s.home, 'ask', 'panel_key').some((f) => f.key === 'esc'), 15_000);
      await notification(page, 'ask failed: the user dismissed the question');

      // A non-interactive tool from the palette runs under a progress notification whose Cancel cancels the call.
      await palette('Zot: Run Extension Tool', { title: 'Run Extension Tool', item: 'hang' });
      await page.locator('.quick-input-widget').filter({ hasText: 'hang — agent-tools' }).waitFor();
      await page.keyboard.press('Enter');
      const hangCall = await waitFor('the hang call delivered', () => frames(s.home, 'tools', 'tool_call').find((f) => f.name === 'hang'));
      const { item: progress } = await findNotification(page, 'Running hang');
      await progress.getByRole('button', { name: 'Cancel' }).click();
      await waitFor('tool_cancel from the progress Cancel', () => frames(s.home, 'tools', 'tool_cancel').some((f) => f.id === hangCall.id), 15_000);
      await notification(page, 'hang canceled by the user; the extension was told to stop');
      t.diagnostic('webview keys, markup as text, QuickPick navigation, accept and dismissal, progress Cancel verified');
    } catch (error) {
      await failureScreenshot(t, session, 'panels');
      throw error;
    } finally {
      await closeWorkbench(session, server);
    }
  });
});
