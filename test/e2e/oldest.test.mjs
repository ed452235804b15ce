// The oldest VS Code the extension claims (package.json's engines.vscode),
// as code-server builds it (OLDEST in scripts/vscode-test-env.mjs), installed
// beside the current one (`node scripts/vscode-test-env.mjs --oldest`, which
// npm test runs first). The agent suite runs there whole, with the test
// bundle's VSIX and the fake language model: activation and the extensions'
// states, @zot calling zot tools, an interceptor, an image result, Stop, the
// MCP server definitions with their token and an MCP client, webview panels.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OLDEST } from '../../scripts/vscode-test-env.mjs';
import { agentVsixes, stageAgentFixtures } from './agentFixtures.mjs';
import { checkInnerSuite } from './innerSuite.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

/** @type {string} */
let scratch;
/** @type {string[]} */
let vsixPaths;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-e2e-oldest-'));
  ({ test: vsixPaths } = await agentVsixes(scratch));
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('the oldest VS Code the engine field admits is the one tested', () => {
  /** @type {{ engines: { vscode: string } }} */
  const { engines } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const [major, minor] = OLDEST.vscode.split('.');
  assert.equal(engines.vscode, `^${major}.${minor}.0`);
});

test(`VS Code ${OLDEST.vscode}: chat, zot tools, MCP definitions and panels`, { timeout: 600_000 }, async (t) => {
  const s = await stageAgentFixtures(scratch, 'oldest');
  await checkInnerSuite(t, {
    vsixPaths,
    env: { ZOT_HOME: s.home, ZOT_E2E_REPO: repoRoot, ZOT_E2E_VSCODE: OLDEST.vscode },
    results: path.join(s.root, 'results.json'),
    folder: s.workspace,
    testsEntry: path.join(here, 'oldest', 'suite.cjs'),
    timeoutMs: 300_000,
    oldest: true,
  });
});
