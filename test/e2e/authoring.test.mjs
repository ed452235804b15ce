// Writing zot extensions in a real VS Code (code-server + headless Chromium):
// Zot: New Extension… then consent then a running extension, the manifest's
// schema and problems in the editor, the walkthrough. The checks themselves
// are in authoring/suite.cjs, but the walkthrough's, made through the real UI
// in the same window before the suite goes on.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers.mjs';
import { isInside, liveProcesses } from './harness.mjs';
import { checkInnerSuite, uiFirst } from './innerSuite.mjs';
import { runFromPalette } from './workbenchUi.mjs';
import { testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {string} */
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-authoring-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * The walkthrough through the real UI: opened from the palette, its first step completed by its button.
 * @param {import('playwright-core').Page} page
 * @param {string} home the zot home
 */
async function walkthrough(page, home) {
  await runFromPalette(page, 'Open Walkthrough');
  const ours = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Get started with zot extensions' }).first();
  await ours.waitFor({ timeout: 30_000 });
  await ours.click();
  const step = page.locator('.getting-started-step').filter({ hasText: 'Install the sample extensions' }).first();
  await step.waitFor({ timeout: 30_000 });
  for (const title of ['Open the Zot view', 'Try @zot /help in chat', 'Run a tool from the palette', 'Create your own']) {
    await page.locator('.getting-started-step').filter({ hasText: title }).first().waitFor({ timeout: 10_000 });
  }
  const done = async (which = step) => (await which.getAttribute('aria-checked')) === 'true';
  assert.equal(await done(), false, 'not complete before its action');
  await step.click();
  await step.getByRole('button', { name: 'Install Sample Extensions' }).click();
  await waitFor('the samples in the zot home', () => existsSync(path.join(home, 'extensions', 'todo', 'extension.json')), 30_000, 200);
  await waitFor('the step to show as complete', done, 30_000, 200);
  // The other steps are still to do.
  assert.equal(await done(page.locator('.getting-started-step').filter({ hasText: 'Create your own' }).first()), false);
}

// One window for both (a window costs seconds): the walkthrough first, its checks a subtest, while the suite waits; then the suite.
test('authoring: New Extension…, the manifest schema and problems; the walkthrough through the real UI', { timeout: 600_000 }, async (t) => {
  const vsixPaths = [await testBundleVsix(scratch)];
  const results = path.join(scratch, 'results.json');
  const workspace = path.join(scratch, 'workspace');
  const home = path.join(scratch, 'home');
  mkdirSync(workspace);
  mkdirSync(path.join(home, 'extensions'), { recursive: true });
  const ui = uiFirst(t, {
    name: 'the walkthrough, through the real UI: opened from the palette, and its first step completed by its button',
    scratch,
    shot: 'walkthrough',
    drive: (_sub, page) => walkthrough(page, home),
  });
  await checkInnerSuite(t, {
    vsixPaths,
    env: { ZOT_HOME: home, ...ui.env },
    results,
    folder: workspace,
    testsEntry: path.join(here, 'authoring', 'suite.cjs'),
    timeoutMs: 420_000,
    onPage: ui.onPage,
  });
  assert.deepEqual(liveProcesses().filter(({ cwd }) => isInside(cwd, scratch)), [], 'no extension process left');
});
