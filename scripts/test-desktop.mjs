#!/usr/bin/env node
// The chat, MCP and panel suite in a desktop VS Code, for contributors whose
// machine can download one: @vscode/test-electron fetches VS Code and runs
// test/e2e/agent/suite.cjs in its extension host, with the test bundle of
// this extension (built here into a staged copy: its activate() returns the
// test API the suite reads) and the fake language model as development
// extensions.
//
//   npm run build && node scripts/test-desktop.mjs
//
// CI and these machines cannot download VS Code; there the same suite runs
// in code-server (test/e2e/agent.test.mjs, part of npm test).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-desktop-'));
const fixtures = path.join(scratch, 'fixtures');
cpSync(path.join(repo, 'test', 'e2e', 'agent', 'fixtures'), fixtures, { recursive: true });
const workspace = path.join(scratch, 'workspace');
mkdirSync(workspace);
// The extension as the VSIX lays it out, with the test bundle's dist/.
const extension = path.join(scratch, 'extension');
for (const entry of ['package.json', 'media', 'samples', 'README.md', 'LICENSE']) cpSync(path.join(repo, entry), path.join(extension, entry), { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', '--test-instruments', '--outdir', path.join(extension, 'dist')], { cwd: repo, stdio: 'inherit' });

try {
  await runTests({
    extensionDevelopmentPath: [extension, path.join(repo, 'test', 'e2e', 'fake-lm')],
    extensionTestsPath: path.join(repo, 'test', 'e2e', 'agent', 'suite.cjs'),
    launchArgs: [workspace, '--disable-workspace-trust'],
    extensionTestsEnv: { ZOT_HOME: path.join(fixtures, 'home'), ZOT_E2E_REPO: repo },
  });
} catch (err) {
  process.stderr.write(`desktop VS Code tests failed: ${err.message ?? err}\n`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
