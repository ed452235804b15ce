// The environment installer as a newcomer meets it: run through `npm run`
// (which sets npm_config_user_agent and many npm_* variables naming the outer
// Node) into an empty cache folder. code-server's install script reads
// npm_config_user_agent to check for Node 24, so an inner install that
// inherits the outer npm's variables fails there; this test would catch it.
//
// Installed once: an install under `npm run` into an empty cache leaves a
// receipt (scripts/vscode-test-env.mjs). On a fresh machine that is npm
// test's own first step, and the test reads its receipt and runs what it
// installed; where the cache has no receipt for these builds (filled another
// way), the test installs both into an empty folder, as before, and records
// the receipt for the cache it proved.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { cacheRoot, CODE_SERVER_VERSION, envPaths, innerNpmEnv, installPlan, NODE_MAJOR, OLDEST, oldestPaths, readReceipts, receiptKey, recordReceipts, SYSTEM_PACKAGES } from '../../scripts/vscode-test-env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @type {string} */
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

test('system packages: CONTRIBUTING.md names them all; apt-get installs them as root, otherwise the exact command is printed', () => {
  const readme = readFileSync(path.join(repo, 'CONTRIBUTING.md'), 'utf8');
  const apt = /\(Debian\/Ubuntu `([^`]+)`/.exec(readme);
  assert.ok(apt, 'CONTRIBUTING.md names the Debian packages');
  const named = apt[1].split(' ');
  assert.deepEqual(named.sort(), Object.values(SYSTEM_PACKAGES).flatMap((p) => p.debian.split(' ')).sort());
  const missing = [SYSTEM_PACKAGES.chromium, SYSTEM_PACKAGES.kerberos];
  assert.deepEqual(installPlan(missing, { platform: 'linux', aptGet: true, uid: 0 }).aptGet, ['chromium', 'libkrb5-dev']);
  assert.deepEqual(installPlan([SYSTEM_PACKAGES.wine], { platform: 'linux', aptGet: true, uid: 0 }).aptGet, ['wine', 'wine64'], 'one argument to apt-get per package');
  const user = installPlan(missing, { platform: 'linux', aptGet: true, uid: 1000 });
  assert.equal(user.aptGet, undefined);
  assert.match(user.error, /Install them with: sudo apt-get update && sudo apt-get install -y chromium libkrb5-dev$/);
  assert.match(installPlan(missing, { platform: 'darwin', aptGet: false, uid: 501 }).error ?? '', /Install Chromium or Google Chrome/);
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

/** The two builds npm test installs: the current one and the oldest the extension admits. */
const BUILDS = [{ codeServer: CODE_SERVER_VERSION, nodeMajor: NODE_MAJOR }, { codeServer: OLDEST.codeServer, nodeMajor: OLDEST.nodeMajor }];

/**
 * `code-server --version` on its own Node, in a throwaway home; its last line.
 * @param {string} nodeBin
 * @param {string} codeServerBin
 */
async function codeServerVersion(nodeBin, codeServerBin) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-env-version-'));
  try {
    const xdg = { XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch, XDG_STATE_HOME: scratch };
    const { stdout } = await run(nodeBin, [codeServerBin, '--version'], { ...process.env, ...xdg });
    return stdout.trim().split('\n').at(-1) ?? '';
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs a command in the clone to its end: its exit code, its stdout, and stdout and stderr together.
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, stdout: string, output: string }>}
 */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d) => { stdout += d; output += d; });
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, output }));
  });
}

test('npm run setup:vscode-test -- --oldest installs Node 24 and both code-server builds into an empty cache', { timeout: 15 * 60_000 }, async (t) => {
  const receipts = readReceipts();
  const real = { current: envPaths(), oldest: oldestPaths() };
  const installed = existsSync(real.current.marker) && existsSync(real.oldest.marker);
  if (installed && BUILDS.every((b) => /^npm\//.test(receipts[receiptKey(b)]?.npm ?? ''))) {
    // Installed into an empty cache under npm run already: what it installed runs.
    assert.match(await codeServerVersion(real.current.node24Bin, real.current.codeServerBin), new RegExp(`^${CODE_SERVER_VERSION.replace(/\./g, '\\.')} `));
    assert.match(await codeServerVersion(real.oldest.nodeBin, real.oldest.codeServerBin), new RegExp(`^${OLDEST.codeServer.replace(/\./g, '\\.')} `));
    t.diagnostic(`installed into an empty cache under ${receipts[receiptKey(BUILDS[0])].npm} (${receipts[receiptKey(BUILDS[0])].at}); both builds run`);
    return;
  }
  const env = { ...process.env, ZOT_VSCODE_TEST_CACHE: cache };
  // No browser: this test is about the npm side; the tests that open
  // VS Code check the browser. --oldest as npm test runs it: the oldest
  // build's install script has demands of its own (as root, unsafe-perm).
  const { code, output } = await run('npm', ['run', 'setup:vscode-test', '--', '--no-browser', '--oldest'], env);
  assert.equal(code, 0, `the installer failed under npm run:\n${output.slice(-4000)}`);
  assert.doesNotMatch(output, /requires node v24|We have detected that you are on node/);
  const paths = envPaths(env);
  assert.ok(paths.cacheDir === cache && existsSync(paths.marker), 'the marker of a complete install is in the cache');
  assert.ok(existsSync(paths.codeServerBin), 'code-server is installed');
  const oldest = oldestPaths(env);
  assert.ok(existsSync(oldest.marker) && existsSync(oldest.codeServerBin), `code-server ${OLDEST.codeServer} is installed`);
  assert.match(output, new RegExp(`ready in [0-9.]+ s: code-server ${CODE_SERVER_VERSION.replace(/\./g, '\\.')} and ${OLDEST.codeServer.replace(/\./g, '\\.')}`));
  // The install under npm run left its receipts, naming the outer npm.
  const made = readReceipts(env);
  for (const b of BUILDS) assert.match(made[receiptKey(b)]?.npm ?? '', /^npm\//, `a receipt for ${receiptKey(b)}: ${JSON.stringify(made)}`);
  // Proved for these builds: the machine's own cache need not be proved again.
  if (installed) await recordReceipts(BUILDS, made[receiptKey(BUILDS[0])].npm);
});
