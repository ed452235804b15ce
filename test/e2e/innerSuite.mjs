// The outer half of an e2e file whose checks run inside VS Code's extension
// host: start code-server with the VSIXes, run the inner suite (a file built
// on vscode/suite/runner.cjs), read the results it wrote to $ZOT_E2E_RESULTS
// and assert that every one passed. Each e2e file keeps its own fixtures and
// any checks of its own after this.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runExtensionTests, startCodeServer } from './harness.mjs';
import { failureScreenshot } from './workbenchUi.mjs';

/**
 * One result the inner suite wrote (vscode/suite/runner.cjs); `error` with a failure.
 * @typedef {{ name: string, ok: boolean, ms: number, error?: string }} InnerResult
 */

/**
 * Runs `testsEntry` in a fresh code-server and returns the run (`exitCode`,
 * browser console `logs`) with the results the suite wrote to `results`
 * (an empty list when it wrote none), and the server, stopped (for
 * leftoversOf). `env` is the server's environment; ZOT_E2E_RESULTS is set to
 * `results`; `onPage` drives the page while the suite runs (runExtensionTests).
 * @param {import('node:test').TestContext} t
 * @param {{ vsixPaths: string[], env?: Record<string, string>, settings?: Record<string, unknown>, results: string, folder?: string,
 *   testsEntry: string, trusted?: boolean, timeoutMs?: number, globalState?: Record<string, string>, oldest?: boolean,
 *   onPage?: (page: import('playwright-core').Page) => Promise<void> }} options
 */
export async function runInnerSuite(t, { vsixPaths, env = {}, settings, results, folder, testsEntry, trusted = true, timeoutMs, globalState, oldest, onPage }) {
  const started = Date.now();
  const server = await startCodeServer({ vsixPaths, env: { ...env, ZOT_E2E_RESULTS: results }, settings, oldest, testsEntry });
  t.diagnostic(`code-server up after ${Date.now() - started} ms`);
  let run;
  try {
    run = await runExtensionTests({ server, folder, testsEntry, trusted, timeoutMs, globalState, onPage });
  } finally {
    await server.stop();
  }
  return { run, outcome: takeResults(t, results, started), server };
}

/**
 * The results a suite wrote to `results`, read and removed (the next window on
 * the same server writes there too); reports how long the window took beyond them.
 * @param {import('node:test').TestContext} t
 * @param {string} results
 * @param {number} started
 * @returns {InnerResult[]}
 */
function takeResults(t, results, started) {
  const took = Date.now() - started;
  t.diagnostic(`suite and shutdown done after ${took} ms`);
  /** @type {InnerResult[]} */
  const outcome = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : [];
  rmSync(results, { force: true });
  const tests = outcome.reduce((sum, r) => sum + r.ms, 0);
  // What the window costs beyond its tests: server and browser start, workbench, extension host, shutdown.
  t.diagnostic(`inner tests ${tests} ms; the window's own start and end ${took - tests} ms`);
  return outcome;
}

/**
 * checkInnerSuite in a new window on a running server (several suites of one
 * file, one server start for all), whose environment set ZOT_E2E_RESULTS to
 * `results`. The server keeps running.
 * @param {import('node:test').TestContext} t
 * @param {import('./harness.mjs').CodeServer} server
 * @param {{ results: string, folder?: string, testsEntry: string, trusted?: boolean, timeoutMs?: number }} options
 */
export async function checkInnerSuiteOn(t, server, { results, folder, testsEntry, trusted = true, timeoutMs }) {
  const started = Date.now();
  const run = await runExtensionTests({ server, folder, testsEntry, trusted, timeoutMs });
  const done = { run, outcome: takeResults(t, results, started) };
  assertInnerSuitePassed(t, done);
  return done;
}

/**
 * Reports each inner result as a diagnostic, then asserts that there were
 * results, that none failed and that the extension host exited 0; a failure
 * shows the last `logLines` lines of the browser console.
 * @param {import('node:test').TestContext} t
 * @param {{ run: { exitCode: number, logs: string[] }, outcome: InnerResult[] }} done
 * @param {{ logLines?: number }} [options]
 */
export function assertInnerSuitePassed(t, { run, outcome }, { logLines = 60 } = {}) {
  for (const r of outcome) t.diagnostic(`${r.ok ? 'ok' : 'FAILED'} - ${r.name} (${r.ms} ms)${r.ok ? '' : `\n${r.error}`}`);
  const failure = () => `exit ${run.exitCode}; console (last ${logLines} lines):\n${run.logs.slice(-logLines).join('\n')}`;
  assert.ok(outcome.length > 0, `no results\n${failure()}`);
  assert.deepEqual(outcome.filter((r) => !r.ok).map((r) => `${r.name}: ${r.error?.split('\n').slice(0, 12).join('\n')}`), [], failure());
  assert.equal(run.exitCode, 0, failure());
}

/**
 * runInnerSuite, then assertInnerSuitePassed.
 * @param {import('node:test').TestContext} t
 * @param {Parameters<typeof runInnerSuite>[1]} options
 * @param {{ logLines?: number }} [more]
 */
export async function checkInnerSuite(t, options, { logLines } = {}) {
  const done = await runInnerSuite(t, options);
  assertInnerSuitePassed(t, done, { logLines });
  return done;
}

/**
 * A file's real-UI checks in the window its extension-host suite runs in (a
 * window costs seconds): once the workbench is up, `drive` runs as the subtest
 * `name` (a failure screenshot named `shot`) while the suite waits in its
 * first test (uiPartEnded of vscode/suite/runner.cjs), which goes on when the
 * UI part ended, whatever it found. Gives the server's environment for it, and
 * the window's onPage.
 * @param {import('node:test').TestContext} t
 * @param {{ name: string, scratch: string, shot: string, drive: (t: import('node:test').TestContext, page: import('playwright-core').Page) => Promise<void> }} part
 */
export function uiFirst(t, { name, scratch, shot, drive }) {
  const done = path.join(scratch, 'ui-done');
  return {
    env: { ZOT_E2E_UI_DONE: done },
    /** @param {import('playwright-core').Page} page */
    onPage: async (page) => {
      try {
        // The workbench is up once the explorer shows the remote folder (as openWorkbench waits).
        await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });
        await t.test(name, async (ui) => {
          try {
            await drive(ui, page);
          } catch (error) {
            await failureScreenshot(ui, { page }, shot);
            throw error;
          }
        });
      } finally {
        writeFileSync(done, '');
      }
    },
  };
}
