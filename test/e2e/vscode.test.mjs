// The extension in a real VS Code (code-server + headless Chromium, see
// /work/shared/VSCODE-TESTING.md), installed from its VSIX as a user has it.
//
//   npm run test:e2e
//
// 1. a trusted workspace: the suite test/e2e/vscode/suite/trusted.cjs runs in
//    the extension host (activation, view, every command action, panels,
//    notes, logs, crash/restart, consent, diagnostics, installs, settings);
// 2. an untrusted workspace: nothing of the workspace starts;
// 3. the real UI driven by Playwright, from a first run: the view's welcome,
//    its "Install Sample Extensions" button, its Reload button, the palette,
//    a panel driven by keys; screenshots of each for the README
//    (media/screenshots/); then the window closes and no extension process
//    may be left while code-server runs on.
// After every run no process of the fixtures may be left either, and nothing
// of its code-server: no process in its group or naming its files, no files
// (the harness's own promise, test/e2e/harness.mjs); the suites of 1 and 2
// also check that the extension runs as installed from its VSIX, in the
// folder the window opened, trusted or not.
//
// 1 and 2 install the test bundle's VSIX (`npm run package:test`), whose
// activate() returns the test API the suites read the UI through; 3 installs
// the VSIX users get (`npm run package`). Both are built in a copy of the
// project (dist/ is left alone for the tests running beside this file); set
// ZOT_E2E_TEST_VSIX and ZOT_E2E_VSIX to test already built ones instead.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers.mjs';
import { isInside, leftoversOf, liveProcesses, openWorkbench, startCodeServer } from './harness.mjs';
import { assertInnerSuitePassed, runInnerSuite } from './innerSuite.mjs';
import { failureScreenshot } from './workbenchUi.mjs';
import { extensionVsix, testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const fixtures = path.join(here, 'vscode', 'fixtures');
const TESTS_ENTRY = path.join(here, 'vscode', 'suite', 'index.cjs');
// The README's screenshots are refreshed by `npm run screenshots`; other runs keep theirs in a temp folder.
const SCREENSHOTS = process.env.ZOT_UPDATE_SCREENSHOTS ? path.join(repoRoot, 'media', 'screenshots') : path.join(os.tmpdir(), 'zot-e2e-screenshots');

/** @type {string} */
let scratch;
/** @type {string} */
let vsix;
/** @type {string} */
let testVsix;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-vscode-'));
  testVsix = await testBundleVsix(scratch);
  vsix = await extensionVsix(scratch);
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * A private copy of the fixtures: zot home, workspace, installables; every extension gets lib.mjs and a run marker.
 * @param {string} name
 * @param {{ withWorkspaceSettings?: boolean, marker?: boolean }} [options]
 */
async function stage(name, { withWorkspaceSettings = true, marker = true } = {}) {
  const root = await mkdtemp(path.join(scratch, `${name}-`));
  const runId = path.basename(root);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  const staged = path.join(root, 'fixtures');
  await cp(path.join(fixtures, 'home'), home, { recursive: true });
  await cp(path.join(fixtures, 'workspace'), workspace, { recursive: true });
  await cp(path.join(fixtures, 'installable'), path.join(staged, 'installable'), { recursive: true });
  if (!withWorkspaceSettings) await rm(path.join(workspace, '.vscode'), { recursive: true, force: true });
  const extensionDirs = [
    ...readdirSync(path.join(home, 'extensions')).map((d) => path.join(home, 'extensions', d)),
    path.join(workspace, '.zot', 'extensions', 'local'),
    path.join(workspace, 'tools', 'wsext'),
    path.join(staged, 'installable', 'newext'),
  ];
  for (const dir of extensionDirs) {
    await cp(path.join(fixtures, 'lib.mjs'), path.join(dir, 'lib.mjs'));
    const manifestFile = path.join(dir, 'extension.json');
    /** @type {{ args?: string[] }} */
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    if (marker) manifest.args = [...(manifest.args ?? []), `--zot-e2e-run=${runId}`];
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  }
  return { root, runId, home, workspace, staged };
}

/**
 * Live processes that belong to a run: their command line names it, or they work inside its folder.
 * @param {string} root
 * @param {string} runId
 */
function processesOf(root, runId) {
  return liveProcesses()
    .filter(({ cmdline, cwd }) => cmdline.includes(runId) || isInside(cwd, root))
    // code-server and Chromium name the run's folder too; only extension processes count.
    .filter(({ cmdline }) => !/code-server|chromium|entry\.js|bootstrap-fork|extensionHost/i.test(cmdline))
    .map(({ pid, cmdline, cwd }) => `${pid} ${cmdline} (cwd ${cwd})`);
}

/**
 * @param {string} root
 * @param {string} runId
 * @param {number} [timeoutMs]
 */
async function waitForNoProcesses(root, runId, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let left = processesOf(root, runId);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = processesOf(root, runId);
  }
  return left;
}

/**
 * Nothing of a stopped server is left: no process in its group, none naming its files (a child that left the group), no files.
 * @param {import('./harness.mjs').CodeServer} server
 */
function assertServerGone(server) {
  const { processes, files } = leftoversOf(server);
  assert.deepEqual(processes, [], 'processes left after stop()');
  assert.deepEqual(files, [], 'files left after stop()');
}

/**
 * @param {Awaited<ReturnType<typeof stage>>} s
 * @param {string} scenario
 */
function serverEnv(s, scenario) {
  return {
    ZOT_HOME: s.home,
    ZOT_E2E_SCENARIO: scenario,
    ZOT_E2E_FIXTURES: s.staged,
    ZOT_E2E_FOLDER: s.workspace,
    ZOT_ACTIVATE_MS_FILE: path.join(s.root, 'activate-ms.json'),
  };
}

/**
 * @param {import('node:test').TestContext} t
 * @param {string} scenario
 * @param {boolean} trusted
 */
async function runSuite(t, scenario, trusted) {
  const s = await stage(scenario);
  const done = await runInnerSuite(t, {
    vsixPaths: [testVsix],
    env: serverEnv(s, scenario),
    // These suites test the QuickPick presentation of panels; agent.test.mjs tests the webview.
    settings: { 'zot.panels.style': 'quickPick' },
    results: path.join(s.root, 'results.json'),
    folder: s.workspace,
    testsEntry: TESTS_ENTRY,
    trusted,
    timeoutMs: 300_000,
  });
  for (const line of done.run.logs.filter((l) => l.includes('ZOTTEST activate_ms') || l.includes('ZOTTEST chat'))) t.diagnostic(line.slice(line.indexOf('ZOTTEST')));
  assertInnerSuitePassed(t, done, { logLines: 80 });
  const left = await waitForNoProcesses(s.root, s.runId);
  assert.deepEqual(left, [], 'extension processes left after the window closed');
  assertServerGone(done.server);
  // activate() as measured inside VS Code, for npm run bench.
  const activateFile = path.join(s.root, 'activate-ms.json');
  if (existsSync(activateFile)) {
    /** @type {{ activate_ms: number }} */
    const measured = JSON.parse(readFileSync(activateFile, 'utf8'));
    t.diagnostic(`activate() took ${measured.activate_ms} ms`);
    await mkdir(path.join(repoRoot, '.vscode-test'), { recursive: true });
    writeFileSync(path.join(repoRoot, '.vscode-test', 'activate-ms.json'), JSON.stringify({ ...measured, measured_at: new Date().toISOString(), scenario }) + '\n');
  }
  return s;
}

describe('Zot Extensions in VS Code (code-server)', { concurrency: false }, () => {
  test('a trusted workspace: view, commands, panels, notes, logs, crash, consent, installs', { timeout: 420_000 }, async (t) => {
    await runSuite(t, 'trusted', true);
  });

  test('an untrusted workspace: its extensions never start', { timeout: 300_000 }, async (t) => {
    const s = await runSuite(t, 'untrusted', false);
    assert.equal(existsSync(path.join(s.home, 'local-started.txt')), false, 'the project-local extension ran');
    assert.equal(existsSync(path.join(s.home, 'wsext-started.txt')), false, 'the extension from workspace settings ran');
  });

  test('the real UI: view, palette, panel; closing the window ends every extension process', { timeout: 300_000 }, async (t) => {
    // No marker in args (it would show in the consent question); processes are found by their folder.
    const s = await stage('ui', { withWorkspaceSettings: false, marker: false });
    // A first run: an empty zot home, and a project whose own extension arrives later.
    await rm(path.join(s.home, 'extensions'), { recursive: true });
    const localAside = path.join(s.root, 'local-aside');
    await cp(path.join(s.workspace, '.zot', 'extensions', 'local'), localAside, { recursive: true });
    await rm(path.join(s.workspace, '.zot'), { recursive: true });
    await rm(path.join(s.workspace, 'tools'), { recursive: true });
    await mkdir(SCREENSHOTS, { recursive: true });

    const server = await startCodeServer({
      vsixPaths: [vsix],
      env: { ZOT_HOME: s.home },
      // The chat view would take a third of the screenshots.
      settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'zot.panels.style': 'quickPick' },
    });
    let session;
    try {
      session = await openWorkbench({ server, folder: s.workspace, trusted: true });
      const { page } = session;
      const row = (/** @type {string} */ label) => page.locator('.pane-body .monaco-list-row').filter({ hasText: label }).first();
      // Expands an extension's item, again if a refresh (a reload) collapsed it meanwhile.
      const expand = async (/** @type {string} */ label, /** @type {string} */ child) => {
        const item = page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
        await waitFor(`${child} under ${label}`, async () => {
          if ((await item.getAttribute('aria-expanded')) === 'false') await item.locator('.monaco-tl-twistie').click();
          return row(child).isVisible();
        }, 30_000, 200);
      };

      // The Zot view, opened from its activity bar icon: nothing installed yet, so its welcome.
      await page.locator('.activitybar [aria-label^="Zot"]').first().click();
      const installSamples = page.getByRole('button', { name: 'Install Sample Extensions' });
      await installSamples.waitFor({ timeout: 30_000 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'welcome.png') });
      await installSamples.click();
      await row('todo').waitFor({ timeout: 30_000 });
      const running = await waitFor('three extension processes', () => {
        const p = processesOf(s.root, s.runId);
        return p.length >= 3 && p;
      }, 30_000, 200);
      t.diagnostic(`${running.length} extension processes running after "Install Sample Extensions"`);
      writeFileSync(path.join(s.home, 'extensions', 'todo', 'todos.json'), JSON.stringify({
        items: [
          { text: 'Review the extension protocol', done: true },
          { text: 'Try the todo panel in VS Code', done: false },
          { text: 'Write a zot extension in Python', done: false },
          { text: 'Ship it', done: false },
        ],
        cursor: 1,
      }, null, 2));

      // The project gets an extension of its own; the view's Reload finds it, held until allowed.
      await cp(localAside, path.join(s.workspace, '.zot', 'extensions', 'local'), { recursive: true });
      // Title actions show while the pointer is over the view.
      await row('todo').hover();
      await page.locator('[aria-label="Reload Extensions"]').first().click();
      await row('local').waitFor();
      await expand('todo', 'todo_add');
      await expand('local', 'waiting for your permission');
      // The inline actions of a running extension's row, as a user sees them on hover.
      await row('todo').hover();
      for (const action of ['Restart Extension', 'Stop Extension', 'Show Extension Log', 'Reveal Extension Folder']) {
        await row('todo').locator(`.actions [aria-label="${action}"]`).waitFor({ timeout: 10_000 });
      }
      await page.mouse.move(900, 400);
      await page.waitForTimeout(800);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'zot-view.png') });

      // The question about the workspace's extension waits in the notification center; Allow starts it.
      await page.locator('.statusbar [aria-label*="otification"]').first().click();
      const question = page.locator('.notifications-center .notification-list-item').filter({ hasText: 'wants to run the zot extension "local"' }).first();
      await question.waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'consent.png') });
      await question.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.locator('.pane-body .monaco-list-row').filter({ hasText: /local\s*ready · workspace/ }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Escape');

      // The palette running "Zot: Run Extension Command…".
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget').waitFor();
      await page.keyboard.type('Zot: Run Extension Command');
      await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Run Extension Command' }).first().waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'command-palette.png') });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: '/todo-add' }).first().waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'run-command-pick.png') });

      // Pick /todo, no arguments: its panel opens as a Quick Pick; keys go to the extension.
      await page.keyboard.type('/todo');
      await page.waitForTimeout(200);
      const active = page.locator('.quick-input-list .monaco-list-row.focused');
      assert.match(await active.innerText(), /^\/todo(?!-)/);
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget input[placeholder="arguments (optional)"]').waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').filter({ hasText: 'Todos' }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.type('x');
      await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: '✓ Write a zot extension in Python' }).waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'todo-panel.png') });
      await page.keyboard.press('Escape');
      /** @type {{ items: { text: string, done: boolean }[] }} */
      const saved = JSON.parse(readFileSync(path.join(s.home, 'extensions', 'todo', 'todos.json'), 'utf8'));
      assert.equal(saved.items[2].done, true, 'the x key reached the todo extension, which saved it');

      // Close the window as a user closes the tab (unload handlers run; the
      // workbench shuts its extension host down): deactivate() must take every
      // extension process with it, while code-server keeps running.
      const closing = Date.now();
      await page.close({ runBeforeUnload: true });
      const left = await waitForNoProcesses(s.root, s.runId, 10_000);
      assert.deepEqual(left, [], 'extension processes left after the window closed');
      t.diagnostic(`no extension process left ${Date.now() - closing} ms after the window closed (code-server still running)`);
      await session.close();
      session = undefined;
    } catch (error) {
      await failureScreenshot(t, session, 'ui');
      throw error;
    } finally {
      await session?.close();
      await server.stop();
    }
    assert.deepEqual(processesOf(s.root, s.runId), []);
    assertServerGone(server);
  });
});

