// VS Code's own agent mode in a real VS Code (code-server + headless
// Chromium), following VSCODE-TESTING.md ("VS Code's own agent mode"): the
// built-in Copilot Chat drives the scripted fake model (test/e2e/fake-lm),
// and the zot tools and commands come from this extension's MCP server
// definition. The tests run in the extension host (test/e2e/agent-mode/suite.cjs).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runExtensionTests, startCodeServer } from './harness.mjs';
import { testBundleVsix, testExtensionVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let scratch;
let vsixPaths;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-agent-mode-'));
  vsixPaths = [await testBundleVsix(scratch), testExtensionVsix(path.join(here, 'fake-lm'), path.join(scratch, 'fake-lm.vsix'))];
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('agent mode: the zot tools through the MCP server, an interactive tool, and Stop', { timeout: 420_000 }, async (t) => {
  const root = await mkdtemp(path.join(scratch, 'run-'));
  await cp(path.join(here, 'agent', 'fixtures'), path.join(root, 'fixtures'), { recursive: true });
  const workspace = path.join(root, 'workspace');
  const userHome = path.join(root, 'user-home');
  await mkdir(workspace);
  await mkdir(userHome);
  const results = path.join(root, 'results.json');
  const server = await startCodeServer({
    vsixPaths,
    // Copilot Chat writes ~/.copilot: keep it in the run's folder.
    env: { ZOT_HOME: path.join(root, 'fixtures', 'home'), ZOT_E2E_RESULTS: results, HOME: userHome },
    settings: { 'chat.tools.global.autoApprove': true },
  });
  let run;
  try {
    run = await runExtensionTests({
      server,
      folder: workspace,
      testsEntry: path.join(here, 'agent-mode', 'suite.cjs'),
      trusted: true,
      timeoutMs: 360_000,
      // On a fresh profile the workbench switches the built-in chat extension off unless this is set.
      globalState: { builtinChatExtensionEnablementMigration: 'true' },
    });
  } finally {
    await server.stop();
  }
  const outcome = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : [];
  for (const r of outcome) t.diagnostic(`${r.ok ? 'ok' : 'FAILED'} - ${r.name} (${r.ms} ms)${r.ok ? '' : `\n${r.error}`}`);
  const failure = () => `exit ${run.exitCode}; console (last 80 lines):\n${run.logs.slice(-80).join('\n')}`;
  assert.ok(outcome.length > 0, `no results\n${failure()}`);
  assert.deepEqual(outcome.filter((r) => !r.ok).map((r) => r.name), [], failure());
  assert.equal(run.exitCode, 0, failure());
});
