// Steps through the real workbench UI (Playwright) that several e2e files
// take the same way: a command run from the palette, a notification found
// whether or not its toast shows, and a UI test's screenshot and close.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @typedef {import('playwright-core').Page} Page */

/**
 * Runs `command` from the palette (F1). `pick`, when given: an item typed into
 * the command's own picker, found by its `title`, and accepted.
 * @param {Page} page
 * @param {string} command
 * @param {{ title: string, item: string }} [pick]
 */
export async function runFromPalette(page, command, pick) {
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: command.replace(/^Zot: /, '') }).first();
  // The palette lists contributed commands once the workbench has read them: retry until it does.
  await waitFor(`"${command}" in the palette`, async () => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget').waitFor();
    await page.keyboard.type(command);
    if (await row.waitFor({ timeout: 3_000 }).then(() => true, () => false)) return true;
    await page.keyboard.press('Escape');
    return false;
  }, 30_000);
  await page.keyboard.press('Enter');
  if (pick) {
    // The command's own picker, by its title, before typing into it.
    const picker = page.locator('.quick-input-widget').filter({ hasText: pick.title });
    await picker.waitFor({ timeout: 30_000 });
    await picker.locator('.quick-input-box input').fill(pick.item);
    await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: pick.item }).first().waitFor();
    await page.keyboard.press('Enter');
  }
}

/**
 * The notification with that text: its toast if one shows within `toastMs`,
 * or else (where toasts are not shown) its entry in the notification center,
 * which is then left open (`inCenter`).
 * @param {Page} page
 * @param {string} text
 */
export async function findNotification(page, text, toastMs = 3_000) {
  const toast = page.locator('.notifications-toasts .notification-list-item').filter({ hasText: text }).first();
  if (await toast.waitFor({ timeout: toastMs }).then(() => true, () => false)) return { item: toast, inCenter: false };
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget').waitFor();
  await page.keyboard.type('Notifications: Show Notifications');
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Show Notifications' }).first().waitFor();
  await page.keyboard.press('Enter');
  const entry = page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
  await entry.waitFor({ timeout: 15_000 });
  return { item: entry, inCenter: true };
}

/**
 * A screenshot of the page of a UI test that failed, in the temp folder, named after `name`; its path goes to the test's diagnostics.
 * @param {import('node:test').TestContext} t
 * @param {{ page: Page } | undefined} session
 * @param {string} name
 */
export async function failureScreenshot(t, session, name) {
  const shot = path.join(os.tmpdir(), `zot-e2e-${name}-failure-${Date.now()}.png`);
  await session?.page.screenshot({ path: shot }).then(() => t.diagnostic(`failure screenshot: ${shot}`), () => undefined);
}

/**
 * Ends a UI test: the page closed as a user closes the window (its unload handlers run), then the browser and the server.
 * @param {import('./harness.mjs').Workbench | undefined} session
 * @param {import('./harness.mjs').CodeServer} server
 */
export async function closeWorkbench(session, server) {
  await session?.page.close({ runBeforeUnload: true }).catch(() => undefined);
  await session?.close();
  await server.stop();
}

/**
 * axe-core's serious and critical violations in a page or frame, within the
 * element `selector` picks (the whole document when none), as one line each:
 * rule, what it asks, where.
 * @param {Page | import('playwright-core').Frame} frame
 * @param {string} [selector]
 * @returns {Promise<string[]>}
 */
export async function seriousViolations(frame, selector) {
  // Evaluated as a script of the test, not through eval in the page (a webview's CSP allows no eval).
  const axe = readFileSync(path.join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  return frame.evaluate(`${axe}
    ;(async () => (await axe.run(${selector ? `document.querySelector(${JSON.stringify(selector)})` : 'document'}, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.help + ' (' + v.nodes.map((n) => n.target.join(' ')).join(', ') + ')'))()`);
}

/**
 * The frame of the open webview panel (the one whose page has panel lines).
 * @param {Page} page
 * @returns {Promise<import('playwright-core').Frame>}
 */
export function panelFrame(page) {
  return waitFor('the panel\'s frame', async () => {
    for (const f of page.frames()) if (await f.locator('#lines .line').count().catch(() => 0)) return f;
    return undefined;
  }, 30_000);
}
