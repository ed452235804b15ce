// The extension in German, in a real VS Code (code-server + headless
// Chromium), installed from the VSIX users get. VS Code switches its display
// language only when a language pack for it is installed: the test installs
// one (test/e2e/l10n/language-pack, which translates nothing of VS Code
// itself) in the running editor, as a user installs a language pack, and
// opens a new window with the locale `de`. Everything German on the screen
// is then the extension's own: its manifest (package.nls.de.json) and its
// code and webview (l10n/bundle.l10n.de.json).
//
// What a German user meets first: the view's welcome and its button, the
// notification after installing the samples, the extensions' states in the
// view and the status bar, the view's Reload action, the consent question,
// whose German "Zulassen" starts the workspace's extension, a command from
// the palette with its pickers, and a webview panel whose page says it is
// German.
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers.mjs';
import { openWorkbench, runExtensionTests, startCodeServer } from './harness.mjs';
import { closeWorkbench, failureScreenshot, findNotification, panelFrame } from './workbenchUi.mjs';
import { extensionVsix, testExtensionVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'vscode', 'fixtures');

/** @type {string} */
let scratch;
/** @type {string} */
let vsix;
/** @type {string} */
let languagePack;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-l10n-'));
  vsix = await extensionVsix(scratch);
  languagePack = testExtensionVsix(path.join(here, 'l10n', 'language-pack'), path.join(scratch, 'language-pack-de.vsix'));
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('in German: welcome, notifications, states, the consent question, the palette and a panel', { timeout: 300_000 }, async (t) => {
  const home = path.join(scratch, 'home');
  const workspace = path.join(scratch, 'workspace');
  await mkdir(path.join(home, 'extensions'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  // An extension the workspace gets later, which must be allowed first.
  const localAside = path.join(scratch, 'local');
  await cp(path.join(fixtures, 'workspace', '.zot', 'extensions', 'local'), localAside, { recursive: true });
  await cp(path.join(fixtures, 'lib.mjs'), path.join(localAside, 'lib.mjs'));
  // Installs the language pack through the running editor's extension service, as its Extensions view would.
  const installEntry = path.join(scratch, 'install-language-pack.cjs');
  await writeFile(installEntry, `const vscode = require('vscode');
exports.run = async () => {
  await vscode.commands.executeCommand('workbench.extensions.installExtension', vscode.Uri.file(${JSON.stringify(languagePack)}));
};
`);

  const server = await startCodeServer({
    vsixPaths: [vsix],
    locale: 'de',
    env: { ZOT_HOME: home },
    settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'zot.panels.style': 'webview' },
  });
  let session;
  try {
    const install = await runExtensionTests({ server, folder: workspace, testsEntry: installEntry, timeoutMs: 120_000 });
    assert.equal(install.exitCode, 0, `installing the language pack:\n${install.logs.join('\n')}`);

    session = await openWorkbench({ server, folder: workspace, trusted: true });
    const { page } = session;
    const row = (/** @type {string | RegExp} */ text) => page.locator('.pane-body .monaco-list-row').filter({ hasText: text }).first();

    // The view's welcome and its button, from package.nls.de.json.
    await page.locator('.activitybar [aria-label^="Zot"]').first().click();
    await page.getByText('Keine zot-Erweiterungen gefunden.').first().waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Beispielerweiterungen installieren' }).click();
    await findNotification(page, 'Installierte Beispielerweiterungen: ask-user, todo, word-count.', 10_000);
    await page.keyboard.press('Escape');

    // States, from the code's bundle.
    await row(/todo\s*bereit/).waitFor({ timeout: 30_000 });
    // The project gets an extension of its own; the view's German Reload action finds it.
    await cp(localAside, path.join(workspace, '.zot', 'extensions', 'local'), { recursive: true });
    await row(/todo\s*bereit/).hover();
    await page.locator('[aria-label="Erweiterungen neu laden"]').first().click();
    // It waits for permission; the question is German, and so are its buttons.
    await row(/local\s*zurückgehalten · Arbeitsbereich/).waitFor({ timeout: 30_000 });
    const question = await findNotification(page, 'Der Arbeitsbereich möchte die zot-Erweiterung "local" ausführen');
    assert.match(await question.item.innerText(), /Lassen Sie nur Code zu, dem Sie vertrauen\./);
    await question.item.getByRole('button', { name: 'Nicht zulassen', exact: true }).waitFor();
    await question.item.getByRole('button', { name: 'Zulassen', exact: true }).click();
    // The German answer is understood: the extension starts.
    await row(/local\s*bereit · Arbeitsbereich/).waitFor({ timeout: 30_000 });
    await waitFor('local started', () => existsSync(path.join(home, 'local-started.txt')), 10_000);
    if (await page.locator('.notifications-center').isVisible()) await page.keyboard.press('Escape');

    // The status bar item's accessible name counts in German.
    await page.locator('.statusbar [aria-label^="Zot-Erweiterungen: 4 aktiv"]').first().waitFor({ timeout: 30_000 });

    // A command from the palette, by its German title; its pickers speak German too.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget').waitFor();
    await page.keyboard.type('Zot: Erweiterungsbefehl ausführen');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Erweiterungsbefehl ausführen…' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget input[placeholder="Wählen Sie einen Befehl einer zot-Erweiterung"]').waitFor();
    await page.keyboard.type('/todo');
    await page.waitForTimeout(200);
    assert.match(await page.locator('.quick-input-list .monaco-list-row.focused').innerText(), /^\/todo(?!-)/);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget input[placeholder="Argumente (optional)"]').waitFor();
    assert.match(await page.locator('.quick-input-widget').innerText(), /Argumente oder nichts:/);
    await page.keyboard.press('Enter');

    // The todo panel as a webview: its page is German.
    assert.equal(await (await panelFrame(page)).evaluate('document.documentElement.lang'), 'de');
    t.diagnostic('German: welcome, notification, states, consent, status bar, palette, pickers and panel');
  } catch (error) {
    await failureScreenshot(t, session, 'l10n');
    throw error;
  } finally {
    await closeWorkbench(session, server);
  }
});
