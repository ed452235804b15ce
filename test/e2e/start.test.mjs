// `npm start` as a person uses it: run it, open the address it prints in a
// browser, log in with the password it prints, see the Zot view with the
// samples running; then Ctrl-C, and nothing it started may be left.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RESULTS, SIZE_MARGIN, sizeDrift } from '../../scripts/readme-perf.mjs';
import { isInside, launchBrowser, liveProcesses } from './harness.mjs';
import { extensionVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
/** @type {string} */
let scratch;
/** @type {string} */
let vsix;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-start-'));
  vsix = await extensionVsix(scratch);
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test(`the VSIX a user installs, built now, is within ${SIZE_MARGIN * 100}% of the size docs/PERFORMANCE.md gives from bench/results.json`, () => {
  /** @type {import('../../scripts/readme-perf.mjs').BenchDoc} */
  const doc = JSON.parse(readFileSync(RESULTS, 'utf8'));
  assert.equal(sizeDrift(path.basename(vsix), statSync(vsix).size / 1024, doc, 'vsix_kb'), null);
});

/**
 * Processes whose command line or working directory is inside `dir`.
 * @param {string} dir
 */
function processesIn(dir) {
  return liveProcesses()
    .filter(({ cmdline, cwd }) => cmdline.includes(dir) || isInside(cwd, dir))
    .map(({ pid, cmdline, cwd }) => `${pid} ${cmdline} (cwd ${cwd})`);
}

test('npm start: the printed address shows the Zot view with the samples; Ctrl-C leaves nothing running', { timeout: 300_000 }, async (t) => {
  const demoDir = path.join(scratch, 'demo');
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'start.mjs'), '--port', '0', '--vsix', vsix, '--dir', demoDir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let session;
  try {
    const deadline = Date.now() + 120_000;
    while (!/Password:\s+\S+/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const url = /Open:\s+(\S+)/.exec(out)?.[1];
    const password = /Password:\s+(\S+)/.exec(out)?.[1];
    assert.ok(url, `npm start printed no address:\n${out}`);
    assert.ok(password, `npm start printed no password:\n${out}`);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?folder=/, 'loopback only');
    const folder = new URL(url).searchParams.get('folder');
    assert.ok(folder, 'the address names a folder');
    assert.ok(existsSync(path.join(folder, 'WELCOME.md')), 'the demo workspace has WELCOME.md');
    t.diagnostic(`npm start printed ${url}`);

    session = await launchBrowser();
    const { page } = session;
    await page.goto(url);
    // code-server's own login: nobody gets in without the password.
    await page.locator('input[type="password"]').fill(password);
    await page.keyboard.press('Enter');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The demo asks whether to trust the workspace; trusting it lets the project-local sample ask for consent.
    const trust = page.getByRole('button', { name: /Yes, I trust the authors/ });
    if (await trust.waitFor({ timeout: 15_000 }).then(() => true, () => false)) await trust.click();

    await page.locator('.activitybar [aria-label^="Zot"]').first().click();
    const row = (/** @type {string} */ name, /** @type {string} */ state) => page.locator('.pane-body .monaco-list-row').filter({ hasText: new RegExp(`${name}\\s*${state}`) }).first();
    await row('ask-user', 'ready').waitFor({ timeout: 60_000 });
    await row('todo', 'ready').waitFor({ timeout: 30_000 });
    await page.locator('.pane-body .monaco-list-row').filter({ hasText: 'word-count' }).first().waitFor({ timeout: 30_000 });
    t.diagnostic('the Zot view lists ask-user and todo as ready, and word-count');
  } finally {
    await session?.close();
    child.kill('SIGINT');
  }
  const { code } = await exited;
  assert.equal(code, 0, out);
  assert.match(out, /stopped; nothing is left running/);
  assert.deepEqual(processesIn(demoDir), [], 'no process of the demo is left');
});
