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
import { readFileSync } from 'node:fs';
import { cacheRoot, CODE_SERVER_VERSION, envPaths, innerNpmEnv, installPlan, OLDEST, oldestPaths, SYSTEM_PACKAGES } from '../../scripts/vscode-test-env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let cache;

before(async () => {
  cache = await mkdtemp(path.join(os.tmpdir(), 'zot-env-cache-'));
});
after(async () => {
  await rm(cache, { recursive: true, force: true });
});

test('the cache folder: $ZOT_VSCODE_TEST_CACHE, else $XDG_CACHE_HOME/zot-extensions, else the user cache folder', () => {
  assert.equal(cacheRoot({ ZOT_VSCODE_TEST_CACHE: '/tmp/c', XDG_CACHE_HOME: '/x' }), '/tmp/c');
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/x' }), '/x/zot-extensions');
  const user = process.platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches', 'zot-extensions') : path.join(os.homedir(), '.cache', 'zot-extensions');
  assert.equal(cacheRoot({}), user);
  assert.ok(!cacheRoot({}).startsWith(repo), 'outside the clone');
});

test('system packages: the README names them all; apt-get installs them as root, otherwise the exact command is printed', () => {
  const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
  const named = /\(Debian\/Ubuntu `([^`]+)`/.exec(readme)[1].split(' ');
  assert.deepEqual(named.sort(), Object.values(SYSTEM_PACKAGES).map((p) => p.debian).sort());
  const missing = [SYSTEM_PACKAGES.chromium, SYSTEM_PACKAGES.kerberos];
  assert.deepEqual(installPlan(missing, { platform: 'linux', aptGet: true, uid: 0 }).aptGet, ['chromium', 'libkrb5-dev']);
  const user = installPlan(missing, { platform: 'linux', aptGet: true, uid: 1000 });
  assert.equal(user.aptGet, undefined);
  assert.match(user.error, /Install them with: sudo apt-get update && sudo apt-get install -y chromium libkrb5-dev$/);
  assert.match(installPlan(missing, { platform: 'darwin', aptGet: false, uid: 501 }).error, /Install Chromium or Google Chrome/);
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

test('npm run setup:vscode-test -- --oldest installs Node 24 and both code-server builds into an empty cache', { timeout: 15 * 60_000 }, async () => {
  const env = { ...process.env, ZOT_VSCODE_TEST_CACHE: cache };
  const { code, output } = await new Promise((resolve, reject) => {
    // No browser: this test is about the npm side; the tests that open
    // VS Code check the browser. --oldest as npm test runs it: the oldest
    // build's install script has demands of its own (as root, unsafe-perm).
    const child = spawn('npm', ['run', 'setup:vscode-test', '--', '--no-browser', '--oldest'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const oldest = oldestPaths(env);
  assert.ok(existsSync(oldest.marker) && existsSync(oldest.codeServerBin), `code-server ${OLDEST.codeServer} is installed`);
  assert.match(output, new RegExp(`ready in [0-9.]+ s: code-server ${CODE_SERVER_VERSION.replace(/\./g, '\\.')} and ${OLDEST.codeServer.replace(/\./g, '\\.')}`));
});
