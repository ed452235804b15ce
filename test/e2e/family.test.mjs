// terva's status segments and secrets in a real VS Code (code-server +
// headless Chromium), with the test bundle's VSIX and the fixture extension
// test/e2e/family/fixtures/home/extensions/family. The checks through the
// API run in the extension host (family/suite.cjs); this file also looks at
// the page: the status bar item shows the extension's `$(zap)` as text, with
// no codicon drawn.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isInside, liveProcesses, runExtensionTests, startCodeServer } from './harness.mjs';
import { assertInnerSuitePassed } from './innerSuite.mjs';
import { testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {string} */
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-family-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('status segments as status bar items, and secrets in SecretStorage', { timeout: 600_000 }, async (t) => {
  const vsixPaths = [await testBundleVsix(scratch)];
  await cp(path.join(here, 'family', 'fixtures'), path.join(scratch, 'fixtures'), { recursive: true });
  const workspace = path.join(scratch, 'workspace');
  await mkdir(workspace);
  const results = path.join(scratch, 'results.json');
  const domSeen = `${results}.dom.json`;
  const testsEntry = path.join(here, 'family', 'suite.cjs');
  const server = await startCodeServer({
    vsixPaths,
    env: { ZOT_HOME: path.join(scratch, 'fixtures', 'home'), ZOT_E2E_RESULTS: results },
    settings: { 'zot.trace': 'verbose' },
    testsEntry,
  });
  let run;
  try {
    run = await runExtensionTests({
      server, folder: workspace, testsEntry, timeoutMs: 300_000,
      // The item as the browser draws it, once both segments show: its text, and how many icons it holds.
      onPage: async (page) => {
        const item = page.locator('.statusbar-item[aria-label^="zot: family:"]').filter({ hasText: 'synced' }).first();
        await item.waitFor({ timeout: 120_000 });
        const seen = await item.evaluate((el) => ({ text: el.textContent.trim(), icons: el.querySelectorAll('.codicon').length, label: el.getAttribute('aria-label') }));
        writeFileSync(domSeen, JSON.stringify(seen));
      },
    });
  } finally {
    await server.stop();
  }
  /** @type {import('./innerSuite.mjs').InnerResult[]} */
  const outcome = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : [];
  assertInnerSuitePassed(t, { run, outcome });
  /** @type {unknown} */
  const dom = JSON.parse(readFileSync(domSeen, 'utf8'));
  assert.deepEqual(dom, { text: '$(zap) 3 open · synced', icons: 0, label: 'zot: family: $(zap) 3 open · synced' });
  assert.deepEqual(liveProcesses().filter(({ cwd }) => isInside(cwd, scratch)), [], 'no extension process left');
});
