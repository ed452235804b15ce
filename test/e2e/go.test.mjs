// The Go fixture extension (test/fixtures/go, frames encoded as zot's Go SDK
// encodes them) in a real VS Code (code-server + headless Chromium), driven
// through the real UI with Playwright: installed as a global extension, its
// tool run from "Zot: Run Extension Tool", its list panel opened from
// "Zot: Run Extension Command" and emptied with a key. The render that
// empties it leaves out lines and footer (omitempty), and the webview shows
// no stale line; it is never sent panel_resize, which it would log as an
// unknown frame.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openWorkbench, startCodeServer } from './harness.mjs';
import { extensionVsix } from './vsix.mjs';
import { closeWorkbench, failureScreenshot, findNotification, runFromPalette } from './workbenchUi.mjs';
import { goFixture } from '../gofixture.mjs';
import { waitFor } from '../helpers.mjs';

const go = await goFixture();
/** @type {string} */
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-go-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** @typedef {import('../../out/types/protocol/frames.js').FrameFromHost} FrameFromHost */

/**
 * The lines the fixture logged for one kind of frame it received (`RECV <json>`).
 * @template {FrameFromHost['type']} T
 * @param {string} home
 * @param {T} type
 * @returns {Extract<FrameFromHost, { type: T }>[]}
 */
function received(home, type) {
  const file = path.join(home, 'logs', 'ext-gofix.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('RECV ')).map((l) => JSON.parse(l.slice(5))).filter((f) => f.type === type);
}

const logText = (/** @type {string} */ home) => {
  const file = path.join(home, 'logs', 'ext-gofix.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

/**
 * Waits for a notification with that text, its toast or (where toasts are not shown) its entry in the notification center.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function notification(page, text) {
  const { inCenter } = await findNotification(page, text, 5_000);
  if (inCenter) await page.keyboard.press('Escape');
}

describe('the Go fixture in VS Code', { skip: go.skip }, () => {
  test('a global Go extension: its tool from the palette, its panel emptied by a key shows no stale line', { timeout: 300_000 }, async (t) => {
    const vsix = await extensionVsix(scratch);
    const home = path.join(scratch, 'home');
    const workspace = path.join(scratch, 'workspace');
    mkdirSync(workspace);
    mkdirSync(path.join(home, 'extensions', 'gofix'), { recursive: true });
    writeFileSync(path.join(home, 'extensions', 'gofix', 'extension.json'), JSON.stringify({ name: 'gofix', version: '1.0.0', exec: go.bin, args: ['gofix'] }));
    const server = await startCodeServer({ vsixPaths: [vsix], env: { ZOT_HOME: home }, settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'zot.panels.style': 'webview' } });
    let session;
    try {
      session = await openWorkbench({ server, folder: workspace, trusted: true });
      const { page } = session;
      await page.locator('.statusbar-item').filter({ hasText: 'Zot' }).first().waitFor({ timeout: 30_000 });
      /** @type {(command: string, pick?: { title: string, item: string }) => Promise<void>} */
      const palette = (command, pick) => runFromPalette(page, command, pick);

      // Its tool, through Run Extension Tool: the arguments typed, the result shown.
      await palette('Zot: Run Extension Tool', { title: 'Run Extension Tool', item: 'go_echo' });
      await page.locator('.quick-input-widget').filter({ hasText: 'go_echo — gofix' }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{"text":"from VS Code"}');
      await page.keyboard.press('Enter');
      const [call] = await waitFor('the tool_call in its log', () => received(home, 'tool_call').length > 0 && received(home, 'tool_call'), 30_000);
      await notification(page, 'gofix: go_echo: echo: from VS Code');
      assert.deepEqual([call.name, call.args], ['go_echo', { text: 'from VS Code' }]);
      const [started] = received(home, 'hello_ack');
      assert.equal(started.zot_version, '0.3.73', 'hello_ack names the zot release whose protocol the host speaks');

      // Its panel, as a webview; `x` clears the list, and the render that says so carries no lines.
      await palette('Zot: Run Extension Command', { title: 'Run Zot Extension Command', item: '/go-panel' });
      await page.locator('.quick-input-widget input[placeholder="arguments (optional)"]').waitFor();
      await page.keyboard.press('Enter');
      const webview = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      const lines = webview.locator('#lines');
      await lines.locator('.line', { hasText: 'third item' }).waitFor({ timeout: 30_000 });
      assert.equal(await webview.locator('#title').textContent(), 'Go list');
      await lines.click();
      await page.keyboard.type('x');
      // Key frames only: zot's panels have no widget actions.
      const keyFrames = () => /** @type {import('../../out/types/protocol/frames.js').PanelKeyFromHost[]} */ (received(home, 'panel_key'));
      await waitFor('the x key to reach it', () => keyFrames().some((f) => f.key === 'rune' && f.text === 'x'), 15_000);
      await waitFor('the emptied list in the webview', async () => (await lines.locator('.line').allTextContents()).every((l) => l.trim() === ''), 15_000);
      assert.equal((await webview.locator('#footer').textContent())?.trim(), '', 'the footer the render left out is gone');
      assert.equal(await webview.locator('#title').textContent(), 'Go list', 'the title it left out stays');
      assert.deepEqual(received(home, 'panel_resize'), [], 'zot never sends panel_resize');
      assert.doesNotMatch(logText(home), /unknown frame type/);

      await page.keyboard.press('Escape');
      await waitFor('panel_close', () => received(home, 'panel_close').length === 1, 15_000);
    } catch (error) {
      await failureScreenshot(t, session, 'go');
      throw error;
    } finally {
      await closeWorkbench(session, server);
    }
  });
});
