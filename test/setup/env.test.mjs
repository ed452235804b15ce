// The environment installer as a newcomer meets it: run through `npm run`
// (which sets npm_config_user_agent and many npm_* variables naming the outer
// Node) into an empty cache folder. code-server's install script reads
// npm_config_user_agent to check for Node 24, so an inner install that
// inherits the outer npm's variables fails there; this test would catch it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CODE_SERVER_VERSION, envPaths, innerNpmEnv } from '../../scripts/vscode-test-env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let cache;

before(async () => {
  cache = await mkdtemp(path.join(os.tmpdir(), 'zot-env-cache-'));
});
after(async () => {
  await rm(cache, { recursive: true, force: true });
});

test('innerNpmEnv drops what an outer npm run set and keeps the rest', () => {
  const outer = {
    PATH: '/bin',
    HOME: '/home/u',
    npm_config_user_agent: 'npm/11.0.0 node/v20.20.2 linux x64',
    npm_config_nodedir: '/usr',
    NPM_CONFIG_PREFIX: '/elsewhere',
    npm_lifecycle_event: 'test',
    npm_package_name: 'zot-extensions',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    INIT_CWD: '/work',
    NODE: '/usr/bin/node',
  };
  assert.deepEqual(innerNpmEnv({ npm_config_nodedir: '/n24' }, outer), { PATH: '/bin', HOME: '/home/u', npm_config_nodedir: '/n24' });
});

test('npm run setup:vscode-test installs Node 24 and code-server into an empty cache', { timeout: 15 * 60_000 }, async () => {
  const env = { ...process.env, ZOT_VSCODE_TEST_CACHE: cache };
  const { code, output } = await new Promise((resolve, reject) => {
    // No browser: this test is about the npm side; the tests that open
    // VS Code check the browser.
    const child = spawn('npm', ['run', 'setup:vscode-test', '--', '--no-browser'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
  assert.equal(code, 0, `the installer failed under npm run:\n${output.slice(-4000)}`);
  assert.doesNotMatch(output, /requires node v24|We have detected that you are on node/);
  const paths = envPaths(env);
  assert.ok(paths.cacheDir === cache && existsSync(paths.marker), 'the marker of a complete install is in the cache');
  assert.ok(existsSync(paths.codeServerBin), 'code-server is installed');
  assert.match(output, new RegExp(`ready in [0-9.]+ s: code-server ${CODE_SERVER_VERSION.replace(/\./g, '\\.')}`));
});
