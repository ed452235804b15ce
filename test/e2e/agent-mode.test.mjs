// VS Code's own agent mode in a real VS Code (code-server + headless
// Chromium), following VSCODE-TESTING.md ("VS Code's own agent mode"): the
// built-in Copilot Chat drives the scripted fake model (test/e2e/fake-lm),
// and the zot tools and commands come from this extension's MCP server
// definition. The first test runs in the extension host (test/e2e/agent-mode/suite.cjs);
// the second drives the real UI with Playwright: a zot command picked from the
// chat's / menu as an MCP prompt, a zot tool's notes shown as its progress,
// and an interactive tool's panel inline in the chat as an MCP App view, a key
// moving its cursor and Esc ending the call as canceled.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openWorkbench, startCodeServer } from './harness.mjs';
import { checkInnerSuite } from './innerSuite.mjs';
import { closeWorkbench } from './workbenchUi.mjs';
import { waitFor } from '../helpers.mjs';
import { agentVsixes, frames, stageAgentFixtures } from './agentFixtures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
// ZOT_UPDATE_SCREENSHOTS=1 refreshes the README's screenshot of the inline panel.
const SCREENSHOTS = process.env.ZOT_UPDATE_SCREENSHOTS ? path.join(repoRoot, 'media', 'screenshots') : path.join(os.tmpdir(), 'zot-e2e-screenshots');
/** @type {string} */
let scratch;
/** @type {string[]} */
let vsixPaths;
/**
 * The real-UI test runs the VSIX users get.
 * @type {string[]}
 */
let userVsixPaths;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-agent-mode-'));
  ({ test: vsixPaths, user: userVsixPaths } = await agentVsixes(scratch));
});

// On a fresh profile the workbench switches the built-in chat extension off unless this is set.
const CHAT_ENABLED = { builtinChatExtensionEnablementMigration: 'true' };

/**
 * The agent fixtures, with a home folder of the user's own beside them.
 * @param {string} name
 */
async function stage(name) {
  const s = await stageAgentFixtures(scratch, name);
  const userHome = path.join(s.root, 'user-home');
  await mkdir(userHome);
  return { ...s, userHome };
}

/**
 * Copilot Chat's log in a server's user data, once it exists.
 * @param {string} userDataDir
 */
function copilotLog(userDataDir) {
  const logs = path.join(userDataDir, 'logs');
  if (!existsSync(logs)) return '';
  for (const session of readdirSync(logs)) {
    const file = path.join(logs, session, 'exthost1', 'GitHub.copilot-chat', 'GitHub Copilot Chat.log');
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return '';
}

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('agent mode: the zot tools through the MCP server, an interactive tool, and Stop', { timeout: 540_000 }, async (t) => {
  const { root, workspace, userHome, home } = await stage('suite');
  const results = path.join(root, 'results.json');
  await checkInnerSuite(t, {
    vsixPaths,
    // Copilot Chat writes ~/.copilot: keep it in the run's folder.
    env: { ZOT_HOME: home, HOME: userHome },
    // The terminal tool keeps its own approval rules: mkdir (the command the guard lets through) runs without a card.
    // Panels the editor's way here (a Quick Pick for the ask tool): the inline view is the real-UI test's.
    settings: { 'chat.mcp.apps.enabled': false, 'chat.tools.global.autoApprove': true, 'chat.tools.terminal.enableAutoApprove': true, 'chat.tools.terminal.autoApprove': { mkdir: true }, 'chat.tools.terminal.autoApprove.warningAccepted': true },
    results,
    folder: workspace,
    testsEntry: path.join(here, 'agent-mode', 'suite.cjs'),
    timeoutMs: 480_000,
    globalState: CHAT_ENABLED,
  }, { logLines: 80 });
  // Zot: Create Agent Plugin wrote into the run's own home folder, never the real one.
  assert.equal(JSON.parse(readFileSync(path.join(userHome, '.copilot', 'installed-plugins', 'zot', 'zot-extensions', '.claude-plugin', 'plugin.json'), 'utf8')).name, 'zot-extensions');
});

test('agent mode\'s / menu offers a zot command as an MCP prompt, and picking it runs the command; a zot tool\'s notes are its progress line in the chat; an interactive tool\'s panel shows inline, keys reach it, Esc cancels the call', { timeout: 400_000 }, async (t) => {
  const { workspace, userHome, home } = await stage('prompt');
  // Tools run without a confirmation card, so the progress of a running one shows at once.
  const server = await startCodeServer({ vsixPaths: userVsixPaths, env: { ZOT_HOME: home, HOME: userHome }, settings: { 'chat.tools.global.autoApprove': true } });
  /** @type {import('./harness.mjs').Workbench | undefined} */
  let session;
  const shot = (/** @type {string} */ name) => session?.page.screenshot({ path: path.join(os.tmpdir(), `zot-e2e-agent-mode-${name}.png`) }).catch(() => undefined);
  try {
    session = await openWorkbench({ server, folder: workspace, trusted: true, globalState: CHAT_ENABLED });
    const { page } = session;
    await waitFor('Copilot Chat to activate its contributions', () => /ConversationFeature: Activating contributions/.test(copilotLog(server.userDataDir)), 120_000);
    // Each step is retried until it holds: the MCP output channel and the zot panel take the focus when they
    // show, which closes an open palette or picker, and keys sent meanwhile go to them. The command is filled
    // into the palette's own box rather than typed.
    const yes = () => true;
    const no = () => false;
    const rows = page.locator('.quick-input-list .monaco-list-row');
    const box = page.locator('.quick-input-widget .quick-input-box input');
    /**
     * @param {string} command
     * @param {string} [row]
     */
    const palette = async (command, row) => {
      await page.keyboard.press('F1');
      if (!(await box.waitFor({ timeout: 5_000 }).then(yes, no))) return false;
      if (!(await box.fill(`>${command}`, { timeout: 3_000 }).then(yes, no))) return false;
      if (!(await rows.filter({ hasText: row ?? command }).first().waitFor({ timeout: 5_000 }).then(yes, no))) {
        await page.keyboard.press('Escape');
        return false;
      }
      return box.press('Enter', { timeout: 3_000 }).then(yes, no);
    };
    // One server per zot extension, each started from the MCP server list: the one with the command
    // (its prompts are listed once it runs), and the one with the slow tool, so that the agent has its
    // tools before the request below rather than racing the start VS Code makes when a request is sent.
    const startServer = (/** @type {string} */ name) => waitFor(`the server of ${name} started from the MCP server list`, async () => {
      if (!(await palette('MCP: List Servers', 'List Servers'))) return false;
      if (!(await rows.filter({ hasText: `zot: ${name}` }).first().click({ timeout: 10_000 }).then(yes, no))) return false;
      // A server VS Code has started already offers Stop Server instead: leave it running.
      const action = rows.filter({ hasText: /Start Server|Stop Server/ }).first();
      if (!(await action.waitFor({ timeout: 10_000 }).then(yes, no))) return false;
      if (!/Start Server/.test(await action.innerText({ timeout: 3_000 }).catch(() => ''))) {
        await page.keyboard.press('Escape');
        return true;
      }
      return action.click({ timeout: 5_000 }).then(yes, no);
    }, 120_000);
    await startServer('agent-panels');
    // The chat view shows at start, in Agent mode with the fake model (the only one).
    const input = page.locator('.interactive-input-part .monaco-editor').first();
    await input.waitFor({ timeout: 30_000 });
    const item = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: '/mcp.zot__agent-panels.show-panel' }).first();
    await waitFor('the zot command in the / menu', async () => {
      // Clicked each time: the MCP output channel takes the focus when the server logs.
      await input.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('/mcp.zot__agent-p');
      return item.waitFor({ timeout: 3_000 }).then(() => true, () => false);
    }, 60_000);
    await shot('menu');
    await item.click();
    // The one optional argument is asked for; an empty answer sends none.
    const ask = page.locator('.quick-input-widget input');
    if (await ask.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await page.keyboard.press('Enter');
    await waitFor('show-panel run through prompts/get', () => frames(home, 'panels', 'command_invoked').some((f) => f.name === 'show-panel'), 30_000);
    // Its action ran here (the panel opened) and the prompt's message came back into the chat input
    // (the editor renders spaces as no-break spaces).
    await page.locator('.tab').filter({ hasText: 'Markup <b>stays</b> text' }).first().waitFor({ timeout: 15_000 });
    await waitFor('the prompt\'s text in the chat input', async () => (await input.textContent())?.replace(/\u00a0/g, ' ').includes('Opened the panel of /show-panel.'), 15_000);
    await shot('after');
    t.diagnostic('the / menu listed /mcp.zot__agent-panels.show-panel; picking it ran the zot command, opened its panel and put the prompt text in the input');

    // A zot tool that says how far it got: its notes are MCP progress on the call, shown on the tool's line in the chat.
    await startServer('agent-tools');
    // The panel just opened may take the focus back from the input after a click, before the text or
    // before the Enter: type and send until the input has taken the request (it empties).
    const inputText = async () => (await input.textContent())?.replace(/\u00a0/g, ' ') ?? '';
    /** Types `text` into the chat input and sends it, until the input has taken it. @param {string} what @param {string} text */
    const send = (what, text) => waitFor(what, async () => {
      await input.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
      if (!(await inputText()).includes(text)) return false;
      await page.keyboard.press('Enter');
      return waitFor('the input to empty', async () => !(await inputText()).includes(text), 3_000).then(() => true, () => false);
    }, 45_000);
    await send('the request sent from the chat input', 'AGENTCALL slow {}');
    // VS Code asks once before it honours the auto approval set above, as it would ask a user.
    const enable = page.locator('.monaco-dialog-box').filter({ hasText: 'Enable global auto approve?' }).getByRole('button', { name: 'Enable' });
    await waitFor('slow delivered', async () => {
      if (await enable.isVisible().catch(() => false)) await enable.click();
      return frames(home, 'tools', 'tool_call').some((f) => f.name === 'slow');
    }, 60_000);
    // The line reads "Running slow (zot: agent-tools)" (the tool's title), then each note as it comes.
    const chat = page.locator('.interactive-session').first();
    await chat.getByText('Running slow (zot: agent-tools)').or(chat.getByText('slow: step 1 of 4', { exact: true })).first().waitFor({ timeout: 15_000 });
    for (const step of [2, 3]) await chat.getByText(`slow: step ${step} of 4`, { exact: true }).waitFor({ timeout: 10_000 });
    await shot('progress');
    await page.locator('.interactive-session').filter({ hasText: 'RESULT: slow: done' }).first().waitFor({ timeout: 30_000 });

    // An interactive tool: its panel is an MCP App view in the chat, the page of the editor's panel.
    await startServer('agent-ask');
    const askText = 'AGENTCALL ask {"choices":["red","green","blue"]}';
    await send('the ask request sent from the chat input', askText);
    const call = await waitFor('ask delivered', () => frames(home, 'ask', 'tool_call').find((f) => f.name === 'ask'), 60_000);
    const view = page.frameLocator('.mcp-app-part .mcp-app-webview iframe.webview.ready').frameLocator('iframe#active-frame');
    const current = view.locator('#lines .line.current');
    await current.filter({ hasText: 'red' }).waitFor({ timeout: 30_000 });
    assert.equal(await view.locator('#title').innerText(), 'Choose');
    assert.equal(await view.locator('#lines .line').count(), 3);
    // Clicked, the view has the keyboard: a key goes to the extension, whose render moves the cursor.
    await view.locator('#lines').click();
    await page.keyboard.press('ArrowDown');
    await current.filter({ hasText: 'green' }).waitFor({ timeout: 15_000 });
    await waitFor('down delivered as panel_key', () => frames(home, 'ask', 'panel_key').some((f) => f.panel_id === `ask-${call.id}` && f.key === 'down'), 10_000);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.locator('.interactive-session').first().screenshot({ path: path.join(SCREENSHOTS, 'inline-panel.png') });
    // Esc closes the panel: the call ends canceled, and the model is told so.
    await page.keyboard.press('Escape');
    await waitFor('the panel closed by the user', () => frames(home, 'ask', 'panel_close').some((f) => f.panel_id === `ask-${call.id}`) || frames(home, 'ask', 'tool_cancel').some((f) => f.id === call.id), 15_000);
    await page.locator('.interactive-session').filter({ hasText: /RESULT: [^\n]*cancel/i }).first().waitFor({ timeout: 30_000 });
    await view.locator('body.ended').waitFor({ timeout: 15_000 });
    await shot('inline-panel-ended');
    t.diagnostic('the ask tool\'s panel showed inline in the chat; ArrowDown moved its cursor through the extension; Esc ended the call as canceled');

    // Answered with Enter this time: once VS Code says the call finished, the view stays with how it ended,
    // never back to "Waiting for the panel…", whatever answer to its own requests comes after.
    const againText = 'AGENTCALL ask {"choices":["one","two"]}';
    await send('the second ask sent from the chat input', againText);
    await waitFor('the second ask delivered', () => frames(home, 'ask', 'tool_call').some((f) => f.name === 'ask' && f.id !== call.id), 60_000);
    const again = page.frameLocator('.mcp-app-part .mcp-app-webview iframe.webview.ready').last().frameLocator('iframe#active-frame');
    await again.locator('#lines .line.current').filter({ hasText: 'one' }).waitFor({ timeout: 30_000 });
    await again.locator('#lines').click();
    await page.keyboard.press('Enter');
    await again.locator('body.ended').waitFor({ timeout: 30_000 });
    /** @type {string[]} */
    const footers = [];
    for (let i = 0; i < 12; i++) {
      footers.push(await again.locator('#footer').innerText());
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(!footers.some((f) => /Waiting for the panel/.test(f)), `the ended view went back: ${footers.join(' | ')}`);
    await shot('inline-panel-answered');
    t.diagnostic(`the answered view stayed ended for 3 s: ${footers.at(-1)}`);
  } catch (error) {
    await shot('failure');
    t.diagnostic(`screenshots in ${os.tmpdir()}/zot-e2e-agent-mode-*.png`);
    // What the chat showed, for a run whose screenshots are out of reach.
    const shown = await session?.page.locator('.interactive-session').first().innerText({ timeout: 2_000 }).catch(() => '');
    if (shown) t.diagnostic(`the chat showed: ${shown.replace(/\s+/g, ' ').slice(-1_500)}`);
    throw error;
  } finally {
    await closeWorkbench(session, server);
  }
});
